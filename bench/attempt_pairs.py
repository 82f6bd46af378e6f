"""Step–outcome pairs from the sentence labels, and a pair model for failed attempts, fold A one organisation out.

    nice -n 10 .venv/bin/python bench/attempt_pairs.py --dataset /tmp/pairs.jsonl   # the pairs, fold A only
    nice -n 10 .venv/bin/python bench/attempt_pairs.py                  # the grid below, one organisation out (~6 min)
    nice -n 10 .venv/bin/python bench/attempt_pairs.py --veto 0.8 --add 1   # one setting

The pairs. eval/postmortems/statements.jsonl labels fold A's statements one by one: which tells an
action someone took and whether it worked, and, when a later statement tells the outcome, that
statement's words (`outcome_quote`). A pair is a step (a sentence candidate of the importer,
`candidates_of`, that names an action: the cue TRIED) read with itself or one of the AHEAD candidates
after it in its section; it is `did_not_work` when a labelled action that did not work is told in the
step and its outcome in the later candidate (the step itself when no outcome is quoted), `worked`
likewise for an action that worked (a recovery, a clean-up), else `unrelated` (a later step of its own,
an observation, a statement nobody labelled). Only fold A's lines are read (`statements("A")`, which
refuses a line whose fold disagrees with truth.jsonl); fold B is never opened.

The model. Two logistic heads (bot/reader/fit.py, the reader's one fitting routine) over the pair's
cues, not its words (words and embeddings did not carry across organisations: docs/BENCHMARKS.md,
seventh and ninth passes): P(the pair tells a step that did not work) and P(it tells a step that
worked). Features: the step's cues, the outcome's cues marked by where it is (the step's own sentence
or a later one), how far ahead, whether the later sentence refers back, names the step's object
again, or names a step of its own, the section.

Its use, end to end through the importer (the scorer of bench/reading_eval.py), each organisation of
fold A read with heads fitted on the others: `veto` drops an attempt the cue rules store when its step
reads as a recovery (P(worked) ≥ veto and above P(did not work) on its best pair); `add` stores a step
the rules missed when its best pair's P(did not work) ≥ add and above P(worked). The decision rule
(/work/notes-r23-pairs.md, written before measuring) is checked on the printed figures; nothing here
ships by itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.importer.markdown as markdown  # noqa: E402
import bot.reader.fit as reader_fit  # noqa: E402
from bench.fit_reader_attempt_gate import ACTION_CUES, WHY_CUES, figures, norm, ranking, show, statements  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.cause_fix import candidates_of, sentence_candidates  # noqa: E402
from bot.importer.scoring import Truth  # noqa: E402
from bot.reader import cues_attempts as ca  # noqa: E402
from bot.reader.cues import FAILURE_WORDS, TRIED  # noqa: E402
from bot.reader.cues_attempts import QUOTED, REFERS_BACK, WHY_SPLIT  # noqa: E402
from bot.reader.narrative import _objects  # noqa: E402
from bot.reader.sentences import Candidate, Head  # noqa: E402
from bot.reader.text import plain  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POSTMORTEMS = ROOT / "eval" / "postmortems"
AHEAD = 3  # 150 of the 174 labelled failed steps found in a candidate have their outcome within 2 candidates
STEP_CHARS = 500  # a longer candidate is a paragraph, not one step
VETOES = (0.9, 0.8, 0.7, 1.01)  # 1.01: no veto
ADDS = (0.99, 0.98, 0.95, 1.01)  # 1.01: nothing added
CLASSES = ("did_not_work", "worked", "unrelated")
# --reader-cues (v2): the meanings the cue rules read a step and its outcome by (bot/reader/cues_attempts.py)
STEP_MEANINGS = {
    name: getattr(ca, name)
    for name in (
        "LOOKED_FOR_IT", "FIGURING_OUT", "SYSTEM_ACTED", "STEP_WORKED", "NOT_TAKEN", "ALERT_SAID", "AFTER_IT_WAS_OVER",
        "TRIGGERED_IT", "PAST_PERFECT", "RESPONDER_STEP", "LOG_LINE", "REMEDY", "REPORTS_A_STATE", "PARTLY_WORKED",
        "FAILED_OUTCOME", "NEGATED_RECOVERY", "CONTRAST",
    )
}  # fmt: skip
OUTCOME_MEANINGS = {
    name: getattr(ca, name)
    for name in (
        "FAILED_OUTCOME", "NEGATED_RECOVERY", "SAYS_THE_STEP_FAILED", "OPENS_ON_THE_STEP", "REPEATED", "STEP_WORKED",
        "PARTLY_WORKED", "CONSEQUENCE", "TROUBLE_MADE", "STEP_OUTCOME", "OWN_FAILURE", "REPORTS_A_STATE",
    )
}  # fmt: skip
READER_CUES = [False]


# ---- pairs -------------------------------------------------------------------------------------------


def is_step(c: Candidate) -> bool:
    return (
        c.section != "title" and len(c.text) <= STEP_CHARS and bool(TRIED.search(c.text)) and not QUOTED.search(c.text)
    )


def pairs_of(cands: list[Candidate]) -> list[tuple[int, int]]:
    """(step, outcome) places: every step with itself and with up to AHEAD candidates after it in its section."""
    found = []
    for i, c in enumerate(cands):
        if not is_step(c):
            continue
        found.append((i, i))
        for j in range(i + 1, min(i + 1 + AHEAD, len(cands))):
            if cands[j].section != c.section:
                break
            found.append((i, j))
    return found


def features(cands: list[Candidate], i: int, j: int) -> list[str]:
    """The pair's cues: the step's, the outcome's (o0: in the step's own sentence, o1: a later one), where."""
    step = plain(" ".join(cands[i].text.split()))[:STEP_CHARS]
    found = [f"sec:{cands[i].section}", f"d:{j - i}"]
    found += [f"cue:{name}" for name, pattern in ACTION_CUES.items() if pattern.search(step)]
    if i == j:
        split = WHY_SPLIT.match(step)
        why = split.group("why") if split else ""
        found += [f"o0:{name}" for name, pattern in WHY_CUES.items() if why and pattern.search(why)] or ["o0:none"]
    else:
        later = plain(" ".join(cands[j].text.split()))[:300]
        found += [f"o1:{name}" for name, pattern in WHY_CUES.items() if pattern.search(later)]
        back = bool(REFERS_BACK.match(later))
        found += ["o1:opens_back"] if back else []
        found += ["o1:same_object"] if _objects(step) & _objects(later) else []
        found += ["o1:own_step"] if TRIED.search(later) and not back else []
    found.append(f"len:{min(len(step.split()) // 10, 4)}")
    if READER_CUES[0]:
        found += [f"m:{name}" for name, pattern in STEP_MEANINGS.items() if pattern.search(step)]
        if i != j:
            found += [f"o1m:{name}" for name, pattern in OUTCOME_MEANINGS.items() if pattern.search(later)]
        earlier = [c.text for c in cands[:i] if c.section != "title"]
        found += [] if any(FAILURE_WORDS.search(t) for t in earlier) else ["s:before_trouble"]
    return list(dict.fromkeys(found))


def pair_class(cands: list[Candidate], i: int, j: int, labelled: list[dict]) -> str:
    """From the sentence labels: did_not_work / worked when a labelled action in candidate i has its
    outcome told in candidate j (in i itself when no outcome is quoted), else unrelated."""
    step, told = norm(cands[i].text), norm(cands[j].text)
    for outcome in ("did_not_work", "worked"):
        for s in labelled:
            if s["kind"] != "action" or s.get("outcome") != outcome or norm(s["quote"]) not in step:
                continue
            quoted = norm(s.get("outcome_quote", ""))
            if (quoted and quoted in told) or (not quoted and i == j):
                return outcome
    return "unrelated"


def is_action(c: Candidate, labelled: list[dict]) -> bool:
    """The step's sentence tells an action someone took during the incident (any outcome), not a
    trigger, an observation, a plan, an automatic action, a follow-up, or nothing anyone labelled."""
    said = norm(c.text)
    return any(s["kind"] == "action" and norm(s["quote"]) in said for s in labelled)


def dataset(truths: list[Truth]) -> dict[str, list[dict]]:
    """Organisation → its pairs (file, step, outcome, class, features), fold A's labelled documents only."""
    if any(t.fold != "A" for t in truths):
        raise ValueError("pairs are made from fold A's labels only")
    labels = statements("A")
    rows: dict[str, list[dict]] = defaultdict(list)
    for t in truths:
        if t.file not in labels:
            continue
        cands = candidates_of((POSTMORTEMS / t.file).read_text(encoding="utf-8", errors="replace"), t.file)
        for i, j in pairs_of(cands):
            rows[t.org or t.file].append(
                {
                    "file": t.file,
                    "step": cands[i].text[:STEP_CHARS],
                    "outcome": cands[j].text[:300] if j != i else "",
                    "class": pair_class(cands, i, j, labels[t.file]),
                    "action": i == j and is_action(cands[i], labels[t.file]),
                    "features": features(cands, i, j),
                }
            )
    return rows


