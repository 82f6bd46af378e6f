"""The postmortems of pm31second's blind reading of pm31 (README.md, "The held-out postmortem judge pm31 (pm31second)"):
no draw, every report of bench/held_out_postmortems.tsv's "# pm31" block at DRAWN_AT (main when the reading began:
pm31's batches 1-2, 8 reports), in the block's order; --extension: the block's reports at EXTENDED_AT (the batches
landed later) that the first part did not hold.

    python3 eval/second-annotation/sample_thirtyfirst_second.py [--extension] [--record | --check]
"""

import sys

from sample_thirtieth_second import extension as later_reports
from sample_twentyninth_second import rows
from sample_twentyseventh_second import cli, recorded

DRAWN_AT = "c57eaabd"  # main at 20:25 UTC: pm31's batches 1 and 2 (8 reports); the collector still landing
TSV = "drawn-thirtyfirst-second.tsv"
BLOCK = "# pm31"
EXTENDED_AT = "b1033cae"  # main at 20:43 UTC: pm31's batches 3-5 (dicelette, HackerEarth, ibizaman, ketansingh, …)
EXTENSION_TSV = "drawn-thirtyfirst-second-extension.tsv"


def extension() -> list[tuple[str, str, str, str]]:
    """The pm31 block's reports at EXTENDED_AT that the first part (DRAWN_AT) did not hold, in the block's order."""
    return later_reports(DRAWN_AT, EXTENDED_AT, BLOCK)


__all__ = ["EXTENSION_TSV", "TSV", "extension", "recorded"]

if __name__ == "__main__":
    if "--extension" in sys.argv:
        cli(extension(), EXTENSION_TSV, f"the pm31 block's new reports at {EXTENDED_AT}")
    else:
        cli(rows(DRAWN_AT, BLOCK), TSV, f"the pm31 block at {DRAWN_AT}")
