"""Every reader of members' text reads a capped amount, in work linear in it: the crafted inputs
of issue 25, through the readers' public entry points (the "is it over?" check, the drafter,
the guard; the importer's `parse_file` and format readers: tests/test_reader_limits_import.py).

Work is counted, never timed: the characters each reader hands to its regular expressions (and
the guard to its tokeniser). A reader that rescans the rest of a message at every match hands
over ~n²; a linear one a small multiple of n. Backtracking inside one pattern is not visible to
that count, so the patterns the crafted inputs broke are also checked for its shape: no
unbounded repeat followed by more pattern. (Times, on this machine: docs/BENCHMARKS.md.)
"""

from __future__ import annotations

import pkgutil
import re
import re._constants as sre
import re._parser as sre_parse
from datetime import UTC, datetime, timedelta
from importlib import import_module
from types import ModuleType
from typing import Any

import pytest

import bot.drafting.rules as rules
import bot.investigation.prompt as prompt
import bot.investigation.text as guard_text
import bot.reader.chat as chat
import bot.reader.conversation as conversation
import bot.reader.conversation_features as conversation_features
import bot.reader.cues as cues
import bot.reader.over as phrases
import bot.reader.sentences as reader_sentences
from bot.drafting.rules import OfflineDrafter
from bot.fence import fence
from bot.investigation.anthropic_investigator import AnthropicInvestigator
from bot.investigation.guard import guard
from bot.investigation.models import ModelAnswer, NowStatement
from bot.models import Incident, TimelineEntry
from bot.reader.over import says_it_is_over
from bot.text_limits import DRAFT_CHARS, MESSAGE_CHARS, ReadLimits
from tests.fakes.anthropic_api import FakeMessagesAPI, ToolAnswer

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CRAFTED_OVER = "not resolved " * 3077  # 40,001 characters, a "resolved" every 13


class Counted:
    """A compiled pattern that adds up the characters it is asked to read."""

    def __init__(self, pattern: re.Pattern[str], tally: list[int]) -> None:
        self._pattern, self._tally = pattern, tally

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._pattern, name)
        if not callable(method):
            return method

        def counted(string: str, *args: Any, **kwargs: Any) -> Any:
            if isinstance(string, str) and name in ("search", "match", "fullmatch", "finditer", "findall", "split"):
                self._tally[0] += len(string)
            elif name in ("sub", "subn") and len(args) >= 1 and isinstance(args[0], str):
                self._tally[0] += len(args[0])
            return method(string, *args, **kwargs)

        return counted


def count_patterns(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> list[int]:
    tally = [0]
    for module in modules:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, name, Counted(value, tally))
    return tally


def unbounded_then_more(pattern: re.Pattern[str]) -> list[str]:
    """Unbounded repeats followed by more pattern, or nested in another: the shapes that make a
    search backtrack over the rest of the text from each place it starts."""
    found: list[str] = []

    def children(op: Any, av: Any) -> list[Any]:
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            return [av[2]]
        if op is sre.SUBPATTERN:
            return [av[3]]
        if op is sre.BRANCH:
            return list(av[1])
        return []

    def unbounded(op: Any, av: Any) -> bool:
        return op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[1] == sre.MAXREPEAT

    def walk(items: Any, at_end: bool, inside_repeat: bool) -> None:
        items = list(items)
        for i, (op, av) in enumerate(items):
            more = any(o is not sre.AT for o, _ in items[i + 1 :]) or not at_end
            if unbounded(op, av) and (more or inside_repeat):
                found.append(str(av[2])[:80])
            for child in children(op, av):
                walk(child, not more, inside_repeat or unbounded(op, av))

    walk(sre_parse.parse(pattern.pattern, pattern.flags), True, False)
    return found


def entry(text: str, minute: int = 0) -> TimelineEntry:
    return TimelineEntry(
        author="maya", text=text, at=T0 + timedelta(minutes=minute), message_ts=f"1772442{minute:03d}.1"
    )


# --- the "is it over?" check ---------------------------------------------------------------------


