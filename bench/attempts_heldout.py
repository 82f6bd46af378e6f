"""Failed attempts on fold A's held-out postmortems: the files collected after a commit, read by that commit's reader
("before") and by today's ("after"), totals only.

    nice -n 10 .venv/bin/python bench/attempts_heldout.py --base 864e579 [--reader <commit>]   # ~1 min: a git worktree
                                                                                               # for the old reader

A change to the reader is tuned on fold A as it stood at `--base`; the fold-A postmortems collected since (new
organisations, labelled blind by the collectors) were read by no rule of it. Scoring them once, after the change is
final, before against after, is fold A's own out-of-sample check (the rule to ship is written before, in the author's
notes). Totals only: no file, line or organisation is printed, so the held-out set stays held out for the next change
that has not read it either. Fold A only: fold B is never read here (`bench/reading_eval.py --quick` gives its totals).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_old_readers import run_old_reader  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import Truth, attempt_found, attempt_is_real, attempt_text, holds_half  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"


def held_out(base: str) -> list[Truth]:
    """Fold A's incident reports whose file was not in eval/postmortems at `base`."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{base}:eval/postmortems"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    # a judge: bench/held_out_postmortems.tsv's files are what it reads
    return [t for t in fold_truths("A", include_held_out=True, incidents_only=True) if t.file not in set(listed)]


def totals(truths: list[Truth], lines: dict[str, list[list[str]]]) -> dict[str, int]:
    """Stored lines, the real ones among them, the ones that hold a labelled non-attempt, labelled attempts found."""
    out = dict.fromkeys(("stored", "real", "non_attempt", "found", "labelled"), 0)
    for t in truths:
        texts = [attempt_text(action, why) for action, why in lines.get(t.file) or []]
        for text in texts:
            real = attempt_is_real(text, t.failed_attempts)
            out["stored"] += 1
            out["real"] += real
            out["non_attempt"] += not real and any(holds_half(text, keys) for keys, _ in t.not_attempts)
        out["found"] += sum(attempt_found(k, texts) for k in t.failed_attempts)
        out["labelled"] += len(t.failed_attempts)
    return out


def today(truths: list[Truth]) -> dict[str, list[list[str]]]:
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {f: [[a.action, a.why_it_failed] for a in d.failed_attempts] if d else [] for f, d in drafts.items()}


def _line(name: str, t: dict[str, int]) -> str:
    share = f" = {100 * t['real'] / t['stored']:.0f} %" if t["stored"] else ""
    return (
        f"{name:<7} stored real {t['real']}/{t['stored']}{share}, found {t['found']}/{t['labelled']},"
        f" non-attempts stored {t['non_attempt']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the commit the change was tuned at: its files are not held out")
    parser.add_argument("--reader", help="the commit whose reader is 'before' (default: --base)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    truths = held_out(args.base)
    run = run_old_reader(args.reader or args.base, [t.file for t in truths])
    run.check_returncode()
    before, after = totals(truths, json.loads(run.stdout)), totals(truths, today(truths))
    orgs = len({t.org or t.file for t in truths})
    if args.json:
        print(json.dumps({"reports": len(truths), "organisations": orgs, "before": before, "after": after}))
        return 0
    print(f"fold A held out (files new since {args.base}): {len(truths)} reports, {orgs} organisations")
    print(_line("before", before))
    print(_line("after", after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
