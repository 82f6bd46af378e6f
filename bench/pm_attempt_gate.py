"""A learned gate on the postmortem importer's stored failed attempts (issue 23, pm-att): does a logistic reading of
the stored line's words and cues tell a real "did not work" line from a wrong one on organisations it never saw?

    : > /tmp/none.txt
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py --held-out /tmp/none.txt --dump /tmp/proxy.json  # ~4 min
    nice -n 10 .venv/bin/python bench/pm_attempt_gate.py --pm /tmp/pm_rows.json --proxy /tmp/proxy.json \
        [--cues-only] [--only pm|proxy|both]                                   # one organisation out (~1 min)

Rows: every line the importer stores today (it passed every cue bar, `narrative.kept`), from fold A's postmortems
(read as `import` reads them, kept in `--pm`: the bench writes it when it is missing) and fold A's conversations rendered as postmortems minus
bench/held_out.tsv (`attempts_pm_on_threads.py --dump`), labelled real when it holds a labelled attempt
(`scoring.attempt_is_real`). Each organisation's lines are scored by a head fitted on every other organisation's
(bot/reader/fit.py's batch recipe, bench/fit_reader.py's L2, epochs and rate): what a new organisation would see.
Printed: per threshold, the real and wrong lines kept, for the postmortems and the threads apart. `--cues-only` weighs
the cues alone. Measured, not shipped (docs/BENCHMARKS.md, pm-att): no threshold removes wrong lines one organisation
out without costing as many real ones or more. Fold B is never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.fit as reader_fit  # noqa: E402
from bench.fit_reader import EPOCHS, L2, RATE  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import attempt_is_real, attempt_text  # noqa: E402
from bot.reader.cues import TRIED  # noqa: E402
from bot.reader.cues_attempts import EXPLICIT_TRY, REFERS_BACK, STEP_OUTCOME, WE_TRIED, failure_cues  # noqa: E402
from bot.reader.sentences import word_features  # noqa: E402

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
# a why's outcome is read in its first characters (attempt_bound.OUTCOME_WITHIN's reach)
_OUTCOME_CHARS = 200


def gate_features(action: str, why: str) -> list[str]:
    """The stored line as the gate weighs it: the action's and the why's words and word pairs, apart, and cues: a
    step verb, an explicit try, a responder named, a failure word in the action or the why, the why's opening back
    reference, a step-outcome word ("still", "did not help"), an empty why, a question."""
    feats = [f"a:{w}" for w in word_features(action)] + [f"y:{w}" for w in word_features(why)]
    said = failure_cues(why[:_OUTCOME_CHARS])
    cues = {
        "step": bool(TRIED.search(action)),
        "try": bool(EXPLICIT_TRY.search(action)),
        "we": bool(WE_TRIED.search(action)),
        "failed_in_action": bool(failure_cues(action)),
        "failed_in_why": bool(said),
        "step_outcome": any(STEP_OUTCOME.search(m.group()) for m in said),
        "refers_back": bool(REFERS_BACK.match(why.lstrip(" ,;:-—"))),
        "no_why": not why.strip(),
        "asked": "?" in action or "?" in why,
    }
    feats += [f"c:{name}" for name, on in cues.items() if on]
    return list(dict.fromkeys(feats))


GRID = [round(0.05 * i, 2) for i in range(1, 20)]


def pm_rows(cache: Path) -> list[dict]:
    """Fold A postmortems' stored lines, read as `import` reads the files (kept in `cache`: run once per code)."""
    if not cache.exists():
        truths = fold_truths("A", incidents_only=True)
        drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
        rows = []
        for t in truths:
            for a in d.failed_attempts if (d := drafts.get(t.file)) else []:
                real = attempt_is_real(attempt_text(a.action, a.why_it_failed), t.failed_attempts)
                rows.append(
                    {
                        "org": t.org or t.file,
                        "src": "pm",
                        "file": t.file,
                        "action": a.action,
                        "why": a.why_it_failed or "",
                        "real": real,
                    }
                )
        cache.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return json.loads(cache.read_text(encoding="utf-8"))


def proxy_rows(path: Path) -> list[dict]:
    return [
        {
            "org": r["org"],
            "src": r["how"],
            "file": r["file"],
            "action": r["line"][0],
            "why": r["line"][1],
            "real": r["real"],
        }
        for r in json.loads(path.read_text(encoding="utf-8"))
    ]


WORDS = True


def feats(r: dict) -> list[str]:
    f = gate_features(r["action"], r["why"])
    return f if WORDS else [x for x in f if x.startswith("c:")]


def fit(rows: list[dict]) -> reader_fit.Head:
    return reader_fit.fit_head([(feats(r), r["real"]) for r in rows], steps="batch", epochs=EPOCHS, rate=RATE, l2=L2)


def one_out(rows: list[dict]) -> list[float]:
    """Each row's score by the head fitted on every other organisation's rows."""
    by_org: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_org[r["org"]].append(i)
    scores = [0.0] * len(rows)
    for org, members in by_org.items():
        head = fit([r for r in rows if r["org"] != org])
        for i in members:
            scores[i] = head.probability(feats(rows[i]))
    return scores


def table(rows: list[dict], scores: list[float]) -> list[str]:
    out = []
    for src in ("pm", "timeline", "prose"):
        idx = [i for i, r in enumerate(rows) if r["src"] == src]
        real = sum(rows[i]["real"] for i in idx)
        out.append(f"{src}: stored {real}/{len(idx)} real")
        for t in GRID:
            kept = [i for i in idx if scores[i] >= t]
            kr = sum(rows[i]["real"] for i in kept)
            out.append(
                f"  t={t:.2f} kept {kr}/{len(kept)} real; gone wrong {len(idx) - real - (len(kept) - kr)}, real {real - kr}"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pm", type=Path, required=True)
    parser.add_argument("--proxy", type=Path, required=True)
    parser.add_argument("--only", choices=["pm", "proxy", "both"], default="both", help="rows to fit on")
    parser.add_argument("--cues-only", action="store_true", help="weigh the cues alone, not the words")
    args = parser.parse_args(argv)
    global WORDS
    WORDS = not args.cues_only
    rows = pm_rows(args.pm) + proxy_rows(args.proxy)
    if args.only == "pm":
        rows = [r for r in rows if r["src"] == "pm"]
    elif args.only == "proxy":
        rows = [r for r in rows if r["src"] != "pm"]
    print("\n".join(table(rows, one_out(rows))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
