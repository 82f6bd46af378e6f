"""The first reports of real incidents (eval/first-reports) as a replay corpus: each case is the
first thing a responder typed, its one true match the postmortem or conversation it led to.

    .venv/bin/python bench/first_reports.py eval --out /tmp/first-reports [--fold A|B]
    incident-memory replay /tmp/first-reports          # Recall@1, Recall@5, MRR@10 (docs/REPLAY.md)

Memories are the targets read the way `incident-memory import` reads them (bot/importer), so the
figures include what import keeps of each document: a postmortem file as it is; a conversation
as a channel transcript (a "# Incident channel: <org>" title, then one "<ts> <author>: <text>"
paragraph per message), which import keeps as the memory's symptoms. The first report's own
words are taken out of its target first (the conversation's opening message; the sentence of
the postmortem it was copied from), so a case cannot be found by matching itself. Cases carry no
`occurred_at`: a memory here is the same incident's write-up, not an earlier one. `--fold`
keeps the cases of one organisation fold (memories: all of them).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path, PurePath
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.models import MemoryDraft  # noqa: E402

REPORT_FIELDS = ("id", "org", "fold", "text", "ts", "target", "source")
MEMORY_FIELDS = ("title", "service", "severity", "symptoms", "error_message", "root_cause", "diagnosis",
                 "resolution", "lesson")  # fmt: skip
TITLE_CHARS = 200


def load_reports(path: Path) -> list[dict[str, Any]]:
    reports = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        report = json.loads(line)
        missing = [f for f in REPORT_FIELDS if f not in report]
        if (
            missing
            or report["fold"] not in ("A", "B")
            or not str(report["target"]).startswith(("postmortems/", "conversations/"))
        ):
            raise ValueError(f"{path}:{number}: bad first report (missing {missing or 'nothing'}, fold, or target)")
        reports.append(report)
    return reports


def transcript(conversation: dict[str, Any], leave_out: set[str]) -> str:
    """A channel as a document: its org as the title, one paragraph per message."""
    lines = [
        f"{m['ts']} {m['author']}: " + " ".join(m["text"].split())
        for m in conversation["messages"]
        if m["text"] not in leave_out
    ]
    return f"# Incident channel: {conversation['org']}\n\n" + "\n\n".join(lines) + "\n"


def target_document(eval_dir: Path, target: str, leave_out: set[str]) -> tuple[str, str]:
    """(file name, text) of the document import reads for one target, without the reports' words."""
    path = eval_dir / target
    if target.startswith("conversations/"):
        return path.stem + ".md", transcript(json.loads(path.read_text(encoding="utf-8")), leave_out)
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    for words in leave_out:
        text = text.replace(words, "")
    return path.name, text


def imported(name: str, text: str) -> MemoryDraft | None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        parsed = parse_file(FoundFile(path, PurePath(name)), team_id="replay")
    return parsed.drafts[0] if parsed.drafts else None


def memory_line(target: str, draft: MemoryDraft) -> dict[str, Any]:
    line: dict[str, Any] = {"id": target} | {f: getattr(draft, f) for f in MEMORY_FIELDS}
    line["failed_attempts"] = [a.model_dump() for a in draft.failed_attempts]
    line["occurred_at"] = draft.occurred_at.isoformat() if draft.occurred_at else None
    return line


def case_line(report: dict[str, Any]) -> dict[str, Any]:
    first_line = report["text"].strip().splitlines()[0]
    return {
        "id": report["id"],
        "occurred_at": None,
        "incident": {"title": first_line[:TITLE_CHARS], "symptoms": report["text"], "service": None},
        "relevant": [report["target"]],
        "kind": "first_report",
        "org": report["org"],
        "fold": report["fold"],
        "ts": report["ts"],
    }


def build(eval_dir: Path, out: Path, fold: str | None = None) -> tuple[int, int, list[str]]:
    """Write memories.jsonl and cases.jsonl; (memories, cases, targets import did not keep)."""
    reports = load_reports(eval_dir / "first-reports" / "reports.jsonl")
    words: dict[str, set[str]] = {}
    for report in reports:
        words.setdefault(report["target"], set()).add(report["text"])
    memories, lost = [], []
    for target in sorted(words):
        draft = imported(*target_document(eval_dir, target, words[target]))
        if draft is None:
            lost.append(target)
        else:
            memories.append(memory_line(target, draft))
    cases = [case_line(r) for r in reports if fold is None or r["fold"] == fold]
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("memories.jsonl", memories), ("cases.jsonl", cases)):
        with (out / name).open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    return len(memories), len(cases), lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="the eval/ folder (first-reports/, postmortems/, conversations/)")
    parser.add_argument("--out", type=Path, required=True, help="folder to write memories.jsonl and cases.jsonl")
    parser.add_argument("--fold", choices=("A", "B"), help="only the cases of this organisation fold")
    args = parser.parse_args()
    memories, cases, lost = build(args.eval_dir, args.out, args.fold)
    print(f"{memories} memories, {cases} cases in {args.out}")
    for target in lost:
        print(f"import kept nothing of {target}: its cases cannot be found", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
