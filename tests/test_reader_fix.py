"""What is stored as the fix: a step that fixed it, never a line that names none (what an importing
team would see in the stored memory)."""

from __future__ import annotations

import pytest

from bot.importer.markdown import parse_markdown
from bot.reader.fix import names_no_step


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2024-05-02-queue.md")


def status_page(*updates: str) -> str:
    """A status page's entry: front matter, then its updates, newest first."""
    body = "\n\n---\n\n".join(f"2024-05-02 1{i}:00:00 UTC\n\n{u}" for i, u in enumerate(updates))
    return f"---\ntitle: Queue workers degraded\nseverity: disrupted\nresolved: true\n---\n\n{body}\n"


@pytest.mark.parametrize(
    "update",
    [
        "We are working with the hosting company to restore the queue workers.",
        "Work continues on restoring the remaining queue workers.",
        "The queue workers are being restored one by one.",
        "We hope to have the remaining workers restored within the hour.",
        "The problem with the queue workers has been resolved.",
        "We believe the issue affecting job processing is now fixed.",
        "All affected workloads have been recovered.",
        "Job processing is now recovering.",
        "The cause has been found and a fix is being implemented.",
    ],
)
def test_a_status_page_line_that_names_no_step_is_never_the_stored_fix(update: str) -> None:
    draft = imported(status_page(update, "Jobs are piling up in the queue and are not processed."))
    assert draft.resolution is None  # empty is honest: the page never says what fixed it


def test_a_status_page_line_that_names_the_step_is_the_stored_fix() -> None:
    draft = imported(
        status_page(
            "The problem has been resolved by moving the queue to a new disk.",
            "Jobs are piling up in the queue and are not processed.",
        )
    )
    assert "moving the queue to a new disk" in draft.resolution


def test_a_step_that_did_not_work_is_never_the_stored_fix() -> None:
    draft = imported(
        "# Queue outage\n\nJobs piled up overnight and the workers were down. We rolled back the scheduler to see if it would help, it didn't.\n"
    )
    assert not draft.resolution or "rolled back the scheduler" not in draft.resolution


def test_the_step_that_worked_stays_beside_those_that_did_not() -> None:
    draft = imported(
        "# Queue stuck\n\nJobs piled up overnight.\n\n## Resolution\n\n"
        "Restarting the workers did not help, nor did the rollback; purging the dead letters did.\n"
    )
    assert "purging the dead letters did" in draft.resolution


@pytest.mark.parametrize(
    "sentence",
    [
        "The firewall was not re-enabled after the kernel upgrade.",  # a cause: what was not done
        "The TLS certificate had not been renewed since March.",
        "Connectivity has been restored.",
        # how it began, with what set it off (review F64): the step named started the incident
        "The problem occured when switching the search cluster from one provider to another.",
        "The outage started after the 14:02 deploy of the scheduler.",
    ],
)
def test_a_fix_word_in_a_cause_or_a_state_names_no_step(sentence: str) -> None:
    assert names_no_step(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We re-enabled the firewall and the errors stopped.",
        "The outage was not resolved until we renewed the certificate.",
        "The database has been restored from last night's snapshot.",
        "Service has been restored after we failed over to the replica.",
        "The errors stopped after we rolled back the 14:02 deploy.",  # an end after a step: no onset
    ],
)
def test_a_step_that_fixed_it_is_kept(sentence: str) -> None:
    assert not names_no_step(sentence)


def test_a_fix_told_only_under_a_section_of_its_own_name_is_stored() -> None:
    draft = imported(
        "# Uploads failing\n\nUploads to the asset store returned 502 errors for an hour.\n\n"
        "## Notes from the morning\n\n"
        "The storage gateway kept dropping connections. Turning off its write cache resolved the issue.\n"
    )
    assert "Turning off its write cache resolved the issue" in draft.resolution


@pytest.mark.parametrize(
    "sentence",
    [
        "Like the last two times, the errors resolved themselves before anyone could look.",
        "Users report that the nameservers periodically fail to resolve names.",
        "0B repaired, 20.80% done, no estimated completion time",
    ],
)
def test_a_fix_word_that_tells_no_step_under_such_a_section_is_not_stored(sentence: str) -> None:
    draft = imported(
        f"# Uploads failing\n\nUploads to the asset store returned 502 errors for an hour.\n\n"
        f"## Notes from the morning\n\nThe storage gateway kept dropping connections. {sentence}\n"
    )
    assert draft.resolution is None


@pytest.mark.parametrize(
    "line",
    [
        "We will next update this page within 20 minutes.",
        "We will provide a further update within the next hour.",
        "Next update will be at 16:30 UTC unless something changes.",
        "Thank you for your patience.",
        "There is still no ETA for a full recovery.",
        "The hosting company's status page can be followed here: https://status.example.net",
        "Running jobs in other regions continue to operate as normal.",
        "Customers may experience delays when submitting jobs.",
        "Duration of interruption was 6 minutes 12s.",
        "Incident team: Ana Ruiz, Tomas Berg",
        "A fix has been rolled out and we are monitoring the results.",
        "We are marking this incident as resolved.",
        "We will continue to monitor the situation.",
        "The post-mortem is available here: https://status.example.net/pm/42",
        "SEV-2 – queue processing halted (staging)",
        "We announced the recovery on Discord and Twitter.",
        "Job processing was halted for about 3 and a half hours.",
        "The queue would have stayed full for the next 2 years.",
        "Such stalls usually last anywhere from 20 to 40+ minutes.",
    ],
)
def test_a_status_pages_stock_line_is_never_the_stored_fix_or_cause(line: str) -> None:
    draft = imported(
        "# Queue workers down\n\n## Root cause\n\n"
        f"A failed disk on the queue host, caused by a faulty controller. {line}\n\n"
        f"## Resolution\n\nThe disk was replaced and the workers restarted. {line}\n"
    )
    assert draft.root_cause == "A failed disk on the queue host, caused by a faulty controller."
    assert draft.resolution == "The disk was replaced and the workers restarted."


