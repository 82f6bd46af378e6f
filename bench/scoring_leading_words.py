"""Is the scorer fair to a line that holds a label's meaning but not its leading words? (issue 23, score-lead)

    .venv/bin/python bench/scoring_leading_words.py              # agreement with people, per fold, two rules (~3 s)
    .venv/bin/python bench/scoring_leading_words.py --pairs A    # fold A's pairs the two rules decide apart
    .venv/bin/python bench/scoring_leading_words.py --drop there "there's"   # today's list against it without them
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres nice -n 10 .venv/bin/python \\
        bench/scoring_leading_words.py --figures                 # the readers' figures under both rules (~15 min)

Label phrases keep the item's words, subject included ("i reran", "the logs ate up the server memory", "due to the
recent ddos attack"); the drafter drops a leading "I", and people cut such words. Two rules of
`bot/importer/scoring.py:keyword_in`: **whole** (the phrase as labelled: substring or stemmed words in order, the rule
before 2026-12-07) and **bare** (that, or the phrase without its leading run of `LEADING_WORDS` so). Each is read
against what people decided, never against a reader's figures:

- **fields**: every second annotation's cause / fix / how-found phrases against `truth.jsonl`'s
  (eval/second-annotation/compare_*.py: the rounds' `JUDGED` tables, identical phrases = the same), the second
  annotator's phrases standing for the stored text as those scripts score them; items whose label has the field;
- **attempts**: each labelled attempt against each of the second annotator's attempts in the same item (compare.py's,
  compare_reread.py's and the rounds' `MATCHES`: the same step, or not), the second's action and why as the text;
- **lines**: c16-second's blind real / not decisions on 134 lines the readers kept for fold A
  (fold-a-attempt-lines.jsonl), scored by `attempt_is_real`.

A rule is fair when it grants what people judged the same and never what they judged different. Fold A's pairs chose
`LEADING_WORDS` (stamped in the notes before fold B was scored); fold B's report. `--figures` reads the readers once
(postmortems: bench/reading_eval.py --quick; conversations: bench/reading_eval_conversations.py, through the sandbox)
and scores their output by both rules: the change is in the measure, not the reader.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECOND = ROOT / "eval" / "second-annotation"
sys.path.insert(0, str(ROOT))

from bot.importer import scoring  # noqa: E402

FIELDS = ("root_cause_keywords", "fix_keywords", "found_keywords")
# compare script -> its draw's recorded tsv files and labels (None: every labelled item of the labels file)
SINGLE = ("twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth")
PAIRED = (
    "seventeenth", "eighteenth", "twentieth", "twentieth_second", "twentyfirst", "twentysecond", "twentythird",
    "twentyfourth", "twentyfifth", "twentyfifth_second", "twentysixth", "twentysixth_postmortems", "twentysixth_second",
)  # fmt: skip
# rule name -> scoring's `whole` flag: the phrase as labelled only, or also without its leading words (today's)
RULES: dict[str, bool] = {"whole": True, "bare": False}


def _module(name: str):  # noqa: ANN202 - a compare_*.py or sample_*.py script of eval/second-annotation
    if str(SECOND) not in sys.path:
        sys.path.insert(0, str(SECOND))
    return importlib.import_module(name)


def _truth() -> dict[str, dict[str, dict]]:
    return {
        corpus: {
            t["file"]: t for t in map(json.loads, (ROOT / "eval" / corpus / "truth.jsonl").read_text().splitlines())
        }
        for corpus in ("postmortems", "conversations")
    }


def _rounds() -> Iterator[tuple[str, str, str, set[str] | None, dict, list]]:
    """(round, corpus, labels file, drawn files or None, JUDGED, MATCHES) of every field-by-field round."""
    recorded = _module("sample_twelfth").recorded
    eleventh = _module("compare_eleventh")
    for corpus in ("conversations", "postmortems"):
        yield "eleventh", corpus, "eleventh-collection.jsonl", None, eleventh.JUDGED, eleventh.MATCHES
    for name in SINGLE + PAIRED:
        script = _module(f"compare_{name}")
        sample = _module(f"sample_{name}") if name not in ("twelfth", "thirteenth") else None
        parts = [(sample.TSV if sample else f"drawn-{name}.tsv", getattr(script, "LABELS", None))]
        if name in PAIRED:
            parts.append((sample.EXTENSION_TSV, getattr(script, "EXTENSION_LABELS", None)))
        if hasattr(script, "DRAWS"):  # compare_twentysixth_second.py names its draws as one pair
            parts = list(script.DRAWS)
        for tsv, labels in parts:
            rows = recorded(tsv)
            for corpus in ("postmortems", "conversations"):
                files = {row[1] for row in rows if row[0] == corpus}
                if files:
                    yield name, corpus, labels, files, script.JUDGED, script.MATCHES


def _pair(name: str, file: str, fold: str, label: list[str], text: str, same: bool) -> dict:
    return {"round": name, "file": file, "fold": fold, "label": label, "text": text, "same": same}


def pairs() -> tuple[list[dict], list[dict]]:
    """Every judged field pair and every attempt pair: {round, file, fold, label (phrases), text, same}."""
    truth, judged = _truth(), _module("compare_eleventh").judged
    fields, attempts = [], []
    for name, corpus, labels, files, table, matches in _rounds():
        for second in map(json.loads, (SECOND / labels).read_text(encoding="utf-8").splitlines()):
            t = truth[corpus].get(second["file"])
            if t is None or (files is not None and second["file"] not in files):
                continue
            if t.get("not_an_incident") or second["not_an_incident"]:
                continue
            for field in FIELDS:
                if t[field]:
                    same = t[field] == second[field] or judged(second["file"], field, table)
                    fields.append(_pair(name, t["file"], t["fold"], t[field], " / ".join(second[field]), same))
            theirs = [
                (a["action_keywords"][:1], " ".join(a["action_keywords"]) + " " + a["why"])
                for a in second["failed_attempts"]
            ]
            for a in t["failed_attempts"]:
                for first, text in theirs:
                    same = any((p, q) in matches for p in a["action_keywords"] for q in first)
                    attempts.append(_pair(name, t["file"], t["fold"], a["action_keywords"], text, same))
    for name, labels, key, matches in (
        ("first", "attempts.jsonl", "quote", _module("compare").MATCHES),
        ("reread", "fold-a-attempts-reread.jsonl", "action", _module("compare_reread").MATCHES),
    ):
        for second in map(json.loads, (SECOND / labels).read_text(encoding="utf-8").splitlines()):
            t = truth["postmortems"][second["file"]]
            theirs = second.get("attempts", second.get("failed_attempts", []))
            for a in t["failed_attempts"]:
                for q in theirs:
                    same = any((p, q[key]) in matches for p in a["action_keywords"])
                    text = f"{q[key]} {q.get('why', '')}"
                    attempts.append(_pair(name, t["file"], t["fold"], a["action_keywords"], text, same))
    found = _module("compare_found")
    reread = {s["file"]: s for s in map(json.loads, (SECOND / found.LABELS).read_text(encoding="utf-8").splitlines())}
    for fold, file, _stratum, _commit in _module("sample_twelfth").recorded(_module("sample_found").TSV):
        label, theirs = truth["conversations"][file]["found_keywords"], reread[file]["found_keywords"]
        if label:
            same = label == theirs or judged(file, "found_keywords", found.JUDGED)
            fields.append(_pair("found", file, fold, label, " / ".join(theirs), same))
    return fields, attempts


def lines() -> list[dict]:
    """c16-second's blind decisions on fold A's kept lines, each with its text as the measure reads it."""
    truth = _truth()
    out = []
    for line in map(json.loads, (SECOND / "fold-a-attempt-lines.jsonl").read_text(encoding="utf-8").splitlines()):
        join = scoring.attempt_text if line["corpus"] == "postmortems" else scoring.drafted_attempt_text
        label = scoring.labelled_attempts(truth[line["corpus"]][line["file"]])
        text = join(line["action"], line["why"])
        out.append(
            {"file": line["file"], "fold": "A", "labels": label, "text": text, "same": line["decision"] == "real"}
        )
    return out


def granted(whole: bool, row: dict) -> bool:
    if "labels" in row:  # a kept line: real when it holds half of one labelled attempt's phrases
        return scoring.attempt_is_real(row["text"], row["labels"], whole=whole)
    return scoring.holds_half(row["text"], row["label"], whole=whole)


@contextlib.contextmanager
def leading_words_without(words: frozenset[str]) -> Iterator[None]:
    """`scoring.LEADING_WORDS` less `words` in this process: the list as it stood before they joined it."""
    kept = scoring.LEADING_WORDS
    scoring.LEADING_WORDS = kept - words
    try:
        yield
    finally:
        scoring.LEADING_WORDS = kept


def rules(drop: frozenset[str] = frozenset()) -> dict[str, Callable[[dict], bool]]:
    """The two rules compared: whole and bare; with `drop` (--drop), the bare rule without those leading words (the
    list before they joined it) and today's bare rule."""
    if not drop:
        return {name: (lambda row, whole=whole: granted(whole, row)) for name, whole in RULES.items()}

    def before(row: dict) -> bool:
        with leading_words_without(drop):
            return granted(False, row)

    return {f"bare without {'/'.join(sorted(drop))}": before, "bare": lambda row: granted(False, row)}


