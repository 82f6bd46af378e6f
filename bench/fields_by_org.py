"""Date, root cause, fix, how it was found and metadata-as-fix/cause per organisation of fold A, and
whether a change to the reader pays on organisations it was not chosen on (leave one organisation
out inside fold A). The fields other than failed attempts (those: bench/attempts_by_org.py).

    .venv/bin/python bench/fields_by_org.py --dump /tmp/before.json     # on the code before a change
    .venv/bin/python bench/fields_by_org.py --against /tmp/before.json  # on the code after it
    FIT_FEATURES=nonword .venv/bin/python bench/fields_by_org.py --sentence-model-loo [--policy cause=both,fix=rules]
    FIT_THRESHOLD=cause=0.55:2 .venv/bin/python bench/fields_by_org.py --sentence-model-loo   # threshold:keep given
    .venv/bin/python bench/fields_by_org.py --sentence-model-loo --models-cache /tmp/loo-models.pkl \
        --against /tmp/before-loo.json --changed --openings   # a change after the model's picks: minutes, not ~15
    .venv/bin/python bench/fields_by_org.py --sentence-model-loo --where-missed   # why each cause / fix missed, one out

With --sentence-model-loo each organisation is read with a sentence model (bot/reader/sentences.py)
fitted by bench/fit_reader_sentences.py on fold A's other organisations, by the settings the shipped
bot/data/reader_sentences.json records it was fitted with unless FIT_* says otherwise (FIT_FEATURES its
features, FIT_THRESHOLD a threshold given; a head whose threshold is "chosen" has it chosen on the other
organisations' leave-one-out probabilities), so the cause and fix figures are out of sample for every
organisation, not the shipped model's in-sample ones; --policy says how the model joins the cue words
(default: the code's). --models-cache keeps those one-out models in a file and reuses them only while fold A's
labels, candidate sentences and their features, the FIT_* settings and the fitting code are what they were fitted on
(a key of all of these): a change made after the model's picks (a veto, what goes before a section, a clause cut) is then
judged on the very same models, in minutes; any change to the candidates fits them again.
--openings (with --against): each moved cause's and fix's first sentence before and after, to read what a change
puts first (a field that opens with the harm or a critique is wrong to its reader even when its score is right).

Per organisation and field: right, and stored but wrong (a cause or fix filled whose text does not
hold the label's phrases; for metadata, items whose fix or cause holds a labelled metadata line).
A change's value on a field is right gained minus wrong added (precision first: a wrong field costs
what a right one gains; a metadata line as fix or cause costs ten). Leave one organisation out:
for each organisation, the change counts as kept when it pays on the other organisations, and then
adds what it does to the one left out; a change that only helps the organisation whose wording it
was written for scores 0 this way. Fold A only: fold B is never read here.

--where-missed (with --sentence-model-loo) says where each cause and fix missed one organisation out falls
(`where_missed`): a section names the field (the model is not asked), no candidate sentence holds the label, only
sentences quoting what was seen hold it (never the model's pick), one holds it below the head's threshold (and how
far below), or one holds it at or above the threshold and another sentence, the keep or a cut kept it out.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import score  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
FIELDS = ("date", "root_cause", "fix", "found", "metadata")
METADATA_COST = 10


def models_key(docs: list, orgs: list[str]) -> str | None:
    """What the one-out models depend on: every report's labels (all of them: the fix threshold's pick weighs metadata
    labels too), every candidate's text and features, the organisations left out, the FIT_* settings and the fitting
    and scoring code's source. None when a head is scored "joined" (FIT_JOINED): its pick reads the importer's rules'
    fields (RULES_SAID), which a change to those rules alters; such models are never kept."""
    import bench.fit_reader_sentences as fitting

    if any(fitting.JOINED.values()):
        return None
    key = hashlib.sha256()
    for name in sorted(k for k in os.environ if k.startswith("FIT_")):
        key.update(f"{name}={os.environ[name]}\n".encode())
    for path in _FITTING_CODE:
        key.update(path.read_bytes())
    key.update("\n".join(orgs).encode())
    for truth, by_head in docs:
        key.update(repr(truth).encode())
        for head in sorted(by_head):
            for feats, candidate in by_head[head]:
                key.update(repr((head, list(feats), candidate.text, candidate.section)).encode())
    return key.hexdigest()


_ROOT = Path(__file__).resolve().parent.parent
_FITTING_CODE = (
    _ROOT / "bench" / "fit_reader_sentences.py",
    _ROOT / "bot" / "reader" / "sentences.py",
    _ROOT / "bot" / "reader" / "fit.py",
    _ROOT / "bot" / "importer" / "scoring.py",
)


def _cached(cache: Path, docs: list, orgs: list[str]) -> dict | None:
    """The one-out models kept in `cache` when they were fitted on what `docs` and the settings are now, else None."""
    if not cache.exists():
        return None
    key, models = pickle.loads(cache.read_bytes())  # noqa: S301 (a file this bench wrote itself)
    now = models_key(docs, orgs)
    return models if now is not None and key == now else None


def held_out_drafts(
    truths: list,
    policy: dict[str, str],
    say: Callable[[str], object] = print,
    cache: Path | None = None,
    kept: dict | None = None,
) -> dict:
    """Each organisation's drafts read with a sentence model fitted on the other organisations
    (`say` is told the policy and the thresholds chosen; `kept`, when given, gets the candidates and the models)."""
    import bench.fit_reader_sentences as fitting
    import bot.importer.cause_fix as cause_fix
    from bot.reader.sentences import use_model

    everything = fold_truths("A")
    docs = fitting.documents(everything)
    orgs = sorted({t.org or t.file for t in truths})
    models = _cached(cache, docs, orgs) if cache else None
    if models is None:
        models = fitting.models_without_each(docs, orgs=orgs)
        key = models_key(docs, orgs) if cache else None
        if cache and key is not None:
            cache.write_bytes(pickle.dumps((key, models)))
    if kept is not None:
        kept.update(docs=docs, models=models)
    before = dict(cause_fix.MODEL_POLICY)
    cause_fix.MODEL_POLICY.update(policy)
    drafts: dict = {}
    try:
        for org in sorted({t.org or t.file for t in truths}):
            use_model(models[org])
            only = {t.file for t in truths if (t.org or t.file) == org}
            drafts.update(read_corpus(POSTMORTEMS, only=only)[0])
    finally:
        use_model(None)
        cause_fix.MODEL_POLICY.clear()
        cause_fix.MODEL_POLICY.update(before)
    chosen = {o: {h: (x.threshold, x.keep) for h, x in m.heads.items()} for o, m in models.items()}
    say(
        f"sentence model one organisation out ({fitting.FEATURES}): policy {dict(before, **policy)}; thresholds {chosen}"
    )
    return drafts


MISSED = (
    "a section names the field",
    "no candidate holds the label",
    "only sentences quoting what was seen hold it",
    "one holds it, within 0.1 under the threshold",
    "one holds it, 0.1 to 0.3 under",
    "one holds it, more than 0.3 under",
    "one holds it at or over the threshold, kept out",
)


def where_missed(labels: list[str], scored: list[tuple[float, str]], threshold: float, asked: bool) -> str:
    """Why a field whose label is `labels` missed, from its document's candidate sentences with their probability
    under the head that read it (`scored`), the head's `threshold`, and whether the importer asked the model
    (`asked`: no section names the field). A sentence holds the label when it alone would make the field right."""
    from bot.importer.scoring import holds_half
    from bot.reader.sentences import QUOTES_WHAT_WAS_SEEN

    holding = [(p, text) for p, text in scored if holds_half(text, labels)]
    plain = [p for p, text in holding if not QUOTES_WHAT_WAS_SEEN.search(text[:1_000])]
    if not asked:
        return MISSED[0]
    if not holding:
        return MISSED[1]
    if not plain:
        return MISSED[2]
    under = threshold - max(plain)
    if under <= 0:
        return MISSED[6]
    return MISSED[3] if under <= 0.1 + 1e-9 else MISSED[4] if under <= 0.3 + 1e-9 else MISSED[5]


def missed_split(rows: dict[str, dict[str, str]], kept: dict, fold: str = "A") -> dict[str, dict[str, list[int]]]:
    """Head → where_missed kind → [empty, wrong] over the one-out misses in `rows` (read with `kept`'s models)."""
    import bench.fit_reader_sentences as fitting

    truths = fold_truths(fold)
    fitting.rules_said(truths)  # where no section names the field: the files the importer asks the model for
    split: dict[str, dict[str, list[int]]] = {h: {k: [0, 0] for k in MISSED} for h in fitting.HEADS}
    for truth, cands in kept["docs"]:
        for head, field in (("cause", "root_cause"), ("fix", "fix")):
            said = rows.get(truth.file, {}).get(field)
            if said not in ("empty", "wrong"):
                continue
            model = kept["models"][truth.org or truth.file].heads[head]
            scored = [(model.probability(f), c.text) for f, c in cands[head]]
            asked = truth.file in fitting.RULES_SAID[head]
            kind = where_missed(getattr(truth, fitting.HEADS[head]), scored, model.threshold, asked)
            split[head][kind][said == "wrong"] += 1
    return split


def outcomes(
    fold: str = "A", held_out: dict[str, str] | None = None, cache: Path | None = None, kept: dict | None = None
) -> dict[str, dict[str, str]]:
    """File → field → "right", "wrong" (stored but not right), "empty" or "" (not labelled).
    `held_out`: read each organisation with a sentence model fitted without it, joined by this policy
    (`cache`: the one-out models kept there, `kept`: the candidates and models, `held_out_drafts`)."""
    truths = fold_truths(fold, incidents_only=True)
    if held_out is not None:
        drafts = held_out_drafts(truths, held_out, cache=cache, kept=kept)
    else:
        drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    out: dict[str, dict[str, str]] = {}
    for truth in truths:
        draft = drafts.get(truth.file)
        scores = score([truth], drafts)
        row = {"org": truth.org or truth.file}
        for name, labelled, stored in (
            ("date", truth.date is not None, draft is not None and draft.occurred_at is not None),
            ("root_cause", bool(truth.root_cause_keywords), bool(draft and draft.root_cause)),
            ("fix", bool(truth.fix_keywords), bool(draft and draft.resolution)),
            ("found", bool(truth.found_keywords), bool(draft and draft.diagnosis)),
        ):
            ratio = getattr(scores, name)
            row[name] = "" if not labelled else "right" if ratio.right else "wrong" if stored else "empty"
            row[f"{name}_unlabelled"] = not labelled and stored  # filled where the label has none: not right either
        meta = scores.metadata_as_fix_or_cause
        row["metadata"] = "" if not meta.total else "right" if meta.right else "wrong"
        row["cause_text"] = (draft.root_cause or "")[:300] if draft else ""
        row["fix_text"] = (draft.resolution or "")[:300] if draft else ""
        out[truth.file] = row
    return out


def by_org(rows: dict[str, dict[str, str]]) -> dict[str, dict[str, list[int]]]:
    """Organisation → field → [right, wrong, labelled]."""
    figures: dict[str, dict[str, list[int]]] = defaultdict(lambda: {f: [0, 0, 0] for f in FIELDS})
    for row in rows.values():
        for field in FIELDS:
            if row[field]:
                cell = figures[row["org"]][field]
                cell[0] += row[field] == "right"
                cell[1] += row[field] == "wrong"
                cell[2] += 1
    return dict(figures)


def value(field: str, before: list[int], after: list[int]) -> int:
    if field == "metadata":
        return -METADATA_COST * (after[1] - before[1])
    return (after[0] - before[0]) - (after[1] - before[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dump", type=Path, help="write fold A's per-file outcomes here (the code before a change)")
    parser.add_argument("--against", type=Path, help="a --dump of the code before: per-organisation change, LOO value")
    parser.add_argument("--changed", action="store_true", help="with --against: fold A's files whose outcome moved")
    parser.add_argument(
        "--sentence-model-loo", action="store_true", help="each organisation read with a model fitted without it"
    )
    parser.add_argument("--policy", default="", help="with --sentence-model-loo: e.g. cause=both,fix=rules")
    parser.add_argument(
        "--models-cache", type=Path, help="with --sentence-model-loo: keep and reuse the one-out models"
    )
    parser.add_argument(
        "--openings", action="store_true", help="with --against: moved causes' and fixes' first sentence"
    )
    parser.add_argument("--where-missed", action="store_true", help="with --sentence-model-loo: why each miss missed")
    args = parser.parse_args(argv)
    if args.where_missed and not args.sentence_model_loo:
        parser.error("--where-missed reads the one-out models: give --sentence-model-loo")
    policy = dict(p.split("=", 1) for p in args.policy.split(",") if p)
    kept: dict = {}
    rows = outcomes(held_out=policy if args.sentence_model_loo else None, cache=args.models_cache, kept=kept)
    if args.dump:
        args.dump.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    old = json.loads(args.against.read_text(encoding="utf-8")) if args.against else rows
    after, before = by_org(rows), by_org(old)
    print(f"{'organisation (fold A)':<36} " + " ".join(f"{f:>17}" for f in FIELDS) + "   (right/wrong of labelled)")
    for org in sorted(after):
        cells = []
        for field in FIELDS:
            b, a = before.get(org, {}).get(field, [0, 0, 0]), after[org][field]
            cell = f"{a[0]}/{a[1]} of {a[2]}" if b == a else f"{b[0]}/{b[1]}→{a[0]}/{a[1]} of {a[2]}"
            cells.append(f"{cell:>17}")
        print(f"{org[:36]:<36} " + " ".join(cells))
    for field in FIELDS:
        total_b = [sum(before.get(o, {}).get(field, [0, 0, 0])[i] for o in after) for i in range(3)]
        total_a = [sum(after[o][field][i] for o in after) for i in range(3)]
        gains = {o: value(field, before.get(o, {}).get(field, [0, 0, 0]), after[o][field]) for o in after}
        loo = sum(g for o, g in gains.items() if sum(gains.values()) - g > 0)
        helped = sum(g > 0 for g in gains.values())
        hurt = sum(g < 0 for g in gains.values())
        unlabelled = [sum(bool(r.get(f"{field}_unlabelled")) for r in x.values()) for x in (old, rows)]
        print(
            f"{field:<11} right {total_b[0]}→{total_a[0]}/{total_a[2]}, wrong {total_b[1]}→{total_a[1]}"
            + (f" (+ filled where none is labelled {unlabelled[0]}→{unlabelled[1]})" if any(unlabelled) else "")
            + f"; value {sum(gains.values()):+d}, one organisation out {loo:+d} ({helped} helped, {hurt} hurt)"
        )
    if args.where_missed:
        for head, kinds in missed_split(rows, kept).items():
            print(f"{head} missed one organisation out (empty / wrong):")
            for kind, (empty, wrong) in kinds.items():
                print(f"  {kind:<46} {empty:>4} / {wrong:<4}")
    if args.against and args.changed:
        for file, row in sorted(rows.items()):
            moved = [f"{f} {old[file][f]}→{row[f]}" for f in FIELDS if file in old and old[file][f] != row[f]]
            if moved:
                print(f"  {file}: {', '.join(moved)}")
    if args.against and args.openings:
        for line in openings(old, rows):
            print(line)
    return 0


_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s|\n")


def openings(before: dict, after: dict) -> list[str]:
    """For each file whose stored cause or fix moved, its first sentence before and after (the dumps keep 300
    characters of each), and how many moved fields open with a sentence they did not open with before."""
    lines, opened = [], 0
    for file in sorted(after):
        for field in ("cause_text", "fix_text"):
            old, new = before.get(file, {}).get(field, ""), after[file].get(field, "")
            if old == new:
                continue
            first_old, first_new = (_FIRST_SENTENCE.split(x.strip(), maxsplit=1)[0] for x in (old, new))
            opened += first_old != first_new
            lines.append(f"  {file} {field.split('_')[0]}: {first_old[:140]!r}\n    -> {first_new[:140]!r}")
    lines.append(f"moved causes and fixes: {len(lines)}, opening with another sentence: {opened}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
