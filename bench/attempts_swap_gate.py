"""A gate on stored "did not work" lines over each line's own structure, fitted on one fold, judged on the other.

    nice -n 10 .venv/bin/python bench/attempts_swap_gate.py --fit A      # fitted on fold A, fold B gated: totals only
    nice -n 10 .venv/bin/python bench/attempts_swap_gate.py --fit B      # the swap: fitted on fold B, fold A gated
    nice -n 10 .venv/bin/python bench/attempts_swap_gate.py --fit A --weights --lines   # fold A's head and lines
    nice -n 10 .venv/bin/python bench/attempts_swap_gate.py --fit A --late 9a8cc383     # fold A alone: fitted on the
                                                            # reports present then, the threshold on those added since

The question (issue 23: fold A stores 76/88 real lines, fold B 16/45): can a gate decided by a procedure, not by
reading the reporting fold, keep the stored lines that are real on organisations the rules were not written from?
The procedure is fixed before any figure (docs/BENCHMARKS.md, "Postmortem failed attempts gated by their own
structure, fitted on one fold, judged on the other"):

- features of a stored line (its action a and why w), never words: where its outcome is told (none, in the action's
  own words, a why that refers back, a why that fails, a why naming a step of its own; a step-outcome cue or a bare
  failure; told as worked; foretold); who acted in a (first person, a responder, the passive, the system, users,
  nobody named); the tense of a (past perfect, modal or plan, progressive, past, none); an explicit try; and each
  outcome place crossed with each agent;
- rows from the fitted fold alone (`statements(F)` and F's truth): `fit_reader_attempt_gate.pair_rows` (a candidate
  naming a step, alone and with each of the three after it, labelled by `pair_label`) and every line today's importer
  stores for a labelled report (labelled by `label`), only those `told_as_failed` accepts (what the gate meets);
- the L2 penalty from L2S by organisation-out cross-validation inside F (its organisations by name, group = index
  mod GROUPS; class-balanced log-loss of each group's rows under the head fitted on the others);
- the threshold from KEEPS by the same groups on F's stored lines: value = wrong lines removed - 2 x labelled
  attempts no longer found; largest value, ties to the smaller threshold; no value above 0: no gate.

The gate applied to the other fold's stored lines (today's importer, then the gate: a filter on what it stores). The
fold not fitted is read as totals only; with --fit A, fold B's lines are never printed nor written (--lines prints the
lines of fold A, the gated fold of --fit B, or, with --fit A, the fitted fold's in-sample lines).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import attempts_blind  # noqa: E402
from bench.fit_reader_attempt_gate import PASSIVE, PLANNED, figures, label, pair_rows, ranking, show, statements  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import Truth, attempt_is_real, attempt_text  # noqa: E402
from bot.reader import cues_attempts as c  # noqa: E402
from bot.reader.cues import TRIED  # noqa: E402
from bot.reader.fit import fit_head  # noqa: E402
from bot.reader.sentences import Head  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
GROUPS = 5
L2S = (0.3, 1.0, 3.0, 10.0)
KEEPS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
FIT = {"steps": "batch", "epochs": 400, "rate": 1.0}
FIRST_PERSON = re.compile(r"\b(?:we|i|our|us)\b", re.I)
PROGRESSIVE = re.compile(r"\b(?:is|are|was|were|been)\s{1,4}(?:\w{1,20}ly\s{1,4})?[a-z]{2,20}ing\b", re.I)
PAST = re.compile(r"\b[a-z]{1,20}[a-df-z]ed\b|\b(?:ran|re-?ran|put|reset|rebuilt|took|made|undid|shut)\b", re.I)
Lines = dict[str, list[tuple[str, str]]]
Rows = dict[str, list[tuple[list[str], int]]]


def features(action: str, why: str, where: list[str] | None = None, *, stored: bool = False) -> list[str] | None:
    """The line's own structure (the module's doc); None when today's bar would not store it (no row). A line the
    importer stored passed the bar already (`stored`: judged on the sentence it was cut from), so it is not asked again."""
    action, why = action[:1000], why[:1000]
    if not stored and not c.told_as_failed({"action": action, "why_it_failed": why}):
        return None
    said = f"{action} {why}"
    cues = c.failure_cues(said)
    place = ["o:none"] if not why.strip() else []
    place += ["o:in-action"] if c.failure_cues(action) else []
    refers = bool(c.REFERS_BACK.match(why.lstrip()) or c.OPENS_ON_THE_STEP.match(why.lstrip()))
    place += ["o:refers-back"] if why and refers else []
    place += ["o:why-fails"] if c.failure_cues(why) else []
    place += ["o:why-own-step"] if why and TRIED.search(why) and not refers else []
    place += ["o:step-outcome" if any(c.STEP_OUTCOME.search(m.group()) for m in cues) else "o:failed-only"]
    place += ["o:worked"] if c.told_as_worked(said) else []
    if cues and all(c.FORECAST.search(said[max(m.start() - 40, 0) : m.start()]) for m in cues):
        place.append("o:forecast")
    actor = c.NOT_THE_ACTOR.sub(" ", action)
    agent = [
        name
        for name, said_so in (
            ("agent:we", FIRST_PERSON.search(actor)),
            ("agent:responder", c.RESPONDER_STEP.search(actor)),
            ("agent:passive", PASSIVE.search(action)),
            ("agent:system", c.AUTOMATIC.search(action) or c.SYSTEM_ACTED.search(action)),
            ("agent:users", c.USED_THE_SERVICE.search(action)),
        )
        if said_so
    ] or ["agent:none"]
    tense = [
        name
        for name, said_so in (
            ("tense:past-perfect", c.PAST_PERFECT.search(action)),
            ("tense:modal", PLANNED.search(action) or c.IF_IT_FAILS.search(action) or c.NOT_TAKEN.search(action)),
            ("tense:progressive", PROGRESSIVE.search(action)),
            ("tense:past", PAST.search(action)),
        )
        if said_so
    ] or ["tense:none"]
    tried = ["try"] if c.EXPLICIT_TRY.search(said) else []
    return place + agent + tense + tried + [f"x:{o}:{a}" for o in place for a in agent]


def stored(truths: list[Truth]) -> Lines:
    """What today's importer stores as failed attempts for each report (read once)."""
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {f: [(a.action, a.why_it_failed) for a in d.failed_attempts] for f, d in drafts.items() if d}


