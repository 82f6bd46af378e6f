"""The postmortems of pmsecond's blind reading of pm30 (README.md, "The held-out postmortem judges pm29 and pm30
(pmsecond)"): no draw, every report of bench/held_out_postmortems.tsv's "# pm30" block at DRAWN_AT (main when the
reading began: pm30's batches 1-2, 9 reports), in the block's order.

    python3 eval/second-annotation/sample_thirtieth_second.py [--record | --check]
"""

from sample_twentyninth_second import rows
from sample_twentyseventh_second import cli, recorded

DRAWN_AT = "69145dc5"  # main at 18:16 UTC: pm30's batches 1 and 2 (9 reports); the collector still landing
TSV = "drawn-thirtieth-second.tsv"
BLOCK = "# pm30"

__all__ = ["TSV", "recorded"]

if __name__ == "__main__":
    cli(rows(DRAWN_AT, BLOCK), TSV, f"the pm30 block at {DRAWN_AT}")
