"""The threads of c27second's blind reading (README.md, "The twenty-seventh collection (c27second)"): no draw, every
thread of bench/held_out.tsv's "# c27" block at the session's corpus freeze FROZEN, in the block's order (31 threads:
small enough to read whole before the judge it serves, c27's pooled attempts rule).

    python3 eval/second-annotation/sample_twentyseventh_second.py [--record | --check]
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
FROZEN = "2bff5aa4"  # the sixteenth session's corpus freeze (main at 14:54 UTC): c27 complete, held out
TSV = "drawn-twentyseventh-second.tsv"
BLOCK = "# c27"


def block(
    commit: str = FROZEN, heading: str = BLOCK, tsv: str = "bench/held_out.tsv", corpus: str = "conversations"
) -> list[tuple[str, str, str, str]]:
    """A held-out list's block (c27's by default) as (corpus, file, fold, commit) rows: the lines after its heading
    ("# c27" alone or followed by "," or a space), to the next '#'."""
    text = subprocess.run(
        ["git", "-C", str(HERE), "show", f"{commit}:{tsv}"], capture_output=True, text=True, check=True
    ).stdout
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("#"):
            inside = line == heading or line.startswith((heading + ",", heading + " "))
            continue
        if inside and line.strip():
            fold, file = line.split("\t")
            rows.append((corpus, file, fold, commit))
    return rows


def recorded(tsv: str = TSV) -> list[tuple[str, ...]]:
    return [tuple(line.split("\t")) for line in (HERE / tsv).read_text(encoding="utf-8").splitlines()]


def cli(rows: list, tsv: str, where: str) -> None:
    """--check: exit non-zero when `tsv` differs from `rows` (the block at `where`); --record: print the rows as its
    lines; else the file names."""
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from {where}")
    for row in rows:
        print(*row, sep="\t") if "--record" in sys.argv else print(row[1])


if __name__ == "__main__":
    cli(block(), TSV, f"the c27 block at {FROZEN}")
