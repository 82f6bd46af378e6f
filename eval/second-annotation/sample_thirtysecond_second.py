"""The postmortems of pm32second's blind reading of pm32 (README.md, "The held-out postmortem judge pm32 (pm32second)"):
no draw, every report of bench/held_out_postmortems.tsv's "# pm32" block at DRAWN_AT (main when the reading began:
pm32's batch 1, 3 reports), in the block's order; --extension: the block's reports at EXTENDED_AT (the batches landed
later) that the first part did not hold (read as pm30's sampler reads its block, given pm32's commits and heading).

    python3 eval/second-annotation/sample_thirtysecond_second.py [--extension] [--record | --check]
"""

from sample_thirtieth_second import main
from sample_twentyseventh_second import recorded

DRAWN_AT = "099dde93"  # main at 23:24 UTC: pm32's batch 1 (3 reports); the collector still landing
TSV = "drawn-thirtysecond-second.tsv"
BLOCK = "# pm32"
EXTENDED_AT = "74981de9"  # main at 00:01 UTC: pm32's batches 2-4 (samskivert, …; bgk0018, …; boardcentral)
EXTENSION_TSV = "drawn-thirtysecond-second-extension.tsv"

__all__ = ["DRAWN_AT", "EXTENDED_AT", "EXTENSION_TSV", "TSV", "recorded"]

if __name__ == "__main__":
    main(DRAWN_AT, EXTENDED_AT, BLOCK, TSV, EXTENSION_TSV)
