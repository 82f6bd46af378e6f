"""Fit the reader's sentence model (bot/reader/sentences.py) on eval/postmortems, by organisation fold.

    .venv/bin/python bench/fit_reader_sentences.py [--write]

For each head ("cause", "fix") a logistic model over a sentence's cues, section, cue × section, place and length, and
for the fix head its words too (FIT_FEATURES below; what ships was chosen end to end on fold A one organisation out): a
sentence is labelled 1 when it holds one of its item's truth phrases for that field (root_cause_keywords /
fix_keywords; FIT_LABEL_RULE), 0 otherwise (weak labels: no person marks sentences).

Honest by construction:
- the threshold and how many sentences to keep are chosen on the fitting fold only, from
  leave-one-organisation-out predictions inside it;
- how the model joins the cue words (cause_fix.MODEL_POLICY) is chosen on fold A (the tuning fold)
  only, end to end through the importer, each organisation read with a model fitted on the others
  whose threshold was chosen on the others' leave-one-out predictions (never its own);
- the model fitted on fold A is reported on fold B, and the one fitted on B on fold A (the swap):
  both figures are out-of-sample. Fold B's misses are never printed.
`--write` stores the model fitted on fold A in bot/data/reader_sentences.json and prints the policy (cause_fix.py).

Each head in a written file says what it was fitted with (`fitted_with`: every FIT_* setting below, FIT_THRESHOLD
"chosen" or the threshold:keep given); the shipped file's are this bench's defaults (the environment still overrides
them), so fold A one organisation out (bench/reading_eval.py, bench/fields_by_org.py --sentence-model-loo) reads the
procedure that ships. The file also records its `provenance` (bench/reader_sentences_provenance.py: corpus commit,
reports read, code, label rule FIT_LABEL_RULE, each head's rows), and `--check` rebuilds it from that with today's code.

    .venv/bin/python bench/fit_reader_sentences.py --fold A --write --corpus-at COMMIT   # fold A of COMMIT's eval/, shipped
    .venv/bin/python bench/fit_reader_sentences.py --check [--rows-only]   # rebuild the shipped file; what differs (exit 1)
    .venv/bin/python bench/fit_reader_sentences.py --fold B --out /tmp/reader_sentences_B.json   # the swap (~3 min)
    .venv/bin/python bench/reading_eval.py --weights /tmp/reader_sentences_B.json                # read both folds with it

`--fold F --out PATH` fits both heads on fold F's reports alone (threshold and keep chosen one organisation out inside F;
nothing of the other fold read) and writes them to PATH outside the repository (with --write, fold A to the shipped
file, the policy not searched again). Read with reading_eval.py --weights PATH, the other fold is out of sample.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from dataclasses import replace
from functools import cache
from pathlib import Path, PurePath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.reader_sentences_provenance as provenance  # noqa: E402
import bot.importer.cause_fix as cause_fix  # noqa: E402
import bot.reader.fit as reader_fit  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.importer.scoring import Truth, holds_half, keyword_in, score  # noqa: E402
from bot.reader.fix import without_non_causes, without_non_fixes  # noqa: E402
from bot.reader.read import without_metadata, without_unknown_cause  # noqa: E402
from bot.reader.sentences import (  # noqa: E402
    QUOTES_WHAT_WAS_SEEN,
    Candidate,
    Head,
    SentenceModel,
    features,
    use_model,
)

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
DATA = Path(__file__).resolve().parent.parent / "bot" / "data" / "reader_sentences.json"
HEADS = {"cause": "root_cause_keywords", "fix": "fix_keywords"}
POLICIES = ("rules", "model", "rules_else_model", "model_else_rules", "both")
RATE = 0.2


def recorded_settings(data: dict) -> dict[str, dict[str, str]]:
    """Head → the settings (FIT_* name → value) a sentence model's file says its head was fitted with
    (`with_settings` writes them): none for a file written before they were recorded."""
    return {h: dict(data.get("heads", {}).get(h, {}).get("fitted_with", {})) for h in ("cause", "fix")}


# the settings the shipped file was fitted with: each one's default, so that fold A one organisation out
# (bench/reading_eval.py's column, bench/fields_by_org.py --sentence-model-loo) and a refit read the shipped
# procedure without anyone setting FIT_* by hand; the environment still overrides them
SHIPPED_SETTINGS = recorded_settings(json.loads(DATA.read_text(encoding="utf-8")) if DATA.is_file() else {})
SETTINGS: dict[str, dict[str, str]] = {"cause": {}, "fix": {}}  # head → FIT_* name → value in effect


def _per_head(name: str, default: str, environ: dict[str, str] | None = None) -> dict[str, str]:
    """A setting, one value for both heads ("1e-3") or per head ("cause=1e-3,fix=1e-2"): the code's `default`,
    then what the shipped file was fitted with, then the environment (a head a layer leaves out keeps the one below)."""
    environ = os.environ if environ is None else environ
    shipped = ",".join(f"{h}={s[name]}" for h, s in SHIPPED_SETTINGS.items() if name in s)
    values: dict[str, str] = {}
    for given in (default, shipped, environ.get(name, "")):
        values.update(p.split("=", 1) if "=" in p else (h, p) for p in given.split(",") if p for h in ("cause", "fix"))
    for h in ("cause", "fix"):
        SETTINGS[h][name] = values[h]
    return {h: values[h] for h in ("cause", "fix")}


EPOCHS = {h: int(v) for h, v in _per_head("FIT_EPOCHS", "8").items()}
PAIRS = {h: v == "1" for h, v in _per_head("FIT_PAIRS", "0").items()}  # word pairs as features
# which of a sentence's features each head is fitted on: "nonword" (cues, section, place, length),
# "cross" (those and section × cue pairs), "words" (those of "nonword" and words). FIT_FEATURES: one
# set for both heads, or per head ("cause=cross,fix=words"); the default is what ships.
FEATURES = _per_head("FIT_FEATURES", "cause=cross,fix=words")
L2 = {h: float(v) for h, v in _per_head("FIT_L2", "1e-3").items()}
# a word counts only when sentences of this many organisations or more hold it
MIN_ORGS = {h: int(v) for h, v in _per_head("FIT_MIN_ORGS", "4").items()}
# words fitted as an offset over a head fitted without them (FIT_OFFSET_WORDS "1" per head; its L2 FIT_OFFSET_L2)
OFFSET_WORDS = {h: v == "1" for h, v in _per_head("FIT_OFFSET_WORDS", "0").items()}
OFFSET_L2 = {h: float(v) for h, v in _per_head("FIT_OFFSET_L2", "5").items()}
# which candidates each head is fitted on (FIT_CUT_SAID, "1" or "0" per head): "0", as the importer reads
# them (harm and duration said in words kept; the fields lose them later), "1" cut with METADATA_SAID too
# (the importer does not read those: measured only, docs/BENCHMARKS.md r23-fix)
CUT_SAID = {h: v == "1" for h, v in _per_head("FIT_CUT_SAID", "0").items()}
# the thresholds tried: 0.1 … 0.9 by 0.05, then by 0.01 up to FIT_GRID_TOP (per head, as FIT_L2)
GRID_TOP = {h: float(v) for h, v in _per_head("FIT_GRID_TOP", "0.9").items()}
THRESHOLDS = {
    h: [round(0.05 * i, 2) for i in range(2, 19)]
    + [round(0.9 + 0.01 * i, 2) for i in range(1, 10) if 0.9 + 0.01 * i <= top + 1e-9]
    for h, top in GRID_TOP.items()
}
# precision first: a wrong field costs this many right ones (FIT_WRONG_COST, per head as FIT_L2); 1 by
# default, what ships; a wrong fix misleads the next responder more than an empty one
WRONG_COST = {h: float(v) for h, v in _per_head("FIT_WRONG_COST", "1").items()}
METADATA_COST = 10.0  # a metadata line stored as fix or cause: never
KEEPS = (1, 2)
# the phrase rule (scoring.keyword_in) labels and thresholds read (FIT_LABEL_RULE): "leading" today's, "whole" the old
WHOLE = {h: v == "whole" for h, v in _per_head("FIT_LABEL_RULE", "leading").items()}
# a head's threshold and keep given, not chosen (FIT_THRESHOLD, per head: "cause=0.55:2"): so that fold A one
# organisation out (bench/fields_by_org.py --sentence-model-loo) reads a fixed threshold, e.g. the shipped one;
# "chosen" (or nothing): chosen as above. The default is what the shipped file was fitted with.
FIXED = {
    h: (float(v.split(":")[0]), int(v.split(":")[1]) if ":" in v else 2)
    for h, v in _per_head("FIT_THRESHOLD", "chosen").items()
    if v not in ("", "chosen")
}


Doc = tuple[Truth, dict[str, list[tuple[list[str], Candidate]]]]  # head → its candidates and their features


def documents(truths: list[Truth]) -> list[Doc]:
    if any(JOINED.values()):
        rules_said(truths)
    docs = []
    for truth in truths:
        if truth.not_an_incident:
            continue
        text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
        cands = {cut: cause_fix.candidates_of(text, truth.file, said=cut) for cut in set(CUT_SAID.values())}
        docs.append((truth, {head: [(features(c), c) for c in cands[CUT_SAID[head]]] for head in HEADS}))
    return docs


def label(truth: Truth, head: str, text: str) -> int:
    return int(any(keyword_in(k, text, whole=WHOLE[head]) for k in getattr(truth, HEADS[head])))


def head_rows(docs: list[Doc], head: str) -> list[tuple[list[str], int]]:
    """Every candidate's features and label, in the order the fit reads them (before its word filter)."""
    return [(feats, label(t, head, c.text)) for t, cands in docs for feats, c in cands[head]]


