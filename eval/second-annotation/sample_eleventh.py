"""Draw the eleventh collection's sample for the second annotation (README.md, "The eleventh collection").

Lists the files the collectors' commits added (by commit message), never a label, and prints the sample in
reading order: 25 conversations, then (same generator continued) 22 postmortem files.

    python3 eval/second-annotation/sample_eleventh.py [--conversations-only]
"""

import random
import subprocess
import sys
from pathlib import Path

SEED = 20261211
QUOTA = {"conversations": 25, "postmortems": 22}
GREP = {"conversations": "c11-conv", "postmortems": "c11-pm"}
REPO = Path(__file__).resolve().parents[2]
NOT_ITEMS = ("truth.jsonl", "statements.jsonl", "README.md")


def added(corpus: str) -> list[str]:
    """Names of the files added under eval/<corpus>/ by the collector's commits."""
    out = subprocess.run(
        ["git", "-C", str(REPO), "log", "--no-renames", "--diff-filter=A", "--name-only", "--format=",
         f"--grep={GREP[corpus]}", "--", f"eval/{corpus}/"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    names = {Path(p).name for p in out.split() if p.count("/") == 2}
    return sorted(n for n in names if n not in NOT_ITEMS and (REPO / "eval" / corpus / n).exists())


def draw(corpora: tuple[str, ...] = ("conversations", "postmortems")) -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    picked = []
    for corpus in corpora:
        picked += [(corpus, f) for f in rng.sample(added(corpus), QUOTA[corpus])]
    return picked


if __name__ == "__main__":
    corpora = ("conversations",) if "--conversations-only" in sys.argv else ("conversations", "postmortems")
    for corpus, file in draw(corpora):
        print(corpus, file)
