"""The offline drafter on a cause told without a cause word (issue 23, r23-convcause): a reply that opens with a
doubt and says what is wrong ("Looks like …", "It seems that …") and what broke, told in the past by the one who
fixed it, are offered as hypotheses (out of sample these are right less often than the field's other causes:
docs/BENCHMARKS.md); a doubt that names no fault (the service back, the trouble still there) is no cause. Measured
on real conversations by bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from bot.drafting.rules import HYPOTHESIS
from bot.reader.conversation import shipped_models
from bot.reader.conversation_features import Message, sentences
from tests.test_drafting_conversations import draft


@pytest.mark.parametrize(
    ("said", "cause"),
    [
        ("Looks like the nightly job has been keeping every snapshot on the data volume.", "keeping every snapshot"),
        ("Sorry about that, it seems that the webhook secret was rotated without telling the bot.", "webhook secret"),
    ],
)
def test_a_reply_opening_with_a_doubt_names_the_cause_as_a_hypothesis(said: str, cause: str) -> None:
    result = draft(
        ("ana", "The mirror stopped syncing yesterday"),
        ("ben", said),
        ("ben", "I cleaned it up and started a sync by hand."),
    )
    assert result.root_cause is not None and cause in result.root_cause.text
    assert result.root_cause.text.startswith(HYPOTHESIS)


@pytest.mark.parametrize(
    "said",
    [
        "Seems like it has resolved itself after a few hours of brokenness.",
        "Looks like it is still failing for the arm builds.",
        "Looks like the renewal I attempted didn't work, fix in progress.",
        "Seems good!",
    ],
)
def test_a_doubt_that_names_no_fault_is_no_cause(said: str) -> None:
    result = draft(("ana", "The mirror stopped syncing yesterday"), ("ben", said), ("ana", "ok"))
    assert result.root_cause is None


@pytest.mark.parametrize(
    ("said", "cause"),
    [
        ("The storage volume filled with build logs overnight.", "filled with build logs"),
        # a verb of the `broke_past` cue group that `broken_state`, the cause head's gate, does not hold
        ("The proxy lost its routing rules on the last reboot.", "lost its routing rules"),
    ],
)
def test_what_broke_told_by_the_one_who_fixed_it_is_offered_as_a_hypothesis(said: str, cause: str) -> None:
    result = draft(
        ("ana", "The docs site answers 404 on every page"),
        ("ben", "I redeployed the site from the last good build."),
        ("ben", said),
        ("ana", "Works now, thanks"),
    )
    assert result.root_cause is not None and cause in result.root_cause.text
    assert result.root_cause.text.startswith(HYPOTHESIS)
    assert result.root_cause.quotes[0].author == "ben"


def test_what_broke_is_read_by_the_fallback_alone_never_weighed_by_a_head() -> None:
    # the heads score a sentence's features and bench/fit_reader.py fits on them: weighed, `broke_past` would draft
    # wrong causes (docs/BENCHMARKS.md, r23-broke's section); the fallback above reads it from the text
    said = sentences(
        [Message("ana", "The site is down"), Message("ben", "db6 crashed."), Message("ben", "Restarted it")]
    )
    assert said[1].text == "db6 crashed." and "by_fixer" in said[1].features
    assert not any("broke_past" in s.features for s in said)
    assert not any("broke_past" in head.weights for head in shipped_models().heads.values())


@pytest.mark.parametrize("said", ["The page crashed for me as well.", "I lost a few hours to this one too."])
def test_a_part_that_broke_said_by_someone_who_did_nothing_is_not_taken_as_the_cause(said: str) -> None:
    # the reporter's "crashed" is the symptom seen, not the fault a fixer pinned down
    result = draft(
        ("ana", "The docs site answers 404 on every page"),
        ("cleo", said),
        ("ana", "ok"),
    )
    assert result.root_cause is None
