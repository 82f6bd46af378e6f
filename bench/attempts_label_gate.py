"""A gate on stored "did not work" lines fitted on fold A's sentence labels, judged on lines no rule was written from.

    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json      # the blind and today's lines
    nice -n 10 .venv/bin/python bench/attempts_label_gate.py --cache /tmp/blind.json [--population unlabelled]
        [--shapes] [--steps] [--with-blind] [--keep 0.3 0.4 0.5 0.6] [--weights]

The gate is a logistic head (bot/reader/fit.py) over cue names, never words (words do not carry from one
organisation to another: docs/BENCHMARKS.md, issue 23, seventh pass): EXPLICIT_TRY's word, a responder and a
contrast, the STEP_OUTCOME stems inside each failure cue (or "failed-only": the cue says only that something failed),
a failure foretold, a step told as having worked, and what the vetoes of cues_attempts read (automatic, past
perfect, a plan for a failure, users' own tries, ...); `--shapes` adds the line's shape (a list, code, a handle, a
timestamp, first person, length) and `--steps` which step verbs of cues.TRIED it names. A stored line is kept when the
head gives it P >= keep.

Fitted on fold A's labelled statements (`fit_reader_attempt_gate.statements("A")`: fold B's labels never reach it):
- "statements": each statement whose quote (with its outcome_quote) holds a failure cue: positive when a person
  labelled it an action that did not work;
- "sentences": each sentence of a labelled fold-A document that holds a failure cue and some statement's quote or
  outcome quote: positive when one of them is an action that did not work, negative when none is (an observation, a
  trigger, an automatic action, a plan, a step that worked);
- "unlabelled": the same, and a sentence with a failure cue that no statement names is a negative too (the labellers
  listed the document's actions: a failure told there is the trouble, not a step's outcome);
- `--with-blind`: the other organisations' blind lines too (real or not by the document labels).

Judged one organisation out (organisation X's lines read by the head fitted without X), on: the blind lines (X as the
reader of the commit that added X stored it: no cue had been written from X); the blind lines today's bar and vetoes
still keep; today's reader on fold A (in-sample for the cue rules), one out and with the head fitted on all. Fold A
only: fold B's statements, documents and the reader's output on them are never read here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import attempts_blind  # noqa: E402
from bench.attempts_blind import found, judged, truths_a  # noqa: E402
from bench.fit_reader_attempt_gate import norm, statements  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.reader import cues_attempts as c  # noqa: E402
from bot.reader.cues import TRIED  # noqa: E402
from bot.reader.fit import fit_head  # noqa: E402
from bot.reader.narrative import _one_attempt  # noqa: E402
from bot.reader.read import sentences  # noqa: E402
from bot.reader.sentences import Head  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
FIT = {"steps": "batch", "epochs": 400, "rate": 1.0, "l2": 1.0}
FLAGS = {
    "after-over": c.AFTER_IT_WAS_OVER,
    "automatic": c.AUTOMATIC,
    "consequence": c.CONSEQUENCE,
    "figuring-out": c.FIGURING_OUT,
    "if-it-fails": c.IF_IT_FAILS,
    "looked-for-it": c.LOOKED_FOR_IT,
    "not-taken": c.NOT_TAKEN,
    "past-perfect": c.PAST_PERFECT,
    "remedy": c.REMEDY,
    "repeated": c.REPEATED,
    "system-acted": c.SYSTEM_ACTED,
    "triggered-it": c.TRIGGERED_IT,
    "used-the-service": c.USED_THE_SERVICE,
}
SHAPES = {
    "list": c.LIST_MARKER,
    "list-dash": c.LIST_DASH,
    "code": re.compile(r"`"),
    "first-person": re.compile(r"\b(?:we|i|our|my)\b", re.I),
    "handle": re.compile(r"@\w"),
    "timestamp": re.compile(r"^\W{0,4}\d{1,2}[:.h]\d\d"),
    "quoted": re.compile(r"[\"“]"),
}
READ = {"shapes": False, "steps": False}  # the feature families asked for (--shapes, --steps)


def evidence(said: str) -> set[str]:
    """Cue names the words hold; empty when they hold no failure cue (nothing the gate judges)."""
    said = said[:2000]
    cues = [m for pattern in (c.FAILED_OUTCOME, c.SAYS_THE_STEP_FAILED) for m in pattern.finditer(said)]
    if not cues:
        return set()
    out = {"cue"}
    for m in cues:
        out |= {f"outcome:{w.group().lower()}" for w in c.STEP_OUTCOME.finditer(m.group())} or {"failed-only"}
    if all(c.FORECAST.search(said[max(m.start() - 40, 0) : m.start()]) for m in cues):
        out.add("forecast")
    out |= {f"try:{attempts_blind._try_word(m.group())}" for m in c.EXPLICIT_TRY.finditer(said)}
    responder, contrast = bool(c.RESPONDER_STEP.search(said)), bool(c.CONTRAST.search(said))
    out |= {name for name, said_so in (("responder", responder), ("contrast", contrast)) if said_so}
    out |= {"responder-contrast"} if responder and contrast else set()
    out |= {"worked"} if c.told_as_worked(said) else set()
    out |= {name for name, pattern in FLAGS.items() if pattern.search(said)}
    if READ["steps"]:
        out |= {f"step:{m.group().lower().replace('-', '')[:5]}" for m in TRIED.finditer(said)} or {"step:none"}
    if READ["shapes"]:
        out |= {f"shape:{name}" for name, pattern in SHAPES.items() if pattern.search(said)}
        out |= {"shape:long"} if len(said) > 240 else set()
    return out


def labelled_rows(population: str, features: Callable[[str], set[str]] = evidence) -> list[tuple[str, set[str], bool]]:
    """(organisation, features, did not work) for fold A's labelled failure cues (the module's doc: populations);
    the features are the cue names unless another reading of the same text is asked for (attempts_word_gate's words)."""
    org_of = {t.file: t.org or t.file for t in fold_truths(None)}
    rows = []
    for file, said in statements("A").items():
        org = org_of.get(file, file)
        failed = [s for s in said if s["kind"] == "action" and s.get("outcome") == "did_not_work"]
        if population == "statements":
            for s in said:
                if evidence(text := f"{s['quote']} {s.get('outcome_quote') or ''}"):
                    rows.append((org, features(text), s in failed))
            continue
        quotes = [
            (norm(q), s in failed)
            for s in said
            for q in (s["quote"], s.get("outcome_quote") or "")
            if len(norm(q)) >= 8
        ]
        for sentence in sentences((POSTMORTEMS / file).read_text(encoding="utf-8")):
            if not evidence(sentence):
                continue
            held = [dnw for q, dnw in quotes if q in norm(sentence)]
            if any(held):
                rows.append((org, features(sentence), True))
            elif held or population == "unlabelled":
                rows.append((org, features(sentence), False))
    return rows


def fitted(rows: list[tuple[str, set[str], bool]]) -> Callable[[str | None], Head]:
    """The head fitted without one organisation's rows (None: on all of them), each fitted once."""
    cache: dict[str | None, Head] = {}

    def head(left_out: str | None) -> Head:
        if left_out not in cache:
            cache[left_out] = fit_head([(f, y) for o, f, y in rows if o != left_out], **FIT)
        return cache[left_out]

    return head


def gated(lines: dict, head: Callable[[str | None], Head], keep: float, one_out: bool) -> dict:
    org = {t.file: t.org or t.file for t in truths_a()}
    return {
        file: [
            [a, w]
            for a, w in said
            if head(org.get(file) if one_out else None).probability(sorted(evidence(f"{a} {w}"))) >= keep
        ]
        for file, said in lines.items()
    }


def kept_by_today(blind: dict) -> dict:
    """The blind lines today's bar and vetoes still keep: what a gate meets on new writing after today's rules."""
    return {
        f: [[a, w] for a, w in v if c.told_as_failed(x := {"action": a, "why_it_failed": w}) and _one_attempt(x)]
        for f, v in blind.items()
    }


def figures(lines: dict) -> str:
    rows = judged(lines)
    real = sum(r["real"] for r in rows)
    hit, total = found(lines)
    return (
        f"{real}/{len(rows)} = {100 * real / max(len(rows), 1):.0f} % (wrong {len(rows) - real}), found {hit}/{total}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True, help="attempts_blind.py's cache (fold A's lines)")
    parser.add_argument("--population", choices=("sentences", "unlabelled", "statements"), default="unlabelled")
    parser.add_argument("--shapes", action="store_true", help="the line's shape too (a list, code, length, who)")
    parser.add_argument("--steps", action="store_true", help="which step verbs (cues.TRIED) the words name")
    parser.add_argument("--with-blind", action="store_true", help="fit on the other organisations' blind lines too")
    parser.add_argument("--keep", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6])
    parser.add_argument("--weights", action="store_true", help="print the head fitted on all of fold A")
    args = parser.parse_args(argv)
    READ.update(shapes=args.shapes, steps=args.steps)
    cached = json.loads(args.cache.read_text(encoding="utf-8"))
    blind = {f: v for f, v in cached["blind"].items() if v is not None}
    rows = labelled_rows(args.population)
    print(
        f"labelled failure cues: {len(rows)} ({sum(y for *_, y in rows)} did not work), {len({o for o, *_ in rows})} orgs"
    )
    if args.with_blind:
        rows += [(r["org"], cues, r["real"]) for r in judged(blind) if (cues := evidence(r["said"]))]
    head = fitted(rows)
    if args.weights:
        print("  ".join(f"{n} {w:+.2f}" for n, w in sorted(head(None).weights.items(), key=lambda kv: kv[1])))
    kept = kept_by_today(blind)
    today = cached["today"]
    print(
        f"{'':<16} {'blind lines, one out':<38} {'blind kept by today, one out':<38} {'today, one out':<38} today in-sample"
    )
    print(f"{'rules alone':<16} {figures(blind):<38} {figures(kept):<38} {figures(today):<38} {figures(today)}")
    for keep in args.keep:
        print(
            f"{'gate P >= ' + str(keep):<16} {figures(gated(blind, head, keep, True)):<38} "
            f"{figures(gated(kept, head, keep, True)):<38} {figures(gated(today, head, keep, True)):<38} "
            f"{figures(gated(today, head, keep, False))}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
