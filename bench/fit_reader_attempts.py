"""Would a fitted head for failed attempts pay beside the cue words? Measured, not shipped unless it does.

    .venv/bin/python bench/fit_reader_attempts.py          # fold A only: leave-one-organisation-out
    .venv/bin/python bench/fit_reader_attempts.py --folds  # and A -> B, the swap B -> A, in-sample
    .venv/bin/python bench/fit_reader_attempts.py --ungated  # without the failure-cue gate
    .venv/bin/python bench/fit_reader_attempts.py --pair-label | --told  # the variants tried

A head over sentence pairs of eval/postmortems: a sentence (an action?) with the cue words of the
sentence after it (did it fail?), the one sentence model's features (bot/reader/sentences.py
`features`: words seen in >= 4 organisations, cues, section, place) fitted by the reader's one
fitting routine (bot/reader/fit.py). Weak labels: a sentence is 1 when it holds half of one of its
item's failed-attempt action keywords. Its sentences above a threshold would be added to the
attempts the importer stores (at most `keep` per document, never one the importer already holds),
and only when the pair says something failed (the "failed" cue in the sentence or the next one).

Value, end to end on the importer's drafts: each real attempt newly found +1, each added attempt
that is not real -WRONG_COST (precision first); an added sentence that repeats an attempt already
found (told again in another section) counts 0. The threshold and keep are chosen on the fitting
fold by leave-one-organisation-out inside it; the head ships only when that value is above 0 on
fold A. Fold B's misses are never printed (totals only).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.importer.cause_fix as cause_fix  # noqa: E402
import bot.reader.fit as reader_fit  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import Truth, attempt_found, attempt_is_real, attempt_text  # noqa: E402
from bot.reader.sentences import Candidate, Head, features  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
MIN_ORGS = 4
WRONG_COST = 1.0
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99)
KEEPS = (1, 2)
GATED = [True]  # --ungated: any sentence above the threshold, failure cue or not
PAIR_LABEL = [False]  # --pair-label: a sentence is 1 when it and the next one together hold the keywords
TOLD_SECTIONS = ("timeline", "summary", "resolution", "diagnosis", "other")  # --told: only these
SECTIONS: list[tuple[str, ...]] = [()]

Row = tuple[list[str], int, Candidate, Candidate | None]
Doc = tuple[Truth, list[Row]]


def pair_features(sentence: Candidate, following: Candidate | None) -> list[str]:
    found = features(sentence)
    if following is not None:
        found += ["next:" + f for f in features(following) if f.startswith("cue:")]
    return found


def documents(truths: list[Truth]) -> list[Doc]:
    docs = []
    for truth in truths:
        text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
        cands = cause_fix.candidates_of(text, truth.file)
        rows: list[Row] = []
        for i, c in enumerate(cands):
            following = cands[i + 1] if i + 1 < len(cands) and cands[i + 1].section == c.section else None
            if SECTIONS[0] and c.section not in SECTIONS[0]:
                continue
            said = f"{c.text} {following.text}" if PAIR_LABEL[0] and following else c.text
            real = int(attempt_is_real(said, truth.failed_attempts))
            rows.append((pair_features(c, following), real, c, following))
        docs.append((truth, rows))
    return docs


def org(doc: Doc) -> str:
    return doc[0].org or doc[0].file


def fit(docs: list[Doc]) -> Head:
    seen: dict[str, set[str]] = defaultdict(set)
    for doc in docs:
        for feats, *_ in doc[1]:
            for f in feats:
                seen[f].add(org(doc))
    kept = {f for f, o in seen.items() if (len(o) >= MIN_ORGS or not f.startswith("w:")) and not f.startswith("b:")}
    rows = [([f for f in feats if f in kept], y) for doc in docs for feats, y, *_ in doc[1]]
    return reader_fit.fit_head(rows, steps="adagrad", epochs=8, rate=0.2, l2=1e-3)


Scored = list[tuple[Truth, list[tuple[float, Candidate, Candidate | None]]]]


def scored_by(docs: list[Doc], head: Head) -> Scored:
    return [(t, [(head.probability(f), c, n) for f, _, c, n in rows]) for t, rows in docs]


def left_out(docs: list[Doc]) -> Scored:
    """Each organisation's documents scored by the head fitted on the others."""
    held: Scored = []
    for name in dict.fromkeys(org(d) for d in docs):
        head = fit([d for d in docs if org(d) != name])
        held += scored_by([d for d in docs if org(d) == name], head)
    return held


