"""Fold A's drafted conversation attempt lines by how the reader bound them: which reading picked the step, where the
answer that says it failed stands, and whether the step has a doer — real and wrong per kind, dev fold A only.

    .venv/bin/python bench/attempt_lines_by_path.py              # the table (~1 min)
    .venv/bin/python bench/attempt_lines_by_path.py --lines      # and every line with its kinds (fold A, dev only)

Each thread of fold A, bench/held_out.tsv's left out (bench/fit_reader.py `conversations`), is drafted by the offline
drafter with the shipped heads (bench/fit_reader.py `draft`, the sandbox's drafter), and the conversation reading the
drafter made (bot/reader/conversation.py `read_conversation`, one `Picked` per drafted attempt, in order) is kept
beside it. Each drafted line is real when it holds half of one labelled attempt's phrases (bot/importer/scoring.py, the
sandbox bench's rule). The kinds of a line:

- `path`: `told` (a step and its failure in so many words, bot/reader/conversation_told.py), `suggested` (a question or
  advice a reply says failed) or `scored` (the attempt head over its threshold);
- `answer`: where the words that say it failed stand — `own` (the step's sentence), `next` (the next sentence of its
  message), `own-reply` (the step's author's next message) or `reply` (another person's next message);
- `tried`: the sentence holds the `tried` cue ("I tried", "tried to"); `doer`: a first person, the `tried` cue, or the
  step opening the sentence (bot/reader/cues.py `STARTS_WITH_ACTION`);
- `opening`: told in the thread's first message.

Fold A only: fold B is the reporting fold and is never drafted here, nor a held-out thread.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.chat as chat  # noqa: E402
from bench.fit_reader import conversations, draft, shipped_models  # noqa: E402
from bench.reading_eval_conversations import Drafted  # noqa: E402
from bot.importer.scoring import attempt_is_real, labelled_attempts  # noqa: E402
from bot.reader.conversation import ConversationReading, Picked  # noqa: E402
from bot.reader.cues import STARTS_WITH_ACTION  # noqa: E402
from bot.reader.sentences import SentenceModel  # noqa: E402

DOER = frozenset({"first_person", "first_person_plural", "tried"})


@dataclass(frozen=True, slots=True)
class Line:
    file: str
    text: str
    real: bool
    kinds: tuple[str, ...]


def kinds_of(reading: ConversationReading, picked: Picked) -> tuple[str, ...]:
    """The line's kinds (see the module's docstring), from the reading that drafted it."""
    s = reading.sentences[picked.sentence]
    path = "told" if picked.words is not None else ("suggested" if picked.suggested else "scored")
    if picked.follow is None:
        answer = "own"
    else:
        follow = reading.sentences[picked.follow]
        answer = "next" if follow.message == s.message else ("own-reply" if follow.author == s.author else "reply")
    doer = bool(s.features & DOER) or bool(STARTS_WITH_ACTION.match(s.text.strip()))
    return (
        f"path={path}",
        f"answer={answer}",
        f"tried={'tried' in s.features}",
        f"doer={doer}",
        f"opening={s.message == 0}",
    )


def drafted_with_readings(
    data: list[tuple[dict[str, Any], dict]], models: SentenceModel
) -> Iterator[tuple[dict[str, Any], Drafted, ConversationReading | None]]:
    """Each thread of `data` drafted by the offline drafter, with the conversation reading the drafter made (caught as
    it reads; None when it read none)."""
    caught: list[ConversationReading] = []
    read = chat.read_conversation

    def keep(messages: Any) -> ConversationReading:
        caught.append(read(messages))
        return caught[-1]

    chat.read_conversation = keep
    try:
        for label, conversation in data:
            caught.clear()
            drafted = draft(conversation, models)
            yield label, drafted, caught[-1] if caught else None
    finally:
        chat.read_conversation = read


def lines(data: list[tuple[dict[str, Any], dict]]) -> list[Line]:
    """Every drafted attempt line of `data` with its kinds (the drafter's reading caught as it reads)."""
    out = []
    for label, drafted, reading in drafted_with_readings(data, shipped_models()):
        if not drafted.attempts:
            continue
        if reading is None or len(reading.attempts) != len(drafted.attempts):
            picked = len(reading.attempts) if reading else 0
            raise SystemExit(f"{label['file']}: {len(drafted.attempts)} lines, {picked} picked")
        real = labelled_attempts(label)
        for picked, text in zip(reading.attempts, drafted.attempts, strict=True):
            out.append(Line(label["file"], text, attempt_is_real(text, real), kinds_of(reading, picked)))
    return out


def table(found: list[Line]) -> list[tuple[str, int, int]]:
    """(kind, real, wrong) for every kind any line has, sorted by kind."""
    counts: Counter[tuple[str, bool]] = Counter((kind, line.real) for line in found for kind in line.kinds)
    return [(kind, counts[kind, True], counts[kind, False]) for kind in sorted({k for k, _ in counts})]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", action="store_true", help="every line with its kinds (fold A, dev only)")
    args = parser.parse_args(argv)
    found = lines(conversations("A"))
    real = sum(line.real for line in found)
    print(f"dev fold A: {len(found)} drafted lines, {real} real, {len(found) - real} wrong")
    print(f"{'kind':24} {'real':>5} {'wrong':>5}")
    for kind, right, wrong in table(found):
        print(f"{kind:24} {right:5} {wrong:5}")
    if args.lines:
        for line in found:
            print(f"{'real ' if line.real else 'WRONG'} {line.file} {' '.join(line.kinds)}\n      {line.text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
