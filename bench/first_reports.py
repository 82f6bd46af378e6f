"""The first reports of real incidents (eval/first-reports) as a replay corpus: each case is the
first thing a responder typed, its one true match the postmortem or conversation it led to.

    .venv/bin/python bench/first_reports.py eval --out /tmp/first-reports [--fold A|B] \
        [--conversations resolved|resolved-symptoms|kept] [--include-held-out]
    incident-memory replay /tmp/first-reports          # Recall@1, Recall@5, MRR@10 (docs/REPLAY.md)

The held-out collections (bench/held_out.tsv, bench/held_out_postmortems.tsv: `held_out_targets`) give no case and no
memory unless `--include-held-out`, as in every issue-27 bench that builds on this one (review F77: the command line
put them in, the judges' first reports among the cases a tuner replays).

Memories are the targets read the way `incident-memory import` reads them (bot/importer), so the
figures include what import keeps of each document: a postmortem file as it is; a conversation
as a channel transcript (the constant heading "# Incident channel", no organisation's name, then
one "<ts> <author>: <text>" paragraph per message), which import keeps as the memory's symptoms.
With `--conversations resolved` a conversation is instead the memory the product keeps when that
channel's incident is resolved (bot/services/resolution.draft_for): the declaration's title and symptoms (the corpus declares none: a
thread's title is the first line of its opening, stored joined to the opening post, so the title is the
first line of the channel's first report of the messages left, as a case's own title is read; symptoms
empty) and the resolution modal's root cause, how it was found, fix, lesson and failed attempts as the
offline drafter proposes them from the channel (bot/drafting/rules.draft_offline), confirmed unedited; the transcript itself is no memory field (the product
before r27-symptoms, or a person who cleared the modal's symptoms). With `--conversations resolved-symptoms`
the memory is the same plus the symptoms the product now offers when none were declared: the channel's first
report (bot/drafting/first_report.py), confirmed unedited. Here the case IS the first report, taken out of its
own target, so the symptoms and the title's line are the first message left (a reply, a stand-in): this measures how findable such
a memory is, not a later incident found by an earlier one's first report. With `--conversations kept` every
memory is as the product keeps it, nothing taken out (a conversation resolved with its own first report as
its symptoms, a postmortem whole): each case would find its own words there, so this bank is read for the
target-absent recalls only (bench/fit_recall_judgement.py --absent-corpus): a first report against other
incidents' kept first reports, the wrong memories the product will hold. The first report's own
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
from datetime import datetime
from pathlib import Path, PurePath
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.drafting.first_report import first_report  # noqa: E402
from bot.drafting.rules import draft_offline  # noqa: E402
from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.models import FailedAttempt, MemoryDraft, TimelineEntry  # noqa: E402
from bot.text_limits import ReadLimits  # noqa: E402

REPORT_FIELDS = ("id", "org", "fold", "text", "ts", "target", "source")
MEMORY_FIELDS = ("title", "service", "severity", "symptoms", "error_message", "root_cause", "diagnosis",
                 "resolution", "lesson")  # fmt: skip
TITLE_CHARS = 200
CHANNEL_HEADING = "Incident channel"
"""A transcript's heading, and a resolved channel's title when no message is left: one constant. In a
workspace every memory is one organisation's, so its name tells no memory from another; here it named the
answer of every report that names its org (docs/BENCHMARKS.md, r27-heading). Import keeps every transcript
under it; under a reply's first line alone it refused 516 of 973 as "no word of an incident" (eval of 52b41c3)."""
CONVERSATIONS = ("transcript", "resolved", "resolved-symptoms", "kept")


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


def held_out_targets(eval_dir: Path, include_held_out: bool = False, say: bool = True) -> frozenset[str]:
    """The first reports' targets the issue-27 benches leave out (bench/fit_recall_judgement.py, recurrences.py,
    judgement_by_org.py): bench/held_out.tsv's threads this eval/ holds (the collections no rule was written from,
    read by bench/reading_eval_conversations.py `left_out`, the one reader of the list), as `conversations/<file>`,
    and bench/held_out_postmortems.tsv's files (the postmortem judge, review F41), as `postmortems/<file>`; none with `include_held_out` (to judge a stamped rule, totals only, and the frozen corpus's figures, which count
    every report). `say`: how many of reports.jsonl's first reports that holds out, on stderr."""
    from bench.import_postmortems import held_out_postmortems  # the postmortem judge's list (review F41)
    from bench.reading_eval_conversations import left_out  # the conversation benches' reader, loaded when asked

    held = frozenset(f"conversations/{name}" for name in left_out(include_held_out, folder=eval_dir / "conversations"))
    if not include_held_out:  # a held-out postmortem's first report is no case, its document no memory, either
        held |= frozenset(f"postmortems/{name}" for name in held_out_postmortems())
    if say:
        reports = load_reports(eval_dir / "first-reports" / "reports.jsonl")
        count = sum(report["target"] in held for report in reports)
        print(f"{count} of {len(reports)} first reports held out (bench/held_out.tsv, bench/held_out_postmortems.tsv; --include-held-out reads them)",
              file=sys.stderr)  # fmt: skip
    return held


