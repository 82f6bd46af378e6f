"""The conversation reader judged sentence by sentence against fold A's statement labels
(eval/conversations/statements.jsonl), one organisation of fold A left out at a time: which
sentences it reads as a cause, a fix or a failed attempt, which of those the labels call something
else, and which labelled causes, fixes and failed attempts it misses, with why (`vetoed`, the cue
gate `SAYS` / `FAILED` not open, or the head's score under its threshold).

    .venv/bin/python bench/conversation_statements.py            # totals
    .venv/bin/python bench/conversation_statements.py --misses   # every wrong pick and miss, fold A
    .venv/bin/python bench/conversation_statements.py --gates    # candidate recall by wording, fold A

A reader sentence carries a label when it holds the label's quote (or the quote holds it) in the
same message. Picks are the reader's own (bot/reader/conversation.py `read_conversation`: the attempts
told in so many words, bot/reader/conversation_told.py, and the scored ones; the cause and fix before the
drafter's explicit rules, bot/reader/chat.py); the drafted fields are bench/fit_reader.py's.
Fold A only: fold B's statement labels (the same scheme, issue 23) are for reporting and for the
swap fit, never for tuning; `statements()` returns one fold's lines only (default A), so nothing
here reads fold B's. Nor bench/held_out.tsv's threads (the newest collection): bench/fit_reader.py `conversations`
leaves them out, so no head is fitted on them and `--misses` never names one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fit_reader import conversations, fit_models, messages  # noqa: E402
from bot.config import PROJECT_ROOT  # noqa: E402
from bot.reader.conversation import (  # noqa: E402
    NEVER,
    SAYS,
    cue_gated,
    read_conversation,
    use_models,
    vetoed,
)
from bot.reader.conversation_features import Sentence  # noqa: E402

STATEMENTS = PROJECT_ROOT / "eval" / "conversations" / "statements.jsonl"
# what the labels count as each kind the reader drafts
WANTED = {
    "cause": lambda s: s["kind"] == "cause" and s["assertion"] != "negated",
    "fix": lambda s: s["kind"] == "fix",
    "attempt": lambda s: s.get("outcome") == "did_not_work",
}


@cache
def statements(fold: str = "A") -> dict[str, list[dict[str, Any]]]:
    """The statement labels of one fold's conversations (by the fold truth.jsonl gives the file, and
    the line's own `fold`, which must agree): fold B's never reach a fold-A tuning run."""
    truth = (STATEMENTS.parent / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    folds = {label["file"]: label["fold"] for label in map(json.loads, filter(None, truth))}
    rows = [json.loads(line) for line in STATEMENTS.read_text(encoding="utf-8").splitlines() if line]
    return {r["file"]: r["statements"] for r in rows if r["fold"] == fold and folds.get(r["file"]) == fold}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def labels_of(sentence: Sentence, statements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    text = _norm(sentence.text)
    return [s for s in statements if s["message"] == sentence.message and (s["quote"] in text or text in s["quote"])]


def name(statements: list[dict[str, Any]]) -> str:
    if not statements:
        return "unlabelled"
    return "+".join(
        sorted(
            {
                s["kind"] + (f":{s.get('outcome') or s.get('assertion')}" if s["kind"] in ("action", "cause") else "")
                for s in statements
            }
        )
    )


def why_missed(kind: str, sentence: Sentence, models: Any) -> str:
    if vetoed(kind, sentence):
        return "vetoed"
    if not cue_gated(kind, sentence):
        return "no cue (SAYS)" if not sentence.features & SAYS[kind] else "no failure cue (FAILED)"
    head = models.heads.get(kind, NEVER)
    p = head.probability(sentence.features)
    return f"score {p:.2f} < {head.threshold}" if p < head.threshold else f"score {p:.2f}, not the best"


def judge() -> tuple[Counter[str], list[str]]:
    rows = statements("A")
    data = conversations("A")
    totals: Counter[str] = Counter()
    lines: list[str] = []
    for org in sorted({label["org"] for label, _ in data}):
        models = fit_models([d for d in data if d[0]["org"] != org], f"fold A without {org}")
        use_models(models)
        try:
            for label, conversation in (d for d in data if d[0]["org"] == org):
                said = rows[label["file"]]
                reading = read_conversation(messages(conversation))
                found = reading.sentences
                picks = {
                    "cause": [reading.cause] if reading.cause else [],
                    "fix": [reading.fix] if reading.fix else [],
                    "attempt": reading.attempts,
                }
                for kind, picked in picks.items():
                    chosen = {p.sentence for p in picked}
                    for p in picked:
                        got = labels_of(found[p.sentence], said)
                        ok = any(WANTED[kind](s) for s in got)
                        totals[f"{kind} picked"] += 1
                        totals[f"{kind} picked right"] += ok
                        if not ok:
                            lines.append(
                                f"{label['file']}: {kind} WRONG ({name(got)}): {found[p.sentence].text[:160]!r}"
                            )
                    labelled = [s for s in said if WANTED[kind](s)]
                    totals[f"{kind} labelled"] += len(labelled)
                    for s in labelled:
                        at = [i for i, x in enumerate(found) if s in labels_of(x, [s])]
                        if any(i in chosen for i in at):
                            totals[f"{kind} labelled found"] += 1
                            continue
                        why = why_missed(kind, found[at[0]], models) if at else "not read as a sentence"
                        totals[f"{kind} missed: {why.split(' ')[0]}"] += 1
                        lines.append(f"{label['file']}: {kind} MISSED [{why}] {s['quote'][:140]!r}")
        finally:
            use_models(None)
    return totals, lines


def wording(kind: str, label: dict[str, Any], at: int, found: list[Sentence]) -> str:
    """The kind of wording of a labelled fix or failed attempt, by structure: for an attempt, where
    its outcome is said (the label's `outcome_quote`) against the action's sentence; for a fix,
    whether it names a step in the first person, as a bare verb, or only a state or a link."""
    if kind == "attempt":
        quote = _norm(label.get("outcome_quote", ""))
        where = [i for i, x in enumerate(found) if quote and (quote in _norm(x.text) or _norm(x.text) in quote)]
        if not where:
            return "outcome not read"
        i = min(where, key=lambda j: abs(j - at))
        if i == at:
            return "outcome in its sentence"
        if found[i].message == found[at].message:
            return "outcome next sentence" if abs(i - at) == 1 else "outcome further in its message"
        return "outcome in a later message" if i > at else "outcome in an earlier message"
    text = _norm(found[at].text)
    if re.search(r"\b(?:i|we)(?:'ve| have| had|'m| am|'re| are)? (?:\w+ly )?\w+(?:ed|ing)\b", text):
        return "first person, a verb"
    if re.search(r"^(?:\W*)(?:\w+ed|\w+ing)\b", text):
        return "bare verb"
    return "other (a state, a link, a noun)"


def gates() -> tuple[Counter[str], list[str]]:
    """Candidate recall on fold A: how many labelled fixes and failed attempts the vetoes and the cue
    gate (`SAYS`, `FAILED`) let through to the heads at all, by kind of wording. No model is read."""
    rows = statements("A")
    totals: Counter[str] = Counter()
    lines: list[str] = []
    for label, conversation in conversations("A"):
        said = rows[label["file"]]
        found = read_conversation(messages(conversation)).sentences
        for kind in ("fix", "attempt"):
            for s in (s for s in said if WANTED[kind](s)):
                at = [i for i, x in enumerate(found) if s in labels_of(x, [s])]
                if not at:
                    totals[f"{kind} | not read as a sentence | -"] += 1
                    continue
                sentence = found[at[0]]
                gate = (
                    "vetoed" if vetoed(kind, sentence)
                    else "through" if cue_gated(kind, sentence)
                    else "no cue (SAYS)" if not sentence.features & SAYS[kind]
                    else "no failure cue (FAILED)"
                )  # fmt: skip
                how = wording(kind, s, at[0], found)
                totals[f"{kind} | {how} | {gate}"] += 1
                if gate != "through":
                    lines.append(f"{label['file']}: {kind} [{gate}; {how}] {s['quote'][:120]!r}")
    return totals, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every wrong pick and missed label (fold A)")
    parser.add_argument("--gates", action="store_true", help="candidate recall by kind of wording (fold A)")
    args = parser.parse_args(argv)
    totals, lines = gates() if args.gates else judge()
    for key in sorted(totals):
        print(f"{key:<32} {totals[key]}")
    if args.misses:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
