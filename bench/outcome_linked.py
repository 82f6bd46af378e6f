"""The outcome head refitted with the negatives the reader really meets, as a second bar for postmortem failed attempts
(issue 23, r23-outneg; docs/BENCHMARKS.md "The outcome head refitted on the sentences the reader meets").

r23-outcome's head (bench/outcome_head.py) read labelled outcome statements well, but asked where the reader reads a
later clause or entry as a step's outcome (r23-outcome2's H, H2) it added mostly wrong lines: it had only ever seen
sentences an annotator had marked as some step's outcome. Here its rows hold what the reader meets (fold A only):

- L: outcome_head's labelled outcome sentences of postmortems (a did_not_work action's 1, a worked one's 0);
- N: for each labelled action found in one line of its document, the clauses after it in that line ("clause") and the
  next line's first two clauses ("entry"): 1 when it holds that action's did_not_work outcome quote, else 0;
- M: every (step, outcome, where) the reader asks the hook (`narrative.outcome_goes_on`, under
  `narrative._read_as_outcome`'s binding) while the importer reads fold A: 1 when the step holds a did_not_work
  action's quote and the outcome its outcome quote, else 0.

Features: outcome_head.features of the outcome, and of the pair: it opens by referring back (REFERS_BACK, ANAPHOR),
shares an object word with the step (narrative._objects), where it stands. Fit: outcome_head.Fitted (bot/reader/fit.py's
batch recipe: class-balanced, L2 1.0, 400 epochs, rate 1.0; words kept when seen in 3 training organisations).
Threshold, inside each fit: out-of-fold scores of 5 organisation groups on the training M rows, the lowest whose
precision there is >= 0.90 with >= 3 right (none: the head never fires).

Judged end to end: each organisation of fold A read by the importer with the head fitted without its rows (every kind);
stored attempts real / found (bot/importer/scoring), and every other field of every draft against the reader without
the hook. `--fold B`: the head fitted on all of fold A, fold B's totals only (never a line of it printed).

    nice -n 10 .venv/bin/python bench/outcome_linked.py              # fold A, one organisation out (~9 min at load 7)
    nice -n 10 .venv/bin/python bench/outcome_linked.py --fold B     # fold B totals, once, after the decision
    nice -n 10 .venv/bin/python bench/outcome_linked.py --ceiling    # after the decision: any head's ceiling there
    nice -n 10 .venv/bin/python bench/outcome_linked.py --ranking    # after the decision: the one-out head's ranking
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.import_postmortems as import_postmortems  # noqa: E402
import bench.outcome_head as oh  # noqa: E402
from bench.attempts_by_org import by_org  # noqa: E402
from bench.fit_reader_attempt_gate import _MARKUP, norm  # noqa: E402
from bench.fit_reader_attempt_gate import statements as postmortem_statements  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.importer.scoring import attempt_is_real, attempt_text  # noqa: E402
from bot.reader import narrative  # noqa: E402
from bot.reader.cues import ANAPHOR  # noqa: E402
from bot.reader.cues_attempts import REFERS_BACK  # noqa: E402

POSTMORTEMS = oh.EVAL / "postmortems"
PRECISION, MIN_RIGHT = 0.90, 3  # the threshold's bar on the out-of-fold M rows
OUTCOME_CHARS = 600  # an outcome read no further than this
Pair = tuple[str, str, str]  # step, outcome, where


def pair_features(step: str, outcome: str, where: str | None) -> list[str]:
    outcome = outcome[:OUTCOME_CHARS]
    found = oh.features(outcome)
    found += ["pair:refers_back"] if REFERS_BACK.match(outcome) else []
    found += ["pair:anaphor"] if ANAPHOR.match(outcome) else []
    found += ["pair:shares_object"] if narrative._objects(outcome) & narrative._objects(step[:OUTCOME_CHARS]) else []
    found += [f"pair:where:{where}"] if where else []
    return list(dict.fromkeys(found))


def _holds(outcome: str, quote: str) -> bool:
    said, told = norm(outcome), norm(quote)
    return bool(told) and (told in said or (len(said) >= 20 and said in told))


def pair_label(step: str, outcome: str, labelled: list[dict]) -> int:
    """1: `step` tells a labelled action that did not work and `outcome` is where its outcome quote is."""
    said = norm(step)
    return int(
        any(
            norm(s["quote"]) in said and _holds(outcome, s["outcome_quote"])
            for s in labelled
            if s["kind"] == "action" and s.get("outcome") == "did_not_work" and s.get("outcome_quote")
        )
    )


def _row(kind: str, org: str, file: str, step: str, outcome: str, where: str | None, label: int) -> dict:
    feats = pair_features(step, outcome, where)
    return {"kind": kind, "org": org, "file": file, "label": label, "features": feats, "pair": (step, outcome, where)}


def labelled_rows(orgs: dict[str, str]) -> list[dict]:
    """L: outcome_head's postmortem rows (no conversation)."""
    got, _ = oh.rows(frozenset())
    return [_row("L", r["org"], r["file"], r["action"], r["text"], None, r["label"]) for r in got]