def fold_rows(fold: str, truths: list[Truth], lines: Lines) -> Rows:
    """One fold's rows by organisation, from that fold's sentence labels and its own stored lines only."""
    if any(t.fold != fold for t in truths):
        raise ValueError(f"rows of fold {fold} from another fold's reports")
    labels = statements(fold)
    rows: Rows = defaultdict(list)
    for t in truths:
        if t.file not in labels:
            continue
        org = t.org or t.file
        rows[org] += pair_rows(t, labels[t.file], features)
        for a, w in lines.get(t.file, []):
            if (feats := features(a, w, stored=True)) is not None:
                rows[org].append((feats, label(attempt_text(a, w), labels[t.file], t)))
    return rows


def groups(orgs: list[str]) -> dict[str, int]:
    return {org: i % GROUPS for i, org in enumerate(sorted(orgs))}


def head_of(rows: Rows, l2: float, left_out: set[str] = frozenset()) -> Head:
    return fit_head([r for org, rs in rows.items() if org not in left_out for r in rs], l2=l2, **FIT)


def balanced_loss(rows: Rows, l2: float, group: dict[str, int]) -> float:
    """Class-balanced log-loss of each organisation group's rows under the head fitted without that group."""
    losses: dict[int, list[float]] = {0: [], 1: []}
    for g in range(GROUPS):
        out = {o for o, k in group.items() if k == g}
        head = head_of(rows, l2, out)
        for o in out:
            for feats, y in rows[o]:
                p = min(max(head.probability(feats), 1e-6), 1 - 1e-6)
                losses[y].append(-math.log(p if y else 1 - p))
    return sum(sum(v) / max(len(v), 1) for v in losses.values()) / 2


def gate(lines: Lines, heads: dict[str, Head], org_of: dict[str, str], keep: float) -> Lines:
    """Each report's stored lines kept when the head for its organisation gives P >= keep (keep 0: all kept)."""
    if keep <= 0:
        return lines
    return {
        f: [(a, w) for a, w in said if heads[org_of[f]].probability(features(a, w, stored=True) or []) >= keep]
        for f, said in lines.items()
    }


