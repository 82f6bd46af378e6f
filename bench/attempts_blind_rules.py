"""Precision rules for postmortem failed attempts judged on fold A's blind lines, one organisation out (measurement only;
nothing here is read by the bot).

    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json        # the blind lines (~8 min first)
    nice -n 10 .venv/bin/python bench/attempts_blind_rules.py --cache /tmp/blind.json [--lines]   # seconds

A rule is a predicate on a stored line (action + why) that `told_as_failed` would refuse. Each is applied to the lines
`bench/attempts_blind.py` dumps: fold A's blind lines (each organisation as stored by the reader of the commit that
added it: no cue had been written from it), the blind lines today's bar and vetoes still keep (what the rule would meet
on new writing), and today's reader's lines (in-sample: a rule must not cost real ones). A rule is fixed (nothing is
chosen from the lines), so "one organisation out" asks whether its gain rests on one organisation: the wrong lines it
removes must come from two or more organisations, and with any one organisation left out it must still remove at least
two wrong lines per real line lost. Real: the line holds half of a labelled attempt's phrases (`reading_eval.py`).

`--lines` prints each line a rule removes, with its organisation and whether it was real (fold A only). Fold B is never
read here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_blind import judged, truths_a  # noqa: E402
from bot.reader import cues_attempts  # noqa: E402
from bot.reader.cues import TRIED  # noqa: E402
from bot.reader.cues_attempts import ASIDE  # noqa: E402
from bot.reader.narrative import _one_attempt  # noqa: E402

_cues = cues_attempts.failure_cues


def aside_only(said: str) -> bool:
    """R1: every failure cue sits inside parentheses ("… clears out all staging resources (we noticed that staging was
    still stuck …)"): the failure is an aside, not the step's outcome."""
    cues = _cues(said)
    spans = [m.span() for m in ASIDE.finditer(said)]
    return bool(cues) and all(any(a <= m.start() and m.end() <= b for a, b in spans) for m in cues)


_FAILED_OVER = re.compile(r"\bfail(?:s|ed|ing)?[\s-]?over\b", re.I)


def failed_over(said: str) -> bool:
    """R2: "failed over to the standby" is a step, not a failure: with its cues left out, none is left."""
    cues = _cues(said)
    over = [m.span() for m in _FAILED_OVER.finditer(said)]
    return bool(over) and all(any(a <= m.start() < b for a, b in over) for m in cues)


_FIELD = re.compile(r"(?:^|[\s(])(?:[A-Z][\w/&'-]{1,30})(?: [\w/&'()-]{1,30}){0,3}: (?=\S)")


def field_list(said: str) -> bool:
    """R3: two or more field labels ("Affected Services: …", "Files resolved: …", "Check status: …"): a form, a status
    dump or a lessons list, not one step told."""
    return len(_FIELD.findall(said)) >= 2


def past_perfect(said: str) -> bool:
    """R4: the past perfect before the first failure cue ("we had pulled …, but wal-g had failed to restore"): the
    background the story steps back to (narrative._linked's reading, on every line)."""
    return cues_attempts.stepped_back(said, _cues(said))


_FINDING_THAT = re.compile(
    r"\b(?:identif\w{0,6}|show\w{0,3}|reveal\w{0,3}|confirm\w{0,3}|notic\w{0,3}|find\w{0,3}|found|discover\w{0,3}|"
    r"reali[sz]\w{0,3}|indicat\w{0,3}|note[sd]?|noting)\s{1,4}that\b",
    re.I,
)


def reported_state(said: str) -> bool:
    """R5: the failure is inside a clause a finding verb reports ("Discussion identifies that Nimbus nodes are still
    missing blocks"), with no step told before the finding verb: someone saw the state, no step's outcome."""
    cues = _cues(said)
    finding = _FINDING_THAT.search(said)
    if not cues or finding is None or TRIED.search(said[: finding.start()]):
        return False
    return all(m.start() >= finding.end() for m in cues)


_REASON_OPENS = re.compile(r"^\W{0,4}(?:as|since|because|given that|seeing that)\b", re.I)


def reason_first(said: str) -> bool:
    """R7: the line opens on a reason ("As the containerised build is still not fit for deployment, I made the
    decision to …") and its failure comes before any step: the state is why a step was taken, not its outcome."""
    cues = _cues(said)
    if not cues or not _REASON_OPENS.match(said):
        return False
    first = min(m.start() for m in cues)
    return not TRIED.search(said[:first])


RULES: dict[str, Callable[[str], bool]] = {
    "R1 aside only": aside_only,
    "R2 failed over": failed_over,
    "R3 field list": field_list,
    "R4 past perfect": past_perfect,
}
RULES["R1-4 together"] = lambda said: any(rule(said) for rule in list(RULES.values())[:4])
RULES["R5 reported"] = reported_state
RULES["R7 reason first"] = reason_first


