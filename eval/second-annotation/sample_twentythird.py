"""Draw the blind second annotation of the twenty-third collection (README.md, "The twenty-third collection").

sample_twentysecond.py's two draws on c23's conversations (not in eval/ at BASE, listed at DRAWN_AT; rule and seed
stamped 04:38 UTC in /work/notes-c23-second.md before any c23 thread or label was read), with one change written there
before the draw: c23 held 55 conversations at DRAWN_AT, so every THIRD by name from the first (every sixth would give
10), at most 16. The extension decided with it: every other c23 thread whose label holds a failed attempt (a random
MOST_WITH of them when there are more: the round's time), as many without, by random.Random(SEED), shuffled, the
stratum never printed. Read in that order (the draw, then the extension) until the stamped time cap: the recorded
draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentythird.py [--extension] [--record | --check]
"""

import sys
from collections.abc import Callable

import sample_twentyfirst as twentyfirst
from sample_seventeenth import draw_extension
from sample_twelfth import new_files, strata

BASE = "1af15e1"  # main before c23's batch 1 (9c006f9); its eval/ is the session's freeze, 75285b3
DRAWN_AT = "2cdaa2f"  # main at 04:38 UTC, after c23's batch 7 (44409412), the last c23 batch then
TSV = "drawn-twentythird.tsv"
EXTENSION_TSV = "drawn-twentythird-extension.tsv"
STEP, MOST = 3, 16
SEED, MOST_WITH = 20262307, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (05:15 UTC)


def draw(commit: str = DRAWN_AT, base: str = BASE) -> list[tuple[str, str, str, str]]:
    """Every STEP-th new conversation by name from the first, at most MOST (c23 added no postmortem)."""
    files = sorted(new_files("conversations", commit, base))[::STEP][:MOST]
    return [("conversations", f, "hidden", commit) for f in files]


def extension() -> list[tuple[str, str, str, str]]:
    """As many "without" threads as "with" threads taken outside the first draw (the count is never printed)."""
    first = {f for _c, f, _s, _at in draw()}
    extra = sum(f not in first for fs in strata("conversations", DRAWN_AT, BASE)["with"].values() for f in fs)
    return draw_extension(DRAWN_AT, BASE, SEED, min(extra, MOST_WITH), first, MOST_WITH)


def rows_read(
    drawn_at: str, base: str, seed: int, most_with: int, read: tuple[int, int]
) -> Callable[[bool], list[tuple[str, str, str, str]]]:
    """A later round drawn by this round's rules (every STEP-th new conversation by name, at most MOST; the extension
    by sample_twentyfirst.extension outside that draw): the rows read by its time cap, the draw's or (True) the
    extension's, `read` being (READ, READ_EXTENSION)."""

    def rows(extended: bool) -> list[tuple[str, str, str, str]]:
        first = draw(drawn_at, base)
        if not extended:
            return first[: read[0]]
        return twentyfirst.extension(drawn_at, base, seed, most_with, {f for _c, f, _s, _at in first})[: read[1]]

    return rows


if __name__ == "__main__":
    twentyfirst.main(
        sys.argv, lambda extended: extension()[:READ_EXTENSION] if extended else draw()[:READ], (TSV, EXTENSION_TSV)
    )
