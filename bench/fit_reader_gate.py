"""The conversation reader's word gates (bot/reader/conversation.py `_candidate`): for each kind, a
logistic head over a sentence's words and word pairs (bot/reader/sentences.py `word_features`) that
proposes a sentence the cue gate (`SAYS`, `FAILED`) does not open for. Fitted by
bench/fit_reader.py beside the cue heads, on the same fold of eval/conversations and on the same
fold of eval/postmortems (its sentences labelled by the same rule: more organisations' words than
the conversations alone hold). A word counts only when sentences of `MIN_ORGS` organisations or
more hold it, so what is learnt is how people say a cause, a fix or an attempt, not one
organisation's names.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import bot.reader.fit as reader_fit
from bot.importer.cause_fix import candidates_of
from bot.importer.scoring import holds_half, load_truth
from bot.reader.conversation import Sentence, cue_gated, cues_of, vetoed, words_of
from bot.reader.sentences import Head

POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
MIN_ORGS = int(os.environ.get("GATE_MIN_ORGS", "4"))
EPOCHS, RATE, L2 = int(os.environ.get("GATE_EPOCHS", "8")), 0.2, float(os.environ.get("GATE_L2", "1e-3"))
WITH_POSTMORTEMS = os.environ.get("GATE_POSTMORTEMS", "1") == "1"
LABELS = os.environ.get("GATE_LABELS", "truth")  # or "statements": fold A's sentence labels (issue 23)
ROWS = os.environ.get("GATE_ROWS", "all")  # "all" sentences no veto rules out, or "rest": those the cue gate misses


@cache
def postmortem_sentences(fold: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """(organisation, sentence, the kinds it says) for every candidate sentence of the fold's
    postmortems, labelled by the one rule of eval/README.md."""
    found = []
    for truth in load_truth(POSTMORTEMS / "truth.jsonl"):
        if truth.fold != fold or truth.not_an_incident:
            continue
        text = (POSTMORTEMS / truth.file).read_text(encoding="utf-8", errors="replace")
        for candidate in candidates_of(text, truth.file):
            kinds = {
                "cause": holds_half(candidate.text, truth.root_cause_keywords),
                "fix": holds_half(candidate.text, truth.fix_keywords),
                "attempt": any(holds_half(candidate.text, k) for k in truth.failed_attempts),
            }
            found.append(
                ((truth.org or truth.file).lower(), candidate.text, frozenset(k for k, v in kinds.items() if v))
            )
    return tuple(found)


def fit_word_gate(
    kind: str,
    read: Sequence[tuple[dict[str, Any], list[Sentence]]],
    left_out: set[str],
    *,
    threshold: float,
    keep: int,
) -> Head:
    """The word gate of `kind`, fitted on the conversations `read` ((label, sentences) pairs) and
    the postmortems of the same fold, less the organisations `left_out` (one organisation out)."""
    from bench.fit_reader import is_kind

    fold = read[0][0]["fold"] if read else "A"

    def labelled(label: dict[str, Any], s: Sentence) -> bool:
        if LABELS != "statements":
            return is_kind(kind, s.text, label)
        from bench.conversation_statements import WANTED, labels_of, statements

        return any(WANTED[kind](x) for x in labels_of(s, statements()[label["file"]]))

    rows = [
        (label["org"].lower(), words_of(s.text), labelled(label, s))
        for label, found in read
        for s in found
        if not vetoed(kind, s) and (ROWS == "all" or not cue_gated(kind, s))
    ]
    if WITH_POSTMORTEMS:
        rows += [
            (org, words_of(text), kind in kinds)
            for org, text, kinds in postmortem_sentences(fold)
            if org not in left_out and (ROWS == "all" or not _cue_gated_alone(kind, text))
        ]
    orgs: dict[str, set[str]] = defaultdict(set)
    for org, words, _ in rows:
        for word in words:
            orgs[word].add(org)
    kept = {word for word, where in orgs.items() if len(where) >= MIN_ORGS}
    examples = [([w for w in words if w in kept], label) for _, words, label in rows]
    if not any(label for _, label in examples):
        return Head(threshold=2.0, keep=keep)
    head = reader_fit.fit_head(examples, steps="adagrad", epochs=EPOCHS, rate=RATE, l2=L2)
    weights = {name: round(w, 4) for name, w in sorted(head.weights.items()) if abs(w) >= 1e-4}
    return Head(round(head.bias, 4), weights, threshold, keep)


def _cue_gated_alone(kind: str, text: str) -> bool:
    """`cue_gated` for a sentence read by itself (a postmortem's: no neighbours, no speakers)."""
    return cue_gated(kind, Sentence(text, 0, "", cues_of(text)))
