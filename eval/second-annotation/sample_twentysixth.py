"""Draw the blind second annotation of the twenty-sixth collection (README.md, "The twenty-sixth collection").

sample_twentyfirst.py's two draws on c26's conversations (c26's and c26more's batches: not in eval/ at BASE, listed at
DRAWN_AT; rule and seed stamped 13:08 UTC in /work/notes-c26second.md before any c26 thread or label was read): every
SIXTH by name from the first, at most 16 (c26 held about 100 conversations by its commit subjects, so every third
would end a third of the way through the alphabet; every sixth spans it). The extension decided with it: every other
c26 thread whose label holds a failed attempt (a random MOST_WITH of them when there are more: the round's time), as
many without, by random.Random(SEED), shuffled, the stratum never printed. Read in that order (the draw, then the
extension) until the stamped time cap: the recorded draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentysixth.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst
from sample_twentieth_second import draw as every_sixth

BASE = "331bcb2"  # the fifteenth session's first commit and corpus freeze, main before c26's batch 1 (fdec44aa)
DRAWN_AT = "92df28db"  # main at 13:08 UTC, after c26's batch 7 and c26more's batch 9, the last c26 batches then
TSV = "drawn-twentysixth.tsv"
EXTENSION_TSV = "drawn-twentysixth-extension.tsv"
SEED, MOST_WITH = 20262601, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (14:05 UTC)


def rows(extended: bool) -> list[tuple[str, str, str, str]]:
    """The draw's rows read by the time cap, or (True) the extension's (c26 added no postmortem: conversations only)."""
    first = every_sixth(DRAWN_AT, BASE)
    if not extended:
        return first[:READ]
    return twentyfirst.extension(DRAWN_AT, BASE, SEED, MOST_WITH, {f for _c, f, _s, _at in first})[:READ_EXTENSION]


if __name__ == "__main__":
    twentyfirst.main(sys.argv, rows, (TSV, EXTENSION_TSV))
