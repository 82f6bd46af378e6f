"""What the readers are asked to do is no fix (issue 23, pmfix). A status page's update that tells users where to ask or
what to do ("Please open an issue on GitHub …", "If you are still experiencing any issues, please contact us.") names no
step the responders took. What an importing team sees: the stored fix is the step taken, or nothing, never the status
page's request to its readers; a step told beside the readers, or beside a check, stays."""

from __future__ import annotations

import pytest

from bot.reader import cues_fix
from bot.reader.fix import names_no_step
from tests.test_reader_fix_not_yet import imported, status_page
from tests.test_reading_limits import unbounded_then_more

ASKED = [
    "Please open an issue on [GitHub](https://github.com/example/builds/issues) for any further query about missing "
    "or unpublished builds.",
    "If you are still experiencing any issues, please contact us.",
    "If your project is among the remaining 2.5% of affected projects which have not yet been restored, you can email "
    "[support@example.com](mailto:support@example.com) with a link to it.",
    "If your account was affected, we are in the process of contacting you directly with information to reset your "
    "password and restore access to your account.",
    "**Update**: Please reboot your router to restore the connection.",
]


@pytest.mark.parametrize("update", ASKED)
def test_a_request_to_the_readers_names_no_step_and_is_never_the_stored_fix(update: str) -> None:
    assert names_no_step(update)
    draft = imported(status_page(update, "Builds pushed since this morning are not published."))
    assert draft.resolution is None  # an empty fix is honest; "please contact us" is no step to repeat


def test_the_step_taken_is_stored_without_the_request_after_it() -> None:
    draft = imported(
        status_page(
            "We restored the signing key from the offline backup and republished the builds. If you are still missing "
            "a build, please contact us.",
            "Builds pushed since this morning are not published.",
        )
    )
    assert "restored the signing key" in draft.resolution
    assert "please contact us" not in draft.resolution


@pytest.mark.parametrize(
    "sentence",
    [
        "Please note that we restarted the database to clear the stuck locks.",  # it tells, it does not ask
        "If you were affected, we restored your data from the nightly backup.",  # the step, told to those affected
        "We restarted the pods and confirmed that the service recovered.",  # the step, then the check
        "Upstream reports resolved through moving our hardware to another rack.",  # a provider's step, reported
    ],
)
def test_a_step_told_beside_the_readers_or_a_check_is_kept(sentence: str) -> None:
    assert not names_no_step(sentence)


def test_the_frame_reads_a_members_text_with_bounded_repeats_only() -> None:
    assert unbounded_then_more(cues_fix.FIX_ASKED_OF_READER) == []
