"""The postmortems of pmsecond's blind reading (README.md, "The held-out postmortem judges pm29 and pm30 (pmsecond)"):
no draw, every report of bench/held_out_postmortems.tsv's "# pm29" block at DRAWN_AT (main when the reading began:
pm29 whole, 8 reports), in the block's order; small enough to read whole before the rule it judges.

    python3 eval/second-annotation/sample_twentyninth_second.py [--record | --check]
"""

from sample_twentyseventh_second import block, cli, recorded

DRAWN_AT = "69145dc5"  # main at 18:16 UTC: pm29's three batches (8 reports, "pm29 now 8 reports"), pm30's first two
TSV = "drawn-twentyninth-second.tsv"
BLOCK = "# pm29"


def rows(commit: str = DRAWN_AT, heading: str = BLOCK) -> list[tuple[str, str, str, str]]:
    """A block of bench/held_out_postmortems.tsv (pm29's by default) as (corpus, file, fold, commit) rows."""
    return block(commit, heading, "bench/held_out_postmortems.tsv", "postmortems")


__all__ = ["TSV", "recorded", "rows"]

if __name__ == "__main__":
    cli(rows(), TSV, f"the pm29 block at {DRAWN_AT}")
