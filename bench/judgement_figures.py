"""The figures a fitted recall judgement is scored by (issue 27's Done-when: right memory shown / strong,
ranked first, anything shown with the right memory removed; calibration and the probability curve), each case
judged as the pipeline judges it (the short-query model for a short query). Read by bench/fit_recall_judgement.py
and the benches that compare its fits.
"""

from __future__ import annotations

from dataclasses import replace

from bot.recall.judgement import Judgement
from bot.recall.judgement_rules import by_rule
from bot.replay_report import CaseResult

Judged = list[tuple[CaseResult, Judgement]]
"""Cases, each with the judgement that judges it (one for all, or one per held-out organisation)."""


def _model(judgement: Judgement, matches) -> Judgement:  # noqa: ANN001
    """The model that judges this recall (the short-query one for a short query), as the pipeline picks it."""
    return judgement.for_query(False, matches[0].evidence.get("query_phrases", 0.0) if matches else 0.0)


def probabilities_of(judgement: Judgement, matches) -> list[float]:  # noqa: ANN001
    judgement = _model(judgement, matches)
    return [judgement.probability(m.evidence) for m in matches]


def tiers_of(judgement: Judgement, matches) -> list[str]:  # noqa: ANN001
    judgement = _model(judgement, matches)
    weak = None if judgement.weak is None else probabilities_of(judgement.weak, matches)
    return judgement.tiers(probabilities_of(judgement, matches), [m.relevance for m in matches],
                           [by_rule(m.relevance, m.score_components, m.evidence) for m in matches], weak)  # fmt: skip


def weak_models(judgement: Judgement) -> Judgement:
    """The models whose probabilities decide the weak line (each model's weak one, else itself), picked per
    query as the pipeline picks them: what the weak line's calibration is read on."""
    short = judgement.short
    if judgement.weak is None and (short is None or short.weak is None):
        return judgement
    short = None if short is None else short.weak or short
    return replace(judgement.weak or judgement, short=short, short_until=judgement.short_until)


def evaluate(judgement: Judgement, results: list[CaseResult]) -> dict[str, float]:
    """The Done-when figures of issue 27 for one judgement on some cases."""
    return evaluate_judged([(r, judgement) for r in results])


def evaluate_judged(judged: Judged) -> dict[str, float]:
    """The Done-when figures of issue 27, each case judged by its own judgement."""
    results = [r for r, _ in judged]
    n = len(results) or 1
    first = shown_first = strong_first = absent_strong = absent_shown = 0
    right_strong = right_shown = 0
    for r, judgement in judged:
        tiers = tiers_of(judgement, r.matches)
        right = next((t for m, t in zip(r.matches, tiers, strict=True) if m.memory.incident_id in r.case.relevant
                      and t != "below"), "below")  # fmt: skip
        right_strong += right == "strong"
        right_shown += right != "below"
        if r.rank == 1:
            first += 1
            strong_first += right == "strong"
            shown_first += right != "below"
        absent = tiers_of(judgement, r.absent_matches)
        absent_strong += "strong" in absent
        absent_shown += "strong" in absent or "weak" in absent
    return {
        "cases": len(results), "first": first,
        "first_shown": round(shown_first / (first or 1), 3), "first_strong": round(strong_first / (first or 1), 3),
        "right_shown": round(right_shown / n, 3), "right_strong": round(right_strong / n, 3),
        "absent_strong": round(absent_strong / n, 3), "absent_shown": round(absent_shown / n, 3),
        "ece": round(ece(judged), 3), "curve": curve(judged),
        **({"ece_weak": round(ece([(r, weak_models(j)) for r, j in judged]), 3)}
           if any(weak_models(j) is not j for _, j in judged) else {}),
    }  # fmt: skip


def curve(judged: Judged) -> list[list[float]]:
    """[p, right memory at ≥ p among the first 5, anything at ≥ p target absent] for p 0.1…0.9:
    the probability curve a strong_from is read from (in- or out-of-sample)."""
    n = len(judged) or 1
    out = []
    for p in (round(0.1 * i, 1) for i in range(1, 10)):
        right = sum(any(m.memory.incident_id in r.case.relevant and q >= p
                        for m, q in zip(r.matches[:5], probabilities_of(judgement, r.matches[:5]), strict=True))
                    for r, judgement in judged)  # fmt: skip
        absent = sum(any(q >= p for q in probabilities_of(judgement, r.absent_matches[:5])) for r, judgement in judged)
        out.append([p, round(right / n, 3), round(absent / n, 3)])
    return out


def ece(judged: Judged, bins: int = 10) -> float:
    """Expected calibration error over every judged candidate (present and absent recalls)."""
    pairs = []
    for r, judgement in judged:
        pairs += [(p, int(m.memory.incident_id in r.case.relevant))
                  for p, m in zip(probabilities_of(judgement, r.matches), r.matches, strict=True)]  # fmt: skip
        pairs += [(p, 0) for p in probabilities_of(judgement, r.absent_matches)]
    return calibration_error(pairs, bins)


def calibration_error(pairs: list[tuple[float, int]], bins: int = 10) -> float:
    """Expected calibration error of (probability, 1 when right else 0) pairs: over `bins` equal bins of the
    probability, each bin's share of the pairs times the distance between its mean probability and its share
    right. The one reading for every bench that judges a fitted judgement (ece, recall_signature_rule.ece)."""
    total = len(pairs) or 1
    error = 0.0
    for b in range(bins):
        inside = [(p, y) for p, y in pairs if b / bins <= p < (b + 1) / bins or (b == bins - 1 and p == 1.0)]
        if inside:
            error += (
                len(inside)
                / total
                * abs(sum(p for p, _ in inside) / len(inside) - sum(y for _, y in inside) / len(inside))
            )
    return error
