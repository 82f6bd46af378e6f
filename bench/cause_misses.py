"""Where fold A's postmortem root causes are missed, by the document's structure: for each report whose labelled cause
the stored one does not hold, where the label sits (a summary paragraph — the text under the title, a summary-kind
section, the title —, a root cause section, elsewhere, over a sentence cut, nowhere) and where the stored cause came from
(nothing, a root cause section's text, sentences picked elsewhere), and whether the sentence holding the label says a
cause word (`cues.CAUSE`) at all: the sentence model's cause head reads no words, so a cause told without one is found
only by where it sits.

    .venv/bin/python bench/cause_misses.py --models-cache /tmp/loo.pkl     # fold A one organisation out (the shipped procedure)
    .venv/bin/python bench/cause_misses.py --in-sample                     # fold A read with the shipped model
    .venv/bin/python bench/cause_misses.py --models-cache /tmp/loo.pkl --show "label in a summary paragraph"

Fold A only (the tuning fold): fold B's misses are never read. One out reads each organisation with the sentence model
fitted without it (bench/fields_by_org.py `held_out_drafts`, its `--models-cache` kept and reused the same way).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fields_by_org import POSTMORTEMS, held_out_drafts  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.document import Document, parse_document  # noqa: E402
from bot.importer.metadata import read_prose_details  # noqa: E402
from bot.importer.scoring import holds_half, metadata_kinds_held  # noqa: E402
from bot.importer.section_text import join_lines, section_text, unit_parts  # noqa: E402
from bot.reader.cues import CAUSE  # noqa: E402
from bot.reader.read import sentences  # noqa: E402

SUMMARY_KINDS = ("title", "preamble", "summary")
CLASSES = (
    "metadata clause chosen",
    "label not in the text",
    "label beyond a sentence cut",
    "no cause stored, a root cause section exists",
    "no cause stored, label in a summary paragraph",
    "no cause stored, label elsewhere",
    "root cause section stored, label inside it but cut",
    "root cause section stored, label in a summary paragraph",
    "root cause section stored, label elsewhere",
    "another sentence chosen, label in a summary paragraph",
    "another sentence chosen, label in a root cause section",
    "another sentence chosen, label elsewhere",
)


def parts_of(doc: Document, title: str) -> list[tuple[str, str, str]]:
    """(kind, label, text) of the title, the text under it and every section."""
    found = [("title", "the title", title), ("preamble", "the text under the title", join_lines(doc.preamble))]
    return found + [(s.kind or "other", s.label, section_text(s)) for s in doc.sections]


def holding(parts: list[tuple[str, str, str]], labels: list[str]) -> list[tuple[str, str, str]]:
    """(kind, label, sentence) of each unit, else sentence, that alone holds the label (as the score reads it)."""
    held = []
    for kind, label, text in parts:
        for unit in (" ".join(p) for p in unit_parts(text)):
            if holds_half(unit, labels):
                held.append((kind, label, unit))
            else:
                held += [(kind, label, s) for s in sentences(unit) if holds_half(s, labels)]
    return held


def classify(text: str, labels: list[str], metadata: list[list[str]], cause: str, origin: str) -> tuple[str, bool]:
    """The class (one of CLASSES) of a missed cause, and whether a sentence holding the label says a cause word.
    `cause`: what was stored ("" none), `origin`: where the importer says it came from."""
    doc = parse_document(text)
    read_prose_details(doc)
    parts = parts_of(doc, doc.title or "")
    held = holding(parts, labels)
    kinds = {kind for kind, _, _ in held}
    cue = any(CAUSE.search(s) for _, _, s in held)
    if cause and metadata_kinds_held(cause, metadata):
        return CLASSES[0], cue
    if not holds_half(text, labels):
        return CLASSES[1], cue
    if not held:
        return CLASSES[2], cue
    in_summary = bool(kinds & set(SUMMARY_KINDS))
    if not cause:
        if doc.of_kind("root_cause"):
            return CLASSES[3], cue
        return (CLASSES[4] if in_summary else CLASSES[5]), cue
    if origin.startswith("section"):
        if any(kind == "root_cause" and label in origin for kind, label, _ in held):
            return CLASSES[6], cue
        return (CLASSES[7] if in_summary else CLASSES[8]), cue
    if in_summary:
        return CLASSES[9], cue
    return (CLASSES[10] if "root_cause" in kinds else CLASSES[11]), cue


def misses(in_sample: bool, cache: Path | None) -> list[dict]:
    truths = fold_truths("A", incidents_only=True)
    if in_sample:
        drafts = read_corpus(POSTMORTEMS, only={t.file for t in truths})[0]
    else:
        drafts = held_out_drafts(truths, {}, say=lambda line: None, cache=cache)
    rows = []
    for truth in truths:
        draft = drafts.get(truth.file)
        cause = (draft.root_cause or "") if draft else ""
        if not truth.root_cause_keywords or holds_half(cause, truth.root_cause_keywords):
            continue
        fields = (draft.provenance.fields or {}) if draft is not None and draft.provenance is not None else {}
        origin = str(fields.get("root_cause", ""))
        text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
        kind, cue = classify(text, truth.root_cause_keywords, truth.metadata_keywords, cause, origin)
        rows.append({"file": truth.file, "org": truth.org or truth.file, "class": kind, "cue": cue, "cause": cause})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--in-sample", action="store_true", help="read with the shipped model, not one out")
    parser.add_argument("--models-cache", type=Path, help="one out: keep and reuse the one-out models here")
    parser.add_argument("--show", help="print the files of the classes that start with this")
    args = parser.parse_args(argv)
    rows = misses(args.in_sample, args.models_cache)
    counts: Counter = Counter(r["class"] for r in rows)
    orgs: dict[str, set] = defaultdict(set)
    with_cue: Counter = Counter()
    for r in rows:
        orgs[r["class"]].add(r["org"])
        with_cue[r["class"]] += r["cue"]
    print(f"fold A root causes missed ({'in-sample' if args.in_sample else 'one organisation out'}): {len(rows)}")
    print(f"{'class':<56} {'missed':>6} {'orgs':>5} {'label said with a cause word':>29}")
    for kind in CLASSES:
        if counts[kind]:
            print(f"{kind:<56} {counts[kind]:>6} {len(orgs[kind]):>5} {with_cue[kind]:>29}")
    for r in rows:
        if args.show and r["class"].startswith(args.show):
            print(f"  {r['file']} ({r['class']}; cause word: {r['cue']}): {r['cause'][:160]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