def neighbour_rows(orgs: dict[str, str], labels: dict[str, list[dict]]) -> list[dict]:
    """N: what follows each labelled action in its line, and the next line's opening."""
    out = []
    for file, labelled in labels.items():
        said = (POSTMORTEMS / file).read_text(encoding="utf-8", errors="replace").splitlines()
        lines = [x for x in (" ".join(_MARKUP.sub(" ", x).split()) for x in said) if x]  # case kept: sentences
        for s in labelled:
            quote = norm(s["quote"])
            if s["kind"] != "action" or not quote:
                continue
            at = next((k for k, x in enumerate(lines) if quote in x.lower()), None)
            if at is None or len(lines[at].lower()) != len(lines[at]):
                continue
            line = lines[at]
            rest = line[line.lower().index(quote) + len(quote) :]
            clauses = narrative._clauses(rest)
            if narrative._clauses("x" + rest)[:1] != ["x"]:
                clauses = clauses[1:]  # the rest of the action's own clause is not a later one
            outcome = s.get("outcome_quote", "") if s.get("outcome") == "did_not_work" else ""
            later = [(c, "clause") for c in clauses[:2]]
            if at + 1 < len(lines):
                later.append((" ".join(narrative._clauses(lines[at + 1])[:2]), "entry"))
            for text, where in later:
                if text.strip():
                    label = int(bool(outcome) and _holds(text, outcome))
                    out.append(_row("N", orgs[file], file, s["quote"], text, where, label))
                    out[-1]["step"] = narrative._clauses(line[: len(line) - len(rest)])[-1]  # the clause it ends
    return out


def read_fold(fold: str, hook: Callable[[str, str, str], bool] | None, only: set[str] | None = None) -> dict:
    """File → (stored attempt texts, the draft's other fields) as the importer reads fold `fold` with `hook`."""
    files = {t.file for t in fold_truths(fold, incidents_only=True)}
    files = files if only is None else files & only
    narrative.outcome_goes_on = hook
    try:
        drafts, _, _ = import_postmortems.read_corpus(POSTMORTEMS, only=files)
    finally:
        narrative.outcome_goes_on = None
    out = {}
    for file in files:
        d = drafts.get(file)
        texts = [attempt_text(a.action, a.why_it_failed) for a in d.failed_attempts] if d else []
        other = d.model_dump(mode="json", exclude={"failed_attempts", "provenance"}) if d else None
        out[file] = (texts, other)
    return out


