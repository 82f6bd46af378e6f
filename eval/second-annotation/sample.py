"""Draw the sample for the second annotation of failed attempts (README.md beside this file).

Prints the sampled file names in a seeded order that does not reveal the stratum, so the annotator
reads each document without knowing whether its label holds a failed attempt. Reads only each
label's fold, organisation, not_an_incident and whether failed_attempts is empty.

    python3 eval/second-annotation/sample.py            # file names, reading order
    python3 eval/second-annotation/sample.py --strata   # after annotating: with stratum
    python3 eval/second-annotation/sample.py --extension  # fold B's extension only
    python3 eval/second-annotation/sample.py --truth T --record > drawn.tsv  # the draw kept (below)

The draw depends on the corpus it is made from: as ../postmortems/truth.jsonl grew, the same seed drew other
files. drawn.tsv keeps the draw as it was made (from truth.jsonl at 267c906, the extension's commit:
`git show 267c906:eval/postmortems/truth.jsonl > T`), and compare.py reads it.
"""

import json
import random
import sys
from collections import defaultdict
from pathlib import Path

SEED = 20261223
# (fold, stratum) -> how many reports; stratum "with" = the label holds >= 1 failed attempt.
QUOTA = {("B", "with"): 18, ("B", "without"): 12, ("A", "with"): 10, ("A", "without"): 10}
# Fold B extended after the first comparison (the same order's next reports: the shuffles do not
# depend on the quotas, so the first draw is a subset): 9 more "with", 12 more "without".
EXTENDED = {**QUOTA, ("B", "with"): 27, ("B", "without"): 24}
# Read separately (README's "calls a second reader may make differently"), not drawn.
NAMED = ("allegro-2018-08-31", "drand-2024-02-23")
HERE = Path(__file__).parent.parent / "postmortems"


def draw(quota: dict = QUOTA, truth: Path = HERE / "truth.jsonl") -> list[tuple[str, str, str]]:
    labels = [json.loads(line) for line in truth.open()]
    rng = random.Random(SEED)
    picked = []
    for (fold, stratum), wanted in quota.items():
        by_org = defaultdict(list)
        for t in labels:
            if t["fold"] != fold or t["not_an_incident"] or t["file"].startswith(NAMED):
                continue
            if ("with" if t["failed_attempts"] else "without") == stratum:
                by_org[t["org"]].append(t["file"])
        orgs = sorted(by_org)
        rng.shuffle(orgs)
        queues = {o: rng.sample(sorted(by_org[o]), len(by_org[o])) for o in orgs}
        chosen = []
        while len(chosen) < wanted and any(queues.values()):
            for o in orgs:  # one file per organisation in turn
                if queues[o] and len(chosen) < wanted:
                    chosen.append(queues[o].pop(0))
        picked += [(f, fold, stratum) for f in chosen]
    rng.shuffle(picked)  # reading order: strata mixed
    return picked


if __name__ == "__main__":
    truth = Path(sys.argv[sys.argv.index("--truth") + 1]) if "--truth" in sys.argv else HERE / "truth.jsonl"
    first = draw(truth=truth)
    extension = [p for p in draw(EXTENDED, truth) if p[0] not in {f for f, _, _ in first}]
    if "--record" in sys.argv:  # file, fold, stratum, which draw: drawn.tsv
        for (file, fold, stratum), group in [*((p, "first") for p in first), *((p, "extension") for p in extension)]:
            print(file, fold, stratum, group, sep="\t")
    for file, fold, stratum in () if "--record" in sys.argv else extension if "--extension" in sys.argv else first:
        print(file, fold, stratum) if "--strata" in sys.argv else print(file, fold)
