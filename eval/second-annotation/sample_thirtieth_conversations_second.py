"""The threads of c30second's blind reading (README.md, "The thirtieth collection (c30second)"): no draw, every thread
of bench/held_out.tsv's "# c30" block at DRAWN_AT (main when the reading began: c30's batches 1-5, 23 threads), in the
block's order; the extension (--extension) is every thread the block holds at EXTENDED_AT (main after the batches c30
landed by the brief's cut) that the first reading did not hold, in the block's order.

    python3 eval/second-annotation/sample_thirtieth_conversations_second.py [--extension] [--record | --check]
"""

import sys

from sample_twentyninth_conversations_second import rows as block_rows
from sample_twentyseventh_second import cli

DRAWN_AT = "a94b4eb0"  # main at 20:48 UTC: c30's batches 1-5 (85caed1c … 98ea78d1), "23 threads"
EXTENDED_AT = "57600fca"  # main at 21:04 UTC: c30's batches 6-8 (20:48, 20:56, 21:03), "37 threads"
TSV = "drawn-thirtieth-conversations-second.tsv"
EXTENSION_TSV = "drawn-thirtieth-conversations-second-extension.tsv"
BLOCK = "# c30"


def rows(extended: bool = False) -> list[tuple[str, str, str, str]]:
    """The "# c30" block's threads as (corpus, file, fold, commit) rows: at DRAWN_AT, or (True) those added by
    EXTENDED_AT (c29's reading of its block, given c30's)."""
    return block_rows(extended, DRAWN_AT, EXTENDED_AT, BLOCK)


if __name__ == "__main__":
    extended = "--extension" in sys.argv
    where = f"the c30 block's additions at {EXTENDED_AT}" if extended else f"the c30 block at {DRAWN_AT}"
    cli(rows(extended), EXTENSION_TSV if extended else TSV, where)
