"""The conversation drafter on fold A by collection: the threads rules were written from, and the collections that
came after them, which no rule was written from (issue 23, r23-convfound; docs/BENCHMARKS.md "How it was found in a
channel, by shape").

    .venv/bin/python bench/found_by_collection.py            # totals per group, fold A only
    .venv/bin/python bench/found_by_collection.py --misses   # and DEV's misses (how found, attempts): DEV only
    .venv/bin/python bench/found_by_collection.py --cause    # the root cause, by r23-f13's groups (DEV, HELD, C17)
    .venv/bin/python bench/found_by_collection.py --fix      # the fix, by r23-convfix's groups (DEV, C16, C17)
    .venv/bin/python bench/found_by_collection.py --attempts # failed attempts, by r23-attgate's groups (G0, HELD, C16, C17)

One organisation out says nothing of cue words written by hand, so the groups are by time, each the organisations fold
A gained between two commits: DEV, fold A as at 99c6db6 (261 conversations, read while writing rules); HELD, the
fourteenth collection (c14-conv, 39: held out, totals only); C15, the fifteenth (81, frozen at 4e303fa: a blind check,
read once for totals). With `--cause` (the conversation's root cause, issue 23, r23-f13, "The three cause lists of
the chat fallbacks kept"): DEV, fold A as at 04bed25 (G0 + c9 + c12, 261 conversations: the lines cause rules were
written from); HELD, the fourteenth to sixteenth collections (c14 + c15 + c16 to 080b5c0, 200 conversations, totals
only, read several times); C17, the seventeenth (81, frozen at e7eedde). With `--fix` (the conversation's fix, issue 23,
r23-convfix): DEV, fold A as at 4e303fa (through the fifteenth collection: the threads fix rules are written from;
`--misses` lists its fix misses and wrong fixes); C16, the sixteenth (to 080b5c0, read once by several); C17, the
seventeenth (frozen at e7eedde). With `--attempts` (failed attempts, issue 23, r23-attgate, "Conversation attempts: a
learned 'step someone took'"): G0, fold A as at e85f757 (the 114 threads the conversation heads were fitted on); HELD,
what fold A gained to 4e303fa (c9 + c12 + c14 + c15, 267: r23-attgate's development threads); C16 (to 080b5c0); C17
(frozen at e7eedde). The drafter is the offline one with the
shipped heads, in-process (bench/fit_reader.py `evaluate`, the sandbox bench's scoring). Fold B is never read here.
bench/held_out.tsv's threads (the newest collection) are left out of every group (bench/fit_reader.py
`conversations`); `--include-held-out` counts them in their organisations' groups (a judge's totals: never with
`--misses`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fit_reader import conversations, evaluate, orgs_as_at, use_left_out  # noqa: E402
from bench.reading_eval_conversations import figure, held_out_arguments, left_out  # noqa: E402
from bot.importer.scoring import Ratio  # noqa: E402
from bot.reader.conversation import shipped_models  # noqa: E402

# (group, the commit fold A's organisations are read at); each group is what fold A gained since the one before
GROUPS = (("DEV", "99c6db6"), ("HELD", "ede1818"), ("C15", "4e303fa"))
SHOWN = ("found", "found_filled_right", "found_where_none", "attempts_real", "attempts_found", "invented_attempts",
         "root_cause", "fix")  # fmt: skip
CAUSE_GROUPS = (("DEV", "04bed25"), ("HELD", "080b5c0"), ("C17", "e7eedde"))
FIX_GROUPS = (("DEV", "4e303fa"), ("C16", "080b5c0"), ("C17", "e7eedde"))
ATTEMPT_GROUPS = (("G0", "e85f757"), ("HELD", "4e303fa"), ("C16", "080b5c0"), ("C17", "e7eedde"))
ATTEMPT_SHOWN = ("attempts_real", "attempts_found", "invented_attempts", "root_cause", "fix", "found")
FIX_SHOWN = ("fix", "fix_drafted_right", "fix_where_none", "root_cause", "attempts_real", "attempts_found")
CAUSE_SHOWN = ("root_cause", "root_cause_drafted_right", "cause_where_none", "fix", "attempts_real", "attempts_found",
               "invented_attempts")  # fmt: skip


def groups(by: tuple[tuple[str, str], ...] = GROUPS) -> dict[str, list[tuple[dict, dict]]]:
    data = conversations("A")
    seen: frozenset[str] = frozenset()
    out = {}
    for name, commit in by:
        orgs = orgs_as_at("A", commit)
        out[name] = [d for d in data if d[0]["org"] in orgs and d[0]["org"] not in seen]
        seen |= orgs
    return out


def cells(scores: dict[str, Ratio], shown: tuple[str, ...]) -> str:
    """One group's figures as the sandbox bench's table says them: right/total for a field, and for an error row
    (invented attempts, a cause, fix or how found drafted where the label has none) the errors, "n of total"."""
    return ", ".join(figure(key, scores[key]) for key in shown if key in scores)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="DEV's misses (never the held-out groups')")
    parser.add_argument("--cause", action="store_true", help="the root cause, by r23-f13's groups (DEV, HELD, C17)")
    parser.add_argument("--fix", action="store_true", help="the fix, by r23-convfix's groups (DEV, C16, C17)")
    parser.add_argument("--attempts", action="store_true", help="failed attempts, by r23-attgate's groups")
    held_out_arguments(parser)
    args = parser.parse_args(argv)
    if args.include_held_out and args.misses:
        parser.error("--misses with --include-held-out would name a held-out thread's miss")
    use_left_out(left_out(args.include_held_out, args.held_out))
    models = shipped_models()
    shown, by = (
        (FIX_SHOWN, FIX_GROUPS) if args.fix
        else (CAUSE_SHOWN, CAUSE_GROUPS) if args.cause
        else (ATTEMPT_SHOWN, ATTEMPT_GROUPS) if args.attempts
        else (SHOWN, GROUPS)
    )  # fmt: skip
    for name, data in groups(by).items():
        scores = evaluate(data, models)
        print(f"{name} ({len(data)} conversations): {cells(scores, shown)}")
        if args.misses and name == "DEV":
            for key in ("fix", "fix_drafted_right", "fix_where_none") if args.fix else ("found", "attempts_found"):
                for miss in scores[key].misses:
                    print(f"  miss DEV {key}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