def fit_head(docs: list[Doc], head: str) -> Head:
    """The reader's fitting routine (bot/reader/fit.py): AdaGrad steps on the L2-penalised log-loss,
    positives weighted to balance the classes; a word only when enough organisations use it."""
    orgs: dict[str, set[str]] = defaultdict(set)
    for truth, cands in docs:
        for feats, _ in cands[head]:
            for f in feats:
                orgs[f].add(truth.org or truth.file)
    kept = {f for f, o in orgs.items() if len(o) >= MIN_ORGS[head] or not f.startswith(("w:", "b:"))}
    kept = {f for f in kept if PAIRS[head] or not f.startswith("b:")}
    kept = {f for f in kept if FEATURES[head] == "words" or not f.startswith(("w:", "b:"))}
    kept = {f for f in kept if FEATURES[head] == "cross" or not f.startswith("x:")}
    rows = [([f for f in feats if f in kept], y) for feats, y in head_rows(docs, head)]
    fitted = reader_fit.fit_head(rows, steps="adagrad", epochs=EPOCHS[head], rate=RATE, l2=L2[head])
    return words_over(fitted, docs, head, orgs) if OFFSET_WORDS[head] else fitted


def words_over(fitted: Head, docs: list[Doc], head: str, orgs: dict[str, set[str]] | None = None) -> Head:
    """`fitted` with the sentence's words and word pairs weighed as an offset over it (bench/fix_head_words.py's
    recipe for the chat heads): `fitted`'s score is each sentence's fixed part, only the words' weights are fitted
    (batch steps), words that sentences of MIN_ORGS organisations or more hold and `fitted` does not weigh."""
    if orgs is None:
        orgs = defaultdict(set)
        for truth, cands in docs:
            for feats, _ in cands[head]:
                for f in feats:
                    orgs[f].add(truth.org or truth.file)
    words = {f for f, o in orgs.items() if f.startswith(("w:", "b:")) and len(o) >= MIN_ORGS[head]}
    words -= set(fitted.weights)
    rows = head_rows(docs, head)
    offsets = [fitted.bias + sum(fitted.weights.get(f, 0.0) for f in feats) for feats, _ in rows]
    said = [([f for f in feats if f in words], y) for feats, y in rows]
    extra = reader_fit.fit_head(said, steps="batch", epochs=200, rate=0.5, l2=OFFSET_L2[head], offsets=offsets)
    return replace(fitted, weights={**fitted.weights, **{f: w for f, w in extra.weights.items() if abs(w) >= 1e-4}})