def says_failed(c: Candidate, n: Candidate | None) -> bool:
    return not GATED[0] or "cue:failed" in features(c) or (n is not None and "cue:failed" in features(n))


def value(scored: Scored, drafts: dict, threshold: float, keep: int) -> tuple[float, int, int, int]:
    """(value, real attempts newly found, added not real, added repeating one already found)."""
    found = wrong = repeats = 0
    for truth, rows in scored:
        draft = drafts.get(truth.file)
        stored = [attempt_text(a.action, a.why_it_failed) for a in draft.failed_attempts] if draft else []
        before = sum(attempt_found(k, stored) for k in truth.failed_attempts)
        added: list[str] = []
        for _, c, n in sorted((r for r in rows if r[0] >= threshold), key=lambda r: -r[0]):
            head = c.text[:60].lower()
            if not says_failed(c, n) or any(
                head in s.lower() or s[:60].lower() in c.text.lower() for s in stored + added
            ):
                continue
            added.append(f"{c.text} {n.text if n else ''}")
            if len(added) >= keep:
                break
        after = sum(attempt_found(k, stored + added) for k in truth.failed_attempts)
        real_added = sum(attempt_is_real(a, truth.failed_attempts) for a in added)
        found, wrong, repeats = found + after - before, wrong + len(added) - real_added, repeats + real_added
    repeats -= found
    return found - WRONG_COST * wrong, found, wrong, max(repeats, 0)


def choose(held: Scored, drafts: dict, label: str) -> tuple[float, int, float]:
    results = {(t, k): value(held, drafts, t, k) for k in KEEPS for t in THRESHOLDS}
    for (t, k), (v, f, w, r) in results.items():
        print(f"  {label} threshold {t} keep {k}: +{f} found, {w} wrong added, {r} repeats; value {v:+.0f}")
    (t, k), best = max(results.items(), key=lambda item: (item[1][0], item[0][0]))
    return t, k, best[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", action="store_true", help="also A -> B, the swap B -> A and in-sample (totals)")
    parser.add_argument("--ungated", action="store_true", help="add sentences that say no failure too")
    parser.add_argument("--pair-label", action="store_true", help="label a sentence by it and the next together")
    parser.add_argument("--told", action="store_true", help=f"only sentences of {', '.join(TOLD_SECTIONS)}")
    args = parser.parse_args()
    GATED[0], PAIR_LABEL[0], SECTIONS[0] = not args.ungated, args.pair_label, TOLD_SECTIONS if args.told else ()
    truths = fold_truths(None, incidents_only=True)
    drafts, _, _ = read_corpus(POSTMORTEMS)
    docs = {f: documents([t for t in truths if t.fold == f]) for f in ("A", "B") if f == "A" or args.folds}
    missed = reachable = 0  # the real attempts the importer misses, and those one candidate sentence holds
    for truth, rows in docs["A"]:
        draft = drafts.get(truth.file)
        stored = [attempt_text(a.action, a.why_it_failed) for a in draft.failed_attempts] if draft else []
        for k in truth.failed_attempts:
            if not attempt_found(k, stored):
                missed += 1
                reachable += attempt_found(k, (c.text for _, _, c, _ in rows))
    print(f"fold A: {missed} real attempts missed by the importer, {reachable} held by one candidate sentence")
    print("fold A, leave-one-organisation-out (the head fitted without each organisation):")
    t_a, k_a, v_a = choose(left_out(docs["A"]), drafts, "A")
    verdict = "above 0" if v_a > 0 else "not above 0: not shipped"
    print(f"chosen on fold A: threshold {t_a} keep {k_a}, value {v_a:+.0f} ({verdict})")
    if not args.folds:
        return 0
    quiet = {"A": (t_a, k_a)}
    heads = {f: fit(docs[f]) for f in ("A", "B")}
    held_b = left_out(docs["B"])  # the swap's threshold, chosen inside B by the routine: totals only
    t_b, k_b, _ = max(
        ((t, k, value(held_b, drafts, t, k)[0]) for k in KEEPS for t in THRESHOLDS), key=lambda x: (x[2], x[0])
    )
    quiet["B"] = (t_b, k_b)
    for fitted, on in (("A", "A"), ("A", "B"), ("B", "A"), ("B", "B")):
        t, k = quiet[fitted]
        v, f, w, r = value(scored_by(docs[on], heads[fitted]), drafts, t, k)
        kind = "in-sample" if fitted == on else "out-of-sample"
        print(
            f"fitted on {fitted} (threshold {t} keep {k}), read {on} ({kind}): +{f} found, {w} wrong, {r} repeats; value {v:+.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
