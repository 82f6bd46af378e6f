"""The conversation's fix head with the cue groups that read a step told without its subject (`opening_past`: "Booted
the server") or in the passive of any verb (`passive_past`: "Config is updated"), judged on fold A threads no rule was
written from (issue 23, r23-fixhead; docs/BENCHMARKS.md "The conversation's fix: a step told without its subject").
The two groups are the candidate's, not main's: `git checkout 9cb23f9 -- bot` (branch r23-fixhead-cand) before running
it, `git checkout main -- bot` after; on main's reader the groups never fire and `new`/`offset` read as `refit`/`main`.

    .venv/bin/python bench/fix_head.py --readings offset                   # DEV one out, ~3 min
    .venv/bin/python bench/fix_head.py                                     # and refit, new: ~10 min
    .venv/bin/python bench/fix_head.py --readings offset --skip-dev --judge   # the held-out threads, once
    .venv/bin/python bench/fix_head.py --readings offset --skip-dev --fold-b  # fold B, totals once
    .venv/bin/python bench/fix_head.py --out /tmp/chat.json   # the heads with the fix head fitted on DEV (`new`)
    .venv/bin/python bench/fix_head.py --held path/to/c20-files.txt …      # another list held out besides held_out.tsv's

DEV is fold A without the held-out threads: bench/held_out.tsv's (the newest collection: left out by default,
bench/reading_eval_conversations.py `left_out`) and those of `--held` (another list of conversation file names, one a
line, each optionally after its fold and a tab: /work/c20-files.txt's form; a name with no label is an error). The
held-out threads are fold A's of those lists, read only by `--judge` (totals); fold B is read without
bench/held_out.tsv's threads (`--include-held-out`: with them, totals only). The readings, the
drafter the offline one in-process (bench/fit_reader.py `evaluate`, the sandbox bench's scoring):

- main: the shipped heads, the fix gate without the two groups (`SAYS["fix"]` as main has it);
- refit: the fix head refitted on DEV (truth.jsonl's phrases, bench/fit_reader.py's recipe), the two groups neither
  weighed nor opening the gate: what a refit alone does;
- new: the fix head refitted on DEV with the two groups weighed and opening the gate;
- offset: the shipped fix head with only the two groups' weights fitted on DEV (the shipped score the offset, the
  recipe's class balance, L2 and steps): a sentence without either group scores as on main.

On DEV the fitted readings are read one organisation out (each organisation drafted by a fix head fitted on the
others); on the held-out threads and fold B, by the head fitted on all of DEV. The cause and attempt heads are the
shipped ones throughout. Each reading prints the fix's totals and how many threads it wins and loses against main
(by name with `--misses`, DEV's only: never the held-out threads' or fold B's).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.fit as reader_fit  # noqa: E402
from bench.fit_reader import EPOCHS, KEEP, L2, RATE, THRESHOLDS, conversations, evaluate, fit, is_kind, messages  # noqa: E402
from bench.reading_eval_conversations import HELD_OUT, figure, left_out  # noqa: E402
from bot.importer.scoring import Ratio  # noqa: E402
from bot.reader import conversation  # noqa: E402
from bot.reader.conversation_features import sentences  # noqa: E402
from bot.reader.sentences import Head, SentenceModel  # noqa: E402

NEW = frozenset({"opening_past", "passive_past"})
SHOWN = ("fix", "fix_drafted_right", "fix_where_none", "root_cause", "attempts_real", "attempts_found",
         "invented_attempts", "found")  # fmt: skip
READINGS = ("refit", "new", "offset")
Data = list[tuple[dict[str, Any], dict]]
Rows = dict[str, list[tuple[frozenset[str], bool]]]  # each conversation's sentences: (features, holds the fix)


def fix_rows(data: Data) -> Rows:
    """Each conversation's sentences as the fix head is fitted on them, read once."""
    return {
        label["file"]: [(s.features, is_kind("fix", s.text, label)) for s in sentences(messages(thread))]
        for label, thread in data
    }


def fitted(rows: Rows, files: Collection[str], weighed: bool, said: str) -> SentenceModel:
    """The shipped heads with the fix head fitted on `files`' sentences (the two groups left out unless `weighed`)."""
    examples = [(f if weighed else f - NEW, label) for name in files for f, label in rows[name]]
    heads = dict(conversation.shipped_models().heads)
    heads["fix"] = fit(examples, threshold=THRESHOLDS["fix"], keep=KEEP["fix"])
    return SentenceModel(heads, f"{said}: the fix head refitted ({len(files)} conversations), the others as shipped")


def offset_fitted(rows: Rows, files: Collection[str], said: str) -> SentenceModel:
    """The shipped heads, the fix head's coefficients as shipped and only the two groups' weights fitted on `files`'
    sentences (bot/reader/fit.py's batch recipe, bench/fit_reader.py's L2, steps and rate, the shipped head's score
    each sentence's offset): a sentence without either group scores as on main. No sentence holding the fix (or none
    not holding it) is a clear error: there is nothing to weigh the groups by."""
    shipped = conversation.shipped_models().heads["fix"]
    examples = [(f & NEW, label) for name in files for f, label in rows[name]]
    offsets = [
        shipped.bias + sum(shipped.weights.get(x, 0.0) for x in f - NEW) for name in files for f, _ in rows[name]
    ]
    try:
        fitted = reader_fit.fit_head(examples, steps="batch", epochs=EPOCHS, rate=RATE, l2=L2, offsets=offsets)
    except ValueError as error:
        raise SystemExit(
            f"{said}: the two groups' weights cannot be fitted on {len(files)} conversations: {error}"
        ) from None
    heads = dict(conversation.shipped_models().heads)
    weights = dict(shipped.weights) | {name: round(fitted.weights.get(name, 0.0), 4) for name in sorted(NEW)}
    heads["fix"] = Head(shipped.bias, weights, shipped.threshold, shipped.keep)
    return SentenceModel(
        heads, f"{said}: the fix head as shipped, {' and '.join(sorted(NEW))} weighed ({len(files)} conversations)"
    )