def fit(rows: list[dict], outcome: str) -> Head:
    """A head for one pair class, or with outcome "action" (--kind, v3) for the step's kind, on its own row."""
    if outcome == "action":
        pairs = [(r["features"], r["action"]) for r in rows if r["features"][1] == "d:0"]
    else:
        pairs = [(r["features"], r["class"] == outcome) for r in rows]
    return reader_fit.fit_head(pairs, steps="adagrad", epochs=8, rate=0.2, l2=1e-3)


# ---- the model beside the cue rules, for this bench only ---------------------------------------------


class PairModel:
    def __init__(
        self,
        failed: Head,
        worked: Head,
        veto: float,
        add: float,
        kind: Head | None = None,
        acted: float = 0.0,
        stored_too: bool = False,
    ) -> None:
        self.failed, self.worked, self.veto, self.add = failed, worked, veto, add
        # v3: a step is added only when P(it is an action taken) ≥ acted; with stored_too, a stored line too
        self.kind, self.acted, self.stored_too = kind, acted, stored_too

    def an_action(self, cands: list[Candidate], i: int) -> bool:
        return self.kind is None or self.kind.probability(features(cands, i, i)) >= self.acted

    def best(self, cands: list[Candidate], i: int, pairs: list[tuple[int, int]]) -> tuple[float, float, int]:
        """The step's best pair: (P(did not work), P(worked) of the same pair, outcome place) and the step's max P(worked)."""
        scored = [(self.failed.probability(features(cands, a, b)), b) for a, b in pairs if a == i]
        p, j = max(scored)
        return p, max(self.worked.probability(features(cands, a, b)) for a, b in pairs if a == i), j

    def read(self, kept: list[dict[str, str]], cands: list[Candidate]) -> list[dict[str, str]]:
        pairs = pairs_of(cands)
        steps = sorted({i for i, _ in pairs})
        said = [norm(c.text) for c in cands]
        out = []
        for attempt in kept:
            key = norm(attempt["action"])[:60]
            at = next((i for i in steps if key and key in said[i]), None)
            if at is not None and self.stored_too and not self.an_action(cands, at):
                continue  # a trigger, an alert, an observation: never an attempt
            if at is not None and self.veto <= 1:
                p_failed, p_worked, _ = self.best(cands, at, pairs)
                if p_worked >= self.veto and p_worked > p_failed:
                    continue  # read as a recovery: an empty line beats a wrong "did not work"
            out.append(attempt)
        if self.add > 1:
            return out
        stored = [norm(a["action"])[:60] for a in kept]
        for i in steps:
            if any(s and (s in said[i] or said[i][:60] in s) for s in stored):
                continue
            p_failed, p_worked, j = self.best(cands, i, pairs)
            if p_failed >= self.add and p_worked < p_failed and self.an_action(cands, i):
                why = "" if j == i else plain(" ".join(cands[j].text.split()))
                out.append({"action": plain(" ".join(cands[i].text.split())), "why_it_failed": why})
                stored.append(said[i][:60])
        return out


