"""Draw the second blind annotation of the twenty-sixth collection's later batches (README.md, "The twenty-sixth
collection's later batches").

sample_twentythird.py's every-third draw on the c26 conversations added after c26second's draw (not in eval/ at
BASE, listed at DRAWN_AT; rule and seed stamped 13:26 UTC in /work/notes-c26second2.md before any of them was read):
every THIRD by name from the first, at most 16 (39 files: 13 threads spanning the alphabet). The extension decided with
it reaches the whole collection: every c26 thread (new since FREEZE) read by neither c26second's two draws nor this one
whose label holds a failed attempt (a random MOST_WITH of them when there are more: the round's time), as many without,
by random.Random(SEED), shuffled, the stratum never printed. Read in that order (the draw, then the extension) until
the stamped time cap: the recorded draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentysixth_second.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst
import sample_twentysixth as first_round
from sample_twelfth import recorded
from sample_twentythird import draw as every_third

FREEZE = "331bcb2"  # the fifteenth session's corpus freeze, main before c26's batch 1: the extension's universe
BASE = "92df28db"  # main at c26second's draw (sample_twentysixth.DRAWN_AT), after c26's batch 7 and c26more's batch 9
DRAWN_AT = "ee63b8ea"  # main at 13:26 UTC, after c26's batch 12 and c26more's batch 15 (all 138 c26 threads)
TSV = "drawn-twentysixth-second.tsv"
EXTENSION_TSV = "drawn-twentysixth-second-extension.tsv"
SEED, MOST_WITH = 20262602, 7
READ, READ_EXTENSION = 13, 14  # how much of each draw was labelled by the time cap (14:12 UTC)


def read_before() -> set[str]:
    """The c26 threads c26second's two draws read (their recorded prefixes)."""
    return {f for tsv in (first_round.TSV, first_round.EXTENSION_TSV) for _c, f, *_ in recorded(tsv)}


def rows(extended: bool) -> list[tuple[str, str, str, str]]:
    """The draw's rows read by the time cap, or (True) the extension's (c26 added no postmortem: conversations only)."""
    first = every_third(DRAWN_AT, BASE)
    if not extended:
        return first[:READ]
    read = read_before() | {f for _c, f, _s, _at in first}
    return twentyfirst.extension(DRAWN_AT, FREEZE, SEED, MOST_WITH, read)[:READ_EXTENSION]


if __name__ == "__main__":
    twentyfirst.main(sys.argv, rows, (TSV, EXTENSION_TSV))