def field_outcome(truth: Truth, head: str, chosen: list[str]) -> str:
    if not chosen:
        return "empty"
    return "right" if holds_half(" ".join(chosen), getattr(truth, HEADS[head]), whole=WHOLE[head]) else "wrong"


Held = list[tuple[str, Truth, list[tuple[float, str]]]]  # organisation, item, (probability, sentence)


def held_out(docs: list[Doc], head: str, fitted: dict[str, Head] | None = None) -> Held:
    """Every sentence's probability under the head fitted on the other organisations of `docs` (each such head
    is left in `fitted`, by the organisation left out: `models_without_each` needs the same fits again)."""
    by_org: dict[str, list[Doc]] = defaultdict(list)
    for doc in docs:
        by_org[doc[0].org or doc[0].file].append(doc)
    held: Held = []
    for org, inside in by_org.items():
        model = fit_head([d for d in docs if (d[0].org or d[0].file) != org], head)
        if fitted is not None:
            fitted[org] = model
        held += [(org, t, [(model.probability(f), c.text) for f, c in cands[head]]) for t, cands in inside]
    return held


# How a head's threshold and keep are scored (FIT_JOINED, per head as FIT_L2): "alone", the head's
# sentences as the field by themselves; "joined", the field the importer stores with them: only where
# no section names the field (the importer asks the model there alone), the cue words' text for that
# report joined by MODEL_POLICY "both" to the sentences `best` may pick (none quoting what was seen),
# cut as the importer cuts a field.
JOINED = {h: v == "joined" for h, v in _per_head("FIT_JOINED", "alone").items()}
RULES_SAID: dict[str, dict[str, str]] = {h: {} for h in HEADS}  # head → file → the cue words' text (rules_said)


