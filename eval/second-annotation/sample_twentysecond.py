"""Draw the blind second annotation of the twenty-second collection (README.md, "The twenty-second collection").

sample_twentyfirst.py's two draws on c22's conversations (not in eval/ at BASE, listed at DRAWN_AT; rule and seed
stamped 02:23 UTC in /work/notes-c22-second.md before any c22 thread or label was read): every sixth by name from the
first, at most 16, and the extension decided with it: every other c22 thread whose label holds a failed attempt (a
random MOST_WITH of them when there are more: the round's time), as many without, by random.Random(SEED), shuffled, the
stratum never printed. Read in that order (the draw, then the extension) until the stamped time cap: the recorded
draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentysecond.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst

BASE = "2da9488"  # this session's first commit (its frozen corpus), main before c22's batch 1
DRAWN_AT = "8c102aa"  # main at 02:23 UTC, after c22's batch 10 (a3885c0), the last c22 batch then
TSV = "drawn-twentysecond.tsv"
EXTENSION_TSV = "drawn-twentysecond-extension.tsv"
SEED, MOST_WITH = 20262207, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (03:10 UTC)


def draw() -> list[tuple[str, str, str, str]]:
    """Every sixth new conversation by name from the first, at most 16 (c22 added no postmortem)."""
    return twentyfirst.draw(DRAWN_AT, BASE)


def extension() -> list[tuple[str, str, str, str]]:
    """As many "without" threads as "with" threads taken outside the first draw (the count is never printed)."""
    return twentyfirst.extension(DRAWN_AT, BASE, SEED, MOST_WITH)


if __name__ == "__main__":
    twentyfirst.main(
        sys.argv, lambda extended: extension()[:READ_EXTENSION] if extended else draw()[:READ], (TSV, EXTENSION_TSV)
    )
