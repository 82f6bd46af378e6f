"""Failed attempts told in a blog post's prose (issue 23): how people who write no timeline say a
step did not work ("The situation didn't change", "we got the same error as before", "the stated
fix … did not work"), and what is no step at all however it is worded (a message in quotation
marks, a list of what could be done in future)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.reader.narrative import attempts_in, failed_in_prose


def test_the_situation_not_changing_after_a_step_tells_the_step_did_not_work() -> None:
    [attempt] = failed_in_prose("I restarted both mysql and the app services. The situation didn't change.")
    assert attempt == {
        "action": "I restarted both mysql and the app services",
        "why_it_failed": "The situation didn't change",
    }
    # said of no step, the situation not changing is only a state
    assert not failed_in_prose("We watched the queue for an hour. The situation didn't change much overnight either.")


def test_the_same_error_met_again_after_a_step_is_its_outcome() -> None:
    [attempt] = failed_in_prose("We reverted the binary to v0.9.18 and got the same error as before.")
    assert attempt == {
        "action": "We reverted the binary to v0.9.18 and got the same error as before",
        "why_it_failed": "",
    }
    [attempt] = failed_in_prose(
        "I removed every data stream. But as filebeat was running, we ran into the same problem again."
    )
    assert attempt["action"] == "I removed every data stream"
    # a colleague meeting the same issue is a report, not an outcome ("as before" or "again" is needed)
    assert not failed_in_prose(
        "We redeployed the journal. Peter confirms that he is seeing the same issue with logins."
    )


def test_a_step_named_as_the_subject_of_did_not_work_is_a_failed_attempt_whoever_took_it() -> None:
    [attempt] = failed_in_prose(
        "The stated fix of simply deleting the addrbook.json and restarting the validator did not work."
    )
    assert attempt["action"].startswith("The stated fix of simply deleting the addrbook.json")
    # features that "did not work" are the symptom, not a step
    assert not failed_in_prose("Features such as bulk offer editing did not work at all for two hours.")


def test_an_aside_in_parentheses_is_neither_a_clause_of_its_own_nor_the_critique_of_the_step() -> None:
    # ", so" inside the aside does not cut the step from the sentence that says it failed
    [attempt] = attempts_in(
        "I removed all data streams (we don't use logs much, so it was quick). "
        "But as filebeat was still running, a new stream was created and we had the same problem again."
    )
    assert attempt["action"] == "I removed all data streams (we don't use logs much, so it was quick)"
    assert attempt["why_it_failed"].startswith("But as filebeat was still running")
    # "we should have …" inside an aside is no critique of the step told before it
    [attempt] = attempts_in(
        "@ops attempts to stop one of the nodes; instead the node winds up terminated "
        "(not sure what happened; we should have been more careful to delete the pods first)."
    )
    assert attempt["action"] == "@ops attempts to stop one of the nodes"


def test_a_message_in_quotation_marks_is_what_something_said_not_a_step() -> None:
    said = 'I checked the service status again, and it had a new message: "Server upgrade failed, timeout due to lock".'
    assert not attempts_in(said)
    # the step outside the quotation marks still counts
    [attempt] = attempts_in('We restarted mysql again, but it still failed with "timeout due to lock".')
    assert attempt["action"].startswith("We restarted mysql again")


POSTMORTEM = """# Images broken on the home page

## What happened?

At 10:02 the image service returned errors for every request. We rolled back the last deploy, but the
errors continued. At 10:40 we switched the CDN to the old image service and images came back.

## What could be done to avoid this in future?

- The image vendor going fully multi-region.
- Improving the CDN tools to mitigate the issue where a deployment contains changes it shouldn't.
- Have a healthcheck on the image service which fails when new transformations are not working.
- Catch all errors from the vendor and ensure we do not cache them for a long period of time.
- Simplify the purging process for the image service.
"""


def test_what_could_be_done_to_avoid_it_in_future_is_a_list_of_follow_ups_never_attempts() -> None:
    draft = parse_markdown(POSTMORTEM, team_id="T", incident_id="pm-images")
    assert [a.action for a in draft.failed_attempts] == ["We rolled back the last deploy"]