def met_rows(orgs: dict[str, str], labels: dict[str, list[dict]]) -> tuple[list[dict], dict]:
    """M: every pair the hook is asked about while fold A is read (the hook answers no: the reader is unchanged),
    and that reading (the baseline)."""
    asked: list[tuple[str, Pair]] = []
    current = {"file": ""}
    parse = import_postmortems.parse_file

    def capture(step: str, outcome: str, where: str) -> bool:
        asked.append((current["file"], (step, outcome, where)))
        return False

    def parsing(found, **kw):  # noqa: ANN001, ANN202 (the importer's own call, the file it reads kept)
        current["file"] = str(found.relative)
        return parse(found, **kw)

    import_postmortems.parse_file = parsing
    try:
        base = read_fold("A", capture)
    finally:
        import_postmortems.parse_file = parse
    rows = [
        _row("M", orgs[f], f, step, outcome, where, pair_label(step, outcome, labels.get(f, [])))
        for f, (step, outcome, where) in asked
    ]
    return rows, base


def threshold(train: Sequence[dict]) -> float:
    """Out-of-fold over 5 organisation groups, on the training M rows: the lowest threshold whose precision is at
    least PRECISION with at least MIN_RIGHT right; infinity (never fires) when none is."""
    orgs = sorted({r["org"] for r in train})
    group = {o: i % oh.INNER for i, o in enumerate(orgs)}
    scored: list[tuple[float, int]] = []
    for k in range(oh.INNER):
        held = [r for r in train if group[r["org"]] == k and r["kind"] == "M"]
        rest = [r for r in train if group[r["org"]] != k]
        if held and 0 < sum(r["label"] for r in rest) < len(rest):
            scored += zip(oh.Fitted(rest).scores(held), (r["label"] for r in held), strict=True)
    for t in sorted({s for s, _ in scored}):
        hits = [y for s, y in scored if s >= t]
        if sum(hits) >= MIN_RIGHT and sum(hits) / len(hits) >= PRECISION:
            return float(t)
    return float("inf")


def head_hook(train: Sequence[dict]) -> tuple[Callable[[str, str, str], bool], float]:
    fitted, t = oh.Fitted(train), threshold(train)

    def goes_on(step: str, outcome: str, where: str) -> bool:
        return bool(fitted.scores([{"features": pair_features(step, outcome, where)}])[0] >= t)

    return goes_on, t


def totals(read: dict, base: dict, orgs: dict[str, str]) -> dict:
    after = by_org({f: texts for f, (texts, _) in read.items()})
    before = by_org({f: texts for f, (texts, _) in base.items()})
    t = {k: sum(r[k] for r in after.values()) for k in ("real", "wrong", "found", "labelled")}
    b = {k: sum(r[k] for r in before.values()) for k in ("real", "wrong", "found", "labelled")}
    rose = {o: after[o]["found"] - before[o]["found"] for o in after if after[o]["found"] != before[o]["found"]}
    return {
        "before": f"real {b['real']}/{b['real'] + b['wrong']}, found {b['found']}/{b['labelled']}",
        "after": f"real {t['real']}/{t['real'] + t['wrong']}, found {t['found']}/{t['labelled']}",
        "real_share": round(t["real"] / max(t["real"] + t["wrong"], 1), 3),
        "found_added": t["found"] - b["found"],
        "orgs_found_changed": len(rose),
        "orgs_found_rose": sum(v > 0 for v in rose.values()),
        "lines_added": (t["real"] + t["wrong"]) - (b["real"] + b["wrong"]),
        "wrong_added": t["wrong"] - b["wrong"],
        "drafts_other_fields_changed": sum(read[f][1] != base[f][1] for f in read),
        "orgs_wrong_added": sum(after[o]["wrong"] > before[o]["wrong"] for o in after),
    }