def test_the_is_it_over_check_reads_a_crafted_message_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = count_patterns(monkeypatch, phrases)
    assert says_it_is_over(CRAFTED_OVER) is False  # every "resolved" is negated
    once = tally[0]
    assert once  # the check's patterns were counted
    # each of the 3,077 matches looks back a few words (≤ 120 characters), not over the whole
    # message as it did (~n²/26: 60 million characters here)
    assert once <= 12 * len(CRAFTED_OVER)
    tally[0] = 0
    assert says_it_is_over(CRAFTED_OVER * 2, max_chars=2 * len(CRAFTED_OVER)) is False
    assert tally[0] <= 2.1 * once  # twice the message, twice the work
    assert says_it_is_over("errors at zero, not resolved was wrong. Resolved!") is True
    assert says_it_is_over("\n" * 30_000 + "all clear") is True


def test_the_is_it_over_check_reads_no_further_than_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = count_patterns(monkeypatch, phrases)
    late = "x " * MESSAGE_CHARS + "all clear"
    assert says_it_is_over(late) is False  # past the cap: not read
    assert tally[0] <= 6 * MESSAGE_CHARS
    assert says_it_is_over(late, max_chars=len(late)) is True


@pytest.mark.parametrize(
    ("said", "over"),
    [
        ("all clear, errors at zero", True),
        ("Resolved!", True),
        ("is it resolved?", False),
        ("not resolved yet", False),
        ("isn't fully resolved", False),
        ("we'll say all clear once the queue drains", False),
        ("we are going to say all clear soon", False),
        ("latency back to normal now", True),
    ],
)
def test_the_is_it_over_check_still_reads_what_people_say(said: str, over: bool) -> None:
    assert says_it_is_over(said) is over


# --- the offline drafter -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "crafted",
    [
        "restarted payments pods" + " " * 8000 + "errors still back",  # the split's leading \s*
        "restarted the pods, for 5 min " * 4000 + "still failing",  # `.*\bthen` from every "for 5 min"
        "bumped the pool, still timing out. " * 1100,
    ],
)
def test_the_drafter_reads_crafted_messages_in_linear_work(monkeypatch: pytest.MonkeyPatch, crafted: str) -> None:
    tally = count_patterns(monkeypatch, rules, chat)
    draft = OfflineDrafter().answer([entry(crafted[:MESSAGE_CHARS])], [])
    assert draft.drafter == "offline"
    # a fixed number of patterns, each over each sentence once or twice
    assert tally[0] <= 40 * min(len(crafted), MESSAGE_CHARS)


def test_the_drafter_scores_each_distinct_sentence_once(monkeypatch: pytest.MonkeyPatch) -> None:
    scored: list[int] = []
    real_probability = reader_sentences.Head.probability

    def counting(head: reader_sentences.Head, features: Any) -> float:
        scored.append(1)
        return real_probability(head, features)

    monkeypatch.setattr(reader_sentences.Head, "probability", counting)
    crafted = ("- x\n" * 10_000)[:MESSAGE_CHARS]  # 10,000 lines, 5,000 sentences (the reading's cap)
    draft = OfflineDrafter().answer([entry("restarted the pool, still timing out"), entry(crafted, 1)], [])
    assert draft.drafter == "offline"
    # 3 kinds for each distinct (features, text) of a sentence, not 3 × 5,000
    assert len(scored) <= 3 * 20


def test_the_drafter_finds_each_suggestions_reply_without_searching_the_thread_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """40 messages of 100 suggestions, each answered "still doesnt work" by someone else (2,000
    sentences, the reader's cap): where each reply begins is found once for the thread, not by a
    search from every suggestion (2 million sentence comparisons, 0.9 s, before)."""
    compared: list[int] = []
    real_eq = conversation_features.Sentence.__eq__

    def counting(a: Any, b: Any) -> Any:
        compared.append(1)
        return real_eq(a, b)

    monkeypatch.setattr(conversation_features.Sentence, "__eq__", counting)
    asked = " ".join(["Could you try restarting the pods?"] * 100)
    thread = [(asked, "still doesnt work")[k % 2] for k in range(40)]
    messages = [conversation_features.Message(("u1", "u2")[k % 2], text) for k, text in enumerate(thread)]
    reading = conversation.read_conversation(messages)
    assert len(reading.sentences) == 2_000
    assert reading.attempts and all(reading.sentences[a.follow].text == "still doesnt work" for a in reading.attempts)
    assert len(compared) <= len(reading.sentences)


