"""A fitted gate for failed attempts, trained on sentence labels: measured, not shipped unless it pays.

    .venv/bin/python bench/fit_reader_attempt_gate.py                    # fold A, one organisation out: keep / add grid
    .venv/bin/python bench/fit_reader_attempt_gate.py --keep 0 0.3 --add 1   # the gate alone (no pair added)
    .venv/bin/python bench/fit_reader_attempt_gate.py --pairs            # pair-level ranking, one organisation out
    .venv/bin/python bench/fit_reader_attempt_gate.py --words            # the same with the words as features

The cue rules (bot/reader/narrative.py) read "an action, then words that say it failed" and were
written by reading fold A. The gate is a logistic head (bot/reader/fit.py, the reader's one
fitting routine) over an attempt pair: the action's cues beside its outcome's (the "why"), fitted
on eval/postmortems/statements.jsonl, the sentence labels of fold A written by a person (which
statement tells an action someone took, and whether it worked). Two thresholds: `keep`, what an
attempt the cue rules found needs to be kept (0: all kept); `add`, what a timeline entry that
names an action, read with itself or one of the three entries after it, needs to be added as an
attempt the rules did not find (1: none added).

Rows: every statement of a labelled document that names an action (the cue TRIED), read with
itself and with each of the three statements after it in its section, plus every attempt the cue
rules store for the document. A row is 1 when its action is a labelled action that did not work and
its outcome is where the labels say the failure is told (or half of one of the document's
failed-attempt keywords and a failure cue), 0 otherwise (a recovery, an action of unknown outcome,
a trigger, a plan, an observation, a critique, a statement nobody labelled an action).

Value, end to end on the importer's drafts (the scorer of bench/reading_eval.py): a labelled
attempt newly found +1, a stored attempt that is not real one more -1 (precision first: a wrong
"did not work" line costs at least what a real one gains). Each organisation of fold A is read by
the importer with the head fitted on the other organisations' labels; the head ships only when the
best value is above 0. Nothing here ships.

--swap: the head is fitted on fold B's sentence labels (statements("B"), rows made as fold A's are)
and fold A is read with it, out of sample (totals only; nothing of fold B is printed but its row
counts); --out PATH writes that head outside the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.importer.markdown as markdown  # noqa: E402
import bot.reader.fit as reader_fit  # noqa: E402
from bench.import_postmortems import fold_statements, fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import Truth, attempt_found, attempt_is_real, attempt_text  # noqa: E402
from bot.reader.cues import (  # noqa: E402
    ANAPHOR,
    CRITIQUE,
    DID_NOT_WORK,
    FAILURE_WORDS,
    PENDING,
    RESOLVED,
    SAYS_IT_FAILED,
    TRIED,
)
from bot.reader.cues_attempts import (  # noqa: E402
    AUTOMATIC,
    BEFORE_THE_INCIDENT,
    EXPLICIT_TRY,
    FAILED_OUTCOME,
    IF_IT_FAILS,
    PARTLY_WORKED,
    QUOTED,
    REFERS_BACK,
    REPEATED,
    TESTING_IT,
    WE_TRIED,
    WHY_SPLIT,
)
from bot.reader.narrative import _objects  # noqa: E402
from bot.reader.sentences import _WORD, Head, _stem  # noqa: E402
from bot.reader.text import plain  # noqa: E402

try:  # the importer's sentence candidates (moved out of markdown.py for length)
    from bot.importer.cause_fix import candidates_of  # noqa: E402
except ImportError:  # pragma: no cover
    from bot.importer.markdown import candidates_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POSTMORTEMS = ROOT / "eval" / "postmortems"
MIN_ORGS = 4  # a word is a feature when it is seen in at least this many organisations' rows
AHEAD = 3  # an outcome may be told in one of the three statements after the action
KEEPS = (0.0, 0.3, 0.5)
ADDS = (0.9, 0.95, 0.98, 1.0)
WITH_WORDS = [False]
OUTCOME_ONLY = [False]  # --outcome-only: a later entry that names an action of its own is not the outcome
_MARKUP = re.compile(r"\]\([^)\s]*\)|[*_`\[\]]")

# the shape of a statement beyond the reader's cue words: who acted, how, what was planned
PASSIVE = re.compile(r"\b(?:is|was|are|were|been|being|gets?|got)\s+(?:\w+ly\s+)?\w+(?:ed|en|un|wn|lt|ut)\b", re.I)
FIRST_PERSON = re.compile(r"\b(?:i|we)\b", re.I)
PLANNED = re.compile(r"\b(?:decid\w*|suggest\w*|propos\w*|plan\w*|consider\w*|will|should|going to|need to)\b", re.I)
MANUAL = re.compile(r"\b(?:manual\w*|by hand|forc\w*|hard)\b", re.I)
TROUBLE = re.compile(
    r"\b(?:error\w*|fail\w*|broke\w*|crash\w*|down|unreachable|unavailable|stuck|hung|timed? ?out)\b", re.I
)
STILL = re.compile(r"\b(?:still|again|same|remain\w*|persist\w*|continu\w*|recurr?\w*)\b", re.I)
NEGATION = re.compile(r"\b(?:not|no|never|nothing|none|without)\b|n't\b", re.I)
CONTRAST = re.compile(r"\b(?:but|however|though|although|unfortunately|instead)\b", re.I)
ACTION_CUES = {
    "tried": TRIED, "explicit": EXPLICIT_TRY, "who": WE_TRIED, "failed": DID_NOT_WORK, "says_failed": SAYS_IT_FAILED,
    "resolved": RESOLVED, "critique": CRITIQUE, "pending": PENDING, "automatic": AUTOMATIC, "if_fails": IF_IT_FAILS,
    "partly": PARTLY_WORKED, "testing": TESTING_IT, "before": BEFORE_THE_INCIDENT, "quoted": QUOTED,
    "passive": PASSIVE, "first_person": FIRST_PERSON, "plan": PLANNED, "manual": MANUAL, "trouble": TROUBLE,
    "anaphor": ANAPHOR,
}  # fmt: skip
WHY_CUES = {
    "failed": DID_NOT_WORK, "says_failed": SAYS_IT_FAILED, "resolved": RESOLVED, "tried": TRIED,
    "partly": PARTLY_WORKED, "still": STILL, "negation": NEGATION, "contrast": CONTRAST, "trouble": TROUBLE,
    "who": WE_TRIED, "critique": CRITIQUE, "pending": PENDING, "refers_back": REFERS_BACK,
}  # fmt: skip

Row = tuple[list[str], int]
STORY = [False]  # --story: where in the timeline the action was told (before the trouble, during, after it was over)
TROUBLE_SAID = re.compile(FAILURE_WORDS.pattern + "|" + TROUBLE.pattern, re.I)


def story(texts: list[str], i: int) -> list[str]:
    """Where entry i stands in its timeline's story: before anything was said to be wrong (a trigger
    or the background), after it was said to be over (a clean-up), whether a later entry (up to
    AHEAD) refers back with a failure or names its object again failing, whether the next one is a recovery."""
    if not STORY[0]:
        return []
    found = []
    if not any(TROUBLE_SAID.search(t) for t in texts[:i]):
        found.append("s:before_trouble")
    over = [
        k
        for k in range(i)
        if RESOLVED.search(texts[k]) and not FAILED_OUTCOME.search(texts[k]) and not PENDING.search(texts[k])
    ]
    if over and not any(FAILED_OUTCOME.search(t) or REPEATED.search(t) for t in texts[over[-1] + 1 : i]):
        found.append("s:after_over")
    objects = _objects(texts[i])
    for t in texts[i + 1 : i + 1 + AHEAD]:
        failing = FAILED_OUTCOME.search(t)
        if failing and REFERS_BACK.match(t):
            found.append("s:later_refers_back")
        if failing and objects & _objects(t[: failing.start()] or t):
            found.append("s:later_same_object_fails")
    if i + 1 < len(texts) and RESOLVED.search(texts[i + 1]) and not FAILED_OUTCOME.search(texts[i + 1]):
        found.append("s:next_recovers")
    return list(dict.fromkeys(found))


def _words(text: str) -> list[str]:
    return [_stem(w) for w in _WORD.findall(text.lower())[:40]]


def pair_features(action: str, why: str, where: list[str] | None = None) -> list[str]:
    """The action's cues, the outcome's (prefixed "o:"), and with --words their words; with --story where it was told."""
    action, why = action[:1000], why[:1000]
    found = [f"w:{w}" for w in _words(action)] if WITH_WORDS[0] else []
    found += where or []
    found += [f"cue:{name}" for name, pattern in ACTION_CUES.items() if pattern.search(action)]
    if why:
        found += [f"o:w:{w}" for w in _words(why)] if WITH_WORDS[0] else []
        found += [f"o:cue:{name}" for name, pattern in WHY_CUES.items() if pattern.search(why)]
    else:
        found.append("o:none")
    found.append(f"len:{min(len(action.split()) // 10, 4)}")
    return list(dict.fromkeys(found))


@dataclass(slots=True)
class Gate:
    head: Head = field(default_factory=Head)
    keep: float = 0.0
    add: float = 1.0

    def probability(self, action: str, why: str, where: list[str] | None = None) -> float:
        return self.head.probability(pair_features(action, why, where))

    def holds(self, attempt: dict[str, str], where: list[str] | None = None) -> bool:
        return self.keep <= 0 or self.probability(attempt["action"], attempt["why_it_failed"], where) >= self.keep


# ---- the gate put in front of (and beside) the importer's cue rules, for this bench only ----------

_ORIGINAL = {name: getattr(markdown, name) for name in ("failed_in_text", "failed_in_prose", "failed_in_timeline")}


def _gated(name: str, gate: Gate) -> Callable:
    original = _ORIGINAL[name]
    if name != "failed_in_timeline":
        return lambda *a, **k: [x for x in original(*a, **k) if gate.holds(x)]

    def timeline(entries: list) -> list:
        found = original(entries)
        at = {id(e): i for i, e in enumerate(entries)}
        texts = [plain(" ".join(e.text.split())) for e in entries]
        used = {at[id(e)] for e, _ in found} | {at[id(e)] + 1 for e, _ in found}
        kept = [(e, a) for e, a in found if gate.holds(a, story(texts, at[id(e)]))]
        return kept + (added(entries, used, gate) if gate.add < 1 else [])

    return timeline


def added(entries: list, used: set[int], gate: Gate) -> list:
    """An entry that names an action, read with itself or one of the AHEAD entries after it, when
    the gate is sure enough the pair tells a failed attempt; never an entry that told one already."""
    found = []
    texts = [plain(" ".join(e.text.split())) for e in entries]
    for i, entry in enumerate(entries):
        text = texts[i]
        if i in used or len(text) > 500 or not TRIED.search(text) or QUOTED.search(text):
            continue
        split = WHY_SPLIT.match(text)
        pairs = [(split.group("action"), split.group("why")) if split else (text, "")]
        later = [plain(" ".join(e.text.split()))[:300] for e in entries[i + 1 : i + 1 + AHEAD]]
        if OUTCOME_ONLY[0]:
            later = [w for w in later if not TRIED.search(w) or REFERS_BACK.match(w)]
        pairs += [(text, w) for w in later]
        where = story(texts, i)
        p, action, why = max(((gate.probability(a, w, where), a, w) for a, w in pairs), key=lambda s: s[0])
        if p >= gate.add:
            found.append((entry, {"action": action.rstrip(" ,;:."), "why_it_failed": why.rstrip(" .")}))
            used.add(i)
    return found


def use_gate(gate: Gate | None) -> None:
    for name, original in _ORIGINAL.items():
        setattr(markdown, name, _gated(name, gate) if gate is not None else original)


# ---- labels and rows ---------------------------------------------------------------------------


def norm(text: str) -> str:
    return " ".join(_MARKUP.sub(" ", text.lower()).split())


statements = fold_statements  # the one loader of the sentence labels: fold A's unless asked, held-out files out


def dnw(labelled: list[dict]) -> list[dict]:
    return [s for s in labelled if s["kind"] == "action" and s["outcome"] == "did_not_work"]


def label(text: str, labelled: list[dict], truth: Truth) -> int:
    """1: the text tells a labelled action that did not work (or half a document attempt's keywords)."""
    said = norm(text)
    if any(norm(s["quote"]) in said for s in dnw(labelled)):
        return 1
    return int(attempt_is_real(text, truth.failed_attempts))


def pair_label(a: str, o: str | None, labelled: list[dict], truth: Truth) -> int:
    """1: the action `a` did not work and `o` (None: `a` itself) is where its failure is told."""
    said, told = norm(a), norm(o if o is not None else a)
    for s in dnw(labelled):
        if norm(s["quote"]) in said:
            outcome = norm(s.get("outcome_quote", ""))
            if (outcome and outcome in told) or (not outcome and o is None):
                return 1
    failed = o is None or DID_NOT_WORK.search(o) or SAYS_IT_FAILED.search(o)
    return int(bool(failed) and attempt_is_real(a, truth.failed_attempts))


def pair_rows(truth: Truth, labelled: list[dict], featurize: Callable | None = None) -> list[Row]:
    """A report's rows: each candidate naming a step (TRIED), alone and with each of the AHEAD candidates after it in
    its section. `featurize(action, why, where)` gives a row's features (pair_features unless another reading is
    asked for, bench/attempts_swap_gate.py's); a row it gives None is left out."""
    featurize = featurize or pair_features
    text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
    cands = candidates_of(text, truth.file)
    timeline = [c.text for c in cands if c.section == "timeline"]
    first = next((i for i, c in enumerate(cands) if c.section == "timeline"), len(cands))
    rows: list[Row] = []
    for i, a in enumerate(cands):
        if not TRIED.search(a.text):
            continue
        where = story(timeline, i - first) if a.section == "timeline" else []
        split = WHY_SPLIT.match(a.text)
        action, why = (split.group("action"), split.group("why")) if split else (a.text, "")
        if (feats := featurize(action, why, where)) is not None:
            rows.append((feats, pair_label(a.text, None, labelled, truth)))
        for o in cands[i + 1 : i + 1 + AHEAD]:
            if o.section != a.section:
                break
            if (feats := featurize(a.text, o.text[:300], where)) is not None:
                rows.append((feats, pair_label(a.text, o.text, labelled, truth)))
    return rows


def told_where(truth: Truth, action: str) -> list[str]:
    """Story features of a stored attempt told in a timeline entry (none for one told in prose)."""
    text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
    timeline = [c.text for c in candidates_of(text, truth.file) if c.section == "timeline"]
    said = norm(action)[:50]
    at = next((i for i, t in enumerate(timeline) if said and said in norm(t)), None)
    return story(timeline, at) if at is not None else []


def fit(rows_by_org: dict[str, list[Row]]) -> Head:
    seen: dict[str, set[str]] = defaultdict(set)
    for org, rows in rows_by_org.items():
        for feats, _ in rows:
            for f in feats:
                seen[f].add(org)
    kept = {f for f, orgs in seen.items() if len(orgs) >= MIN_ORGS or ":w:" not in f and not f.startswith("w:")}
    rows = [([f for f in feats if f in kept], y) for rows in rows_by_org.values() for feats, y in rows]
    return reader_fit.fit_head(rows, steps="adagrad", epochs=8, rate=0.2, l2=1e-3)


# ---- end to end ---------------------------------------------------------------------------------


def read_with(gates: dict[str, Gate | None], truths: list[Truth]) -> dict[str, list[tuple[str, str]]]:
    """Each organisation's documents read by the importer with its own gate (None: the cue rules alone)."""
    kept: dict[str, list[tuple[str, str]]] = {}
    for name, chosen in gates.items():
        files = {t.file for t in truths if (t.org or t.file) == name}
        use_gate(chosen)
        drafts, _, _ = read_corpus(POSTMORTEMS, only=files)
        for t in truths:
            if t.file in files and (d := drafts.get(t.file)):
                kept[t.file] = [(a.action, a.why_it_failed) for a in d.failed_attempts]
    use_gate(None)
    return kept


def figures(truths: list[Truth], kept: dict[str, list[tuple[str, str]]]) -> dict[str, int]:
    out = dict.fromkeys(("real", "wrong", "found", "labelled"), 0)
    for t in truths:
        texts = [attempt_text(a, w) for a, w in kept.get(t.file, [])]
        out["real"] += sum(attempt_is_real(x, t.failed_attempts) for x in texts)
        out["wrong"] += sum(not attempt_is_real(x, t.failed_attempts) for x in texts)
        out["found"] += sum(attempt_found(k, texts) for k in t.failed_attempts)
        out["labelled"] += len(t.failed_attempts)
    return out


def show(f: dict[str, int]) -> str:
    return f"stored real {f['real']}/{f['real'] + f['wrong']}, wrong {f['wrong']}, found {f['found']}/{f['labelled']}"


def ranking(scored: list[tuple[float, bool]], tops: tuple[int, ...]) -> tuple[int, float, str]:
    """How well probabilities rank the positives (also bench/attempt_pairs.py's): their count, the AUC
    (the share of positive-negative pairs ranked right) and the precision among the first k of `tops`."""
    scored = sorted(scored, key=lambda s: -s[0])
    positives = sum(y for _, y in scored)
    negatives_below, pairs_right = 0, 0
    for _, y in reversed(scored):
        pairs_right += negatives_below if y else 0
        negatives_below += 0 if y else 1
    auc = pairs_right / max(positives * (len(scored) - positives), 1)
    at = ", ".join(f"top {k} {sum(y for _, y in scored[:k]) / k:.2f}" for k in tops)
    return positives, auc, at


def pairs_ranked(rows: dict[str, list[Row]]) -> None:
    """Pair-level: each organisation's rows scored by the head fitted without it; AUC and precision at k."""
    scored = []
    for name in rows:
        head = fit({o: r for o, r in rows.items() if o != name})
        scored += [(head.probability(f), y) for f, y in rows[name]]
    positives, auc, at = ranking(scored, (10, 25, 50, 100))
    print(f"pairs one organisation out: {len(scored)} rows, {positives} failed; AUC {auc:.3f}; precision {at}")


def labelled_rows(fold: str, truths: list[Truth]) -> tuple[dict[str, list[Row]], dict[str, list[tuple[str, str]]], int]:
    """One fold's rows by organisation, from that fold's sentence labels alone (statements(fold)) and
    the attempts the cue rules store for its reports; also what the cue rules stored, and how many
    reports have sentence labels. Never another fold's labels or reports."""
    if any(t.fold != fold for t in truths):
        raise ValueError(f"rows of fold {fold} from another fold's reports")
    labels = statements(fold)
    org = {t.file: t.org or t.file for t in truths}
    base_kept = read_with(dict.fromkeys(sorted(set(org.values()))), truths)
    rows: dict[str, list[Row]] = defaultdict(list)
    for t in truths:
        if t.file in labels:
            told = [
                (pair_features(a, w, told_where(t, a)), label(attempt_text(a, w), labels[t.file], t))
                for a, w in base_kept.get(t.file, [])
            ]
            rows[org[t.file]] += pair_rows(t, labels[t.file]) + told
    return rows, base_kept, sum(t.file in labels for t in truths)


def write_head(head: Head, fitted_on: str, out: Path) -> None:
    data = {
        "fitted_on": fitted_on,
        "bias": round(head.bias, 5),
        "weights": {f: round(w, 5) for f, w in sorted(head.weights.items())},
    }
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({fitted_on})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=float, nargs="*", default=list(KEEPS), help="gate thresholds to try")
    parser.add_argument("--add", type=float, nargs="*", default=list(ADDS), help="add thresholds to try")
    parser.add_argument("--pairs", action="store_true", help="pair-level ranking only (no importer run)")
    parser.add_argument("--words", action="store_true", help="the words of action and outcome as features too")
    parser.add_argument("--outcome-only", action="store_true", help="added pairs: the later entry names no action")
    parser.add_argument("--story", action="store_true", help="where in its timeline the action was told, as features")
    parser.add_argument("--swap", action="store_true", help="fit on fold B's sentence labels, read fold A (totals)")
    parser.add_argument("--out", type=Path, help="with --swap: write fold B's head there (outside the repository)")
    args = parser.parse_args(argv)
    if args.out and not args.swap:
        parser.error("--out goes with --swap")
    if args.out and args.out.resolve().is_relative_to(ROOT):
        parser.error(f"--out {args.out}: inside the repository (nothing here ships)")
    WITH_WORDS[0], OUTCOME_ONLY[0], STORY[0] = args.words, args.outcome_only, args.story
    fold_a = fold_truths("A", incidents_only=True)
    orgs = sorted({t.org or t.file for t in fold_a})
    rows, base_kept, labelled = labelled_rows("A", fold_a)
    n, pos = sum(len(r) for r in rows.values()), sum(y for r in rows.values() for _, y in r)
    print(f"fold A: {labelled} documents with sentence labels ({len(rows)} organisations), {n} rows, {pos} failed")
    if args.pairs:
        pairs_ranked(rows)
        return 0
    base = figures(fold_a, base_kept)
    print(f"cue rules alone (fold A, {len(fold_a)} reports): {show(base)}")
    # the swap: fitted on fold B's sentence labels (statements("B")) the way fold A's rows are made, read on fold A
    if args.swap:
        fold_b = fold_truths("B", incidents_only=True)
        rows_b, _, labelled_b = labelled_rows("B", fold_b)
        n_b, pos_b = sum(len(r) for r in rows_b.values()), sum(y for r in rows_b.values() for _, y in r)
        print(
            f"fold B: {labelled_b} documents with sentence labels ({len(rows_b)} organisations), {n_b} rows, {pos_b} failed"
        )
        head_b = fit(dict(rows_b))
        if args.out:
            write_head(head_b, "eval/postmortems fold B (statements.jsonl)", args.out)
        heads = dict.fromkeys(orgs, head_b)
    else:
        heads = {name: fit({o: r for o, r in rows.items() if o != name}) for name in orgs}
    results = {}
    for keep in args.keep:
        for add in args.add:
            f = figures(fold_a, read_with({n: Gate(h, keep, add) for n, h in heads.items()}, fold_a))
            value = (f["found"] - base["found"]) - (f["wrong"] - base["wrong"])
            results[(keep, add)] = value
            how = "fitted on B" if args.swap else "one organisation out"
            print(f"  {how}, keep {keep} add {add}: {show(f)}; value {value:+d}", flush=True)
    (keep, add), best = max(results.items(), key=lambda kv: (kv[1], -kv[0][0], kv[0][1]))
    verdict = "above 0" if best > 0 else "not above 0: not shipped"
    where = "fitted on fold B, read fold A (the swap)" if args.swap else "on fold A one organisation out"
    print(f"best {where}: keep {keep} add {add}, value {best:+d} ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