def shipped(said: str) -> bool:
    """What landed (R1 with narrative._attempt's reading of a parenthesis that opens the line, and R4):
    `cues_attempts.told_as_background` on the line's failure cues."""
    return cues_attempts.told_as_background(said, _cues(said))


RULES["shipped (R1', R4)"] = shipped


def kept_without_shipped(rows: list[dict]) -> list[dict]:
    """The lines today's bar and vetoes keep, the shipped rule left out (so the figure reads the same before and
    after it landed)."""
    real_rule = cues_attempts.told_as_background
    cues_attempts.told_as_background = lambda said, cues: False
    try:
        return [
            r
            for r in rows
            if cues_attempts.told_as_failed({"action": r["action"], "why_it_failed": r["why"]})
            and _one_attempt({"action": r["action"], "why_it_failed": r["why"]})
        ]
    finally:
        cues_attempts.told_as_background = real_rule


def rows_of(lines: dict[str, list[list[str]] | None]) -> list[dict]:
    """`attempts_blind.judged`'s rows, each with its action and why apart."""
    rows = judged(lines)
    told = [(a, w) for t in truths_a() for a, w in (lines.get(t.file) or [])]
    for row, (action, why) in zip(rows, told, strict=True):
        row["action"], row["why"] = action, why
    return rows


def judge(rows: list[dict], rule: Callable[[str], bool]) -> dict:
    """What the rule removes from `rows`: real and wrong lines, by organisation, and the worst ratio with one
    organisation left out."""
    removed = [r for r in rows if rule(r["said"])]
    by_org: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in removed:
        by_org[r["org"]][0 if r["real"] else 1] += 1
    real = sum(r["real"] for r in removed)
    wrong = len(removed) - real
    worst = None
    for org in by_org:
        lr, lw = real - by_org[org][0], wrong - by_org[org][1]
        ratio = lw / lr if lr else (float("inf") if lw else 0.0)
        worst = ratio if worst is None else min(worst, ratio)
    base = sum(r["real"] for r in rows)
    return {
        "real": real,
        "wrong": wrong,
        "orgs_wrong": sorted(o for o, (_, w) in by_org.items() if w),
        "worst_one_out": worst,
        "before": (base, len(rows)),
        "after": (base - real, len(rows) - len(removed)),
        "removed": removed,
    }


def passes(blind: dict, today: dict) -> bool:
    """The rule written before measuring (notes): >= 2 wrong per real on the blind lines, wrong from >= 2
    organisations, still >= 2 per real with any one left out, and today's reader losing <= 1 real line."""
    ratio_ok = blind["wrong"] >= 2 * blind["real"] and blind["wrong"] >= 1
    one_out_ok = blind["worst_one_out"] is not None and blind["worst_one_out"] >= 2
    return ratio_ok and len(blind["orgs_wrong"]) >= 2 and one_out_ok and today["real"] <= 1


def _pct(real: int, stored: int) -> str:
    return f"{real}/{stored} = {100 * real / stored:.0f} %" if stored else "0/0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True, help="bench/attempts_blind.py's cache")
    parser.add_argument("--lines", action="store_true", help="print each line a rule removes (fold A only)")
    args = parser.parse_args(argv)
    cached = json.loads(args.cache.read_text(encoding="utf-8"))
    blind = rows_of({f: v for f, v in cached["blind"].items() if v is not None})
    kept = kept_without_shipped(blind)
    today = rows_of(cached["today"])
    print(
        f"fold A: blind {_pct(sum(r['real'] for r in blind), len(blind))}, blind kept by today's bar "
        f"{_pct(sum(r['real'] for r in kept), len(kept))}, today {_pct(sum(r['real'] for r in today), len(today))}"
    )
    print(
        f"{'rule':<16} {'blind: real/wrong removed (orgs)':>34} {'one out':>8} {'kept blind':>12} {'today':>10}  passes"
    )
    for name, rule in RULES.items():
        b, k, t = judge(blind, rule), judge(kept, rule), judge(today, rule)
        worst = "-" if b["worst_one_out"] is None else f"{b['worst_one_out']:.1f}"
        print(
            f"{name:<16} {b['real']:>14}/{b['wrong']:<3} ({len(b['orgs_wrong'])}) {_pct(*b['after']):>14} {worst:>8}"
            f" {k['real']:>5}/{k['wrong']:<6} {t['real']:>4}/{t['wrong']:<5}  {'yes' if passes(b, t) else 'no'}"
        )
        if args.lines:
            for who, said in (("blind", b), ("today", t)):
                for r in said["removed"]:
                    print(f"     {who:<5} {'REAL ' if r['real'] else 'WRONG'} {r['org'][:22]:<22} {r['said'][:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
