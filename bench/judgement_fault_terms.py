"""The fault part of a first report's error signature as thread evidence, measured before building it (issue 27,
r27, rule 2 of the fourteenth session): of the query's code terms (tokens.code_terms) only the fault's — a status
code, errno/exit/signal codes, an error code (ORA-00060, E11000), an exception-like CamelCase name (…Error,
…Exception, …Timeout, …Killed) — without hosts, dotted or service names, which are an organisation's vocabulary.

    .venv/bin/python bench/judgement_fault_terms.py eval --nested A --cache DIR     # fold A, nested
    .venv/bin/python bench/judgement_fault_terms.py eval --swap --cache DIR         # fitted on one fold, read on the other

Each cached replay's matches get two evidence entries the product does not compute: `fault_rare` (the idf of the
query's fault terms in the memory's title, symptoms and error, in terms no memory holds, capped at 3) and
`fault_body` (the same anywhere in the memory). The idf is APPROXIMATED: bm25_idf over the distinct memories the
replay's candidate lists hold (the product's store counts every memory of the bank), so these are a screen's
figures, not a product's. Variants B0 (the shipped recipe's thread features), F1 = B0 + fault_rare, F2 = B0 +
fault_body, fitted as bench/judgement_by_org.py fits them (lines in its format). Held-out threads left out.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build, held_out_targets  # noqa: E402
from bench.judgement_by_org import (  # noqa: E402
    BUDGETS,
    LEXICAL,
    SHORT_BUDGETS,
    SHORT_UNTIL,
    SHORT_WEAK,
    WEAK,
    documents_by_org,
    figures,
    pair,
)  # fmt: skip
from bench.judgement_replays import cached_replay  # noqa: E402
from bench.logistic_fit import L2  # noqa: E402
from bench.weak_line import nested_pair_budgets  # noqa: E402
from bot.recall.candidates import JUDGED_BANK_SIZE, bm25_idf  # noqa: E402
from bot.recall.features import HEAD_RARE_CAP  # noqa: E402
from bot.recall.tokens import code_terms, tokenize  # noqa: E402

FAULT = re.compile(
    r"^(?:[1-5]\d\d|(?:errno|exit|signal):\d{1,3}|[a-z]{1,8}-?\d{3,}"
    r"|[a-z]{1,60}(?:error|exception|timeout|fault|failure|killed|refused|panic))$"
)
"""A code term that names the fault (status, error and exit codes, exception names), not a host or a service."""


def with_fault_evidence(results: list) -> list:
    """The results with fault_rare and fault_body added to every match's evidence (the approximate idf: above)."""
    memories = {m.memory.incident_id: m.memory for r in results for m in (*r.matches, *r.absent_matches)}
    opening, whole, df = {}, {}, {}
    for key, m in memories.items():
        opening[key] = frozenset(t for f in (m.title, m.symptoms, m.error_message) for t in tokenize(f or ""))
        extra = (m.root_cause, m.diagnosis, m.resolution, m.lesson)
        whole[key] = opening[key] | frozenset(t for f in extra for t in tokenize(f or ""))
        for term in whole[key]:
            df[term] = df.get(term, 0) + 1
    count = max(len(memories), JUDGED_BANK_SIZE)
    rarest = bm25_idf(count, 0)

    def rarity(terms: frozenset[str]) -> float:
        return min(HEAD_RARE_CAP, sum(bm25_idf(count, df.get(t, 0)) for t in terms) / rarest)

    out, holding = [], 0
    for r in results:
        q = r.case.query
        faults = frozenset(t for t in code_terms(q.title, q.text, q.error_message) if FAULT.match(t))
        holding += bool(faults)

        def one(m, faults=faults):  # noqa: ANN001, ANN202
            key = m.memory.incident_id
            found = {"fault_rare": rarity(faults & opening[key]), "fault_body": rarity(faults & whole[key])}
            return m.model_copy(update={"evidence": {**m.evidence, **found}})

        out.append(replace(r, matches=tuple(map(one, r.matches)), absent_matches=tuple(map(one, r.absent_matches))))
    print(f"{holding} of {len(results)} reports hold a fault term; {len(memories)} memories seen", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--nested", choices=("A", "B"))
    parser.add_argument("--swap", action="store_true")
    parser.add_argument("--cache", type=Path)
    args = parser.parse_args()
    if bool(args.nested) == args.swap:
        parser.error("give --nested FOLD or --swap")
    held = held_out_targets(args.eval_dir, False)
    sizes = documents_by_org(args.eval_dir, held)
    with tempfile.TemporaryDirectory() as folder:
        build(args.eval_dir, Path(folder), args.nested, leave_out=held)
        results = with_fault_evidence(cached_replay(Path(folder), args.cache, False))
    folds = {f: [r for r in results if r.case.flags.get("fold") == f] for f in ("A", "B")}
    base = tuple(LEXICAL.split(","))
    for name, names in (("B0", base), ("F1", (*base, "fault_rare")), ("F2", (*base, "fault_body"))):
        if args.nested:
            judged = nested_pair_budgets(folds[args.nested], names, WEAK, None, L2, [BUDGETS], (*names, "phrase_share"),
                                         SHORT_WEAK, SHORT_UNTIL, [SHORT_BUDGETS])[0]  # fmt: skip
            for line in figures(judged, sizes):
                print(json.dumps({"variant": name, "nested": args.nested, **line}), flush=True)
            continue
        for train, test in (("A", "B"), ("B", "A")):
            model = pair(folds[train], names, train)
            for line in figures([(r, model) for r in folds[test]], sizes):
                print(json.dumps({"variant": name, "fit_on": train, "judged": test, **line}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
