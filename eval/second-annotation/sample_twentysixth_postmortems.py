"""Draw the blind second reading of the held-out postmortem judges pm25 and pm26 (README.md, "The held-out postmortem
judges pm25 and pm26").

The names only: every file of bench/held_out_postmortems.tsv at DRAWN_AT (pm25's 15 and pm26's 37, both blocks), sorted
together by name; every SECOND from the first (26); shuffled by random.Random(SEED) for the reading order; the draw is
the first MOST of that order, the extension the rest (decided at 13:18 UTC, after the draw was read and before any
label was opened). Rule, seed and time cap stamped 13:17 UTC in /work/notes-pm26second.md before any pm25/pm26 label
was opened; no label field is read here (the stratum is "hidden": unknown to the draw).

    python3 eval/second-annotation/sample_twentysixth_postmortems.py [--extension] [--record | --check]
"""

import random
import subprocess
import sys

import sample_twentyfirst as twentyfirst
from sample_twelfth import REPO

DRAWN_AT = "31a69ff5"  # main at 13:15 UTC: pm25's block and pm26's ten batches
TSV = "drawn-twentysixth-postmortems.tsv"
EXTENSION_TSV = "drawn-twentysixth-postmortems-extension.tsv"
SEED, STEP, MOST = 20262602, 2, 20
READ, READ_EXTENSION = 20, 6  # how much of each was labelled by the time cap (14:05 UTC): all of both


def held_out(commit: str = DRAWN_AT) -> list[str]:
    """The held-out postmortem list's files at commit, every block ("FOLD<TAB>file" lines)."""
    text = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{commit}:bench/held_out_postmortems.tsv"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return sorted(line.split("\t")[1] for line in text.splitlines() if line[:2] in ("A\t", "B\t"))


def rows(extended: bool) -> list[tuple[str, str, str, str]]:
    """The draw's rows as read, or (True) the extension's: the same shuffled order past MOST."""
    order = held_out()[::STEP]
    random.Random(SEED).shuffle(order)
    files = order[MOST:][:READ_EXTENSION] if extended else order[:MOST][:READ]
    return [("postmortems", f, "hidden", DRAWN_AT) for f in files]


if __name__ == "__main__":
    twentyfirst.main(sys.argv, rows, (TSV, EXTENSION_TSV))
