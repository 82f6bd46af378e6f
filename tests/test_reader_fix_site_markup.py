"""A status site's markup is not its writer's words (issue 23, r23-fix): cState wraps each update in
"::: update Resolved | <time>" … ":::" and Hugo marks an update's time with `{{< track "<time>" >}}`. Left
glued to the next sentence, it hid a state line ("This incident has been resolved.") from the check that it
names no step, and the state line was stored as the fix. What an importing team sees: the step, or nothing."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.reader.fix import names_no_step, without_non_fixes


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2020-11-13_search-outage.md")


def cstate(*updates: tuple[str, str]) -> str:
    """A cState incident file: front matter, what users saw, then each update in its fenced block."""
    blocks = "\n\n".join(
        f"::: update {state} | 2020-11-14T16:0{i}:32-08:00\n{text}\n:::" for i, (state, text) in enumerate(updates)
    )
    return f"---\ntitle: Search Outage\ndate: '2020-11-13T10:42:00.000Z'\nresolved: true\n---\nOur quick search is currently unavailable.\n\n{blocks}\n"


def test_a_resolved_update_that_only_says_so_is_never_the_stored_fix() -> None:
    draft = imported(cstate(("Resolved", "This incident has been resolved.")))
    assert draft.resolution is None


def test_the_step_a_resolved_update_tells_is_kept_and_the_state_after_it_dropped() -> None:
    draft = imported(cstate(("Resolved", "We have approved the rejected payment.\nThis incident has been resolved.")))
    assert draft.resolution is not None and "approved the rejected payment" in draft.resolution
    assert "has been resolved" not in draft.resolution


def test_a_tracked_update_is_a_sentence_of_its_own() -> None:
    fix = (
        'We are trying to resolve it. {{< track "2025-05-27 11:47:00" >}} The cache was invalidated. {{< track "x" >}}'
    )
    assert without_non_fixes(fix) == '{{< track "2025-05-27 11:47:00" >}} The cache was invalidated.'


def test_markup_alone_names_no_step_and_a_step_after_a_header_is_one() -> None:
    assert names_no_step(":::")
    assert names_no_step("::: update Resolved | 2021-05-25T20:47:20.389Z")
    assert names_no_step("::: update Resolved | 2020-11-14T16:09:32-08:00 This incident has been resolved. :::")
    assert not names_no_step("::: update Resolved | 2020-08-10T19:20:00.000Z We rolled back the release.")


def test_the_stored_fix_and_cause_hold_no_update_header_nor_its_time() -> None:
    # r23-meta, 2026-12-06: a Statusfy archive (the devset's Bithell Studios) stored "::: update Resolved |
    # 2020-12-29T14:52:00Z A bugfix has been pushed …": the update's state and time are metadata, never the fix
    draft = imported(
        cstate(
            ("Identified", "Cause has been traced to a minor bug in a software update"),
            ("Resolved", "A bugfix has been pushed to the live service"),
        )
    )
    for field in (draft.root_cause, draft.resolution):
        assert field is not None
        assert ":::" not in field and "update" not in field.split()[0].lower() and "2020-11-14T" not in field
    assert "bugfix has been pushed to the live service" in draft.resolution
    assert "minor bug in a software update" in draft.root_cause