@pytest.mark.parametrize(
    "flood",
    [
        [("- x\n" * 10_000)[:MESSAGE_CHARS]],  # 10,000 lines in one message: past each message's 100
        ["- x\n" * 100] * 100,  # 10,000 lines in 100 messages: past the reader's 2,000 sentences
        [f"latency graph {i} shows retries" for i in range(600)],  # past the draft's 500 messages
    ],
    ids=["one-flood", "many-sentences", "many-messages"],
)
def test_one_members_flood_or_many_messages_do_not_push_the_fix_others_said_out_of_the_draft(
    flood: list[str],
) -> None:
    said = [
        ("ana", "Checkout requests time out since the deploy"),
        ("ben", "the fix was rolling back the pool change"),
        ("ana", "confirmed, errors at zero"),
    ] + [("eve", text) for text in flood]
    channel = [
        TimelineEntry(author=a, text=t, at=T0 + timedelta(minutes=i), message_ts=f"1772{i:06d}.1")
        for i, (a, t) in enumerate(said)
    ]
    draft = OfflineDrafter().answer(channel, [])
    assert draft.resolution is not None and "Rolling back the pool change" in draft.resolution.text
    assert draft.resolution.quotes[0].author == "ben"


def test_the_patterns_the_crafted_messages_broke_cannot_backtrack_over_the_rest() -> None:
    assert unbounded_then_more(cues.CHAT_SPLIT) == []
    assert unbounded_then_more(cues.CHAT_FAILED) == []
    assert unbounded_then_more(phrases._SENTENCE_END) == []


# every module of the reader, found rather than listed: a module split off or added later (narrative_timeline,
# metadata_kind) is checked without anyone remembering to name it here
READER_MODULES = sorted(m.name for m in pkgutil.iter_modules(import_module("bot.reader").__path__))
# and the other modules whose patterns read a member's text: a postmortem's timeline lines, the model's
# statements the guard reads for claims, every message and memory the tokeniser splits into terms
MEMBERS_TEXT_MODULES = [f"bot.reader.{name}" for name in READER_MODULES]
MEMBERS_TEXT_MODULES += ["bot.importer.timeline", "bot.investigation.claims", "bot.recall.tokens"]
MEMBERS_TEXT_MODULES += ["bot.importer.dates", "bot.importer.metadata", "bot.importer.cause_fix"]


@pytest.mark.parametrize("name", MEMBERS_TEXT_MODULES)
def test_no_cue_of_the_reader_can_backtrack_over_a_members_text(name: str) -> None:
    module = import_module(name)
    # every message and postmortem sentence is read with them; a module whose patterns all pass also
    # checks the pattern added to it later (WHY_SPLIT's open split point took 0.6 s on "x" + 4,000
    # spaces + "y", growing with the square). The bounds fit every word and gap of fold A's reports.
    flagged = {
        name: repeats
        for name, pattern in vars(module).items()
        if isinstance(pattern, re.Pattern) and (repeats := unbounded_then_more(pattern))
    }
    assert flagged == {}


def test_the_drafter_reads_the_newest_messages_within_its_caps() -> None:
    channel = [entry(("restarted the pods, still timing out " * 1100)[:MESSAGE_CHARS], i) for i in range(10)]
    channel += [entry(f"message {i}: latency graph shows retries", 10 + i) for i in range(600)]
    draft = OfflineDrafter(ReadLimits(draft_messages=500)).answer(channel, [])
    assert any("110 older messages were not read" in note for note in draft.notes), draft.notes
    # the crafted long messages were the oldest: none of them is quoted
    assert all(q.message_ts >= "1772442010" for f in draft.text_fields().values() for q in f.quotes)

    long_channel = [entry("x" * MESSAGE_CHARS, i) for i in range(20)]
    capped = OfflineDrafter().answer(long_channel, [])
    kept = DRAFT_CHARS // MESSAGE_CHARS
    assert any(f"{20 - kept} older messages were not read" in n for n in capped.notes), capped.notes


# --- the guard -----------------------------------------------------------------------------------