def declared_title(report: str) -> str:
    """The title a channel's incident was declared with: its first report's first line (a thread
    stores its title joined to the opening post, so that line is the title the opener gave it).
    A case's title and a conversation memory's are both read this way."""
    return report.strip().splitlines()[0][:TITLE_CHARS]


def transcript(conversation: dict[str, Any], leave_out: set[str]) -> str:
    """A channel as a document: the constant heading, one paragraph per message."""
    lines = [
        f"{m['ts']} {m['author']}: " + " ".join(m["text"].split())
        for m in conversation["messages"]
        if m["text"] not in leave_out
    ]
    return f"# {CHANNEL_HEADING}\n\n" + "\n\n".join(lines) + "\n"


def resolved(conversation: dict[str, Any], leave_out: set[str], *, symptoms: bool = False) -> MemoryDraft:
    """The memory the product keeps of a channel at resolution: the declaration's title (the title its
    first report gives, of the messages left; no symptoms declared) and what the offline drafter puts in
    the resolution modal, unedited.
    Where the drafter left the modal's required cause or fix empty, the words a person would type are
    unknown: the memory keeps what was drafted (at least the title). `symptoms`: with the channel's
    first report (of the messages left) as the modal offers it, unedited."""
    timeline = [
        TimelineEntry(author=m["author"], text=m["text"], at=datetime.fromisoformat(m["ts"]), message_ts=str(n))
        for n, m in enumerate(conversation["messages"])
        if m["text"] not in leave_out and m["text"].strip()
    ]
    draft = draft_offline(timeline, [], ReadLimits())
    said = {name: value.text for name, value in draft.text_fields().items()}
    opening = first_report(timeline)
    if opening is not None and symptoms:
        said["symptoms"] = opening.text
    title = declared_title(opening.text) if opening is not None else CHANNEL_HEADING
    attempts = [FailedAttempt(action=a.action, why_it_failed=a.why_it_failed) for a in draft.failed_attempts]
    return MemoryDraft(incident_id=conversation["id"], team_id="replay", title=title,
                       failed_attempts=attempts, **said)  # fmt: skip


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
    return {
        "id": report["id"],
        "occurred_at": None,
        "incident": {"title": declared_title(report["text"]), "symptoms": report["text"], "service": None},
        "relevant": [report["target"]],
        "kind": "first_report",
        "org": report["org"],
        "fold": report["fold"],
        "ts": report["ts"],
    }


def build(
    eval_dir: Path,
    out: Path,
    fold: str | None = None,
    conversations: str = "transcript",
    leave_out: frozenset[str] = frozenset(),
) -> tuple[int, int, list[str]]:
    """Write memories.jsonl and cases.jsonl; (memories, cases, targets import did not keep).
    `conversations`: "transcript" (imported as a document), "resolved" (as the product kept it before the
    symptoms field), "resolved-symptoms" (with the channel's first report left as its symptoms) or "kept"
    (every memory whole, its own first report kept: a bank for target-absent recalls only).
    `leave_out`: targets (`held_out_targets`) whose first reports are no case and whose documents no memory, as if
    eval/ did not hold them."""
    reports = [r for r in load_reports(eval_dir / "first-reports" / "reports.jsonl") if r["target"] not in leave_out]
    words: dict[str, set[str]] = {}
    for report in reports:
        words.setdefault(report["target"], set()).add(report["text"])
    memories, lost = [], []
    for target in sorted(words):
        leave_out = set() if conversations == "kept" else words[target]
        if conversations != "transcript" and target.startswith("conversations/"):
            channel = json.loads((eval_dir / target).read_text(encoding="utf-8"))
            draft = resolved(channel, leave_out, symptoms=conversations in ("resolved-symptoms", "kept"))
        else:
            draft = imported(*target_document(eval_dir, target, leave_out))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="the eval/ folder (first-reports/, postmortems/, conversations/)")
    parser.add_argument("--out", type=Path, required=True, help="folder to write memories.jsonl and cases.jsonl")
    parser.add_argument("--fold", choices=("A", "B"), help="only the cases of this organisation fold")
    parser.add_argument("--conversations", choices=CONVERSATIONS, default="transcript",
                        help="a conversation's memory: its transcript imported as a document (default), what "
                        "the product keeps when its incident is resolved (the drafted resolution), or that with "
                        "the channel's first report (of the messages left) as its symptoms, or every memory "
                        "whole with its own first report (kept: a bank for target-absent recalls only)")  # fmt: skip
    parser.add_argument(
        "--include-held-out",
        action="store_true",
        help="the held-out collections' first reports as cases and their documents as memories too (a judge's totals, "
        "the frozen corpus's figures); left out by default, as every issue-27 bench leaves them (review F77)",
    )
    args = parser.parse_args(argv)
    held = held_out_targets(args.eval_dir, args.include_held_out)
    memories, cases, lost = build(args.eval_dir, args.out, args.fold, args.conversations, leave_out=held)
    print(f"{memories} memories, {cases} cases in {args.out}")
    for target in lost:
        print(f"import kept nothing of {target}: its cases cannot be found", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
