"""Draw the conversations for the blind re-read of "how found" (README.md, "A blind re-read of how found in conversations").

Drafted "how found" scores far apart on fold A and fold B; before anyone tunes on that gap, a second reader labels
found_keywords blind on a sample of each fold. The labels are read from conversations/truth.jsonl at a pinned commit (only
file, organisation, fold, not_an_incident and whether found_keywords is empty), so the draw does not move as the corpus
grows; not-an-incident items are left out (their fields are empty by definition). Per fold (A, then B, one generator),
stratum "with" (found_keywords non-empty) then "without", stratified by organisation as sample_twelfth.py's pick; printed
in a shuffled reading order per fold without the stratum.

    python3 eval/second-annotation/sample_found.py            # reading order (no stratum printed)
    python3 eval/second-annotation/sample_found.py --record > eval/second-annotation/drawn-found.tsv
    python3 eval/second-annotation/sample_found.py --check    # redraw from git; fails if drawn-found.tsv differs
"""

import json
import random
import sys
from collections import defaultdict

from sample_twelfth import _git, pick, recorded

SEED = 20261215
COMMIT = "313e715"  # main when the re-read was drawn (eval/ as the fourteenth collection's freeze left it, 378807e)
QUOTA = {"with": 8, "without": 7}  # per fold
TSV = "drawn-found.tsv"


def strata(commit: str = COMMIT) -> dict[tuple[str, str], dict[str, list[str]]]:
    """(fold, stratum) -> organisation -> files, from conversations/truth.jsonl at commit."""
    out: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for line in _git("show", f"{commit}:eval/conversations/truth.jsonl").splitlines():
        t = json.loads(line)
        if not t.get("not_an_incident"):
            out[(t["fold"], "with" if t["found_keywords"] else "without")][t["org"]].append(t["file"])
    return out


def draw(seed: int = SEED, commit: str = COMMIT) -> list[tuple[str, str, str, str]]:
    """(fold, file, stratum, commit) in reading order."""
    rng = random.Random(seed)
    by = strata(commit)
    picked = []
    for fold in ("A", "B"):
        chosen = [(fold, f, s, commit) for s, wanted in QUOTA.items() for f in pick(rng, by[(fold, s)], wanted)]
        rng.shuffle(chosen)  # reading order: strata mixed
        picked += chosen
    return picked


if __name__ == "__main__":
    rows = draw()
    if "--check" in sys.argv:
        sys.exit(0 if rows == recorded(TSV) else f"{TSV} differs from the draw")
    for fold, file, stratum, commit in rows:
        print(fold, file, stratum, commit, sep="\t") if "--record" in sys.argv else print(fold, file)
