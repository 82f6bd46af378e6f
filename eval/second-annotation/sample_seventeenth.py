"""Draw the seventeenth collection's sample for the second annotation (README.md, "The seventeenth collection").

sample_sixteenth.py's draw on c17's files: no label is read; the new files of each corpus (not in eval/ at BASE, main
before the seventeenth collection), listed by git ls-tree at DRAWN_AT, sorted by name; every sixth from the first; at
most 15.

    python3 eval/second-annotation/sample_seventeenth.py            # reading order
    python3 eval/second-annotation/sample_seventeenth.py --record > eval/second-annotation/drawn-seventeenth.tsv
    python3 eval/second-annotation/sample_seventeenth.py --check    # redraw from git; fails if drawn-seventeenth.tsv differs
"""

import sys

from sample_sixteenth import every_kth
from sample_twelfth import new_files, recorded

BASE = "62b026b"  # main before the seventeenth collection (this session's start)
DRAWN_AT = "e7eedde"  # c17's final commit (the lead's corpus freeze, /work/notes-shared.md 17:54 UTC)
TSV = "drawn-seventeenth.tsv"


def draw(commit: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for corpus in ("postmortems", "conversations"):
        rows += [(corpus, f, "hidden", commit) for f in every_kth(sorted(new_files(corpus, commit, BASE)))]
    return rows


if __name__ == "__main__":
    rows = draw(DRAWN_AT)
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(TSV) else f"{TSV} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
