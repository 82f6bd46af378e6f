"""Drafted failed attempts (and root cause, fix, how found) of fold A's conversations read blind: each organisation drafted by the offline drafter of the
commit that added it to eval/conversations/truth.jsonl (a drafter no cue had yet been written from), beside today's.

    nice -n 10 .venv/bin/python bench/conversation_attempts_blind.py --cache /tmp/conv-blind.json     # ~10 min first
    nice -n 10 .venv/bin/python bench/conversation_attempts_blind.py --cache /tmp/conv-blind.json --at 378807e --lines

The conversation drafter's cue words were written reading fold A, so its fold-A figures are in-sample, and the
statement-level one-organisation-out figure (bench/conversation_statements.py) refits the heads, not the cues. This
is the conversations' counterpart of bench/attempts_blind.py: organisation X is drafted by the drafter as it stood
when X was collected, run on today's copy of X's thread through `OfflineDrafter` (a minute between messages, as
bench/fit_reader.py drafts). Organisations that arrived before the offline drafter read conversations
(FIRST_DRAFTER) are drafted by FIRST_DRAFTER and counted apart ("not blind": that drafter was written reading them).
Scored as bench/reading_eval_conversations.py scores: a drafted attempt is real when it holds half of one labelled
attempt's phrases. `--lines` prints fold A's lines (only those of `--at`'s organisations: a later collection stays held
out, its totals alone printed; never a line of bench/held_out.tsv's threads). Fold A only: fold B is never read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_blind import _day, arrivals, read_once  # noqa: E402
from bench.attempts_by_org import organisations_at  # noqa: E402
from bench.attempts_old_readers import run_old_reader  # noqa: E402
from bench.reading_eval_conversations import left_out  # noqa: E402
from bot.importer.scoring import attempt_found, attempt_is_real, holds_half, labelled_attempts  # noqa: E402

CONVERSATIONS = ROOT / "eval" / "conversations"
TRUTH = "eval/conversations/truth.jsonl"
FIRST_DRAFTER = "4882140"  # "The drafter reads real conversations (issue 23)": the first offline drafter of threads

# run in a worktree of the commit (cwd), on today's conversation files: file -> drafted attempts ("action — why"),
# None where that drafter fails on the thread
_DUMP = """
import json, sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
sys.path.insert(0, ".")
from bot.drafting.rules import OfflineDrafter
from bot.models import TimelineEntry
folder, files, out = Path(sys.argv[1]), json.loads(sys.argv[2]), {}
start = datetime(2020, 1, 1, tzinfo=timezone.utc)
for name in files:
    said = json.loads((folder / name).read_text(encoding="utf-8"))["messages"]
    timeline = [
        TimelineEntry(author=m["author"], text=m["text"][:40000], at=start + timedelta(minutes=i), message_ts=f"{i}.0")
        for i, m in enumerate(said) if m["text"].strip()
    ]
    try:
        result = OfflineDrafter().answer(timeline, [])
    except Exception:
        out[name] = None
        continue
    text = {k: (getattr(result, k).text if getattr(result, k) else "") for k in ("root_cause", "diagnosis", "resolution")}
    attempts = [f"{a.action} — {a.why_it_failed}" if a.why_it_failed else a.action for a in result.failed_attempts]
    out[name] = {"attempts": attempts, **text}
