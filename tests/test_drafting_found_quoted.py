"""How it was found, in a channel, when a responder pastes the machine's words as evidence (issue 23, r23-convfound): a
code block holding an error line, in a message after the opening whose words name it as the log or say the cause it
bears out ("Here are the log entries that identified the problem: ```… Out of memory: Kill process …```"). Never a
block pasted as the symptom met ("I get the following error:"), one pasted to say the trouble goes on, a bare block
with no words, a block with no error line, nor the opening report's own paste. Small texts written by us: a behaviour
check, not a measure (bench/reading_eval_conversations.py is the measure; docs/BENCHMARKS.md, issue 23, r23-convfound)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft

REPORT = ("ana", "The upload job fails every night since Tuesday")
KERNEL = "Mar  2 03:11:09 worker-3 kernel: Out of memory: Kill process 4121 (uploader) score 912"
DISK = "Failed to write the spool file /var/spool/up/queue.db\njava.io.IOException: No space left on device"

QUOTED_AS_EVIDENCE = [
    (
        f"The uploader was killed for memory. Here are the kernel log entries:\n```\n{KERNEL}\n```",
        "out of memory: kill",
    ),
    (f"The cause is memory, the box has 512 MB.\n```\n{KERNEL}\n```", "kill process 4121"),
    (
        f"Turns out old build artifacts filled the disk.\n```\n{DISK}\n```\nI have deleted them.",
        "no space left on device",
    ),
    ("Syncing broke due to this error,\n```\nAssertion failed: (plist-get plist :repo)\n```", "assertion failed"),
]


@pytest.mark.parametrize(("said", "shown"), QUOTED_AS_EVIDENCE)
def test_an_error_a_responder_pastes_as_evidence_is_how_it_was_found(said: str, shown: str) -> None:
    result = draft(REPORT, ("ben", said))
    assert result.diagnosis is not None and result.diagnosis.quotes[0].author == "ben"
    assert shown in result.diagnosis.text.lower()


NOT_EVIDENCE = [
    f"I get the following error when I upload:\n```\n{DISK}\n```",  # the symptom met
    f"We still get this after the restart:\n```\n{KERNEL}\n```",  # the trouble going on
    f"```\n{KERNEL}\n```",  # a bare paste
    "Here are the log entries:\n```\nMar  2 03:11:09 worker-3 uploader: upload of 31 files done\n```",  # no error line
    f"Not sure what this means, the logs have:\n```\n{KERNEL}\n```",  # no diagnosis
    f"Could this be the cause?\n```\n{KERNEL}\n```",  # a question
    # a configuration pasted: "error" inside names, no error told
    "Looks like the vhost is wrong, here it is:\n```\nerror_log /var/log/nginx/error.log;\nErrorDocument 404 /x\n```",
]


@pytest.mark.parametrize("said", NOT_EVIDENCE)
def test_a_paste_that_is_the_symptom_or_says_nothing_is_not_how_it_was_found(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None


def test_the_opening_reports_own_paste_is_not_how_it_was_found() -> None:
    opening = ("ana", f"Uploads fail, the cause is memory I think. Log entries:\n```\n{KERNEL}\n```")
    assert draft(opening, ("ben", "Looking.")).diagnosis is None


def test_each_quote_is_the_messages_own_words() -> None:
    said = f"Turns out old build artifacts filled the disk.\n```\n{DISK}\n```"
    result = draft(REPORT, ("ben", said))
    assert result.diagnosis is not None and len(result.diagnosis.quotes) == 3
    assert all(" ".join(q.text.split()) in " ".join(said.split()) for q in result.diagnosis.quotes)


# the review's probes (/work/notes-review.md F1): a paste under a recovery, a try, a bare hedge, a command or a setting
NOT_EVIDENCE_REVIEWED = [
    "Looks like it's fixed now. The last error before the restart was: ```ERROR: connection refused```",
    "Seems fine after the deploy. Previously it logged: ```fatal: unable to access repo```",
    "Looks like the fix worked. For reference the old trace: ```Traceback\nValueError: bad```",
    "Tried restarting, it seems to fail the same way: ```ERROR: failed to start```",
    "Can you run this and paste the output. It seems useful: ```kubectl logs pod | grep -i error```",
    "Here's my config, looks like the log level is wrong: ```log_level = error```",
    "Seems like the same issue as last month: ```ERROR 1040 (HY000): Too many connections```",
    "Apparently this is a known issue upstream: ```ERROR 1040 (HY000): Too many connections```",
]


@pytest.mark.parametrize("said", NOT_EVIDENCE_REVIEWED)
def test_a_paste_under_a_recovery_a_try_a_hedge_a_command_or_a_setting_is_not_how_it_was_found(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None


def test_a_log_said_to_have_identified_the_problem_counts_in_a_message_that_also_tells_the_recovery() -> None:
    said = (
        "Good news, the service is restored. The worker was killed for memory. Here are the log entries that "
        f"identified the problem:\n```\n{KERNEL}\n```"
    )
    result = draft(REPORT, ("ben", said))
    assert result.diagnosis is not None and "kill process 4121" in result.diagnosis.text.lower()


# the review's second probes (/work/notes-review.md F1b): "logs" named without saying they showed the trouble
NOT_EVIDENCE_LOGS_NAMED = [
    "My logs after upgrading to 2.0 show: ```ERROR: schema mismatch```",
    "Rebooted the box, here are the logs from after the reboot: ```ERROR: schema mismatch```",
    "I'll check the logs tonight. For now: ```ERROR: schema mismatch```",
    "Please attach logs when filing issues, example: ```ERROR: something failed```",
]


@pytest.mark.parametrize("said", NOT_EVIDENCE_LOGS_NAMED)
def test_logs_named_without_saying_they_showed_the_trouble_are_not_how_it_was_found(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None


def test_the_cause_sentence_is_preferred_to_a_bare_logs_label() -> None:
    result = draft(REPORT, ("ben", "The error is caused by the new release. Logs: ```ERROR: schema mismatch```"))
    assert result.diagnosis is not None and result.diagnosis.text.startswith("The error is caused by the new release")


@pytest.mark.parametrize("pasted", ["ValueError: bad", "Error: ECONNRESET", "KeyError: 'foo'"])
def test_an_errors_class_with_a_one_word_value_is_an_error_line(pasted: str) -> None:
    result = draft(REPORT, ("ben", f"The cause is the new parser.\n```\n{pasted}\n```"))
    assert result.diagnosis is not None and pasted.split(":")[0].lower() in result.diagnosis.text.lower()


# the review's third probes (/work/notes-review.md F1c): a cause marker that states no cause
@pytest.mark.parametrize(
    "said",
    [
        "The cause is unknown so far, here's the error: ```ERROR: disk not found```",
        "Turns out I had the wrong issue open, sorry. Mine is: ```ERROR: disk not found```",
    ],
)
def test_a_cause_marker_that_states_no_cause_does_not_introduce_a_paste(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None
