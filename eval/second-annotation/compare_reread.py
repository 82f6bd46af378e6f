"""Agreement between truth.jsonl's failed attempts and the blind re-read of 14 fold-A postmortems (README.md, "A blind
re-read of fold A's failed attempts (c14-second)").

MATCHES pairs an attempt of truth.jsonl (one of its action phrases) with the re-read's action for the same step, decided
by reading both (same step at the same time). Each re-read attempt truth.jsonl lacks is shown with the not_attempts entry
whose phrases it holds, if any. Figures before the adjudication read truth.jsonl at BEFORE (the commit that landed the
re-read, before any label of the 14 was opened: the last commit touching LABELS, found by git log so that a rebase
does not strand it); after it, the working tree's.

    python3 eval/second-annotation/compare_reread.py            # before and after the adjudication
"""

import json
import subprocess
from pathlib import Path

from compare import summary

HERE = Path(__file__).parent
REPO = HERE.parents[1]
LABELS = "fold-a-attempts-reread.jsonl"
# Lines the second annotator had read about before the re-read (this README's earlier rounds): not blind.
NOT_BLIND = ("openfoodfacts-2023-07-16-", "ucl-rc-Status_page", "cyb3r-jak3-downtime-report")
# (truth phrase, re-read action): the same step.
MATCHES = [
    ("puma", "reducing from 20 to 16 threads"),
    ("deleted the epp-server pod", "deleted the epp-server pod to see if a clean data directory would clear the issue"),
    ("the change was reverted", "the change was reverted (i.e. there were again the 4 single-threaded workers)"),
    (
        "fixing part of the issue",
        "deployed a [change to the image service](https://github.com/financial-times/origami-image-service/pull/162) "
        "fixing part of the issue",
    ),
    ("started purging images for the last week", "started purging images for the last week again"),
    (
        "controlled phac-only restart",
        "deployed that fix and reconciled the live phac job config. a controlled phac-only restart picked up the "
        "corrected scope exclusion",
    ),
    (
        "broader source-profile compatibility fix",
        "a broader source-profile compatibility fix (`--extrachromeargs --disable-http2`) was prepared, deployed, and "
        "verified",
    ),
    ("relaunched under the managed browsertrix", "phac was relaunched under the managed browsertrix"),
    ("after the resume-merge follow-up deploy", "after the resume-merge follow-up deploy"),
    ("tried to resolve the issue ourselves", "we have tried to resolve the issue ourselves"),
    ("beegfs metadata resynchronization that had been", "the beegfs metadata resynchronization that had been"),
    ("script tailored to fix the issue we ran into", "resynchronization again"),
    ("after fixing the host firewall rules", "tried again two hours later after fixing the host firewall rules"),
    (
        "tried to preform a graceful shutdown of the server",
        "i first tried to preform a graceful shutdown of the server",
    ),
]


def before() -> str:
    """The commit that landed the re-read: truth.jsonl there is as the collectors left it."""
    out = subprocess.run(
        ["git", "-C", str(REPO), "log", "-1", "--format=%h", "--", f"eval/second-annotation/{LABELS}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout.strip()


def truth_lines(commit: str | None) -> dict[str, dict]:
    path = "eval/postmortems/truth.jsonl"
    text = (
        (REPO / path).read_text(encoding="utf-8")
        if commit is None
        else subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
        ).stdout
    )
    return {t["file"]: t for t in map(json.loads, text.splitlines())}


def compare(commit: str | None) -> dict[str, dict]:
    truth = truth_lines(commit)
    rows = {}
    for d in map(json.loads, (HERE / LABELS).read_text(encoding="utf-8").splitlines()):
        first = truth[d["file"]]["failed_attempts"]
        actions = [a["action"] for a in d["failed_attempts"]]
        both = sum(any((p, q) in MATCHES for p in a["action_keywords"] for q in actions) for a in first)
        paired = {q for p, q in MATCHES if any(p in a["action_keywords"] for a in first)}
        alone = [q for q in actions if q not in paired]
        kinds = {
            q: [n["kind"] for n in truth[d["file"]].get("not_attempts", []) if any(k in q for k in n["keywords"])]
            for q in alone
        }
        rows[d["file"]] = {
            "blind": not d["file"].startswith(NOT_BLIND),
            "both": both,
            "only_first": len(first) - both,
            "only_second": len(alone),
            "only_first_phrases": [
                a["action_keywords"]
                for a in first
                if not any((p, q) in MATCHES for p in a["action_keywords"] for q in actions)
            ],
            "only_second_actions": kinds,
            "first_has": bool(first),
            "second_has": bool(actions),
        }
    return rows


if __name__ == "__main__":
    first = before()
    for name, commit in ((f"before the adjudication (truth.jsonl at {first})", first), ("now", None)):
        rows = compare(commit)
        print(f"{name}:")
        print("  all:", summary(list(rows.values())))
        print("  blind only:", summary([r for r in rows.values() if r["blind"]]))
        for file, r in rows.items():
            if r["only_first"] or r["only_second"]:
                print(f"    {file}: only truth.jsonl {r['only_first_phrases']}; only second {r['only_second_actions']}")
