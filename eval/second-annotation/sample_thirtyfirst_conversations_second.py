"""The threads of c31second's blind reading (README.md, "The thirty-first collection (c31second)"): no draw, every
thread of bench/held_out.tsv's "# c31" block at DRAWN_AT (main when the reading began: c31's batches 1-2, 8 threads), in
the block's order; the extension (--extension) is every thread the block holds at EXTENDED_AT (main after the batches
c31 landed later) that the first reading did not hold (read as c30's sampler reads its block).

    python3 eval/second-annotation/sample_thirtyfirst_conversations_second.py [--extension] [--record | --check]
"""

import sys

from sample_twentyninth_conversations_second import rows as block_rows
from sample_twentyseventh_second import cli

DRAWN_AT = "b898c2a2"  # main at 00:30 UTC: c31's batches 1-2 (05c8ee62, b898c2a2), "4 conversations" each
EXTENDED_AT = "4f76af4e"  # main at 00:52 UTC: c31's batches 3-6 (bf1c53c2 … 4f76af4e), 18 threads
TSV = "drawn-thirtyfirst-conversations-second.tsv"
EXTENSION_TSV = "drawn-thirtyfirst-conversations-second-extension.tsv"
BLOCK = "# c31"


def rows(extended: bool = False) -> list[tuple[str, str, str, str]]:
    """The "# c31" block's threads as (corpus, file, fold, commit) rows: at DRAWN_AT, or (True) those added by
    EXTENDED_AT."""
    return block_rows(extended, DRAWN_AT, EXTENDED_AT, BLOCK)


if __name__ == "__main__":
    extended = "--extension" in sys.argv
    where = f"the c31 block's additions at {EXTENDED_AT}" if extended else f"the c31 block at {DRAWN_AT}"
    cli(rows(extended), EXTENSION_TSV if extended else TSV, where)
