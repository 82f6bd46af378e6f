"""Draw the seventeenth collection's sample for the second annotation (README.md, "The seventeenth collection").

sample_sixteenth.py's draw on c17's files: no label is read; the new files of each corpus (not in eval/ at BASE, main
before the seventeenth collection), listed by git ls-tree at DRAWN_AT, sorted by name; every sixth from the first; at
most 15.

--extension (decided after the first comparison, before reading any new thread; README.md): the draw held no labelled
attempt, so every other c17 file whose label holds one ("with") plus EXTRA "without" files by random.Random(SEED),
printed in an order the same generator shuffles, the stratum never printed.

    python3 eval/second-annotation/sample_seventeenth.py            # reading order
    python3 eval/second-annotation/sample_seventeenth.py --record > eval/second-annotation/drawn-seventeenth.tsv
    python3 eval/second-annotation/sample_seventeenth.py --check    # redraw from git; fails if drawn-seventeenth.tsv differs
    python3 eval/second-annotation/sample_seventeenth.py --extension [--record | --check]   # drawn-seventeenth-extension.tsv
"""

import random
import sys

from sample_sixteenth import every_kth
from sample_twelfth import new_files, recorded, strata

BASE = "62b026b"  # main before the seventeenth collection (this session's start)
DRAWN_AT = "e7eedde"  # c17's final commit (the lead's corpus freeze, /work/notes-shared.md 17:54 UTC)
TSV = "drawn-seventeenth.tsv"
EXTENSION_TSV = "drawn-seventeenth-extension.tsv"
SEED, EXTRA = 20261217, 7


def draw(commit: str, base: str = BASE) -> list[tuple[str, str, str, str]]:
    rows = []
    for corpus in ("postmortems", "conversations"):
        rows += [(corpus, f, "hidden", commit) for f in every_kth(sorted(new_files(corpus, commit, base)))]
    return rows


def draw_extension(
    commit: str,
    base: str = BASE,
    seed: int = SEED,
    extra: int = EXTRA,
    first: set[str] | None = None,
    most: int | None = None,
) -> list[tuple[str, str, str, str]]:
    """Every conversation of the collection outside the first draw (draw()'s unless given) whose label holds a failed
    attempt (a random `most` of them when there are more, so a round fits its time), EXTRA without, shuffled."""
    first = {f for _c, f, _s, _at in draw(commit, base)} if first is None else first
    by_stratum = {
        k: sorted(f for fs in v.values() for f in fs) for k, v in strata("conversations", commit, base).items()
    }
    rng = random.Random(seed)
    files = [f for f in by_stratum["with"] if f not in first]
    if most is not None and len(files) > most:
        files = rng.sample(files, most)
    files += rng.sample([f for f in by_stratum["without"] if f not in first], extra)
    rng.shuffle(files)
    return [("conversations", f, "hidden", commit) for f in files]


if __name__ == "__main__":
    tsv, rows = (EXTENSION_TSV, draw_extension(DRAWN_AT)) if "--extension" in sys.argv else (TSV, draw(DRAWN_AT))
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from the draw")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[0], row[1])
