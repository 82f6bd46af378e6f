"""A resolution section the fix head reads no step in (follow-ups, the structural fix made later) while the story
tells the step that restored service: the imported fix keeps the section's text and adds that step after it; a
section whose step the head reads is stored alone (issue 23, r23-pmfix). What an importing team would see: the fix
names what was done, not only what will be done."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.importer.markdown import parse_markdown
from bot.reader.sentences import Head, SentenceModel, use_model


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2024-05-02-deploy.md")


@pytest.fixture
def reads_reverting_as_the_step() -> Iterator[None]:
    """A model whose fix head is sure of a sentence that says something was reverted, and of nothing else."""
    heads = {"cause": Head(-10.0, {}, threshold=0.6, keep=2), "fix": Head(-10.0, {"w:revert": 20.0}, 0.9, 2)}
    use_model(SentenceModel(heads))
    try:
        yield
    finally:
        use_model(None)


STORY = (
    "# API errors after the 2.3 deploy\n\n## Summary\n\nAt 10:02 the 2.3 deploy made every API call fail. "
    "We reverted the deploy at 10:20 and the errors stopped.\n\n"
)


def test_the_step_the_story_tells_follows_a_resolution_section_that_names_none(reads_reverting_as_the_step) -> None:
    draft = imported(STORY + "## Mitigations\n\n- Changes to the API gateway get a canary stage first.\n")
    assert draft.resolution is not None
    assert draft.resolution.startswith("- Changes to the API gateway get a canary stage first.")
    assert "We reverted the deploy at 10:20" in draft.resolution


def test_a_resolution_section_whose_step_the_head_reads_is_stored_alone(reads_reverting_as_the_step) -> None:
    story = STORY.replace("We reverted the deploy", "Engineers reverted the load balancer rules as a precaution, then")
    draft = imported(story + "## Resolution\n\nWe reverted the deploy at 10:20 and the errors stopped.\n")
    assert draft.resolution == "We reverted the deploy at 10:20 and the errors stopped."
