"""Agreement between the attempts measure and a blind reader on every failed-attempt line the readers keep for fold A
(README.md, "Fold A's stored attempt lines read blind (c16-second)").

fold-a-attempt-lines.jsonl holds the lines as the readers gave them at main `LINES_AT` (the importer's stored attempts for
fold A's postmortems, the drafter's, through the sandbox, for fold A's conversations), each with the decision c16-second
wrote from the document alone before any label was opened: "real" (an action responders took during the incident that
did not work) or the kind it is instead. By the measure a line is real when bot/importer/scoring.py's `attempt_is_real`
holds for its text (`attempt_text` for a stored postmortem line, `drafted_attempt_text` for a drafted one) against its
item's truth.jsonl. Printed per corpus and pooled: agreements, Cohen's kappa, the two-by-two table; on the labels at
`LINES_AT` (those the lines were read against; unchanged for these items until the one fix after the freeze) and on the
working tree's.

    .venv/bin/python eval/second-annotation/compare_attempt_lines.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from compare import kappa

HERE = Path(__file__).parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

from bot.importer.scoring import attempt_is_real, attempt_text, drafted_attempt_text, labelled_attempts  # noqa: E402

LINES = "fold-a-attempt-lines.jsonl"
LINES_AT = "6c16386"  # main at the session's start: the reader and drafter that made the lines, and their labels
CORPORA = ("postmortems", "conversations")


def lines() -> list[dict]:
    return [json.loads(line) for line in (HERE / LINES).read_text(encoding="utf-8").splitlines() if line.strip()]


def labels(corpus: str, commit: str | None) -> dict[str, dict] | None:
    """File -> its truth.jsonl line, at `commit` (None: the working tree); None when the commit is not in this clone."""
    path = f"eval/{corpus}/truth.jsonl"
    if commit is None:
        text = (REPO / path).read_text(encoding="utf-8")
    else:
        done = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, text=True)
        if done.returncode:
            return None
        text = done.stdout
    return {t["file"]: t for t in map(json.loads, filter(str.strip, text.splitlines()))}


def real_by_the_measure(line: dict, truth: dict) -> bool:
    join = attempt_text if line["corpus"] == "postmortems" else drafted_attempt_text
    return attempt_is_real(join(line["action"], line["why"]), labelled_attempts(truth))


def table(pairs: list[tuple[bool, bool]]) -> str:
    """(measure, blind) pairs: agreements, kappa, and the four cells."""
    cells = [sum(m == a and b == c for m, b in pairs) for a, c in ((True, True), (True, False), (False, True))]
    both_not = len(pairs) - sum(cells)
    agree = cells[0] + both_not
    return (
        f"agree {agree}/{len(pairs)}, kappa {kappa(pairs):.2f} (measure real & blind real {cells[0]}, measure real & "
        f"blind not {cells[1]}, measure not & blind real {cells[2]}, both not {both_not}); real by the measure "
        f"{cells[0] + cells[1]}, by the blind reader {cells[0] + cells[2]}"
    )


def report(commit: str | None) -> None:
    said = lines()
    pooled: list[tuple[bool, bool]] = []
    for corpus in CORPORA:
        truth = labels(corpus, commit)
        if truth is None:
            print(f"  labels at {commit}: not in this clone")
            return
        pairs = [
            (real_by_the_measure(x, truth[x["file"]]), x["decision"] == "real") for x in said if x["corpus"] == corpus
        ]
        pooled += pairs
        print(f"  {corpus}: {len(pairs)} lines, {table(pairs)}")
    print(f"  pooled: {len(pooled)} lines, {table(pooled)}")


def main() -> int:
    said = lines()
    kinds = {c: sorted({x["decision"] for x in said if x["corpus"] == c}) for c in CORPORA}
    print(f"{LINES}: {len(said)} lines, the readers' output at {LINES_AT}; blind decisions {kinds}")
    print(f"labels at {LINES_AT} (what the lines were read against):")
    report(LINES_AT)
    print("labels now (the working tree):")
    report(None)
    print("scored by scoring.py's rule (attempt_is_real)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
