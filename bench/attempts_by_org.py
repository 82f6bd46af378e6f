"""Failed attempts per organisation of fold A, and whether a change to the reader pays on
organisations it was not chosen on (leave one organisation out inside fold A).

    .venv/bin/python bench/attempts_by_org.py --dump /tmp/before.json     # on the code before a change
    .venv/bin/python bench/attempts_by_org.py --against /tmp/before.json  # on the code after it
    .venv/bin/python bench/attempts_by_org.py --halves --since 3109e1c    # totals per half, and for organisations new since a commit

The halves are bench/fit_reader.py's `halves` (fold A's organisations sorted by name, "write" the even
places, "measure" the odd ones), the one split every bench of the reader uses: a rule written from the
write half's text is judged on the measure half's figures. (Until this pass this bench cut its own
halves, S1/S2, by the sha1 of each name: docs/BENCHMARKS.md's earlier S1/S2 figures are that split.)

A cue-word change is chosen by reading fold A; its figure on fold A is in-sample. The tuning signal
here is the change judged organisation by organisation: for each organisation of fold A, the change
is "kept" when it pays on the other organisations (real attempts newly found minus stored attempts
that are not real, summed over them), and then counts what it does to the one left out. A change
that only helps the organisation whose wording it was written for scores 0 this way; one that helps
across organisations scores what it gains on each. Fold A only: fold B is never read here.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fit_reader import halves  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import attempt_found, attempt_is_real, attempt_text  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
WRONG_COST = 1  # a wrong "did not work" line costs what a real one found gains (precision first: never less)


def stored_attempts(fold: str = "A") -> dict[str, list[str]]:
    """File → the attempts the importer stores (action and why as one text), fold A's files only."""
    truths = fold_truths(fold, incidents_only=True)
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {
        t.file: [attempt_text(a.action, a.why_it_failed) for a in d.failed_attempts]
        if (d := drafts.get(t.file))
        else []
        for t in truths
    }


def by_org(stored: dict[str, list[str]]) -> dict[str, dict[str, int]]:
    """Organisation → stored real, stored wrong, labelled attempts found, labelled attempts."""
    figures: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(("real", "wrong", "found", "labelled"), 0))
    for truth in fold_truths(None):
        if truth.file not in stored:
            continue
        row, texts = figures[truth.org or truth.file], stored[truth.file]
        for text in texts:
            row["real" if attempt_is_real(text, truth.failed_attempts) else "wrong"] += 1
        row["found"] += sum(attempt_found(k, texts) for k in truth.failed_attempts)
        row["labelled"] += len(truth.failed_attempts)
    return dict(figures)


def organisations_at(commit: str, truth: str = "eval/postmortems/truth.jsonl") -> set[str]:
    """Fold A's organisations in `truth` (a path in the repository) as it was at `commit`: the ones after it were
    collected since."""
    said = subprocess.run(
        ["git", "show", f"{commit}:{truth}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=POSTMORTEMS,
    ).stdout
    return {row.get("org") or row["file"] for row in map(json.loads, said.splitlines()) if row["fold"] == "A"}


def totals(rows: list[dict[str, int]]) -> str:
    t = {k: sum(r[k] for r in rows) for k in ("real", "wrong", "found", "labelled")}
    return f"stored real {t['real']}/{t['real'] + t['wrong']}, found {t['found']}/{t['labelled']}"


def gain(before: dict[str, int], after: dict[str, int]) -> int:
    return (after["found"] - before["found"]) - WRONG_COST * (after["wrong"] - before["wrong"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dump", type=Path, help="write fold A's stored attempts here (the code before a change)")
    parser.add_argument("--against", type=Path, help="a --dump of the code before: per-organisation change, LOO value")
    parser.add_argument(
        "--halves", action="store_true", help="totals for each half of the organisations (write, measure)"
    )
    parser.add_argument("--since", help="totals for the organisations new since this commit, and for the others")
    args = parser.parse_args(argv)
    stored = stored_attempts()
    if args.dump:
        args.dump.write_text(json.dumps(stored, indent=1, ensure_ascii=False), encoding="utf-8")
    after = by_org(stored)
    before = by_org(json.loads(args.against.read_text(encoding="utf-8"))) if args.against else after
    print(f"{'organisation (fold A)':<44} {'real':>9} {'wrong':>9} {'found':>11}  gain")
    for org in sorted(after):
        b, a = before[org], after[org]
        cells = [f"{b[k]}→{a[k]}" if b[k] != a[k] else str(a[k]) for k in ("real", "wrong")]
        found = f"{b['found']}→{a['found']}" if b["found"] != a["found"] else str(a["found"])
        print(f"{org[:44]:<44} {cells[0]:>9} {cells[1]:>9} {found + '/' + str(a['labelled']):>11}  {gain(b, a):+d}")
    total = {k: sum(r[k] for r in after.values()) for k in ("real", "wrong", "found", "labelled")}
    print(
        f"fold A: stored real {total['real']}/{total['real'] + total['wrong']}, found {total['found']}/{total['labelled']}"
    )
    if args.halves:
        for name, members in halves(after).items():
            print(f"half {name}: {totals([r for org, r in after.items() if org in members])}")
    if args.since:
        old = organisations_at(args.since)
        print(f"organisations new since {args.since}: {totals([r for org, r in after.items() if org not in old])}")
        print(f"the others: {totals([r for org, r in after.items() if org in old])}")
    if args.against:
        gains = {org: gain(before[org], after[org]) for org in after}
        kept = {org: sum(g for o, g in gains.items() if o != org) > 0 for org in gains}
        loo = sum(gains[org] for org in gains if kept[org])
        helped = sum(g > 0 for g in gains.values())
        hurt = sum(g < 0 for g in gains.values())
        print(
            f"change: in-sample gain {sum(gains.values()):+d} ({helped} organisations helped, {hurt} hurt); "
            f"leave-one-organisation-out gain {loo:+d} (kept for {sum(kept.values())} of {len(kept)} left out)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
