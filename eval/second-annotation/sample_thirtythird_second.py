"""The postmortems of pm33second's blind reading of pm33 (README.md, "The held-out postmortem judge pm33
(pm33second)"): no draw, every report of bench/held_out_postmortems.tsv's "# pm33" block at DRAWN_AT (main when the
reading began: pm33's batch 1), in the block's order; --extension: the block's reports at EXTENDED_AT (the batches landed
later) that the first part did not hold (pm30's sampler, given pm33's commits and heading).

    python3 eval/second-annotation/sample_thirtythird_second.py [--extension] [--record | --check]
"""

from sample_thirtieth_second import main
from sample_twentyseventh_second import recorded

DRAWN_AT = "68ae19d4"  # main at 00:36 UTC: pm33's batch 1 (3 reports: deimosfr, markcheret, samueldebruyn); the collector still landing
TSV = "drawn-thirtythird-second.tsv"
BLOCK = "# pm33"
EXTENDED_AT = None  # no later batch read this session (README.md says which)
EXTENSION_TSV = "drawn-thirtythird-second-extension.tsv"

__all__ = ["DRAWN_AT", "EXTENDED_AT", "EXTENSION_TSV", "TSV", "recorded"]

if __name__ == "__main__":
    main(DRAWN_AT, EXTENDED_AT, BLOCK, TSV, EXTENSION_TSV)