_ORIGINAL = markdown._failed_attempts


def use(model: PairModel | None) -> None:
    if model is None:
        markdown._failed_attempts = _ORIGINAL
        return

    def with_pairs(doc, entries, timeline_prose):  # noqa: ANN001, ANN202
        kept, origins = _ORIGINAL(doc, entries, timeline_prose)
        read = model.read(kept, sentence_candidates(doc, doc.title or "", entries))
        keys = {id(a) for a in read}
        origins = [o for a, o in zip(kept, origins, strict=True) if id(a) in keys]
        return read, origins + ["pair model"] * (len(read) - len(origins))

    markdown._failed_attempts = with_pairs


def read_orgs(models: dict[str, PairModel | None], truths: list[Truth]) -> dict[str, list[tuple[str, str]]]:
    kept: dict[str, list[tuple[str, str]]] = {}
    for name, model in models.items():
        files = {t.file for t in truths if (t.org or t.file) == name}
        use(model)
        try:
            drafts, _, _ = read_corpus(POSTMORTEMS, only=files)
        finally:
            use(None)
        for f in files:
            if d := drafts.get(f):
                kept[f] = [(a.action, a.why_it_failed) for a in d.failed_attempts]
    return kept


def by_org(truths: list[Truth], kept: dict[str, list[tuple[str, str]]]) -> dict[str, dict[str, int]]:
    return {
        org: figures([t for t in truths if (t.org or t.file) == org], kept) for org in {t.org or t.file for t in truths}
    }


