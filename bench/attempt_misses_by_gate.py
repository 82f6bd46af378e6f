"""Where dev fold A's missed real failed attempts stop in the conversation reader: for each labelled attempt the drafter
does not find, the first sentence that holds half its action phrases, and the reader's first gate that sentence fails
(issue 23, convfound; docs/BENCHMARKS.md "Conversations' real failed attempts found: a try the opening report tells").

    .venv/bin/python bench/attempt_misses_by_gate.py            # the counts (~15 s)
    .venv/bin/python bench/attempt_misses_by_gate.py --lines    # and each miss's sentence (fold A, dev only)

Each thread of fold A, bench/held_out.tsv's left out (bench/fit_reader.py `conversations`), is drafted by the offline
drafter with the shipped heads (bench/fit_reader.py `draft`), and the reading it made is kept (as
bench/attempt_lines_by_path.py keeps it). A labelled attempt is found when a drafted line holds half its phrases
(bot/importer/scoring.py `attempt_found`, the sandbox bench's rule). A missed one stops at, in the reader's order
(bot/reader/conversation.py): `no sentence` (no sentence holds half its phrases: told across sentences, or in words the
label does not keep), `vetoed` (`vetoed`: a question, a me-too, a plan, a recovery, a cause, …), `gate: no step`
(`SAYS`: no cue of something done), `gate: no failure` (`FAILED`: no failure word in it, and none bound to it after),
`head` (scored under the attempt head's threshold), `answer` (`how_it_went`: the sentence bound as its answer tells no
outcome), `other` (passes each of these: a later line's quote took its message, or the head's `keep`).

Fold A only: fold B is the reporting fold and is never drafted here, nor a held-out thread.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.conversation as conversation  # noqa: E402
from bench.attempt_lines_by_path import drafted_with_readings  # noqa: E402
from bench.fit_reader import conversations, shipped_models  # noqa: E402
from bot.importer.scoring import attempt_found, holds_half  # noqa: E402
from bot.reader.conversation import ConversationReading  # noqa: E402
from bot.reader.sentences import SentenceModel  # noqa: E402

GATES = ("no sentence", "vetoed", "gate: no step", "gate: no failure", "head", "answer", "other")


def where_it_stops(reading: ConversationReading, keywords: list[str], models: SentenceModel) -> tuple[str, int | None]:
    """(the gate, the sentence) for a labelled attempt the reading did not draft (`GATES`)."""
    held = [i for i, s in enumerate(reading.sentences) if holds_half(s.text, keywords)]
    if not held:
        return "no sentence", None
    i = held[0]
    s = reading.sentences[i]
    if conversation.vetoed("attempt", s):
        return "vetoed", i
    if not s.features & conversation.SAYS["attempt"]:
        return "gate: no step", i
    if not conversation.cue_gated("attempt", s):
        return "gate: no failure", i
    conversation.use_models(models)
    try:
        scored = conversation._candidate(models, "attempt", s)
    finally:
        conversation.use_models(None)
    if scored is not None and scored[0] < scored[1]:
        return "head", i
    if not conversation.how_it_went(reading.sentences, i):
        return "answer", i
    return "other", i


def misses(data: list[tuple[dict[str, Any], dict]]) -> list[tuple[str, str, str]]:
    """(file, gate, sentence) for every labelled attempt of `data` the drafter does not find."""
    models, out = shipped_models(), []
    for label, drafted, reading in drafted_with_readings(data, models):
        for attempt in label.get("failed_attempts") or []:
            keywords = list(attempt.get("action_keywords") or [])
            if attempt_found(keywords, drafted.attempts):
                continue
            gate, at = where_it_stops(reading, keywords, models) if reading else ("no sentence", None)
            text = reading.sentences[at].text if reading and at is not None else " / ".join(keywords)
            out.append((label["file"], gate, text))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", action="store_true", help="each miss with its sentence (fold A, dev only)")
    args = parser.parse_args(argv)
    found = misses(conversations("A"))
    counts = Counter(gate for _, gate, _ in found)
    print(f"dev fold A: {len(found)} labelled attempts missed")
    for gate in GATES:
        print(f"{gate:18} {counts[gate]:4}")
    if args.lines:
        for file, gate, text in found:
            print(f"{gate:18} {file}\n      {text[:200]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
