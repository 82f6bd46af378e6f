"""Draw the twentieth collection's sample for the second annotation (README.md, "The twentieth collection").

sample_seventeenth.py's two draws on c20's files (rule stamped 20:38 UTC in /work/notes-c20-second.md before any c20
file or label was read): every sixth new file by name (at most 15), and the extension decided with it: every other c20
conversation whose label holds a failed attempt plus as many without, by random.Random(SEED), shuffled, the stratum never
printed.

    python3 eval/second-annotation/sample_twentieth.py [--extension] [--record | --check]
"""

import sys

from sample_seventeenth import draw, draw_extension
from sample_twelfth import recorded, strata

BASE = "52b41c3"  # main before the twentieth collection's first batch (1ba3626)
DRAWN_AT = "4ab69f2"  # c20's batch 4, the last landed when the draw was made
TSV = "drawn-twentieth.tsv"
EXTENSION_TSV = "drawn-twentieth-extension.tsv"
SEED = 20261220


def extra() -> int:
    """As many "without" threads as there are "with" threads outside the first draw (the count is never printed)."""
    first = {f for _c, f, _s, _at in draw(DRAWN_AT, BASE)}
    return sum(f not in first for fs in strata("conversations", DRAWN_AT, BASE)["with"].values() for f in fs)


if __name__ == "__main__":
    if "--extension" in sys.argv:
        tsv, rows = EXTENSION_TSV, draw_extension(DRAWN_AT, BASE, SEED, extra())
    else:
        tsv, rows = TSV, draw(DRAWN_AT, BASE)
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
