"""Draw the sixteenth collection's sample for the second annotation (README.md, "The sixteenth collection").

No label is read: the new files of each corpus (not in eval/ at BASE, main before the sixteenth collection), listed by
git ls-tree at DRAWN_AT, sorted by name; every sixth from the first (fewer than 12 that way: every n // 12-th); at most 15.

    python3 eval/second-annotation/sample_sixteenth.py            # reading order
    python3 eval/second-annotation/sample_sixteenth.py --record > eval/second-annotation/drawn-sixteenth.tsv
    python3 eval/second-annotation/sample_sixteenth.py --check    # redraw from git; fails if drawn-sixteenth.tsv differs
"""

import sys

from sample_twelfth import new_files, recorded

BASE = "6c16386"  # main before the sixteenth collection (this session's start)
DRAWN_AT: str | None = "080b5c0"  # c16's final commit ("c16 done", /work/notes-shared.md 15:41 UTC), drawn 15:44 UTC
TSV = "drawn-sixteenth.tsv"
STEP, LEAST, MOST = 6, 12, 15


def every_kth(files: list[str]) -> list[str]:
    """Every STEP-th file by name from the first; if that is fewer than LEAST, every len // LEAST-th; at most MOST."""
    step = STEP if len(files[::STEP]) >= LEAST else max(1, len(files) // LEAST)
    return files[::step][:MOST]


def draw(commit: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for corpus in ("postmortems", "conversations"):
        rows += [(corpus, f, "hidden", commit) for f in every_kth(sorted(new_files(corpus, commit, BASE)))]
    return rows


if __name__ == "__main__":
    if DRAWN_AT is None:
        sys.exit("not drawn yet: DRAWN_AT is not pinned")
    rows = draw(DRAWN_AT)
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(TSV) else f"{TSV} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