def gated(weighed: bool) -> Callable[[], None]:
    """The fix gate with the two groups (`weighed`) or without them, as main has it; returns the undo."""
    before = conversation.SAYS["fix"]
    conversation.SAYS["fix"] = before | NEW if weighed else before - NEW

    def undo() -> None:
        conversation.SAYS["fix"] = before

    return undo


def drafted(data: Data, models: SentenceModel, weighed: bool) -> dict[str, Ratio]:
    undo = gated(weighed)
    try:
        return evaluate(data, models)
    finally:
        undo()


def model_for(reading: str, rows: Rows, files: Collection[str], said: str) -> SentenceModel:
    if reading == "offset":
        return offset_fitted(rows, files, said)
    return fitted(rows, files, reading == "new", said)


def one_out(data: Data, rows: Rows, reading: str) -> dict[str, Ratio]:
    """Each organisation drafted by a fix head fitted on the rest of `data`, summed."""
    weighed = reading != "refit"
    merged: dict[str, Ratio] = {}
    for org in sorted({label["org"] for label, _ in data}):
        rest = [label["file"] for label, _ in data if label["org"] != org]
        models = model_for(reading, rows, rest, f"DEV without {org}")
        for name, ratio in drafted([d for d in data if d[0]["org"] == org], models, weighed).items():
            total = merged.setdefault(name, Ratio())
            total.right, total.total = total.right + ratio.right, total.total + ratio.total
            total.misses += ratio.misses
    return merged


def fix_right(data: Data, scores: dict[str, Ratio]) -> frozenset[str]:
    missed = set(scores["fix"].misses)
    return frozenset(label["file"] for label, _ in data if label["fix_keywords"] and label["file"] not in missed)


def report(name: str, data: Data, scores: dict[str, Ratio], main: dict[str, Ratio], misses: bool) -> None:
    wrong = scores["fix_drafted_right"].total - scores["fix_drafted_right"].right
    won, lost = fix_right(data, scores) - fix_right(data, main), fix_right(data, main) - fix_right(data, scores)
    print(f"  {name:<6} " + ", ".join(figure(k, scores[k]) for k in SHOWN if k in scores), end="")
    print(f"; fix drafted wrong {wrong}; fix won {len(won)}, lost {len(lost)}")
    if misses:
        for file in sorted(won):
            print(f"    won  {file}")
        for file in sorted(lost):
            print(f"    lost {file}")


def read_group(
    name: str, data: Data, dev_rows: Rows, dev: Data, loo: bool, misses: bool, readings: Collection[str] = READINGS
) -> None:
    print(f"{name} ({len(data)} conversations)")
    main = drafted(data, conversation.shipped_models(), weighed=False)
    report("main", data, main, main, misses)
    for reading in readings:
        if loo:
            scores = one_out(data, dev_rows, reading)
        else:
            models = model_for(reading, dev_rows, [lb["file"] for lb, _ in dev], "DEV")
            scores = drafted(data, models, reading != "refit")
        report(reading, data, scores, main, misses)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held", type=Path, action="append", default=[], help="another list held out (fold TAB file)")
    parser.add_argument("--include-held-out", action="store_true", help="fold B with the held-out threads (totals)")
    parser.add_argument("--judge", action="store_true", help="also the held-out threads (totals only), once")
    parser.add_argument("--fold-b", action="store_true", help="also fold B (totals only), once, after the decision")
    parser.add_argument("--misses", action="store_true", help="DEV's threads won and lost against main, by name")
    parser.add_argument("--readings", default=",".join(READINGS), help="beside main, which of refit, new, offset")
    parser.add_argument("--skip-dev", action="store_true", help="not DEV's one-out figures (the slow part)")
    parser.add_argument("--out", type=Path, help="write the heads with the fix head fitted on DEV, the groups weighed")
    args = parser.parse_args(argv)
    readings = [r for r in args.readings.split(",") if r]
    if set(readings) - set(READINGS):
        parser.error(f"--readings: of {', '.join(READINGS)}")
    held = left_out(lists=args.held)
    fold_a = conversations("A", leave_out=frozenset())
    dev = [d for d in fold_a if d[0]["file"] not in held]
    rows = fix_rows(dev)
    if args.out:
        lists = ", ".join(path.name for path in [HELD_OUT, *args.held])
        models = fitted(rows, list(rows), True, f"eval/conversations fold A without {lists}'s threads")
        args.out.write_text(json.dumps(models.as_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out} ({models.fitted_on})")
        return 0
    if not args.skip_dev:
        read_group("DEV, one organisation out", dev, rows, dev, loo=True, misses=args.misses, readings=readings)
    if args.judge:
        read_group(
            "HELD", [d for d in fold_a if d[0]["file"] in held], rows, dev, loo=False, misses=False, readings=readings
        )
    if args.fold_b:
        fold_b = conversations("B", leave_out=left_out(args.include_held_out, args.held))
        read_group("fold B", fold_b, rows, dev, loo=False, misses=False, readings=readings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
