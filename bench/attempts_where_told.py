"""Failed attempts by where the document tells them: a gate on the organisation's own document structure (the part
of the postmortem a stored line comes from, and how many lines one document yields), judged one organisation out
on fold A's blind lines (measurement only; nothing here is read by the bot).

    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json       # the blind lines (~5 min)
    nice -n 10 .venv/bin/python bench/attempts_where_told.py --cache /tmp/blind.json [--lines]   # ~1 min

Every stored line, the blind reader's (each fold-A organisation read by the reader of the commit that added it,
`bench/attempts_blind.py`) and today's, is placed in today's parse of its document by its action's words: an
explicit "what we tried" section, a timeline entry, the timeline's prose, a resolution or diagnosis section, free
prose (a summary, a section no field uses), the text under the title, any other section, or not found. Gates:

- O, origin: for each organisation X, the places kept are those whose lines among the OTHER organisations' blind
  lines are >= 2/3 real, with real lines in >= 2 organisations; X's lines are kept iff their place is kept.
- C, document flood: for each X, the K of KS that pays most (wrong removed - real lost) on the other
  organisations' blind lines; a document storing more than K lines keeps none of them.
- OC: both.
- E1, evidence corroborated: a line holds two or more families of `attempts_blind.kinds` (an explicit try, a
  step-outcome word inside the failure cue, a responder's step against a contrast); E2: an explicit try AND a
  step-outcome word. Fixed rules (nothing chosen), so one out is the same figure.

Fold A only: fold B is never read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_blind import kinds, truths_a  # noqa: E402
from bot.importer.documents import read_text_of  # noqa: E402
from bot.importer.drafts import Rejected  # noqa: E402
from bot.importer.markdown import refusal, timeline_of, titled_document  # noqa: E402
from bot.importer.scoring import attempt_found, attempt_is_real, attempt_text  # noqa: E402
from bot.importer.section_text import join_lines, section_text  # noqa: E402
from bot.reader.cues_attempts import told_as_failed  # noqa: E402
from bot.reader.narrative import _one_attempt  # noqa: E402
from bot.reader.text import plain  # noqa: E402
from bot.text_limits import DOCUMENT_CHARS  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
PLACES = ("attempts section", "timeline entry", "timeline prose", "resolution", "free prose", "under the title")
KS = (2, 3, 4, 6)
SHARE, MIN_ORGS = 2 / 3, 2


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain(text).lower()).split())


def _structure(file: str) -> list[tuple[str, str]] | None:
    """The document's parts as today's importer reads them: (place, normalised text), in the order a line is
    looked for (the most specific place first); None when import refuses the file."""
    try:
        text = read_text_of(POSTMORTEMS / file)
    except Rejected:  # not UTF-8
        return None
    if refusal(text, name=file, max_chars=DOCUMENT_CHARS) is not None:
        return None
    doc, _ = titled_document(text, file)  # what parse_markdown reads the failed attempts from
    entries, prose = timeline_of(doc)
    parts = [("attempts section", section_text(s)) for s in doc.of_kind("failed_attempts")]
    parts += [("timeline entry", e.text) for e in entries]
    parts += [("timeline prose", prose)]
    parts += [("resolution", section_text(s)) for s in doc.sections if s.kind in ("resolution", "diagnosis")]
    parts += [("free prose", section_text(s)) for s in doc.sections if s.kind in ("summary", None)]
    parts += [("under the title", join_lines(doc.preamble))]
    parts += [("elsewhere", section_text(s)) for s in doc.sections]
    return [(place, _norm(text)) for place, text in parts if text]


def place_of(action: str, parts: list[tuple[str, str]] | None) -> str:
    if parts is None:
        return "not found"
    said = _norm(action)
    for probe in (said[:60], said[:30], said[-30:]):
        if len(probe) < 8:
            continue
        for place, text in parts:
            if probe in text:
                return place
    return "not found"


def _today_keeps(action: str, why: str) -> bool:
    attempt = {"action": action, "why_it_failed": why}
    return told_as_failed(attempt) and _one_attempt(attempt)


def rows_of(lines: dict[str, list[list[str]] | None], structures: dict) -> list[dict]:
    rows = []
    for t in truths_a():
        stored = lines.get(t.file) or []
        for action, why in stored:
            rows.append(
                {
                    "file": t.file,
                    "org": t.org or t.file,
                    "real": attempt_is_real(attempt_text(action, why), t.failed_attempts),
                    "place": place_of(action, structures.get(t.file)),
                    "in_doc": len(stored),
                    "today_keeps": _today_keeps(action, why),
                    "families": sorted({k.split(":")[0] for k in kinds(action, why)} - {"none"}),
                    "line": f"{action} | {why}"[:150],
                    "said": attempt_text(action, why),
                }
            )
    return rows


def places_held(blind: list[dict], leave_out: str | None) -> set[str]:
    table: dict[str, dict] = defaultdict(lambda: {"real": 0, "wrong": 0, "orgs": set()})
    for r in blind:
        if r["org"] == leave_out:
            continue
        cell = table[r["place"]]
        cell["real" if r["real"] else "wrong"] += 1
        if r["real"]:
            cell["orgs"].add(r["org"])
    return {p for p, c in table.items() if len(c["orgs"]) >= MIN_ORGS and c["real"] >= SHARE * (c["real"] + c["wrong"])}


def k_chosen(blind: list[dict], leave_out: str | None) -> int:
    def pays(k: int) -> int:
        gone = [r for r in blind if r["org"] != leave_out and r["in_doc"] > k]
        return sum(not r["real"] for r in gone) - sum(r["real"] for r in gone)

    return max(sorted(KS, reverse=True), key=pays)  # ties: the larger K (removes less)


def _corroborated(row: dict, variant: str) -> bool:
    if variant == "E1":
        return len(row["families"]) >= 2
    return variant != "E2" or {"try", "outcome"} <= set(row["families"])


def gate(rows: list[dict], blind: list[dict], variant: str, one_out: bool = True) -> list[dict]:
    kept, places, ks = [], {}, {}
    for r in rows:
        key = r["org"] if one_out else None
        if key not in places:
            places[key], ks[key] = places_held(blind, key), k_chosen(blind, key)
        if not _corroborated(r, variant):
            continue
        if "O" in variant and r["place"] not in places[key]:
            continue
        if "C" in variant and r["in_doc"] > ks[key]:
            continue
        kept.append(r)
    return kept


def found(rows: list[dict]) -> int:
    """Labelled failed attempts of fold A found by the rows kept."""
    said: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        said[r["file"]].append(r["said"])
    return sum(attempt_found(k, said.get(t.file, [])) for t in truths_a() for k in t.failed_attempts)


def _fig(rows: list[dict]) -> str:
    real = sum(r["real"] for r in rows)
    return f"{real}/{len(rows)} = {100 * real / len(rows):.0f} % (wrong {len(rows) - real})" if rows else "0/0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True, help="bench/attempts_blind.py's --cache")
    parser.add_argument("--lines", action="store_true", help="every line with its place (fold A only)")
    args = parser.parse_args(argv)
    cached = json.loads(args.cache.read_text(encoding="utf-8"))
    files = {t.file for t in truths_a()}
    structures = {f: _structure(f) for f in sorted(files)}
    blind = rows_of({f: v for f, v in cached["blind"].items() if v is not None}, structures)
    today = rows_of(cached["today"], structures)
    print(f"{'place':<18} {'blind real/wrong (orgs real)':>30} {'today real/wrong':>18}")
    for place in (*PLACES, "elsewhere", "not found"):
        b = [r for r in blind if r["place"] == place]
        t = [r for r in today if r["place"] == place]
        br, tr = sum(r["real"] for r in b), sum(r["real"] for r in t)
        orgs = len({r["org"] for r in b if r["real"]})
        print(f"{place:<18} {br:>18}/{len(b) - br:<4} ({orgs:>2}) {tr:>12}/{len(t) - tr}")
    print("lines per document (blind): real/wrong")
    for n in sorted({r["in_doc"] for r in blind}):
        b = [r for r in blind if r["in_doc"] == n]
        print(f"  {n:>2}: {sum(r['real'] for r in b)}/{len(b) - sum(r['real'] for r in b)}")
    print(f"all-fold places held: {sorted(places_held(blind, None))}; K chosen on all: {k_chosen(blind, None)}")
    kept = [r for r in blind if r["today_keeps"]]
    head = f"{'variant':<8} {'blind, one out':<28} {'blind kept by today, one out':<30} {'today, one out (found)':<34}"
    print(f"{head} today, in-sample (found)")
    t = _fig(today) + f", {found(today)}"
    print(f"{'none':<8} {_fig(blind):<28} {_fig(kept):<30} {t:<34} {t}")
    for variant in ("O", "C", "OC", "E1", "E2"):
        b, k = gate(blind, blind, variant), gate(kept, blind, variant)
        t1, t0 = gate(today, blind, variant), gate(today, blind, variant, False)
        print(f"{variant:<8} {_fig(b):<28} {_fig(k):<30} {_fig(t1) + f', {found(t1)}':<34} {_fig(t0)}, {found(t0)}")
    if args.lines:
        for name, rows in (("blind", blind), ("today", today)):
            for r in sorted(rows, key=lambda r: (r["place"], r["org"])):
                print(
                    f"{name:<5} {'REAL ' if r['real'] else 'WRONG'} {r['place']:<16} {r['in_doc']:>2} {r['org'][:20]:<20} {r['line']}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
