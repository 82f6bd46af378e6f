"""How well the bot reads real incident text, per field and per organisation fold.

    .venv/bin/python bench/reading_eval.py [--json] [--misses [A|B]] [--quick]   # misses: fold A unless named; --json
                                                                                  # holds only those misses
    .venv/bin/python bench/reading_eval.py --quick --include-held-out   # a judge's verdict: the held-out files' totals
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/reading_eval.py --drafter
    .venv/bin/python bench/reading_eval.py --weights /tmp/reader_sentences_B.json   # the swap (fit: see below)

Fold A is in-sample (today's heuristics were tuned on its organisations), fold B is out-of-sample
(eval/README.md); both are printed side by side for every field. Both folds are read without the files of
bench/held_out_postmortems.tsv (the live postmortem judges; bench/import_postmortems.py `fold_truths`, the one
loader), so fold A is the tuning documents alone (review F67: a fold A figure taken before a judge held the judge's
totals). `--include-held-out` adds those files as a column of their own, "held out": totals only, never their misses
(the importer only; the drafter's held-out threads are bench/reading_eval_conversations.py's flag). Between them, fold A one
organisation out: each organisation of fold A read with the sentence model (bot/reader/sentences.py,
the fitted part of the root cause and the fix) fitted on fold A's other organisations, as
bench/fields_by_org.py --sentence-model-loo does, by the procedure the shipped file records it was
fitted with (its heads' `fitted_with`: e.g. the cause threshold given, not chosen), so a fitted field's
fold A figure is not only the in-sample one (~5 min on 2 shared cores; --quick leaves that column out). Each reader is a function taking
a fold and returning its field scores (`Ratio`s, scored by the one rule in bot/importer/scoring.py);
`READERS` lists them. Today: the importer on eval/postmortems, read the way `incident-memory import`
reads (bench/import_postmortems.py: offline, no database, no model); with --drafter, the resolution
drafter on eval/conversations too, end to end through the sandbox (bench/reading_eval_conversations.py:
`/incident resolve` on each conversation's channel; needs DATABASE_URL, about a minute; its `--misses` never names
a thread of bench/held_out.tsv, the newest collection's, whose totals count there).

A field's denominator is the items whose label has that field. Rows marked "errors" count
mistakes (lower is better): stored attempts that are labelled plans / follow-ups / critiques /
recovery steps / metadata, and items whose stored fix or cause holds a metadata line; that last one also in
the cause, in the fix and by kind (duration, impact, date or time, status, … named by the reader's own
detectors, bot.reader.metadata_kind): so a fold's leaks are told by kind from its totals alone.

--weights PATH reads the postmortems with the sentence model in PATH (bench/fit_reader_sentences.py
--fold B --out PATH) instead of the shipped bot/data/reader_sentences.json (fitted on fold A): the
swap, where fold A is out of sample and the fold the model was fitted on in-sample (no one-out
column: that is fold A's own fit). The shipped model is read again afterwards; nothing the bot reads changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.import_postmortems import fold_truths, held_out_postmortems, read_corpus, withheld  # noqa: E402
from bench.reading_eval_conversations import drafter_scores  # noqa: E402
from bot.importer.scoring import Ratio, Scores, Truth, score  # noqa: E402
from bot.reader.metadata_kind import METADATA_KINDS  # noqa: E402
from bot.reader.sentences import SentenceModel, use_model  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
FOLDS = ("A", "B")
# fold A with the fitted sentence model one organisation out (the importer only; see the docstring)
ONE_OUT = "A, one organisation out"
# bench/held_out_postmortems.tsv's files, whatever their fold: a column only with --include-held-out (the importer only)
HELD_OUT = "held out"
COLUMNS = {"A": "fold A (in-sample)", ONE_OUT: "A one org. out", "B": "fold B (out-of-sample)", HELD_OUT: "held out"}
FieldScores = dict[str, Ratio]
Reader = Callable[[str], FieldScores]

# display name of each field, in print order; a reader may return any subset (or add its own)
FIELDS = {
    "imported": "imported",
    "not_incidents_skipped": "non-incidents skipped",
    "date": "date ±1 day",
    "root_cause": "root cause",
    "fix": "fix",
    "attempts_real": "stored attempts real",
    "attempts_found": "real attempts found",
    "found": "found how",
    "found_filled_right": "found how filled → right",
    "found_where_none": "errors: found how where none",
    "non_attempts_stored": "errors: non-attempts stored",
    "metadata_as_fix_or_cause": "errors: metadata as fix/cause",
    "metadata_in_cause": "  of which in the cause",
    "metadata_in_fix": "  of which in the fix",
}
# the same leaks by kind (bot.reader.metadata_kind; an item storing two kinds counts under both): printed only
# where a column has one, always in --json
BY_KIND = {f"metadata_by_kind.{kind}": f"  of which {kind}" for kind in METADATA_KINDS}
FIELDS |= BY_KIND
# kept as clean shares; shown as counts (invented_attempts, drafted_nothing: the drafter's own rows, outside FIELDS)
ERROR_FIELDS = {"non_attempts_stored", "metadata_as_fix_or_cause", "metadata_in_cause", "metadata_in_fix"}
ERROR_FIELDS |= BY_KIND.keys() | {"invented_attempts", "drafted_nothing", "found_where_none"}


@cache
def _importer_drafts() -> tuple[dict, dict]:
    drafts, reasons, _ = read_corpus(POSTMORTEMS)
    return drafts, reasons


@cache
def _one_out_drafts() -> dict:
    from bench.fields_by_org import held_out_drafts

    return held_out_drafts(_truths("A"), {}, say=lambda line: print(line, file=sys.stderr))


def _truths(column: str) -> list[Truth]:
    """The labels a column scores: a fold's without the held-out files; HELD_OUT: those files alone."""
    if column != HELD_OUT:
        return fold_truths("A" if column == ONE_OUT else column, folder=POSTMORTEMS)
    held = held_out_postmortems()
    return [t for t in fold_truths(None, include_held_out=True, folder=POSTMORTEMS) if t.file in held]


