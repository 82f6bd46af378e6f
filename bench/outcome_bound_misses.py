"""Postmortem failed attempts whose labelled outcome, told next to its step, holds a failure word the reader knows
and is still missed (issue 23, r23-pmbind; docs/BENCHMARKS.md "Failure-word outcomes next to their step ...").

r23-outneg's `bench/outcome_linked.py --ceiling` counted fold A's labelled did_not_work outcomes next to their step
(its N rows) against the fitted bar's binding: 15 hold a failure word (`failure_cues`) and are missed. This bench says
where they stand, by the reader's own cue groups and by `bench.fit_reader.halves` (counts only: no text printed), and
judges a change to the reader on what bench/attempts_by_org.py does not: every other field of every draft, and how
many added lines carry a labelled outcome quote as their why (`attempt_is_real` reads the step's words too).

    nice -n 10 .venv/bin/python bench/outcome_bound_misses.py --where                  # the 15, by cue group and half
    nice -n 10 .venv/bin/python bench/outcome_bound_misses.py --dump /tmp/before.json  # the code before a change
    nice -n 10 .venv/bin/python bench/outcome_bound_misses.py --against /tmp/before.json  # the code after it
    nice -n 10 .venv/bin/python bench/attempts_by_org.py --against /tmp/attempts.json --halves  # real / found by half

Fold A only: fold B is never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.outcome_linked as ol  # noqa: E402
from bench.fit_reader import halves  # noqa: E402
from bench.fit_reader_attempt_gate import norm  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.importer.scoring import attempt_is_real  # noqa: E402
from bot.reader import narrative  # noqa: E402
from bot.reader.cues import RESOLVED, TRIED  # noqa: E402
from bot.reader.cues_attempts import (  # noqa: E402
    EXPLICIT_TRY,
    REFERS_BACK,
    STEP_OUTCOME,
    WE_TRIED,
    failure_cues,
    told_as_failed,
)

HOLDS_A_FAILURE_WORD = "the outcome holds a failure word"  # narrative.outcome_unbound's reason


def standing(step: str, outcome: str, where: str) -> list[str]:
    """What the reader's cue groups say of a (step, outcome) pair the cue paths did not bind."""
    said = {
        f"where: {where}": True,
        "the step is a responder's (EXPLICIT_TRY, or WE_TRIED with TRIED)": bool(
            EXPLICIT_TRY.search(step) or WE_TRIED.search(step) and TRIED.search(step)
        ),
        "the outcome tells a step of its own (TRIED)": bool(TRIED.search(outcome)),
        "the outcome tells a recovery (RESOLVED)": bool(RESOLVED.search(outcome)),
        "the outcome opens referring back (REFERS_BACK)": bool(REFERS_BACK.match(outcome)),
        "its failure says the step had no effect or the trouble stayed (STEP_OUTCOME)": any(
            STEP_OUTCOME.search(m.group()) for m in failure_cues(outcome)
        ),
        "told_as_failed would pass the pair": told_as_failed({"action": step, "why_it_failed": outcome}),
    }
    return [k for k, v in said.items() if v]


def why_is_outcome(text: str, labelled: list[dict]) -> bool:
    """The stored line (action and why as one text) holds one of the document's labelled did_not_work outcome quotes
    (of three characters or more: a shorter quote matches anything)."""
    said = norm(text)
    quotes = (
        norm(s.get("outcome_quote", ""))
        for s in labelled
        if s.get("kind") == "action" and s.get("outcome") == "did_not_work"
    )
    return any(len(q) >= 3 and q in said for q in quotes)


def where() -> dict:
    truths = fold_truths(None)
    orgs = {t.file: t.org or t.file for t in truths}
    labels = ol.postmortem_statements("A")
    base = ol.read_fold("A", None)
    stored = {f: " ".join(norm(t) for t in texts) for f, (texts, _) in base.items()}
    half = {o: name for name, members in halves({orgs[f] for f in base}).items() for o in members}
    counts: Counter = Counter()
    for r in ol.neighbour_rows(orgs, labels):
        step, outcome, at = r["step"], r["pair"][1], r["pair"][2]
        if not r["label"] or narrative.outcome_unbound(step, outcome) != HOLDS_A_FAILURE_WORD:
            continue
        if norm(r["pair"][0]) in stored.get(r["file"], ""):
            continue  # found today
        h = half[r["org"]]
        counts[("missed", h)] += 1
        counts[("the document stores another line", h)] += bool(base[r["file"]][0])
        for said in standing(step, outcome, at):
            counts[(said, h)] += 1
    return {f"{k} | {h}": v for (k, h), v in sorted(counts.items())}


def compare(before: dict, after: dict, labels: dict[str, list[dict]], truths: dict) -> dict:
    """Lines added and removed, of them real and with the labelled outcome as why; drafts whose other fields moved."""
    added = [(f, t) for f in after for t in after[f][0] if t not in before.get(f, [[], None])[0]]
    removed = [(f, t) for f in before for t in before[f][0] if t not in after.get(f, [[], None])[0]]
    return {
        "lines_added": len(added),
        "lines_removed": len(removed),
        "added_real": sum(attempt_is_real(t, truths[f].failed_attempts) for f, t in added),
        "added_why_is_the_labelled_outcome": sum(why_is_outcome(t, labels.get(f, [])) for f, t in added),
        "drafts_other_fields_changed": sum(before[f][1] != after.get(f, [None, None])[1] for f in before),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--where", action="store_true", help="the missed failure-word outcomes, by cue group and half")
    parser.add_argument("--dump", type=Path, help="write fold A's drafts (attempts, other fields) here")
    parser.add_argument("--against", type=Path, help="a --dump of the code before: what the change did")
    args = parser.parse_args()
    if args.where:
        print(json.dumps(where(), indent=1))
        return
    read = {f: [texts, other] for f, (texts, other) in ol.read_fold("A", None).items()}
    if args.dump:
        args.dump.write_text(json.dumps(read, ensure_ascii=False), encoding="utf-8")
    if args.against:
        truths = {t.file: t for t in fold_truths(None)}
        before = json.loads(args.against.read_text(encoding="utf-8"))
        print(json.dumps(compare(before, read, ol.postmortem_statements("A"), truths), indent=1))


if __name__ == "__main__":
    main()
