"""Draw the blind second annotation of the twenty-first collection (README.md, "The twenty-first collection").

sample_twentieth_second.py's two draws on c21's conversations (not in eval/ at BASE, listed at DRAWN_AT; rule and seed
stamped 23:37 UTC in /work/notes-c21-second.md before any c21 thread or label was read): every sixth by name from the
first, at most 16, and the extension decided with it: every other c21 thread whose label holds a failed attempt (a
random MOST_WITH of them when there are more: the round's time), as many without, by random.Random(SEED), shuffled, the
stratum never printed. Read in that order (the draw, then the extension) until the stamped time cap: the recorded
draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentyfirst.py [--extension] [--record | --check]
"""

import sys
from collections.abc import Callable

from sample_seventeenth import draw_extension
from sample_twelfth import recorded, strata
from sample_twentieth_second import draw as every_sixth

BASE = "3ecd9c8"  # this session's first commit, main before c21's batch 1 (13fa233)
DRAWN_AT = "cdf6c99"  # c21's batch 11, the last c21 batch on main at 00:05 UTC
TSV = "drawn-twentyfirst.tsv"
EXTENSION_TSV = "drawn-twentyfirst-extension.tsv"
SEED, MOST_WITH = 20261221, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (00:33 UTC)


def draw(commit: str = DRAWN_AT, base: str = BASE) -> list[tuple[str, str, str, str]]:
    """Every sixth new conversation by name from the first, at most 16 (c21 added no postmortem)."""
    return every_sixth(commit, base)


def extension(
    commit: str = DRAWN_AT, base: str = BASE, seed: int = SEED, most: int = MOST_WITH, first: set[str] | None = None
) -> list[tuple[str, str, str, str]]:
    """As many "without" threads as "with" threads taken outside the first draw (this round's every-sixth draw unless
    `first` is given: a later round's draw); the count is never printed."""
    first = {f for _c, f, _s, _at in draw(commit, base)} if first is None else first
    extra = sum(f not in first for fs in strata("conversations", commit, base)["with"].values() for f in fs)
    return draw_extension(commit, base, seed, min(extra, most), first, most)


def main(argv: list[str], rows: Callable[[bool], list[tuple[str, ...]]], tsvs: tuple[str, str]) -> None:
    """Print a round's draw (--extension: its extension) as read, or --record it as tsv rows, or --check it."""
    extended = "--extension" in argv
    tsv, drawn = tsvs[extended], rows(extended)
    if "--check" in argv:
        sys.exit(0 if drawn == recorded(tsv) else f"{tsv} differs from the draw")
    for row in drawn:
        print(*row, sep="\t") if "--record" in argv else print(row[0], row[1])


if __name__ == "__main__":
    main(sys.argv, lambda extended: extension()[:READ_EXTENSION] if extended else draw()[:READ], (TSV, EXTENSION_TSV))