@pytest.mark.parametrize(
    "entry",
    [
        "Sam posts a short note in #ops that the queue workers have been restored.",
        "The wider team is informed of the fix in #incidents.",
        "Nova acknowledges that a fix is being worked on.",
    ],
)
def test_telling_people_about_the_fix_is_never_the_stored_fix(entry: str) -> None:
    draft = imported(
        "# Queue workers down\n\nJobs were not processed for an hour.\n\n## Timeline\n\n"
        f"- 10:02 jobs stop being processed\n- 10:40 {entry}\n"
    )
    assert draft.resolution is None


def test_a_fix_said_beside_what_should_work_now_is_stored() -> None:
    draft = imported(status_page("We have fixed the scheduler - job submissions should be working as usual now."))
    assert "We have fixed the scheduler" in draft.resolution


@pytest.mark.parametrize(
    "update",
    [
        "We have identified the root cause and are working on a fix.",
        "We are still investigating the cause of the failed jobs.",
        "Restarting your workers now will cause them to be affected too.",
        "Affected users may notice restarts of their workers due to this issue.",
        "The issue that caused the queue to become unresponsive has been rectified.",
        "The issue is now resolved; some workers were restarted whilst resolving this.",
    ],
)
def test_a_status_page_line_that_names_no_cause_is_never_the_stored_cause(update: str) -> None:
    draft = imported(status_page(update, "Jobs are piling up in the queue and are not processed."))
    assert not draft.root_cause or update not in draft.root_cause


def test_a_cause_named_when_it_was_found_is_stored() -> None:
    draft = imported(
        status_page(
            "We have identified the root cause as a full disk on the queue host.",
            "Jobs are piling up in the queue and are not processed.",
        )
    )
    assert "a full disk on the queue host" in draft.root_cause
    said = imported(status_page("The issue was caused by a full disk on the queue host.", "Jobs are piling up."))
    assert "caused by a full disk on the queue host" in said.root_cause
    named = "Sam has found the culprit (a VM taking all the disk I/O of the queue host) after stopping VMs one by one."
    assert "a VM taking all the disk I/O" in imported(status_page(named, "Jobs are piling up.")).root_cause


def test_a_step_the_writer_says_they_took_is_the_fix_when_no_fix_word_says_one() -> None:
    # "We have drained the stuck node" names the step without any fix word ("resolved", "fixed", "restored")
    draft = imported(
        status_page("We have drained the stuck node and are watching the queue.", "Jobs are piling up in the queue.")
    )
    assert draft.resolution is not None and "We have drained the stuck node" in draft.resolution


@pytest.mark.parametrize(
    "sentence",
    [
        "We tried to curl the host from the proxy and it answered.",
        "We have identified the cause and are working on a fix.",
        "We noticed the queue was not moving.",
    ],
)
def test_a_sentence_of_ours_that_takes_no_step_is_never_the_fix(sentence: str) -> None:
    draft = imported(status_page(sentence, "Jobs are piling up in the queue and are not processed."))
    assert draft.resolution is None or sentence[:20] not in draft.resolution


def test_a_fix_told_over_two_sentences_is_stored_whole_and_the_trouble_beside_it_is_not() -> None:
    # a model sure only of "rolled back" (as one organisation out it often is of one sentence of two): the step just
    # before it in the same part is the fix too; the harm just after it is not
    from bot.reader.sentences import Head, SentenceModel, use_model

    text = (
        "# Mail delayed\n\n## Summary\n\n"
        "Mail delivery was slow for two hours on the relay.\n\n"
        "Then a work around sent all mail via the backup relay. "
        "The work around was rolled back once the relay was replaced. "
        "Mail to some customers is failing.\n"
    )
    # the step before it is one the model calls more fix than not (0.73), though below its threshold
    use_model(SentenceModel({"fix": Head(-5.0, {"w:roll": 10.0, "w:sent": 6.0}, threshold=0.9, keep=1)}, "test"))
    try:
        draft = imported(text)
    finally:
        use_model(None)
    assert "rolled back once the relay was replaced" in draft.resolution, draft.resolution
    assert "sent all mail via the backup relay" in draft.resolution, draft.resolution
    assert "failing" not in draft.resolution, draft.resolution


def test_a_sentence_beside_the_fix_that_the_model_calls_no_fix_is_not_stored_with_it() -> None:
    # "names a step" lets nearly any sentence through: the cause told just before the fix is no fix, and the model says
    # so (0.01); stored beside the fix it would tell the next responder a cause as a step that restored service
    from bot.reader.sentences import Head, SentenceModel, use_model

    text = (
        "# Mail delayed\n\n## Summary\n\n"
        "Mail delivery was slow for two hours on the relay.\n\n"
        "An earlier change had set the relay's queue to a single worker. "
        "The work around was rolled back once the relay was replaced.\n"
    )
    use_model(SentenceModel({"fix": Head(-5.0, {"w:roll": 10.0}, threshold=0.9, keep=1)}, "test"))
    try:
        draft = imported(text)
    finally:
        use_model(None)
    assert "rolled back once the relay was replaced" in draft.resolution, draft.resolution
    assert "single worker" not in draft.resolution, draft.resolution
