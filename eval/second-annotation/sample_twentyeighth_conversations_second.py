"""The threads of c28second's blind reading (README.md, "The twenty-eighth collection (c28second)"): no draw, every
thread of bench/held_out.tsv's "# c28" block at DRAWN_AT (main when the reading began, after c28more's last batch,
"38 conversations"), in the block's order: 38 threads, small enough to read whole before the attempts rule it judges.

    python3 eval/second-annotation/sample_twentyeighth_conversations_second.py [--record | --check]
"""

from sample_twentyseventh_second import block, cli

DRAWN_AT = "03a9393d"  # main at 16:27 UTC: c28's fourteen batches (c28 and c28more), the last "38 conversations"
TSV = "drawn-twentyeighth-conversations-second.tsv"
BLOCK = "# c28"


def rows(commit: str = DRAWN_AT) -> list[tuple[str, str, str, str]]:
    """The "# c28" block's threads as (corpus, file, fold, commit) rows."""
    return block(commit, BLOCK)


if __name__ == "__main__":
    cli(rows(), TSV, f"the c28 block at {DRAWN_AT}")
