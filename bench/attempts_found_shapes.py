"""Where fold A's labelled failed attempts that the importer does not find sit in their postmortem, counted by shape
(not by organisation), per half of fold A (bench/fit_reader.py's `halves`).

    nice -n 10 .venv/bin/python bench/attempts_found_shapes.py                       # the write half's counts by shape (~1 min)
    nice -n 10 .venv/bin/python bench/attempts_found_shapes.py --measure             # and the measure half's: after a rule is stamped
    nice -n 10 .venv/bin/python bench/attempts_found_shapes.py --show timeline-later  # the write half's misses of a shape

Each missed attempt is located by its labelled statement (`eval/postmortems/statements.jsonl`: the did_not_work
statement whose quote holds half the attempt's action phrases) in what the importer reads: a timeline entry (the
entries `failed_in_timeline` is given), a list item, or prose. Shapes: `timeline-same` (step and failure in one entry),
`timeline-later` (the failure told in a later entry), `timeline-none` (no outcome quote found in the timeline), `list`
(a step in a bullet or numbered list outside the timeline), `prose-but` (one sentence: the step, then a contrast),
`prose` (any other prose), `unlocated`. Each is crossed with whether the outcome quote says a failure in the reader's
words (`cues_attempts.FAILED_OUTCOME`). `--show` prints the write half's texts only: the measure half is what a rule
written from them is judged on, so its misses are never printed. Fold A only: fold B is never read here.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path, PurePath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fit_reader import halves  # noqa: E402
from bench.import_postmortems import fold_statements, fold_truths  # noqa: E402
from bot.importer import markdown  # noqa: E402
from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.importer.scoring import Truth, attempt_found, attempt_text, holds_half, keyword_in  # noqa: E402
from bot.reader import narrative, narrative_timeline  # noqa: E402
from bot.reader.cues_attempts import FAILED_OUTCOME  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
LIST_LINE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
CONTRAST = re.compile(r"\b(?:but|however|yet|though|although|without success|to no avail)\b", re.I)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[*_`\[\]]", "", text).lower().split())


def read_fold_a() -> list[tuple[Truth, list[str], list[str], list[str]]]:
    """(truth, stored attempt texts, timeline entries' texts, the lines the reader proposed and its one bar for a
    stored line, `told_as_failed`, refused) for each of fold A's incident reports."""
    captured: list[list[str]] = []
    refused: list[str] = []
    original, bar = markdown.failed_in_timeline, narrative.told_as_failed

    def capturing(entries):  # the entries the importer hands the reader, kept for locating the misses
        captured.append([e.text for e in entries])
        return original(entries)

    def judged(attempt):  # the bar's verdict, unchanged; what it refuses is kept
        kept = bar(attempt)
        if not kept:
            refused.append(attempt_text(attempt["action"], attempt.get("why_it_failed")))
        return kept

    markdown.failed_in_timeline = capturing
    narrative.told_as_failed = narrative_timeline.told_as_failed = judged
    rows = []
    try:
        for t in fold_truths("A", incidents_only=True):
            captured.clear()
            refused.clear()
            parsed = parse_file(FoundFile(POSTMORTEMS / t.file, PurePath(t.file)), team_id="bench")
            draft = parsed.drafts[0] if parsed.drafts else None
            stored = [attempt_text(a.action, a.why_it_failed) for a in draft.failed_attempts] if draft else []
            rows.append((t, stored, captured[0] if captured else [], list(refused)))
    finally:
        markdown.failed_in_timeline = original
        narrative.told_as_failed = narrative_timeline.told_as_failed = bar
    return rows


def statements() -> dict[str, list[dict]]:
    return {
        file: [s for s in said if s.get("outcome") == "did_not_work"] for file, said in fold_statements("A").items()
    }


def _holds(text: str, quote: str) -> bool:
    return bool(quote) and (_norm(quote) in _norm(text) or keyword_in(quote, text))


def shape(keywords: list[str], said: list[dict], entries: list[str], doc: str) -> tuple[str, dict | None]:
    statement = next((s for s in said if holds_half(s["quote"] + " " + s.get("outcome_quote", ""), keywords)), None)
    quote = statement["quote"] if statement else ""
    outcome = (statement or {}).get("outcome_quote", "")
    step = next((i for i, e in enumerate(entries) if _holds(e, quote) or (not quote and holds_half(e, keywords))), None)
    if step is not None:
        if not outcome or _holds(entries[step], outcome):
            return ("timeline-same" if outcome else "timeline-none"), statement
        later = next((j for j in range(step + 1, len(entries)) if _holds(entries[j], outcome)), None)
        return ("timeline-later" if later is not None else "timeline-none"), statement
    line = next((ln for ln in doc.splitlines() if quote and _holds(ln, quote)), None)
    if line is None:
        return "unlocated", statement
    if LIST_LINE.match(line):
        return "list", statement
    sentence = next((s for s in re.split(r"(?<=[.!?])\s+", line) if _holds(s, quote)), line)
    if outcome and _holds(sentence, outcome) and CONTRAST.search(sentence):
        return "prose-but", statement
    return "prose", statement


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", help="print the write half's misses of this shape")
    parser.add_argument(
        "--measure",
        action="store_true",
        help="also count the measure half (a look at the judge: only after a rule is stamped)",
    )
    args = parser.parse_args()
    said = statements()
    rows = read_fold_a()
    half = halves({t.org or t.file for t, *_ in rows})
    counts: Counter[tuple[str, str, str]] = Counter()
    for t, stored, entries, refused in rows:
        part = "write" if (t.org or t.file) in half["write"] else "measure"
        doc = (POSTMORTEMS / t.file).read_text(errors="replace")
        for keywords in t.failed_attempts:
            if attempt_found(keywords, stored):
                continue
            kind, statement = shape(keywords, said.get(t.file, []), entries, doc)
            outcome = (statement or {}).get("outcome_quote", "")
            words = "failure word" if FAILED_OUTCOME.search(outcome) else "none"
            counts[("(no outcome quote)", words, part)] += not outcome
            counts[("(refused by the bar)", words, part)] += attempt_found(keywords, refused)
            counts[(kind, words, part)] += 1
            if args.show == kind and part == "write":
                print(f"{t.org} {t.file}\n  step: {statement and statement['quote']}")
                print(f"  outcome: {statement and statement.get('outcome_quote')}  [{words}]")
    kinds = sorted({k for k, _, _ in counts}, key=lambda k: -sum(v for (x, _, _), v in counts.items() if x == k))
    # the measure half judges a rule written from the write half: its counts only when asked (the review's F19)
    parts = ("write", "measure") if args.measure else ("write",)
    print(f"{'shape':18} " + " ".join(f"{part + ' (word/none)':>20}" for part in parts) + f" {'all':>5}")
    for k in kinds:
        cells = []
        for part in parts:
            word, none = counts[(k, "failure word", part)], counts[(k, "none", part)]
            cells.append(f"{word + none} ({word}/{none})")
        total = sum(v for (x, _, part), v in counts.items() if x == k and part in parts)
        print(f"{k:18} " + " ".join(f"{c:>20}" for c in cells) + f" {total:>5}")
    missed = sum(v for (x, _, part), v in counts.items() if not x.startswith("(") and part in parts)
    print(f"missed in all: {missed} (the rows in parentheses count some of them again)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