def count_tokenised(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters the guard hands to its tokeniser, added up."""
    tokenised = [0]
    real = guard_text.tokenize

    def counting(text: str | None) -> list[str]:
        tokenised[0] += len(text or "")
        return real(text)

    monkeypatch.setattr(guard_text, "tokenize", counting)
    return tokenised


def test_the_guard_tokenises_the_timeline_once_not_per_statement(monkeypatch: pytest.MonkeyPatch) -> None:
    tokenised = count_tokenised(monkeypatch)
    words = "connection refused upstream payments gateway timeout retries queue backlog "
    timeline = [entry((f"m{i} " + words * 60)[:4000], i) for i in range(20)]
    corpus = sum(len(e.text) for e in timeline)
    # five statements nothing in the channel says: each once looked through every message again
    statements = [NowStatement(statement=f"the kafka broker {i} ran out of disk on node{i}") for i in range(5)]
    result = guard(ModelAnswer(happening_now=statements), Incident(title="Payments timeouts"), timeline, [])
    assert len(result.findings.hypotheses) == 5  # all moved: unsupported
    assert tokenised[0] <= 2 * corpus + 10_000  # was ≥ 6 × the corpus


async def test_the_guard_reads_only_the_messages_the_prompt_showed(
    model_api: FakeMessagesAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokenised = count_tokenised(monkeypatch)
    filler = ("latency graph shows retries on the gateway " * 100)[:4000]
    timeline = [entry("kafka broker disk full on node7", 0)]
    timeline += [entry(f"m{i} {filler}", i) for i in range(1, 40)]
    timeline += [entry("payments-api returns 503 since 11:55", 40)]  # T41, the newest
    statements = [
        {"statement": "payments-api returns 503 since 11:55", "evidence": ["T41"]},
        {"statement": "kafka broker disk is full on node7", "evidence": ["T1"]},  # never shown to the model
    ]
    model_api.script(ToolAnswer({"happening_now": statements}))
    investigator = AnthropicInvestigator(
        api_key="k", base_url=model_api.base_url, prompt_budget_chars=20_000, guard_model=None
    )
    try:
        result = await investigator.investigate(Incident(title="Payments 503s"), timeline, [], channel_is_private=False)
    finally:
        await investigator.aclose()
    assert "kafka broker" not in model_api.requests[0].body["messages"][0]["content"]
    # the newest message keeps its number; the oldest, left out of the prompt, is no evidence
    assert [(s.statement, s.evidence) for s in result.happening_now] == [(statements[0]["statement"], ["T41"])]
    assert [h.statement for h in result.hypotheses] == [statements[1]["statement"]]
    assert tokenised[0] <= 25_000  # the prompt's budget, not the channel's 160,000 characters


def test_the_prompt_renders_only_the_messages_that_could_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    fenced = [0]

    def counting(value: object) -> str:
        fenced[0] += len(str(value or ""))
        return fence(value)

    monkeypatch.setitem(prompt._env.filters, "data", counting)
    channel = [entry(("restarted the pods, still timing out " * 1100)[:MESSAGE_CHARS], i) for i in range(100)]
    rendered = prompt.render_prompt(Incident(title="Payments"), channel, [], now=T0, tool_name="record")
    assert rendered.omitted_timeline == 99 and "T100" in rendered.text and "[T99]" not in rendered.text
    # each try of the trimming renders what could fit (~60k), not the channel's 4 million characters
    assert fenced[0] <= 20 * prompt.DEFAULT_BUDGET_CHARS


def test_the_tokeniser_reads_each_distinct_word_of_a_message_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.recall.tokens as tokens

    read: list[str] = []
    real = tokens._word_terms

    def counting(raw: str) -> tuple[tuple[str, str], ...]:
        read.append(raw)
        return real(raw)

    monkeypatch.setattr(tokens, "_word_terms", counting)
    crafted = "root cause was getUserId ORA-00060 502s " * 1000  # 40,000 characters, six words
    terms = tokens.tokenize(crafted)
    assert sorted(read) == sorted({"root", "cause", "was", "getUserId", "ORA-00060", "502s"})
    # the same terms, in the same order, as reading the words one by one
    assert terms == tokens.tokenize("root cause was getUserId ORA-00060 502s") * 1000
    assert terms[:8] == ["root", "caus", "getuserid", "get", "user", "id", "ora-00060", "502"]
