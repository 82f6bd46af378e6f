"""The postmortems of pmsecond's blind reading of pm30 (README.md, "The held-out postmortem judges pm29 and pm30
(pmsecond)"): no draw, every report of bench/held_out_postmortems.tsv's "# pm30" block at DRAWN_AT (main when the
reading began: pm30's batches 1-2, 9 reports), in the block's order; --extension: the block's reports at EXTENDED_AT (the
batches landed by 18:55 UTC) that the first part did not hold.

    python3 eval/second-annotation/sample_thirtieth_second.py [--extension] [--record | --check]
"""

import sys

from sample_twentyninth_second import rows
from sample_twentyseventh_second import cli, recorded

DRAWN_AT = "69145dc5"  # main at 18:16 UTC: pm30's batches 1 and 2 (9 reports); the collector still landing
TSV = "drawn-thirtieth-second.tsv"
BLOCK = "# pm30"
EXTENDED_AT = "57fb2105"  # main at 18:40 UTC: pm30's batches 3-4 (SimpleLogin, Octopus Deploy; Haiku, Arkency, brettinternet, girtby)
EXTENSION_TSV = "drawn-thirtieth-second-extension.tsv"


def extension(
    drawn_at: str = DRAWN_AT, extended_at: str = EXTENDED_AT, heading: str = BLOCK
) -> list[tuple[str, str, str, str]]:
    """The block's reports at `extended_at` that the first part (`drawn_at`) did not hold, in the block's order (pm30's
    by default; sample_thirtyfirst_second.py reads pm31's the same way)."""
    first = {row[1] for row in rows(drawn_at, heading)}
    return [row for row in rows(extended_at, heading) if row[1] not in first]


__all__ = ["EXTENSION_TSV", "TSV", "extension", "recorded"]

if __name__ == "__main__":
    if "--extension" in sys.argv:
        cli(extension(), EXTENSION_TSV, f"the pm30 block's new reports at {EXTENDED_AT}")
    else:
        cli(rows(DRAWN_AT, BLOCK), TSV, f"the pm30 block at {DRAWN_AT}")