def value(base: dict[str, int], after: dict[str, int]) -> int:
    return (base["wrong"] - after["wrong"]) - 2 * (base["found"] - after["found"])


def procedure(fold: str, truths: list[Truth], lines: Lines, quiet: bool) -> tuple[Head, float, float, dict[str, Head]]:
    """The penalty and the threshold chosen inside one fold by organisation-out groups; the head fitted on all of it,
    and each organisation's head fitted without its group (for --blind)."""
    rows = fold_rows(fold, truths, lines)
    n, pos = sum(len(r) for r in rows.values()), sum(y for r in rows.values() for _, y in r)
    print(f"fit fold {fold}: {len(rows)} organisations with sentence labels, {n} rows, {pos} did not work")
    org_of = {t.file: t.org or t.file for t in truths}
    group = groups(sorted(set(org_of.values())))
    losses = {l2: balanced_loss(rows, l2, group) for l2 in L2S}
    l2 = min(L2S, key=lambda x: (losses[x], x))
    print(
        f"  l2 by {GROUPS} organisation groups: " + ", ".join(f"{x} {v:.3f}" for x, v in losses.items()) + f" -> {l2}"
    )
    by_group = {g: head_of(rows, l2, {o for o, k in group.items() if k == g}) for g in range(GROUPS)}
    heads = {o: by_group[k] for o, k in group.items()}
    base = figures(truths, lines)
    values = {k: value(base, figures(truths, gate(lines, heads, org_of, k))) for k in KEEPS}
    keep = max(KEEPS, key=lambda k: (values[k], -k))
    keep = keep if values[keep] > 0 else 0.0
    shown = ", ".join(f"{k} {v:+d}" for k, v in values.items()) if not quiet else "(values of the fold not shown)"
    print(f"  keep by the same groups on its stored lines: {shown} -> {keep}")
    return head_of(rows, l2), l2, keep, heads


def auc(lines: Lines, truths: list[Truth], heads: dict[str, Head]) -> float:
    """How often a real stored line gets a higher P than a wrong one (0.5: no better than chance)."""
    scored = [
        (
            heads[t.org or t.file].probability(features(a, w, stored=True) or []),
            attempt_is_real(attempt_text(a, w), t.failed_attempts),
        )
        for t in truths
        for a, w in lines.get(t.file, [])
    ]
    return ranking(scored, ())[1]


def blind_figures(cache: dict, heads: dict[str, Head] | Head) -> None:
    """Fold A's blind lines (each organisation as the reader of its arrival commit stored it), and those today's bar
    still keeps, gated at each threshold: by the head fitted without the line's organisation group (fit A), or by the
    fold-B head (fit B). Fold A only."""
    truths = attempts_blind.truths_a()
    head_of_org = heads if isinstance(heads, dict) else dict.fromkeys({t.org or t.file for t in truths}, heads)
    blind = {f: [tuple(x) for x in v] for f, v in cache["blind"].items() if v is not None}
    kept = {
        f: [(a, w) for a, w in v if attempts_blind.judged({f: [[a, w]]})[0]["today_keeps"]] for f, v in blind.items()
    }
    org_of = {t.file: t.org or t.file for t in truths}
    for name, lines in (("blind lines", blind), ("blind lines today's bar keeps", kept)):
        present = [t for t in truths if t.file in lines]
        print(f"  fold A {name}: AUC {auc(lines, present, head_of_org):.2f}")
        for k in KEEPS:
            print(f"    keep {k}: {show(figures(present, gate(lines, head_of_org, org_of, k)))}")


