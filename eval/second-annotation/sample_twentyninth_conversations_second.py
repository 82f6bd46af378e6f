"""The threads of c29second's blind reading (README.md, "The twenty-ninth collection (c29second)"): no draw, every
thread of bench/held_out.tsv's "# c29" block at DRAWN_AT (main when the reading began: c29's batches 1 and 2, 17
threads), in the block's order; the extension (--extension) is every thread the block holds at EXTENDED_AT (main after
the batches c29 landed by 19:05 UTC) that the first reading did not hold, in the block's order.

    python3 eval/second-annotation/sample_twentyninth_conversations_second.py [--extension] [--record | --check]
"""

import sys

from sample_twentyseventh_second import block, cli

DRAWN_AT = "01c602ca"  # main at 18:25 UTC: c29's batches 1 and 2 (13678bc4, 008b0736), "17 threads"
EXTENDED_AT = "78486cda"  # main at 19:05 UTC: c29's batches 3-6 (the last, batch 6, at 18:35), 23 threads in all
TSV = "drawn-twentyninth-conversations-second.tsv"
EXTENSION_TSV = "drawn-twentyninth-conversations-second-extension.tsv"
BLOCK = "# c29"


def rows(
    extended: bool = False, drawn_at: str = DRAWN_AT, extended_at: str = EXTENDED_AT, heading: str = BLOCK
) -> list[tuple[str, str, str, str]]:
    """A block's threads as (corpus, file, fold, commit) rows (c29's by default; sample_thirtieth_conversations_second.py
    reads c30's the same way): at `drawn_at`, or (True) those added by `extended_at`."""
    first = block(drawn_at, heading)
    if not extended:
        return first
    read = {file for _corpus, file, _fold, _commit in first}
    return [row for row in block(extended_at, heading) if row[1] not in read]


if __name__ == "__main__":
    extended = "--extension" in sys.argv
    where = f"the c29 block's additions at {EXTENDED_AT}" if extended else f"the c29 block at {DRAWN_AT}"
    cli(rows(extended), EXTENSION_TSV if extended else TSV, where)
