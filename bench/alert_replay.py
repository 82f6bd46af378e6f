"""The alert as a recall signal, measured on real write-ups that name the alerts that fired
(eval/alerts): Recall@1 and MRR@10 with the alert signal beside the same cases without it, per fold.

    .venv/bin/python bench/alert_replay.py eval [--json] [--keep /tmp/alert-replay]

Each case is the alert line of one real incident write-up, verbatim (the query's text), with the
alerts the write-up names (the query's alerts); its one true match is that write-up, read the way
`incident-memory import` reads it, keeping the same alerts. The case's words are taken out of its
write-up first (as bench/first_reports.py does), so text alone cannot find it by matching itself.
Every other postmortem of eval/postmortems is in memory too, without alerts: the bank is 170-odd
real write-ups. The alert's identifying labels (RECALL_ALERT_LABELS) are every label key the corpus
uses: labels were written only where the write-up gives one that names what failed (a host, a hub).

Runs `incident-memory replay --target-absent` (docs/REPLAY.md) on four corpora it writes: fold A
and fold B, each with and without the cases' alerts; besides the ranks, how often the write-up is
posted in the thread (strong), and how often, with it taken away, something else is posted
(another incident that fired the same alert: a recurrence, or a false alarm). Needs DATABASE_URL
(or the embedded PostgreSQL).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import TITLE_CHARS, imported, memory_line, target_document  # noqa: E402

CASE_FIELDS = ("id", "org", "fold", "license", "source", "target", "text", "alerts", "date")
IMPORT_SUFFIX = {".erb": ".md"}  # a Middleman page (.html.md.erb) is Markdown to import


def load_cases(path: Path) -> list[dict[str, Any]]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        case = json.loads(line)
        missing = [f for f in CASE_FIELDS if f not in case]
        if missing or case["fold"] not in ("A", "B") or not case["alerts"]:
            raise ValueError(f"{path}:{number}: bad alert case (missing {missing or 'nothing'}, fold or alerts)")
        cases.append(case)
    return cases


def _import_name(name: str) -> str:
    path = Path(name)
    return path.stem + IMPORT_SUFFIX[path.suffix] if path.suffix in IMPORT_SUFFIX else name


def memories(eval_dir: Path, cases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every case's write-up with its alerts, then every other postmortem: (memory lines, lost)."""
    words: dict[str, set[str]] = {}
    alerts: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        words.setdefault(case["target"], set()).add(case["text"])
        kept = alerts.setdefault(case["target"], [])
        kept.extend(a for a in case["alerts"] if a not in kept)
    truth = (eval_dir / "postmortems" / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    others = [f"postmortems/{label['file']}" for label in map(json.loads, truth) if not label["not_an_incident"]]
    lines, lost = [], []
    for target in [*sorted(words), *(t for t in others if t not in words)]:
        name, text = target_document(eval_dir, target, words.get(target, set()))
        draft = imported(_import_name(name), text)
        if draft is None:
            lost.append(target)
            continue
        line = memory_line(target, draft)
        if target in alerts:
            line["alerts"] = alerts[target]
        lines.append(line)
    return lines, lost


def case_line(case: dict[str, Any], label_keys: list[str], with_alerts: bool) -> dict[str, Any]:
    first_line = case["text"].strip().splitlines()[0]
    incident: dict[str, Any] = {"title": first_line[:TITLE_CHARS], "symptoms": case["text"], "service": None}
    if with_alerts:
        incident |= {"alerts": case["alerts"], "alert_labels": label_keys}
    return {"id": case["id"], "occurred_at": None, "incident": incident, "relevant": [case["target"]],
            "kind": "alert", "org": case["org"], "fold": case["fold"]}  # fmt: skip


def write_corpus(folder: Path, memory_lines: list[dict[str, Any]], case_lines: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in (("memories.jsonl", memory_lines), ("cases.jsonl", case_lines)):
        with (folder / name).open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def replay(folder: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "bot.cli", "replay", str(folder), "--json", "--target-absent"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="the eval/ folder (alerts/, postmortems/)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--keep", type=Path, help="write the four corpora here (default: a temporary folder)")
    args = parser.parse_args()
    cases = load_cases(args.eval_dir / "alerts" / "cases.jsonl")
    memory_lines, lost = memories(args.eval_dir, cases)
    for target in lost:
        print(f"import kept nothing of {target}", file=sys.stderr)
    label_keys = sorted({k for case in cases for alert in case["alerts"] for k in alert["labels"]})
    figures: dict[str, Any] = {"memories": len(memory_lines), "alert_labels": label_keys}
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch)
        for fold in ("A", "B"):
            chosen = [c for c in cases if c["fold"] == fold]
            for signal in ("with", "without"):
                folder = root / f"fold-{fold}-{signal}"
                write_corpus(folder, memory_lines, [case_line(c, label_keys, signal == "with") for c in chosen])
                result = replay(folder)
                tiers = result.get("tiers", {})
                figures[f"{fold}_{signal}"] = {
                    **{k: result[k] for k in ("recall_at_1", "recall_at_5", "mrr_at_10", "cases")},
                    "right_posted": tiers.get("right_strong"),  # the write-up is posted in the thread
                    "absent_posted": tiers.get("absent_strong"),  # write-up gone: something else posted
                }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['memories']} memories; identifying labels: {', '.join(label_keys)}")
    print(f"{'fold':<6}{'alert signal':<14}{'cases':>6}{'R@1':>8}{'R@5':>8}{'MRR@10':>9}{'posted':>8}{'absent':>8}")
    for fold in ("A", "B"):
        for signal in ("with", "without"):
            f = figures[f"{fold}_{signal}"]
            row = f"{fold:<6}{signal:<14}{f['cases']:>6}{f['recall_at_1']:>8.3f}{f['recall_at_5']:>8.3f}"
            print(row + f"{f['mrr_at_10']:>9.3f}{f['right_posted'] or 0:>8.3f}{f['absent_posted'] or 0:>8.3f}")
    print("posted: the write-up is posted in the thread (strong); absent: with it gone, something else is")
    return 0


if __name__ == "__main__":
    sys.exit(main())