def agreement(drop: frozenset[str] = frozenset()) -> dict[str, dict[str, dict[str, list[int]]]]:
    """{fold: {kind: {rule: [same granted, same, different granted, different]}}}."""
    fields, attempts = pairs()
    out: dict = {}
    for kind, rows in (("fields", fields), ("attempts", attempts), ("lines", lines())):
        for row in rows:
            for name, rule in rules(drop).items():
                cell = out.setdefault(row["fold"], {}).setdefault(kind, {}).setdefault(name, [0, 0, 0, 0])
                g = rule(row)
                cell[0 if row["same"] else 2] += g
                cell[1 if row["same"] else 3] += 1
    return out


def show_agreement(drop: frozenset[str] = frozenset()) -> None:
    print("people's same / different, granted by each rule (fold A chose the list, fold B reports)")
    for fold, kinds in sorted(agreement(drop).items()):
        for kind, rules in kinds.items():
            cells = "; ".join(
                f"{name}: same {a}/{b}, different {c}/{d}, agree {a + d - c}/{b + d}"
                for name, (a, b, c, d) in rules.items()
            )
            print(f"  fold {fold} {kind:<8} {cells}")


def show_pairs(fold: str, drop: frozenset[str] = frozenset()) -> None:
    fields, attempts = pairs()
    before, now = rules(drop).values()
    for kind, rows in (("fields", fields), ("attempts", attempts), ("lines", lines())):
        for row in rows:
            if row["fold"] == fold and before(row) != now(row):
                said = "same" if row["same"] else "DIFFERENT"
                print(f"{kind} {said} {row['file'][:48]} {row.get('label', '')} | {row['text'][:110]}")