def late_threshold(since: str, lines: Lines | None = None) -> dict:
    """Fold A alone (pmatt, seventeenth session): the head fitted by `procedure`'s recipe on fold A's reports present
    at commit `since`, its threshold chosen on the stored lines of the reports added after it (read by no storing rule
    written before `since`: the figure that resembles fold B's inside fold A), by the same value. Fold B is never read."""
    from bench.attempts_by_path import files_at  # noqa: PLC0415 (a bench's helper, only for this view)

    present = files_at(since)
    truths = fold_truths("A", incidents_only=True)
    lines = stored(truths) if lines is None else lines
    early = [t for t in truths if t.file in present]
    late = [t for t in truths if t.file not in present]
    rows = fold_rows("A", early, lines)
    group = groups(sorted({t.org or t.file for t in early}))
    losses = {l2: balanced_loss(rows, l2, group) for l2 in L2S}
    l2 = min(L2S, key=lambda x: (losses[x], x))
    head = head_of(rows, l2)
    out: dict = {"l2": l2, "reports": {"present": len(early), "added": len(late)}}
    for name, ts in (("added", late), ("present", early)):
        org_of = {t.file: t.org or t.file for t in ts}
        heads = dict.fromkeys(set(org_of.values()), head)
        mine = {f: v for f, v in lines.items() if f in org_of}
        base = figures(ts, mine)
        out[name] = {k: (show(after := figures(ts, gate(mine, heads, org_of, k))), value(base, after)) for k in KEEPS}
    values = {k: v for k, (_, v) in out["added"].items()}
    keep = max(KEEPS, key=lambda k: (values[k], -k))
    out["keep"] = keep if values[keep] > 0 else 0.0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", choices=("A", "B"), required=True, help="the fold the gate is fitted on")
    parser.add_argument("--weights", action="store_true", help="print the head (fitted on fold A only)")
    parser.add_argument("--lines", action="store_true", help="fold A's lines and their P (never fold B's)")
    parser.add_argument("--blind", type=Path, help="attempts_blind.py's cache: the heads on fold A's blind lines")
    parser.add_argument("--auc", action="store_true", help="how the head ranks the gated fold's lines (one total)")
    parser.add_argument("--late", help="with --fit A: fitted on fold A at this commit, threshold on the reports since")
    args = parser.parse_args(argv)
    if args.late:
        if args.fit != "A":
            parser.error("--late reads fold A alone (--fit A)")
        res = late_threshold(args.late)
        print(
            f"fold A: {res['reports']['present']} reports present at {args.late} (fitted, l2 {res['l2']}), {res['reports']['added']} added since"
        )
        for name in ("added", "present"):
            for k, (shown, v) in res[name].items():
                print(f"  {name:<7} keep {k}: {shown}  value {v:+d}")
        print(f"threshold chosen on the reports added since: {res['keep']} (0.0: no gate)")
        return 0
    other = "B" if args.fit == "A" else "A"
    truth = fold_truths(None, incidents_only=True)
    fit_truths, other_truths = [t for t in truth if t.fold == args.fit], [t for t in truth if t.fold == other]
    fit_lines = stored(fit_truths)
    head, l2, keep, group_heads = procedure(args.fit, fit_truths, fit_lines, quiet=args.fit == "B")
    if args.weights and args.fit == "A":
        print("  " + "  ".join(f"{n} {w:+.2f}" for n, w in sorted(head.weights.items(), key=lambda kv: kv[1])))
    lines = stored(other_truths)
    org_of = {t.file: t.org or t.file for t in other_truths}
    heads = dict.fromkeys(set(org_of.values()), head)
    before, after = figures(other_truths, lines), figures(other_truths, gate(lines, heads, org_of, keep))
    print(f"fold {other} (not fitted), today's reader: {show(before)}")
    print(f"fold {other} gated (fitted on {args.fit}, l2 {l2}, keep {keep}): {show(after)}")
    if args.auc:
        print(
            f"  ranking of fold {other}'s stored lines by the head fitted on {args.fit}: AUC {auc(lines, other_truths, heads):.2f}"
        )
    if args.blind:
        blind_figures(json.loads(args.blind.read_text(encoding="utf-8")), group_heads if args.fit == "A" else head)
    if args.lines:
        shown, where = (lines, other_truths) if other == "A" else (fit_lines, fit_truths)
        heads_shown = dict.fromkeys({t.org or t.file for t in where}, head)
        for t in where:
            for a, w in shown.get(t.file, []):
                p = heads_shown[t.org or t.file].probability(features(a, w, stored=True) or [])
                real = "real" if attempt_is_real(attempt_text(a, w), t.failed_attempts) else "WRONG"
                print(f"  {p:.2f} {'kept' if p >= keep else 'gone'} {real} {t.file}: {attempt_text(a, w)[:150]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