def run(fold: str) -> dict:
    orgs = {t.file: t.org or t.file for t in fold_truths(None)}
    labels = postmortem_statements("A")
    m_rows, base_a = met_rows(orgs, labels)
    data = labelled_rows(orgs) + neighbour_rows(orgs, labels) + m_rows
    counts = {k: [sum(r["kind"] == k for r in data), sum(r["label"] for r in data if r["kind"] == k)] for k in "LNM"}
    if fold == "B":
        hook, t = head_hook(data)
        base_b = read_fold("B", None)
        return {"rows (all, goes on)": counts, "threshold": t, "B": totals(read_fold("B", hook), base_b, orgs)}
    read: dict = {}
    fired: list[float] = []
    for org in sorted({orgs[f] for f in base_a}):
        hook, t = head_hook([r for r in data if r["org"] != org])
        fired.append(t)
        read.update(read_fold("A", hook, {f for f in base_a if orgs[f] == org}))
    never = sum(t == float("inf") for t in fired)
    return {"rows (all, goes on)": counts, "folds_head_off": never, "A_one_out": totals(read, base_a, orgs)}


def ceiling() -> dict:
    """After the decision: what any head could add where the hook is asked (every asked pair stored; only the
    labelled ones), and where fold A's labelled did_not_work outcomes next to their step stand against the binding."""
    orgs = {t.file: t.org or t.file for t in fold_truths(None)}
    labels = postmortem_statements("A")
    m_rows, base = met_rows(orgs, labels)
    right = {r["pair"] for r in m_rows if r["label"]}
    found = {f: " ".join(norm(t) for t in texts) for f, (texts, _) in base.items()}
    stands = Counter(
        (
            narrative.outcome_unbound(r["step"], r["pair"][1]) or "within the binding",
            "found today" if norm(r["pair"][0]) in found.get(r["file"], "") else "missed",
        )
        for r in neighbour_rows(orgs, labels)
        if r["label"]
    )
    return {
        "asked": len(m_rows),
        "asked_labelled": len(right),
        "every_asked_pair_stored": totals(read_fold("A", lambda *_: True), base, orgs),
        "only_the_labelled_stored": totals(read_fold("A", lambda *pair: pair in right), base, orgs),
        "labelled_outcomes_after_their_step": {" / ".join(k): v for k, v in sorted(stands.items())},
    }


def ranking() -> dict:
    """After the decision: how the head, fitted one organisation out, ranks the pairs the reader asks about (M),
    against the pair's label (the labelled outcome) and against the scorer's (the line as stored would be real:
    `attempt_is_real`, which reads the step's words as much as the outcome's)."""
    truths = {t.file: t for t in fold_truths(None)}
    orgs = {f: t.org or f for f, t in truths.items()}
    labels = postmortem_statements("A")
    m_rows, _ = met_rows(orgs, labels)
    data = labelled_rows(orgs) + neighbour_rows(orgs, labels) + m_rows
    scored: list[tuple[float, int, int]] = []
    for org in sorted({r["org"] for r in m_rows}):
        held = [r for r in m_rows if r["org"] == org]
        real = [int(attempt_is_real(attempt_text(*r["pair"][:2]), truths[r["file"]].failed_attempts)) for r in held]
        scored += zip(
            oh.Fitted([r for r in data if r["org"] != org]).scores(held), (r["label"] for r in held), real, strict=True
        )
    scored.sort(key=lambda x: -x[0])
    out: dict = {"asked": len(scored), "labelled": sum(x[1] for x in scored), "real": sum(x[2] for x in scored)}
    out["auc_labelled"] = round(oh.auc([(x[0], x[1]) for x in scored]), 3)
    out["auc_real"] = round(oh.auc([(x[0], x[2]) for x in scored]), 3)
    for top in (5, 10, 20, 50):
        out[f"top_{top}_labelled_real"] = [sum(x[1] for x in scored[:top]), sum(x[2] for x in scored[:top])]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("A", "B"), default="A")
    parser.add_argument("--ceiling", action="store_true", help="fold A: what any head could add at the binding")
    parser.add_argument("--ranking", action="store_true", help="fold A: the one-out head's ranking of the asked pairs")
    args = parser.parse_args()
    print(json.dumps(ceiling() if args.ceiling else ranking() if args.ranking else run(args.fold), indent=1))


if __name__ == "__main__":
    main()
