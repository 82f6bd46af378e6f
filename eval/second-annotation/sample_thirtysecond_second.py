"""The postmortems of pm32second's blind reading of pm32 (README.md, "The held-out postmortem judge pm32 (pm32second)"):
no draw, every report of bench/held_out_postmortems.tsv's "# pm32" block at DRAWN_AT (main when the reading began:
pm32's batch 1, 3 reports), in the block's order; --extension: the block's reports at EXTENDED_AT (the batches landed
later) that the first part did not hold.

    python3 eval/second-annotation/sample_thirtysecond_second.py [--extension] [--record | --check]
"""

import sys

from sample_thirtieth_second import extension as later_reports
from sample_twentyninth_second import rows
from sample_twentyseventh_second import cli, recorded

DRAWN_AT = "099dde93"  # main at 23:24 UTC: pm32's batch 1 (3 reports); the collector still landing
TSV = "drawn-thirtysecond-second.tsv"
BLOCK = "# pm32"
EXTENDED_AT = ""  # main when the later batches had landed (set with the extension)
EXTENSION_TSV = "drawn-thirtysecond-second-extension.tsv"


def extension() -> list[tuple[str, str, str, str]]:
    """The pm32 block's reports at EXTENDED_AT that the first part (DRAWN_AT) did not hold, in the block's order."""
    return later_reports(DRAWN_AT, EXTENDED_AT, BLOCK)


__all__ = ["EXTENSION_TSV", "TSV", "extension", "recorded"]

if __name__ == "__main__":
    if "--extension" in sys.argv:
        cli(extension(), EXTENSION_TSV, f"the pm32 block's new reports at {EXTENDED_AT}")
    else:
        cli(rows(DRAWN_AT, BLOCK), TSV, f"the pm32 block at {DRAWN_AT}")
