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


def main(drawn_at: str, extended_at: str, heading: str, tsv: str, extension_tsv: str) -> None:
    """A postmortem block's sampler command (pm30's, pm32's): --extension the reports added by `extended_at`, else the
    block at `drawn_at`; --record / --check as cli has them."""
    name = heading.removeprefix("# ")
    if "--extension" in sys.argv:
        cli(
            extension(drawn_at, extended_at, heading), extension_tsv, f"the {name} block's new reports at {extended_at}"
        )
    else:
        cli(rows(drawn_at, heading), tsv, f"the {name} block at {drawn_at}")


__all__ = ["EXTENSION_TSV", "TSV", "extension", "main", "recorded"]

if __name__ == "__main__":
    main(DRAWN_AT, EXTENDED_AT, BLOCK, TSV, EXTENSION_TSV)
