"""Fold A's postmortems read blind for the root cause and the fix: each organisation read by the importer of the commit
that added it to eval/postmortems/truth.jsonl (cue words and sentence model as they stood before anyone read it),
beside today's importer (measurement only; nothing here is read by the bot).

    nice -n 10 .venv/bin/python bench/fields_blind.py --cache /tmp/fields-blind.json [--at 378807e]   # ~10 min first

The postmortem counterpart of bench/conversation_attempts_blind.py for the two fields bench/attempts_blind.py leaves
out: fold A's figures are in-sample for the cue words (and for the sentence model fitted on fold A), and the blind
read says what the way they are written gives on organisations nobody had read. Scored as bench/reading_eval.py
scores a field: right when the stored text holds half of the label's phrases (items whose label has the field).
`--at`: fold A's organisations at a commit only (a later collection stays out). Fold A only: fold B is never read.
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

import bench.attempts_blind as attempts_blind  # noqa: E402
from bench.attempts_blind import read_once  # noqa: E402
from bench.attempts_by_org import organisations_at  # noqa: E402
from bench.attempts_old_readers import run_old_reader  # noqa: E402
from bot.importer.scoring import holds_half  # noqa: E402

# run in a worktree of the commit (cwd) on today's eval/postmortems: file -> the stored root cause and fix
_DUMP = """
import json, sys
from pathlib import Path, PurePath
sys.path.insert(0, ".")
from bot.importer.formats import FoundFile, parse_file
folder, files, out = Path(sys.argv[1]), json.loads(sys.argv[2]), {}
for name in files:
    parsed = parse_file(FoundFile(folder / name, PurePath(name)), team_id="bench")
    draft = parsed.drafts[0] if parsed.drafts else None
    out[name] = {"cause": draft.root_cause or "", "fix": draft.resolution or ""} if draft else {"cause": "", "fix": ""}
print(json.dumps(out))
"""


def read_all() -> dict:
    truths, first = attempts_blind.truths_a(), attempts_blind.arrivals()
    batches: dict[str, list[str]] = defaultdict(list)
    for t in truths:
        batches[first.get(t.org or t.file, "HEAD")].append(t.file)
    blind: dict[str, dict | None] = {}
    for commit, files in batches.items():
        run = run_old_reader(commit, files, script=_DUMP)
        said = json.loads(run.stdout) if run.returncode == 0 else {}
        print(f"  {commit}: {len(files)} files, {'read' if run.returncode == 0 else 'does not run'}", file=sys.stderr)
        blind.update({f: said.get(f) for f in files})
    argv = [sys.executable, "-c", _DUMP, str(attempts_blind.POSTMORTEMS), json.dumps([t.file for t in truths])]
    today = json.loads(subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    days = {org: attempts_blind._day(commit) for org, commit in first.items()}
    return {"blind": blind, "today": today, "days": days}


def scored(truths: list, stored: dict[str, dict | None]) -> dict[str, list[int]]:
    """Field -> [right, labelled] over the files the reader ran on."""
    out = {"cause": [0, 0], "fix": [0, 0]}
    for t in truths:
        said = stored.get(t.file)
        if said is None:
            continue
        for name, keywords in (("cause", t.root_cause_keywords), ("fix", t.fix_keywords)):
            if keywords:
                out[name][0] += holds_half(said[name], keywords)
                out[name][1] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, help="the blind and today's fields, read once and kept here")
    parser.add_argument("--at", help="only fold A's organisations at this commit")
    args = parser.parse_args(argv)
    cached = read_once(args.cache, read_all)
    known = organisations_at(args.at) if args.at else None
    truths = [t for t in attempts_blind.truths_a() if known is None or (t.org or t.file) in known]
    ran = [t for t in truths if cached["blind"].get(t.file) is not None]
    print(
        f"fold A{f' at {args.at}' if args.at else ''}: {len(truths)} reports, {len(ran)} read by their arrival reader"
    )
    for who in ("blind", "today"):
        print(f"  {who:<6} {_said(scored(ran, cached[who]))}")
    # the arrival reader of an early organisation is also an older reader: the latest days are the cleanest view
    by_day: dict[str, list] = defaultdict(list)
    for t in ran:
        by_day[cached.get("days", {}).get(t.org or t.file, "?")].append(t)
    print("by the day the organisation was collected: blind | today")
    for day in sorted(by_day):
        group = by_day[day]
        print(
            f"  {day} ({len(group)} reports): {_said(scored(group, cached['blind']))} | {_said(scored(group, cached['today']))}"
        )
    return 0


def _said(figures: dict[str, list[int]]) -> str:
    return ", ".join(f"{k} {r}/{n} = {100 * r / n:.0f} %" for k, (r, n) in figures.items() if n)


if __name__ == "__main__":
    sys.exit(main())