@contextlib.contextmanager
def scored_by(whole: bool) -> Iterator[None]:
    """Every score in this process under one rule (scoring.holds_half reads the module's keyword_in)."""
    kept = scoring.keyword_in
    scoring.keyword_in = lambda keyword, text, **_: kept(keyword, text, whole=whole)
    try:
        yield
    finally:
        scoring.keyword_in = kept


def _json_of(main: Callable[[list[str]], int], argv: list[str]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(argv)
    return json.loads(out.getvalue())


def figures() -> dict[str, dict[str, dict]]:
    """{rule: {"postmortems": reading_eval.py --json --quick, "conversations": reading_eval_conversations.py --json}},
    each reader run once (their drafts are cached per process) and scored by both rules."""
    from bench import reading_eval, reading_eval_conversations

    out: dict = {}
    for name, rule in RULES.items():
        with scored_by(rule):
            out[name] = {
                "postmortems": _json_of(reading_eval.main, ["--json", "--quick"]),
                "conversations": _json_of(reading_eval_conversations.main, ["--json"]),
            }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", choices=("A", "B"), help="the pairs of this fold the two rules decide apart")
    parser.add_argument("--figures", action="store_true", help="the readers' figures under both rules (DATABASE_URL)")
    parser.add_argument(
        "--drop", nargs="+", default=[], help="compare today's list with the list without these words (not --figures)"
    )
    args = parser.parse_args(argv)
    drop = frozenset(args.drop)
    if args.figures:
        print(json.dumps(figures(), indent=1))
    elif args.pairs:
        show_pairs(args.pairs, drop)
    else:
        show_agreement(drop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