def rules_said(truths: list[Truth]) -> None:
    """Read `truths`' files with the cue words alone and keep, where the importer would ask the
    model (no section names the field), the text the cue words give (RULES_SAID)."""
    import bot.importer.markdown as markdown

    current, original = [""], markdown.with_model

    def spy(head: str, rules: tuple[str, str], candidates: list[Candidate]) -> tuple[str, str]:
        RULES_SAID[head][current[0]] = rules[0]
        return original(head, rules, candidates)

    before = dict(cause_fix.MODEL_POLICY)
    markdown.with_model, cause_fix.MODEL_POLICY["cause"], cause_fix.MODEL_POLICY["fix"] = spy, "rules", "rules"
    try:
        for truth in truths:
            current[0] = truth.file
            parse_file(FoundFile(POSTMORTEMS / truth.file, PurePath(truth.file)), team_id="bench")
    finally:
        markdown.with_model = original
        cause_fix.MODEL_POLICY.update(before)


@cache
def joined_field(head: str, rules: str, chosen: tuple[str, ...]) -> str:
    """The field the importer stores from the cue words' text and the model's sentences ("both")."""
    said = without_metadata(" ".join([rules] + [t for t in dict.fromkeys(chosen) if t not in rules]).strip())
    return without_non_fixes(said) if head == "fix" else without_non_causes(without_unknown_cause(said))