def importer_scores(fold: str) -> FieldScores:
    """The importer on the postmortems of one fold (or fold A one organisation out, or the held-out files):
    field → Ratio."""
    drafts = _one_out_drafts() if fold == ONE_OUT else _importer_drafts()[0]
    return importer_fields(score(_truths(fold), drafts))


def importer_fields(scores: Scores) -> FieldScores:
    """The scores of FIELDS, the metadata leaks by kind as fields of their own."""
    by_kind = {f"metadata_by_kind.{kind}": ratio for kind, ratio in scores.metadata_by_kind.items()}
    return {name: by_kind[name] if name in by_kind else getattr(scores, name) for name in FIELDS}


READERS: dict[str, Reader] = {"importer (eval/postmortems)": importer_scores}
# --drafter: the resolution drafter on eval/conversations, end to end through the sandbox
# (bench/reading_eval_conversations.py); it needs DATABASE_URL (a throwaway database is made there).
DRAFTER: dict[str, Reader] = {"drafter (eval/conversations, through the sandbox)": drafter_scores}


def cell(name: str, ratio: Ratio) -> str:
    if not ratio.total:
        return "–"
    if name in ERROR_FIELDS:
        return f"{ratio.total - ratio.right} of {ratio.total}"
    return f"{ratio.right}/{ratio.total} = {ratio.value:.0%}"


def fitted_fold(model: SentenceModel | None) -> str:
    """The fold a sentence model was fitted on (its `fitted_on`, "eval/postmortems fold B"); A: the shipped one."""
    return model.fitted_on[-1] if model and model.fitted_on.endswith(tuple(f" fold {f}" for f in FOLDS)) else "A"


