"""The request verbs ("contact us", "reach out to support", "get in touch with the helpdesk", "e-mail us") are one list
(bot/reader/cues_fix.py REACH_US_VERBS, EMAIL_US), read by the fix's asked-of-reader rule and by the where-to-ask lines
of the metadata shapes (review F59's leftover: they were written in both patterns). Written once, both compiled
patterns match exactly what they matched when each wrote its own: shown here on every sentence of the corpus (the
judges' documents left out, as every reader of eval/ does), with the former spellings put back in the patterns."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.reader.cues_fix import EMAIL_US, FIX_ASKED_OF_READER, REACH_US, REACH_US_WHOM
from bot.reader.cues_metadata_shape import TALK_ONLY
from bot.reader.text import LINE_SENTENCE_BREAK, SENTENCE_BREAK

ROOT = Path(__file__).parent.parent
EVAL = ROOT / "eval"

# (the pattern, [(its text built from the one list, how the pattern spelled it before)])
FORMER = {
    "FIX_ASKED_OF_READER": (
        FIX_ASKED_OF_READER,
        [(f"let us know|{REACH_US}|{EMAIL_US}|", "let us know|contact|get in touch|reach out|e-?mail|")],
    ),
    "TALK_ONLY": (
        TALK_ONLY,
        [
            (f" to {REACH_US}|please ", " to (?:contact|reach out|get in touch)|please "),
            (
                f"(?:{REACH_US_WHOM}|report|{EMAIL_US}|watch|",
                "(?:contact|report|email|e-mail|reach out to|get in touch with|watch|",
            ),
        ],
    ),
}


def _former(pattern: re.Pattern[str], spellings: list[tuple[str, str]]) -> re.Pattern[str]:
    source = pattern.pattern
    for now, before in spellings:
        assert source.count(now) == 1, now  # the list's text is where the former spelling was, once
        source = source.replace(now, before)
    return re.compile(source, pattern.flags)


def _held_out() -> set[str]:
    names = set()
    for listed in (ROOT / "bench" / "held_out.tsv", ROOT / "bench" / "held_out_postmortems.tsv"):
        for line in listed.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#") and "\t" in line:
                names.add(line.split("\t")[1].strip())
    return names


def _sentences() -> Iterator[str]:
    """Every line of the corpus's postmortems and conversation messages, and each of their sentences, as the
    readers hand them to these patterns (a line, or a sentence of one)."""
    held = _held_out()
    texts = [p.read_text(encoding="utf-8") for p in sorted((EVAL / "postmortems").glob("*.md")) if p.name not in held]
    for path in sorted((EVAL / "conversations").glob("*.json")):
        if path.name not in held:
            texts += [m["text"] for m in json.loads(path.read_text(encoding="utf-8"))["messages"]]
    for text in texts:
        for line in SENTENCE_BREAK.split(text):
            line = line.strip()
            if line:
                yield line
                yield from (s for s in LINE_SENTENCE_BREAK.split(line)[1:] if s.strip())


@pytest.mark.parametrize("name", sorted(FORMER))
def test_the_request_verbs_written_once_match_what_each_pattern_matched(name: str) -> None:
    pattern, spellings = FORMER[name]
    before = _former(pattern, spellings)
    assert before.pattern != pattern.pattern
    matched = asked = 0
    for sentence in _sentences():
        now, then = pattern.match(sentence), before.match(sentence)
        assert (now and now.span()) == (then and then.span()), sentence[:200]
        matched += now is not None
        asked += now is not None and re.search(r"contact|get in touch|reach out|e-?mail", sentence, re.I) is not None
    assert matched and asked  # the corpus asks its readers to reach the team: the verbs were read, not skipped
