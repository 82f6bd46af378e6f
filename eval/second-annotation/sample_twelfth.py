"""Draw the twelfth collection's sample for the second annotation (README.md, "The twelfth collection").

Each corpus's new files (not in eval/ at BASE) are listed at a pinned commit and their labels read from truth.jsonl at
that commit (only file, organisation and whether failed_attempts is empty), so the draw does not move as the corpus
grows. Stratified by organisation within each stratum, as sample.py; printed in reading order without the stratum.

    python3 eval/second-annotation/sample_twelfth.py [--postmortems-only]   # reading order
    python3 eval/second-annotation/sample_twelfth.py --record > drawn-twelfth.tsv
    python3 eval/second-annotation/sample_twelfth.py --check    # redraw from git; fails if drawn-twelfth.tsv differs
"""

import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

SEED = 20261212
BASE = "864e579"  # main before the twelfth collection
# corpus -> (commit the draw reads, {stratum: quota}); postmortems first, conversations from the same generator continued.
PLAN = {
    "postmortems": ("7ebdfb1", {"with": 6, "without": 20}),
    "conversations": ("151a475", {"with": 6, "without": 9}),  # the freeze; cut from 8 + 12 before the draw (time)
}
REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
NOT_ITEMS = ("truth.jsonl", "statements.jsonl", "README.md")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout


def new_files(corpus: str, commit: str, base: str = BASE) -> set[str]:
    """Item files under eval/<corpus>/ at commit that were not there at base."""

    def names(rev: str) -> set[str]:
        return {Path(p).name for p in _git("ls-tree", "--name-only", rev, f"eval/{corpus}/").split()}

    return {n for n in names(commit) - names(base) if n not in NOT_ITEMS}


def strata(corpus: str, commit: str, base: str = BASE) -> dict[str, dict[str, list[str]]]:
    """stratum -> organisation -> files, from truth.jsonl at commit (no other field is read)."""
    new = new_files(corpus, commit, base)
    out: dict[str, dict[str, list[str]]] = {"with": defaultdict(list), "without": defaultdict(list)}
    for line in _git("show", f"{commit}:eval/{corpus}/truth.jsonl").splitlines():
        t = json.loads(line)
        if t["file"] in new:
            out["with" if t["failed_attempts"] else "without"][t["org"]].append(t["file"])
    return out


def pick(rng: random.Random, by_org: dict[str, list[str]], wanted: int) -> list[str]:
    """Up to `wanted` files, stratified by organisation: organisations sorted and shuffled, each one's files sorted and
    shuffled, then one file per organisation in turn (all there are, if fewer)."""
    orgs = sorted(by_org)
    rng.shuffle(orgs)
    queues = {o: rng.sample(sorted(by_org[o]), len(by_org[o])) for o in orgs}
    got: list[str] = []
    while len(got) < wanted and any(queues.values()):
        for o in orgs:  # one file per organisation in turn
            if queues[o] and len(got) < wanted:
                got.append(queues[o].pop(0))
    return got


def draw(
    corpora: tuple[str, ...] = tuple(PLAN), plan: dict = PLAN, seed: int = SEED, base: str = BASE
) -> list[tuple[str, str, str, str]]:
    """(corpus, file, stratum, commit) in reading order."""
    rng = random.Random(seed)
    picked = []
    for corpus in corpora:
        commit, quota = plan[corpus]
        by_stratum = strata(corpus, commit, base)
        chosen = []
        for stratum, wanted in quota.items():
            chosen += [(corpus, f, stratum, commit) for f in pick(rng, by_stratum[stratum], wanted)]
        rng.shuffle(chosen)  # reading order: strata mixed
        picked += chosen
    return picked


def recorded(tsv: str = "drawn-twelfth.tsv") -> list[tuple[str, ...]]:
    return [tuple(line.split("\t")) for line in (HERE / tsv).read_text(encoding="utf-8").splitlines()]


def main(
    argv: list[str], plan: dict = PLAN, seed: int = SEED, base: str = BASE, tsv: str = "drawn-twelfth.tsv"
) -> None:
    """Print the draw in reading order, or --record it as tsv rows, or --check it against tsv (exits non-zero)."""
    corpora = ("postmortems",) if "--postmortems-only" in argv or plan["conversations"][0] is None else tuple(plan)
    rows = draw(corpora, plan, seed, base)
    if "--check" in argv:
        sys.exit(0 if rows == recorded(tsv) else f"{tsv} differs from the draw")
    for corpus, file, stratum, commit in rows:
        print(corpus, file, stratum, commit, sep="\t") if "--record" in argv else print(corpus, file)


if __name__ == "__main__":
    main(sys.argv)