def table(results: dict[str, dict[str, FieldScores]], fitted_on: str = "A") -> list[str]:
    lines = []
    heads = COLUMNS | {f: f"fold {f} ({'in-sample' if f == fitted_on else 'out-of-sample'})" for f in FOLDS}
    for reader, by_fold in results.items():
        columns = [c for c in COLUMNS if c in by_fold]
        lines += ["", f"{reader}", f"{'field':<32} " + " ".join(f"{heads[c]:<22}" for c in columns).rstrip()]
        names = list(FIELDS) + sorted({n for f in by_fold.values() for n in f} - FIELDS.keys())
        for name in names:
            if all(name not in by_fold[fold] for fold in columns):
                continue
            if name in BY_KIND and all(r.right == r.total for r in (by_fold[c].get(name, Ratio()) for c in columns)):
                continue  # a kind no column stored
            cells = (cell(name, by_fold[fold].get(name, Ratio())) for fold in columns)
            lines.append(f"{FIELDS.get(name, name):<32} " + " ".join(f"{c:<22}" for c in cells).rstrip())
    return lines


def as_json(results: dict[str, dict[str, FieldScores]], misses_of: str | None = None) -> dict:
    """Every fold's totals; the misses (file names, drafted text) of the fold `misses_of` names only, as
    --misses prints them: a tuner reads fold B's totals with --json, and its misses must not come with them."""
    held = held_out_postmortems()
    return {
        reader: {
            fold: {
                name: {"right": r.right, "total": r.total, "value": round(r.value, 3)}
                | ({"misses": withheld(r.misses, held)} if fold == misses_of else {})
                for name, r in fields.items()
            }
            for fold, fields in by_fold.items()
        }
        for reader, by_fold in results.items()
    }


def run(
    readers: dict[str, Reader] | None = None,
    weights: SentenceModel | None = None,
    *,
    one_out: bool = False,
    include_held_out: bool = False,
) -> dict[str, dict[str, FieldScores]]:
    """Every reader on both folds; `one_out`: the importer on fold A one organisation out too; `include_held_out`:
    the importer on the held-out files too (a column of totals); `weights`: the postmortems read with this sentence
    model, not the shipped one."""
    if weights is not None:
        _importer_drafts.cache_clear()  # the drafts read with the shipped model are not these
        use_model(weights)
    results = {}
    try:
        for name, reader in (readers or READERS).items():
            folds = ("A", ONE_OUT, "B") if one_out and reader is importer_scores else FOLDS
            folds += (HELD_OUT,) if include_held_out and reader is importer_scores else ()
            results[name] = {fold: reader(fold) for fold in folds}
    finally:
        if weights is not None:
            use_model(None)
            _importer_drafts.cache_clear()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--misses", nargs="?", const="A", choices=FOLDS, help="list what each field missed in one fold: A unless named"
    )
    parser.add_argument("--drafter", action="store_true", help="also the drafter on eval/conversations (DATABASE_URL)")
    parser.add_argument("--quick", action="store_true", help="without fold A one organisation out (~5 min saved)")
    parser.add_argument(
        "--weights", type=Path, help="read postmortems with this sentence model (fit_reader_sentences.py --out)"
    )
    parser.add_argument(
        "--include-held-out",
        action="store_true",
        help="also the held-out postmortems' totals, a column of their own: to judge a stamped rule, never their misses",
    )
    args = parser.parse_args(argv)
    if args.weights and args.drafter:
        parser.error("--weights is the postmortems' sentence model; the drafter reads with its own (no --drafter)")
    weights = SentenceModel.from_json(json.loads(args.weights.read_text(encoding="utf-8"))) if args.weights else None
    readers = READERS | (DRAFTER if args.drafter else {})
    results = run(readers, weights, one_out=not (args.quick or weights), include_held_out=args.include_held_out)
    if args.json:
        print(json.dumps(as_json(results, args.misses), indent=2, ensure_ascii=False))
        return 0
    if weights:
        print(f"sentence model: {args.weights} ({weights.fitted_on or 'fitted on ?'})")
    print("\n".join(table(results, fitted_fold(weights))))
    if args.misses:
        held = held_out_postmortems()
        for reader, by_fold in results.items():
            for fold, fields in by_fold.items():
                if fold != args.misses:  # the reporting fold's misses are never read while tuning
                    continue
                for name, ratio in fields.items():
                    for miss in withheld(ratio.misses, held):
                        print(f"{reader} fold {fold} {FIELDS.get(name, name)}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