def joined_value(truth: Truth, head: str, scored: list[tuple[float, str]], t: float, keep: int) -> float:
    if truth.file not in RULES_SAID[head]:
        return 0.0  # a section names the field: the model is not asked
    plain = [(p, text) for p, text in scored if p >= t and not QUOTES_WHAT_WAS_SEEN.search(text)]
    chosen = tuple(text for _, text in sorted(plain, key=lambda s: -s[0])[:keep])
    said = joined_field(head, RULES_SAID[head][truth.file], chosen)
    if not said:
        return 0.0
    if not getattr(truth, HEADS[head]):
        return -WRONG_COST[head]
    right = holds_half(said, getattr(truth, HEADS[head]), whole=WHOLE[head])
    metadata = any(holds_half(said, k, whole=WHOLE[head]) for k in truth.metadata_keywords)
    return (1.0 if right else -WRONG_COST[head]) - METADATA_COST * metadata


def pick_threshold(held: Held, head: str, without: str | None = None) -> tuple[float, int]:
    """Threshold and keep that do best on `held` (but the organisation `without`: a model reported on
    that organisation never has its threshold chosen on it)."""
    if head in FIXED:
        return FIXED[head]
    best, best_value = (0.5, 2), -1e9
    for keep in KEEPS:
        for t in THRESHOLDS[head]:
            value = 0.0
            for org, truth, scored in held:
                if org == without:
                    continue
                if JOINED[head]:
                    value += joined_value(truth, head, scored, t, keep)
                    continue
                if not getattr(truth, HEADS[head]):
                    value -= WRONG_COST[head] * any(p >= t for p, _ in scored)  # anything said is wrong
                    continue
                chosen = [text for p, text in sorted(scored, reverse=True) if p >= t][:keep]
                outcome = field_outcome(truth, head, chosen)
                value += 1.0 if outcome == "right" else (-WRONG_COST[head] if outcome == "wrong" else 0.0)
                said = " ".join(chosen)
                value -= METADATA_COST * any(holds_half(said, k, whole=WHOLE[head]) for k in truth.metadata_keywords)
            if value > best_value:
                best, best_value = (t, keep), value
    return best


def choose_threshold(docs: list[Doc], head: str) -> tuple[float, int]:
    """Threshold and keep from leave-one-organisation-out probabilities inside `docs`."""
    return pick_threshold(held_out(docs, head), head)


def models_without_each(
    docs: list[Doc],
    held: dict[str, Held] | None = None,
    orgs: list[str] | None = None,
    fitted: dict[str, dict[str, Head]] | None = None,
) -> dict[str, SentenceModel]:
    """Organisation → both heads fitted on the other organisations of `docs`, each head's threshold
    and keep chosen on the other organisations' leave-one-out probabilities (never its own)."""
    fitted = fitted if held else {head: {} for head in HEADS}  # `held`'s heads, by the organisation left out
    held = held or {head: held_out(docs, head, fitted[head]) for head in HEADS}
    models = {}
    for org in orgs or dict.fromkeys(d[0].org or d[0].file for d in docs):
        chosen = {head: pick_threshold(held[head], head, without=org) for head in HEADS}
        # the heads held_out fitted without `org` are fitted on the same rows in the same order: the same heads
        if fitted and all(org in fitted[head] for head in HEADS):
            model = SentenceModel(fitted_on=f"eval/postmortems fold without {org}")
            for head in HEADS:
                model.heads[head] = replace(fitted[head][org], threshold=chosen[head][0], keep=chosen[head][1])
            models[org] = model
        else:
            models[org] = fit([d for d in docs if (d[0].org or d[0].file) != org], f"without {org}", chosen)
    return models


def fit(
    docs: list[Doc],
    fold: str,
    chosen: dict[str, tuple[float, int]] | None = None,
    heads: tuple[str, ...] = tuple(HEADS),
) -> SentenceModel:
    """The heads (both unless `heads`) fitted on `docs`; thresholds chosen on them (or given: `chosen`)."""
    model = SentenceModel(fitted_on=f"eval/postmortems fold {fold}")
    for head in heads:
        fitted = fit_head(docs, head)
        fitted.threshold, fitted.keep = (chosen or {}).get(head) or choose_threshold(docs, head)
        model.heads[head] = fitted
    return model


