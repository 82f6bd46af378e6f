"""Draw the eighteenth collection's sample for the second annotation (README.md, "The eighteenth collection").

sample_seventeenth.py's two draws on c18's files (rule stamped 19:33 UTC before any c18 file or label was read): every
sixth new file by name (at most 15), and the extension decided with it: every other c18 conversation whose label holds
a failed attempt plus EXTRA (as many as c18 labels: 5) without, by random.Random(SEED), shuffled, stratum never printed.

    python3 eval/second-annotation/sample_eighteenth.py [--extension] [--record | --check]
"""

import sys

from sample_seventeenth import draw, draw_extension
from sample_twelfth import recorded

BASE = "f711f17"  # main before the eighteenth collection's first batch (2fca412)
DRAWN_AT = "e279cee"  # c18's final commit (/work/notes-shared.md, 19:04 UTC)
TSV = "drawn-eighteenth.tsv"
EXTENSION_TSV = "drawn-eighteenth-extension.tsv"
SEED, EXTRA = 20261218, 5

if __name__ == "__main__":
    if "--extension" in sys.argv:
        tsv, rows = EXTENSION_TSV, draw_extension(DRAWN_AT, BASE, SEED, EXTRA)
    else:
        tsv, rows = TSV, draw(DRAWN_AT, BASE)
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
