"""bench/attempts_pm_on_threads.py: fold A's conversations read by the postmortem importer, a proxy for writing its
attempt rules were not read from (issue 23, r23-pmatt). The renderings must reach the importer's attempt paths, the
held-out judge must stay out of the halves, and a before/after comparison must count what moved."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.attempts_pm_on_threads import against, by_kind, held_out, main, missed, render, truths
from bot.importer.markdown import parse_markdown

THREAD = {
    "id": "example-1",
    "messages": [
        {"ts": "2024-03-02T14:00:00Z", "author": "u1", "text": "The API returns 502 for every request."},
        {"ts": "2024-03-02T14:05:00Z", "author": "u2", "text": "I restarted the proxy pods."},
        {"ts": "2024-03-02T14:20:00Z", "author": "u1", "text": "Still failing, same 502."},
        {"ts": "2024-03-02T14:40:00Z", "author": "u2", "text": "We rolled back the release and service is restored."},
    ],
}
QUIET = {
    "id": "example-2",
    "messages": [
        {"ts": "2024-03-02", "author": "u1", "text": "The docs site shows a blank page."},
        {"ts": "2024-03-02", "author": "u2", "text": "Thanks, the certificate was renewed and it loads now."},
    ],
}


def stored(thread: dict, how: str) -> list[tuple[str, str]]:
    draft = parse_markdown(render(thread, how), team_id="T", incident_id=thread["id"], name=thread["id"])
    return [(a.action, a.why_it_failed) for a in draft.failed_attempts]


def test_a_step_and_the_reply_that_it_still_fails_reach_the_importers_attempts_in_both_renderings() -> None:
    assert render(THREAD, "timeline").splitlines()[2:4] == ["## Timeline", ""]
    assert "- 14:05 I restarted the proxy pods." in render(THREAD, "timeline")
    assert stored(THREAD, "timeline") == [("I restarted the proxy pods", "Still failing, same 502")]
    assert [a for a, _ in stored(THREAD, "prose")] == ["I restarted the proxy pods"]
    assert stored(QUIET, "timeline") == [] and stored(QUIET, "prose") == []


def test_the_rendered_postmortem_is_titled_in_the_organisations_words_never_the_collectors_file_name() -> None:
    """A rule that reads the incident's title must read what the thread's author wrote (an issue's title is its
    opening message's first line), not the file name, whose slug the collector wrote and which may name the fix."""
    thread = {
        "id": "example-3-checkout-502-fixed-by-rollback",
        "messages": [
            {
                "ts": "2024-03-02T14:00:00Z",
                "author": "u1",
                "text": "Checkout returns 502\nSince 14:00 every request fails.",
            },
            {"ts": "2024-03-02T14:05:00Z", "author": "u2", "text": "I restarted the proxy pods, still 502."},
        ],
    }
    for how in ("timeline", "prose"):
        text = render(thread, how)
        assert text.splitlines()[0] == "# Checkout returns 502"
        assert "rollback" not in text
        draft = parse_markdown(text, team_id="T", incident_id=thread["id"], name=thread["id"])
        assert draft.title == "Checkout returns 502"


def test_the_held_out_judge_stays_out_of_the_threads_the_halves_are_cut_from(tmp_path: Path) -> None:
    every = truths(set(), judged=False)
    held = {every[0].file, every[1].file}
    listing = tmp_path / "held.txt"
    listing.write_text("".join(f"A\t{f}\n" for f in held), encoding="utf-8")
    assert held_out(listing) == held
    kept = truths(held_out(listing), judged=False)
    assert len(kept) == len(every) - 2 and not held & {t.file for t in kept}
    assert {t.file for t in truths(held, judged=True)} == held
    assert all(t.fold == "A" for t in every)


def test_against_counts_the_lines_gone_and_added_per_half_and_the_organisations_wrong_lines_left() -> None:
    def row(half: str, org: str, real: bool, line: str) -> dict:
        return {"how": "timeline", "file": f"{org}.json", "org": org, "real": real, "half": half, "line": [line, ""]}

    before = [row("write", "a", False, "x"), row("write", "b", False, "y"), row("measure", "c", True, "z")]
    after = [row("measure", "c", True, "z"), row("measure", "d", False, "w")]
    moved = against(before, after)
    assert moved["write"] == {
        "real_gone": 0,
        "wrong_gone": 2,
        "real_added": 0,
        "wrong_added": 0,
        "wrong_gone_orgs": 2,
    }
    assert moved["measure"]["wrong_added"] == 1 and moved["measure"]["real_gone"] == 0
    kinds = by_kind([row("measure", "c", True, "We tried restarting it, which did not help")])
    assert kinds["measure"]["try:tried"] == [1, 0] and kinds["measure"]["outcome:help"] == [1, 0]


def test_a_held_out_list_naming_a_file_with_no_label_or_no_list_at_all_is_refused(tmp_path: Path) -> None:
    """Either would leave the held-out judge (c20) among the halves and move the halves (the measure half read)."""
    listing = tmp_path / "held.txt"
    listing.write_text(f"A\t{truths(set(), judged=False)[0].file}\nA\tno-such-thread.json\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no-such-thread.json"):
        held_out(listing)
    with pytest.raises(SystemExit):
        main([])


def test_missed_lists_a_labelled_attempt_no_rendering_stored_with_its_message_and_only_the_halfs_organisations() -> (
    None
):
    """Where a recall rule starts: the write half's labelled attempts stored by neither rendering, with the thread's
    messages that hold their phrases; an attempt one rendering stored, or an organisation outside the half, is not
    listed (the measure half's texts are never printed)."""
    every = truths(set(), judged=False)
    labelled = next(t for t in every if len(t.failed_attempts) >= 2)
    org = labelled.org or labelled.file
    first, second = labelled.failed_attempts[0], labelled.failed_attempts[1]
    lines = {"timeline": {labelled.file: [[" ".join(first), ""]]}, "prose": {}}
    listed = missed([labelled], lines, frozenset({org}))
    assert [(f, k) for f, k, _ in listed] == [(labelled.file, k) for k in labelled.failed_attempts[1:]]
    assert listed[0][1] == second and all(isinstance(m, str) for m in listed[0][2])
    assert missed([labelled], lines, frozenset({"another-organisation"})) == []
