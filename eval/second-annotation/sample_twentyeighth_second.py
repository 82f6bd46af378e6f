"""The postmortems of pm28second's blind reading (README.md, "The held-out postmortem judge pm28 (pm28second)"): no
draw, every report of bench/held_out_postmortems.tsv's "# pm28" block at DRAWN_AT (main when the reading began, pm28's
batch 5, "pm28 final"), in the block's order: 18 reports, small enough to read whole before the attempts rule it judges.

    python3 eval/second-annotation/sample_twentyeighth_second.py [--record | --check]
"""

import sys

from sample_twentyseventh_second import block, recorded

DRAWN_AT = "f3323e51"  # main at 15:35 UTC: pm28's five batches, its last ("pm28 final: 18 reports")
TSV = "drawn-twentyeighth-second.tsv"
BLOCK = "# pm28"


def rows(commit: str = DRAWN_AT) -> list[tuple[str, str, str, str]]:
    """The "# pm28" block's reports as (corpus, file, fold, commit) rows."""
    return block(commit, BLOCK, "bench/held_out_postmortems.tsv", "postmortems")


if __name__ == "__main__":
    drawn = rows()
    if "--check" in sys.argv:
        sys.exit(0 if drawn == recorded(TSV) else f"{TSV} differs from the pm28 block at {DRAWN_AT}")
    for row in drawn:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[1])
