"""Draw the second blind annotation of the twentieth collection's batches 5-12 (README.md, "The twentieth collection's
batches 5-12").

sample_seventeenth.py's two draws on the 96 c20 conversations added after c20-second's draw (not in eval/ at 4ab69f2,
listed at 9eb6286; rule and seed stamped 20:55 UTC in /work/notes-c20-second2.md before any of them was read): every
sixth by name from the first, at most 16, and the extension decided with it: every other of those threads whose label
holds a failed attempt plus as many without, by random.Random(SEED), shuffled, the stratum never printed.

    python3 eval/second-annotation/sample_twentieth_second.py [--extension] [--record | --check]
"""

import sys

from sample_seventeenth import draw_extension
from sample_twelfth import new_files, recorded, strata

BASE = "4ab69f2"  # c20's batch 4, the last in c20-second's draw (sample_twentieth.py)
DRAWN_AT = "9eb6286"  # c20's batch 12, its last commit (/work/notes-shared.md, 20:54 UTC)
TSV = "drawn-twentieth-second.tsv"
EXTENSION_TSV = "drawn-twentieth-second-extension.tsv"
SEED, STEP, MOST = 20261222, 6, 16


def draw(commit: str = DRAWN_AT, base: str = BASE) -> list[tuple[str, str, str, str]]:
    """Every STEP-th new conversation by name from the first, at most MOST (c20 added no postmortem)."""
    files = sorted(new_files("conversations", commit, base))[::STEP][:MOST]
    return [("conversations", f, "hidden", commit) for f in files]


def extension() -> list[tuple[str, str, str, str]]:
    """As many "without" threads as there are "with" threads outside the first draw (the count is never printed)."""
    first = {f for _c, f, _s, _at in draw()}
    extra = sum(f not in first for fs in strata("conversations", DRAWN_AT, BASE)["with"].values() for f in fs)
    return draw_extension(DRAWN_AT, BASE, SEED, extra, first)


if __name__ == "__main__":
    tsv, rows = (EXTENSION_TSV, extension()) if "--extension" in sys.argv else (TSV, draw())
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
