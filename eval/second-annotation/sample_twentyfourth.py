"""Draw the blind second annotation of the twenty-fourth collection (README.md, "The twenty-fourth collection").

sample_twentythird.py's two draws on c24's conversations (not in eval/ at BASE, listed at DRAWN_AT; rule and seed
stamped 07:43 UTC in /work/notes-c24-second.md before any c24 thread or label was read): every THIRD by name from the
first (the session's brief), at most 16 (c23's cap; with 92 files at DRAWN_AT the cap keeps the first half of the
names). The extension decided with it: every other c24 thread whose label holds a failed attempt (a random MOST_WITH of
them when there are more: the round's time), as many without, by random.Random(SEED), shuffled, the stratum never
printed. Read in that order (the draw, then the extension) until the stamped time cap: the recorded draws are the
prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentyfourth.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst
import sample_twentythird as twentythird

BASE = "4993e4c"  # main before c24's batch 1 (e7fe23e); its eval/ holds the session's freeze 9cdda00's conversations
DRAWN_AT = "3056848"  # main at 07:43 UTC, after c24's batch 14, the last c24 batch then
TSV = "drawn-twentyfourth.tsv"
EXTENSION_TSV = "drawn-twentyfourth-extension.tsv"
SEED, MOST_WITH = 20262407, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (08:30 UTC)


def draw(commit: str = DRAWN_AT, base: str = BASE) -> list[tuple[str, str, str, str]]:
    """Every third new conversation by name from the first, at most 16: sample_twentythird.draw's rule (c24 added no
    postmortem)."""
    return twentythird.draw(commit, base)


def extension() -> list[tuple[str, str, str, str]]:
    """As many "without" threads as "with" threads taken outside the first draw (the count is never printed)."""
    return twentyfirst.extension(DRAWN_AT, BASE, SEED, MOST_WITH, {f for _c, f, _s, _at in draw()})


if __name__ == "__main__":
    twentyfirst.main(
        sys.argv, lambda extended: extension()[:READ_EXTENSION] if extended else draw()[:READ], (TSV, EXTENSION_TSV)
    )