print(json.dumps(out))
"""


def labels_a() -> list[dict]:
    rows = [json.loads(line) for line in (CONVERSATIONS / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if r["fold"] == "A" and not r.get("not_an_incident")]


def drafted_at(commit: str | None, files: list[str]) -> dict[str, dict | None]:
    """File -> the fields drafted by the drafter of `commit` (None: today's tree): its attempts ("action — why"),
    root_cause, diagnosis (how it was found) and resolution."""
    if commit is None:
        run = subprocess.run(
            [sys.executable, "-c", _DUMP, str(CONVERSATIONS), json.dumps(files)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    else:
        run = run_old_reader(commit, files, script=_DUMP, folder=CONVERSATIONS)
    if run.returncode != 0:
        return dict.fromkeys(files)
    return json.loads(run.stdout)


def read_all() -> dict:
    labels, first = labels_a(), arrivals(TRUTH)
    order = subprocess.run(
        ["git", "rev-list", "--reverse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    rank = {c[:7]: i for i, c in enumerate(order)}
    base = rank.get(FIRST_DRAFTER, 0)
    batches: dict[str, list[str]] = defaultdict(list)
    blind_of: dict[str, bool] = {}
    for label in labels:
        org = label.get("org") or label["file"]
        commit = first.get(org, "HEAD")
        blind_of[org] = rank.get(commit[:7], len(order)) > base
        batches[commit if blind_of[org] else FIRST_DRAFTER].append(label["file"])
    blind: dict[str, dict | None] = {}
    for commit, files in batches.items():
        said = drafted_at(commit, files)
        ran = sum(v is not None for v in said.values())
        print(f"  {commit}: {len(files)} threads, {ran} drafted", file=sys.stderr)
        blind.update(said)
    today = drafted_at(None, [label["file"] for label in labels])
    days = {org: _day(commit) for org, commit in first.items()}
    return {"blind": blind, "today": today, "blind_of": blind_of, "days": days}


def attempts_of(drafts: dict[str, dict | None]) -> dict[str, list[str] | None]:
    return {f: None if d is None else d["attempts"] for f, d in drafts.items()}


def fields(labels: list[dict], drafts: dict[str, dict | None]) -> dict[str, list[int]]:
    """Root cause, fix and how found: [right, labelled], scored as bench/reading_eval_conversations.py scores them."""
    out = {"cause": [0, 0], "fix": [0, 0], "found how": [0, 0]}
    for label in labels:
        drafted = drafts.get(label["file"])
        if drafted is None:
            continue
        for name, key, keywords in (
            ("cause", "root_cause", label["root_cause_keywords"]),
            ("fix", "resolution", label["fix_keywords"]),
            ("found how", "diagnosis", label["found_keywords"]),
        ):
            if keywords:
                out[name][0] += holds_half(drafted[key], keywords)
                out[name][1] += 1
    return out


def figures(labels: list[dict], lines: dict[str, list[str] | None]) -> dict[str, int]:
    """Drafted real / drafted, labelled found / labelled, invented where none was tried / threads with none."""
    out = dict.fromkeys(("real", "drafted", "found", "labelled", "invented", "none_tried"), 0)
    for label in labels:
        drafted = lines.get(label["file"])
        if drafted is None:
            continue
        real = labelled_attempts(label)
        out["drafted"] += len(drafted)
        out["real"] += sum(attempt_is_real(a, real) for a in drafted)
        out["labelled"] += len(real)
        out["found"] += sum(attempt_found(k, drafted) for k in real)
        if not real:
            out["none_tried"] += 1
            out["invented"] += bool(drafted)
    return out


def said(f: dict[str, int]) -> str:
    share = f" = {100 * f['real'] / f['drafted']:.0f} %" if f["drafted"] else ""
    return (
        f"real {f['real']}/{f['drafted']}{share}, found {f['found']}/{f['labelled']},"
        f" invented {f['invented']} of {f['none_tried']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, help="the blind and today's drafts, read once and kept here")
    parser.add_argument("--at", help="lines and the first rows only for fold A's organisations at this commit")
    parser.add_argument("--lines", action="store_true", help="every drafted line of --at's organisations (fold A)")
    args = parser.parse_args(argv)
    cached = read_once(args.cache, read_all)
    labels = labels_a()
    known = organisations_at(args.at, TRUTH) if args.at else None
    org = lambda label: label.get("org") or label["file"]  # noqa: E731
    groups = {
        "blind (drafter of each organisation's arrival)": [x for x in labels if cached["blind_of"].get(org(x))],
        "not blind (arrived before the first drafter)": [x for x in labels if not cached["blind_of"].get(org(x))],
    }
    if known is not None:
        groups = {
            **{f"{k}, at {args.at}": [x for x in v if org(x) in known] for k, v in groups.items()},
            f"collected since {args.at} (totals only)": [x for x in labels if org(x) not in known],
        }
    blind, today = attempts_of(cached["blind"]), attempts_of(cached["today"])
    for name, group in groups.items():
        print(f"{name}: {len({org(x) for x in group})} organisations, {len(group)} threads")
        for who in ("blind", "today"):
            other = ", ".join(f"{k} {r}/{n}" for k, (r, n) in fields(group, cached[who]).items())
            print(f"   {who:<6} {said(figures(group, attempts_of(cached[who])))}; {other}")
    by_day: dict[str, list[dict]] = defaultdict(list)
    for x in labels:
        if cached["blind_of"].get(org(x)):
            by_day[cached["days"].get(org(x), "?")].append(x)
    print("blind organisations by the day they were collected (blind | today):")
    for day in sorted(by_day):
        group = by_day[day]
        print(f"  {day} ({len({org(x) for x in group})} orgs): {said(figures(group, blind))}")
        print(f"  {'':<10} {'':>10}  {said(figures(group, today))}")
    if args.lines:
        held = left_out()  # held_out.tsv's (newest collection): totals count above, no line prints
        for x in labels:
            if known is not None and org(x) not in known or not cached["blind_of"].get(org(x)) or x["file"] in held:
                continue
            real = labelled_attempts(x)
            for who, lines in (("blind", blind), ("today", today)):
                for line in lines.get(x["file"]) or []:
                    mark = "REAL " if attempt_is_real(line, real) else "WRONG"
                    print(f"{who:<5} {mark} {org(x)[:20]:<20} {line[:180]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
