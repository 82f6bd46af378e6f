"""A recall judgement recipe judged on organisations no one has read: fitted on the first reports
of an earlier eval/ (its organisations), judged on the reports of organisations collected since.

    git -C . archive 9d10278 eval | tar -x -C /tmp/before        # the eval/ the recipes are fitted on
    DATABASE_URL=… .venv/bin/python bench/recall_new_organisations.py eval --before /tmp/before/eval \
        --sure-from none --cache .bench-data/judgement \
        --variant head,head_standout,score_standout,head_rare,opening_exclusive \
        --variant-short head,head_standout,score_standout,head_rare,phrase_share,opening_exclusive

The pre-registered test of issue 27 (docs/BENCHMARKS.md, "The test for the next session, stated
now"): both recipes (the shipped features, and the variant) are fitted as `--write` fits them
(bench/fit_recall_judgement.fit: thresholds by organisation) on the earlier reports, replayed
against today's whole memory bank, and judge the reports of organisations absent from the
earlier eval/ (its first reports, postmortems, conversations and alerts). The counts and the
rule's verdict are printed; under MIN_REPORTS reports or MIN_FIRST right memories ranked first
only the counts are (the test waits). Reports of known organisations added since are neither
fitted on nor judged.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build, load_reports  # noqa: E402
from bench.fit_recall_judgement import BUDGETS, LEXICAL, SHORT, SHORT_UNTIL, fit  # noqa: E402
from bench.judgement_figures import Judged, ece, tiers_of  # noqa: E402
from bench.judgement_replays import cached_replay  # noqa: E402
from bench.logistic_fit import L2  # noqa: E402
from bot.replay_report import CaseResult  # noqa: E402

MIN_REPORTS, MIN_FIRST = 80, 40
"""The test's size, stated before the reports existed: fewer, and it waits."""
RULE = {"strong_first": 0.05, "shown_first": -0.02, "absent_strong": 0.01, "absent_shown": 0.0}
"""The variant ships iff, against the shipped recipe on the new organisations: right memories ranked
first made strong up by at least 5 % of them, shown down by at most 2 % of them; target-absent
threads up by at most 1 % of the reports, anything shown not up."""


def known_organisations(before: Path) -> set[str]:
    """Every organisation the earlier eval/ holds, in any of its corpora."""
    orgs = {r["org"] for r in load_reports(before / "first-reports" / "reports.jsonl")}
    for name in ("postmortems/truth.jsonl", "conversations/truth.jsonl", "alerts/cases.jsonl"):
        path = before / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            orgs |= {str(json.loads(line).get("org")) for line in lines if line.strip()}
    return orgs - {"None"}


def counts(judged: Judged) -> dict[str, int]:
    """Integers behind the Done-when shares: right memories ranked first shown / strong, and
    target-absent recalls posting a thread / showing anything."""
    out = dict.fromkeys(("reports", "first", "shown_first", "strong_first", "absent_strong", "absent_shown"), 0)
    for r, judgement in judged:
        out["reports"] += 1
        if r.rank == 1:
            tiers = tiers_of(judgement, r.matches)
            right = next((t for m, t in zip(r.matches, tiers, strict=True)
                          if m.memory.incident_id in r.case.relevant and t != "below"), "below")  # fmt: skip
            out["first"] += 1
            out["strong_first"] += right == "strong"
            out["shown_first"] += right != "below"
        absent = tiers_of(judgement, r.absent_matches)
        out["absent_strong"] += "strong" in absent
        out["absent_shown"] += "strong" in absent or "weak" in absent
    return out


def verdict(base: dict[str, int], variant: dict[str, int]) -> dict[str, object]:
    """The rule (RULE) applied to the two recipes' counts on the same new reports."""
    f, n = base["first"], base["reports"]
    checks = {
        "strong_first": variant["strong_first"] - base["strong_first"] >= RULE["strong_first"] * f,
        "shown_first": variant["shown_first"] - base["shown_first"] >= RULE["shown_first"] * f,
        "absent_strong": variant["absent_strong"] - base["absent_strong"] <= RULE["absent_strong"] * n,
        "absent_shown": variant["absent_shown"] - base["absent_shown"] <= RULE["absent_shown"] * n,
    }
    return {"checks": checks, "ship_on_new": all(checks.values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="today's eval/ folder")
    parser.add_argument("--before", type=Path, required=True, help="the earlier eval/ folder (fitted on)")
    parser.add_argument("--variant", required=True, help="the variant model's features (comma-separated)")
    parser.add_argument("--variant-short", required=True, help="the variant's short-query model's features")
    parser.add_argument("--sure-from", default="none", help="'none' (as the shipped fit) or a relevance")
    parser.add_argument("--cache", type=Path, help="as bench/fit_recall_judgement.py's")
    args = parser.parse_args()
    earlier = {r["id"] for r in load_reports(args.before / "first-reports" / "reports.jsonl")}
    known = known_organisations(args.before)
    with tempfile.TemporaryDirectory() as folder:
        build(args.eval_dir, Path(folder))
        results: list[CaseResult] = cached_replay(Path(folder), args.cache)
    fitted_on = [r for r in results if r.case.id in earlier]
    new = [r for r in results if str(r.case.flags.get("org")) not in known]
    size = {"earlier_reports": len(fitted_on), "new_organisations": len({r.case.flags.get("org") for r in new}),
            "new_reports": len(new), "new_first": sum(r.rank == 1 for r in new),
            "known_org_reports_added": len(results) - len(fitted_on) - len(new)}  # fmt: skip
    print(json.dumps(size))
    if size["new_reports"] < MIN_REPORTS or size["new_first"] < MIN_FIRST:
        print(json.dumps({"test": "waits", "needs": {"reports": MIN_REPORTS, "first": MIN_FIRST}}))
        return 0
    sure = None if args.sure_from.lower() == "none" else float(args.sure_from)
    recipes = {
        "base": (LEXICAL, SHORT),
        "variant": (tuple(args.variant.split(",")), tuple(args.variant_short.split(","))),
    }
    found = {}
    for name, (long, short) in recipes.items():
        model = fit(fitted_on, "earlier", long, sure, L2, short, SHORT_UNTIL, BUDGETS)
        judged = [(r, model) for r in new]
        found[name] = counts(judged)
        print(json.dumps({"recipe": name, "model": model.as_json(), "new": found[name], "ece": round(ece(judged), 3)}))
    print(json.dumps(verdict(found["base"], found["variant"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