def ranked(rows: dict[str, list[dict]], heads: dict[str, tuple[Head, Head]]) -> None:
    for k, outcome in enumerate(("did_not_work", "worked")):
        scored = [(heads[o][k].probability(r["features"]), r["class"] == outcome) for o in rows for r in rows[o]]
        pos, auc, at = ranking(scored, (25, 50, 100))
        print(f"  {outcome}: {pos} of {len(scored)} pairs; one organisation out AUC {auc:.3f}; precision {at}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--veto", type=float, nargs="*", default=list(VETOES))
    parser.add_argument("--add", type=float, nargs="*", default=list(ADDS))
    parser.add_argument("--dataset", type=Path, help="write fold A's pairs here (JSON lines) and stop")
    parser.add_argument("--reader-cues", action="store_true", help="v2: the reader's step and outcome meanings too")
    parser.add_argument("--kind", type=float, nargs="*", help="v3: P(the step is an action taken) needed to store it")
    parser.add_argument("--kind-stored", action="store_true", help="v3: the kind head drops stored lines too")
    parser.add_argument("--since", default="a67eda1", help="also the totals of fold A organisations new since this")
    args = parser.parse_args(argv)
    READER_CUES[0] = args.reader_cues
    fold_a = fold_truths("A", incidents_only=True)
    rows = dataset(fold_a)
    counts = Counter(r["class"] for org in rows.values() for r in org)
    print(f"fold A pairs: {sum(counts.values())} from {len(rows)} organisations: {dict(counts)}")
    if args.dataset:
        with args.dataset.open("w", encoding="utf-8") as out:
            for org, org_rows in sorted(rows.items()):
                for r in org_rows:
                    out.write(json.dumps({"org": org} | r, ensure_ascii=False) + "\n")
        print(f"wrote {args.dataset}")
        return 0
    orgs = sorted({t.org or t.file for t in fold_a})
    every = [r for org in rows.values() for r in org]
    heads = {}
    for org in orgs:  # an organisation with no labels is read with the heads fitted on all the others
        rest = [r for o, org_rows in rows.items() if o != org for r in org_rows] if org in rows else every
        heads[org] = (fit(rest, "did_not_work"), fit(rest, "worked"), fit(rest, "action") if args.kind else None)
    ranked(rows, heads)
    base = read_orgs(dict.fromkeys(orgs), fold_a)
    base_f, base_org = figures(fold_a, base), by_org(fold_a, base)
    from bench.attempts_by_org import organisations_at  # noqa: PLC0415

    new = set(orgs) - organisations_at(args.since)
    print(f"cue rules alone (fold A, {len(fold_a)} reports): {show(base_f)}")
    for veto, add, acted in [(v, a, k) for v in args.veto for a in args.add for k in args.kind or [0.0]]:
        models = {
            o: PairModel(*heads[o][:2], veto=veto, add=add, kind=heads[o][2], acted=acted, stored_too=args.kind_stored)
            for o in orgs
        }
        kept = read_orgs(models, fold_a)
        f, per = figures(fold_a, kept), by_org(fold_a, kept)
        gains = {o: (per[o]["found"] - base_org[o]["found"]) - (per[o]["wrong"] - base_org[o]["wrong"]) for o in orgs}
        value = sum(gains.values())
        top = max(gains.values(), default=0)
        lost_new = sum(max(base_org[o]["real"] - per[o]["real"], 0) for o in new)
        print(
            f"  veto {veto} add {add} action {acted}: {show(f)}; value {value:+d} (largest one organisation {top:+d}); "
            f"real lines lost on organisations new since {args.since}: {lost_new}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