def imported(truths: list[Truth], model: SentenceModel, policy: dict[str, str]) -> dict:
    """The importer on `truths`' files with `model` and `policy`: the field scores."""
    use_model(model)
    cause_fix.MODEL_POLICY.clear()
    cause_fix.MODEL_POLICY.update(policy)
    try:
        drafts = {}
        for truth in truths:
            parsed = parse_file(FoundFile(POSTMORTEMS / truth.file, PurePath(truth.file)), team_id="bench")
            drafts[truth.file] = parsed.drafts[0] if parsed.drafts else None
    finally:
        use_model(None)
    scores = score(truths, drafts)
    for head, attr in (("cause", "root_cause"), ("fix", "resolution")):
        stored = {t.file: getattr(drafts[t.file], attr) if drafts.get(t.file) else "" for t in truths}
        WRONG[head] = sum(
            bool(stored[t.file]) and not holds_half(stored[t.file], getattr(t, HEADS[head]))
            for t in truths
            if not t.not_an_incident
        )
    return scores


WRONG: dict[str, int] = {}  # the last `imported`: fields stored that are not right (a wrong cause or fix)


def figures(scores) -> str:  # noqa: ANN001
    names = ("root_cause", "fix", "metadata_as_fix_or_cause")
    return "  ".join(f"{n} {getattr(scores, n)}" for n in names)


def choose_policy(docs_a: list[Doc], truths_a: list[Truth]) -> tuple[dict[str, str], dict[str, tuple[float, int]]]:
    """On fold A only: each head's policy, end to end, with leave-one-organisation-out models."""
    by_org: dict[str, list[Truth]] = defaultdict(list)
    for t in truths_a:
        by_org[t.org or t.file].append(t)
    fitted: dict[str, dict[str, Head]] = {head: {} for head in HEADS}
    held = {head: held_out(docs_a, head, fitted[head]) for head in HEADS}
    models = models_without_each(docs_a, held, list(by_org), fitted)
    chosen_a = {head: pick_threshold(held[head], head) for head in HEADS}
    chosen = {}
    for head, field in (("cause", "root_cause"), ("fix", "fix")):
        results: dict[str, tuple[float, int]] = {}
        for policy in POLICIES:
            right = total = metadata = wrong = 0
            for org, truths in by_org.items():
                scores = imported(truths, models[org], {head: policy})
                s = getattr(scores, field)
                right, total, wrong = right + s.right, total + s.total, wrong + WRONG[head]
                metadata += scores.metadata_as_fix_or_cause.total - scores.metadata_as_fix_or_cause.right
            results[policy] = (right, total, wrong, metadata)
        print(
            f"fold A, leave-one-organisation-out, {head}: "
            + ", ".join(f"{p} {r}/{t} right, {w} wrong, {m} metadata" for p, (r, t, w, m) in results.items())
        )
        # precision first: a wrong field costs WRONG_COST of a right one, a metadata line METADATA_COST
        chosen[head] = max(
            POLICIES,
            key=lambda p: (
                results[p][0] - WRONG_COST[head] * results[p][2] - METADATA_COST * results[p][3],
                p == "rules",
            ),
        )
    return chosen, chosen_a


REPOSITORY = Path(__file__).resolve().parent.parent


def with_settings(model: SentenceModel, carried: tuple[str, ...] = ()) -> dict:
    """`model`'s file, each head with the settings it was fitted with (`fitted_with`: FIT_* name → value, the
    threshold "chosen" or the one given): a refit and fold A one organisation out read them as their defaults. A
    head in `carried` was copied from the shipped file, so its settings are the shipped file's."""
    data = model.as_json()
    for head, fields in data["heads"].items():
        settings = (SHIPPED_SETTINGS if head in carried else SETTINGS)[head]
        if settings:  # a carried head from a file that records none: none
            fields["fitted_with"] = dict(sorted(settings.items()))
    return data


CORPUS: list[str | None] = [None]  # the commit whose eval/postmortems POSTMORTEMS is (provenance), None: unnamed
THIS = sys.modules[__name__]  # what bench/reader_sentences_provenance.py reads and sets (POSTMORTEMS)


def fitted_file(fold: str, carry: tuple[str, ...] = ()) -> dict:
    """Both heads fitted on `fold`'s reports alone, as a file with its settings and provenance; a head in `carry` is
    not fitted but copied from the shipped file as it is (fold A's: another pass refits it)."""
    truths = fold_truths(fold, folder=POSTMORTEMS)
    docs = documents(truths)
    model = fit(docs, fold, heads=tuple(h for h in HEADS if h not in carry))
    return provenance.as_file(THIS, model, truths, docs, carry)


def fit_fold(fold: str, out: Path, carry: tuple[str, ...] = ()) -> None:
    """`fitted_file` written to `out` (outside the repository, or the shipped file itself: --write)."""
    out = out.resolve()
    if out.is_relative_to(REPOSITORY) and (out != DATA.resolve() or fold != "A"):
        raise SystemExit(f"--out {out}: inside the repository; a fold's fit is written outside it (--write ships A)")
    if carry and fold != "A":
        raise SystemExit("--carry copies a head fitted on fold A: with --fold B the swap would not be out of sample")
    out.write_text(json.dumps(fitted_file(fold, carry), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="store the model fitted on fold A")
    parser.add_argument("--tune", action="store_true", help="fold A only: the policy search, nothing of fold B")
    parser.add_argument("--fold", choices=("A", "B"), help="fit on this fold alone and write it to --out")
    parser.add_argument("--out", type=Path, help="with --fold: where the coefficients go (outside the repository)")
    parser.add_argument(
        "--carry", choices=tuple(HEADS), action="append", default=[], help="with --fold A: copy this head unfitted"
    )
    parser.add_argument("--corpus-at", metavar="COMMIT", help="read eval/postmortems of this commit")
    parser.add_argument("--check", action="store_true", help="rebuild the shipped file from its provenance")
    parser.add_argument("--rows-only", action="store_true", help="with --check: compare the rows read, no fit")
    args = parser.parse_args(argv)
    if args.check:
        return provenance.check(THIS, args.rows_only)
    args.out = DATA if args.fold and args.write and args.out is None else args.out  # fold A alone, shipped
    if (args.fold is None) != (args.out is None):
        parser.error("--fold and --out go together")
    provenance.use_corpus(THIS, args.corpus_at)
    if args.fold:
        fit_fold(args.fold, args.out, tuple(args.carry))
        return 0
    by_fold = {f: fold_truths(f, folder=POSTMORTEMS) for f in ("A", "B")}
    docs = {f: documents(ts) for f, ts in by_fold.items() if f == "A" or not args.tune}
    policy, chosen_a = choose_policy(docs["A"], by_fold["A"])
    print(f"policy chosen on fold A: {policy}; thresholds chosen on A: {chosen_a}")
    if args.tune:
        in_sample = imported(by_fold["A"], fit(docs["A"], "A", chosen_a), policy)
        print(f"fold A in-sample (fitted on all of A): {figures(in_sample)}")
        return 0
    models = {"A": fit(docs["A"], "A", chosen_a), "B": fit(docs["B"], "B")}
    for f, m in models.items():
        print(f"fitted on {f}: " + ", ".join(f"{h} threshold {x.threshold} keep {x.keep}" for h, x in m.heads.items()))
    rules = {"cause": "rules", "fix": "rules"}
    for fold in ("A", "B"):
        print(f"fold {fold}: cue words only          {figures(imported(by_fold[fold], models['A'], rules))}")
        print(f"fold {fold}: model fitted on A        {figures(imported(by_fold[fold], models['A'], policy))}")
        print(f"fold {fold}: model fitted on B        {figures(imported(by_fold[fold], models['B'], policy))}")
    if args.write:
        shipped = provenance.as_file(THIS, models["A"], by_fold["A"], docs["A"])
        DATA.write_text(json.dumps(shipped, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {DATA} (fitted on fold A); set cause_fix.MODEL_POLICY = {policy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
