"""Where an imported postmortem's root cause comes from: what a team would see stored."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2020-12-02-search.md")


def test_contributing_factors_that_critique_the_response_do_not_hide_the_cause_the_description_says() -> None:
    draft = imported(
        "# 2020-12-02 Search stopped accepting writes\n\n"
        "## Description\n\nThe search service suddenly stopped accepting writes due to a full disk, "
        "and as such new content was no longer showing on the site.\n\n"
        "## Contributing Factor(s)\n\n- Nobody spotted or acknowledged the alert about disk space.\n"
        "- No alerts or monitoring detected that there was an issue brewing on the server.\n"
    )
    assert "due to a full disk" in draft.root_cause
    assert "Nobody spotted" not in draft.root_cause


def test_contributing_factors_give_the_cause_when_nothing_else_says_it() -> None:
    draft = imported(
        "# Search outage\n\n## Description\n\nSearch returned errors for an hour.\n\n"
        "## Contributing Factors\n\n- The elasticsearch log file ballooned and filled the disk.\n"
        "- We should have had an alert on disk usage.\n"
    )
    assert "The elasticsearch log file ballooned and filled the disk." in draft.root_cause
    assert "should have" not in draft.root_cause


def test_a_heading_asking_why_it_happened_is_the_root_cause() -> None:
    draft = imported(
        "# openfoodfacts.net unreachable\n\nThe site could not be reached.\n\n"
        "## Why this happens\n\n* the domain was still using the old way to redirect\n\n"
        "## Next steps\n\n* move the domain to the new redirect\n"
    )
    assert draft.root_cause == "- the domain was still using the old way to redirect"


def test_a_heading_asking_how_it_happened_is_the_root_cause_and_an_impact_analysis_is_not() -> None:
    draft = imported(
        "# Leaked token\n\nA token was found in a published image.\n\n"
        "## Impact Analysis\n\nThe token was valid for 12 days and was not used by anyone else.\n\n"
        "## How did this happen?\n\nThe build did not exclude `.pyc` files holding local changes.\n"
    )
    assert draft.root_cause == "The build did not exclude `.pyc` files holding local changes."


def test_a_status_pages_repaired_or_renewed_is_the_fix() -> None:
    draft = imported(
        "---\ntitle: Purple server outage\n---\n\n"
        "Routine maintenance to the server has taken it offline. We are investigating the issue.\n\n"
        "**Update: 21.48** - The root cause was found to be some file corruption in the main operating system. "
        "This has now been repaired and all services are operating properly again.\n"
    )
    assert "has now been repaired" in draft.resolution
    renewed = imported(
        "# SSL warnings on mail\n\nUsers may see SSL warnings to say that the certificate expired today. "
        "We can assure you that the certificate has been renewed.\n"
    )
    assert "the certificate has been renewed" in renewed.resolution


def test_a_details_section_told_in_sentences_gives_the_cause_and_one_of_fields_does_not() -> None:
    told = imported(
        "# 2021-06-22 DNS failures\n\n### Details\n\n*Intermittent DNS failures*\n\n"
        "Lookups for the site failed for some visitors during the evening.\n\n"
        "The cause was a corrupted data-file going to the provider's DNS servers, which they rolled back.\n"
    )
    assert "corrupted data-file" in told.root_cause
    fields = imported(
        "# DNS failures\n\n## Details\n\n- Severity: SEV2\n- Service: dns\n- Owner: the platform team\n\n"
        "## Summary\n\nLookups failed for an hour.\n"
    )
    assert fields.severity == "SEV2" and fields.root_cause is None


def test_a_sentence_saying_the_cause_is_unknown_is_never_stored_as_the_cause() -> None:
    draft = imported(
        "# Intermittent 504s\n\n## Summary\n\nRequests were timing out with a 504 from the CDN.\n\n"
        "The issue resolved itself before it could be investigated and the provider was unable to establish "
        "root cause.\n"
    )
    assert draft.root_cause is None
    kept = imported(
        "# Intermittent 504s\n\n## Root cause\n\nA full disk on the cache node caused the timeouts. "
        "Why the disk filled so fast is still not known, and we could not determine the exact cause of the "
        "log growth.\n"
    )
    assert kept.root_cause == "A full disk on the cache node caused the timeouts."


def test_a_status_update_naming_a_cooling_fault_gives_the_cause() -> None:
    draft = imported(
        "# GPU instances offline\n\n## Updates\n\nWe are facing an issue in the region, affecting some instances.\n\n"
        "We have been notified of a cooling issue at the datacenter. The provider is working to resolve it.\n"
    )
    assert "cooling issue at the datacenter" in draft.root_cause


def test_a_cause_the_root_cause_section_states_without_a_cue_word_is_stored() -> None:
    draft = imported(
        "# Checkout errors\n\n## Summary\n\nCheckout failed for a third of requests for an hour.\n\n"
        "## Root cause\n\nMonday's storage migration halved the provisioned throughput of the orders database.\n\n"
        "## Resolution\n\nWe moved the database back to its old volume class.\n"
    )
    assert draft.root_cause == "Monday's storage migration halved the provisioned throughput of the orders database."


def test_a_duration_line_is_never_the_cause_or_the_fix_even_to_a_model_sure_of_every_sentence() -> None:
    from bot.reader.sentences import Head, SentenceModel, use_model

    text = (
        "# Checkout errors\n\n## Summary\n\nDuration: 2 hours 14 minutes\n\nTime to resolve: 31 minutes\n\n"
        "Checkout failed for a third of requests.\n\n## Impact\n\nThe outage lasted 45 minutes.\n"
    )
    shipped = imported(text)
    assert shipped.root_cause is None and shipped.resolution is None
    sure = SentenceModel({head: Head(10.0, {}, threshold=0.5, keep=2) for head in ("cause", "fix")})
    use_model(sure)
    try:
        draft = imported(text)
    finally:
        use_model(None)
    stored = f"{draft.root_cause} {draft.resolution}"
    assert "Checkout failed" in stored  # the model was read: it took what it was sure of
    assert "minutes" not in stored


def test_a_status_entry_that_says_what_caused_it_after_its_headline_gets_that_cause() -> None:
    draft = imported(
        "---\ntitle: Queue stalled\nseverity: notice\n---\n\n"
        "**An issue with the job queue caused some builds to be dropped**. A change to our broker settings "
        "caused consumers to disconnect without warning, and it took some time to detect. During this period, "
        "new builds failed.\n"
    )
    assert "A change to our broker settings caused consumers to disconnect" in draft.root_cause
    assert "new builds failed" not in draft.root_cause


def test_a_status_entry_naming_only_its_underlying_cause_is_imported_with_that_cause() -> None:
    draft = imported(
        "2021-05-17\n==========\n\n### State\n\n![Resolved](../../imgs/green.png)\n\n### Details\n\n*403s on www.example.org*\n\n"
        "During A/B testing of a new CDN provider access to `www.example.org` was accidentally denied.\n\n"
        "The underlying cause was an incorrectly specified edge-policy, so it applied to all requests.\n"
    )
    assert "an incorrectly specified edge-policy" in draft.root_cause


def test_a_fix_a_status_page_repeats_in_its_timeline_is_stored_once() -> None:
    from bot.reader.sentences import Head, SentenceModel, use_model

    said = "The data center temperatures are back under control and servers are powered on again."
    text = f"# GPU nodes offline\n\n{said}\n\n## Timeline\n\n- 10:00 GPU nodes went offline.\n- 12:00 {said}\n"
    sure_of_it = Head(-10.0, {"w:temperatur": 20.0}, threshold=0.5, keep=2)  # sure of that sentence alone
    use_model(SentenceModel({head: sure_of_it for head in ("cause", "fix")}))
    try:
        draft = imported(text)
    finally:
        use_model(None)
    assert draft.resolution is not None and draft.resolution.count("temperatures are back under control") == 1


def test_a_summary_sentence_naming_the_incidents_cause_is_read_before_cause_words_said_in_passing() -> None:
    from bot.reader.sentences import SentenceModel, use_model

    text = (
        "# Card payments failing\n\n"
        "So it makes sense to practise responding when things break, because they will. "
        "The kiosks were slow because the venue network was busy. "
        "Refunds were delayed due to the weekend. "
        "That was strange because the first issue had hit every kiosk. "
        "We realised quickly that the outage was caused by an expired certificate on the payment gateway.\n"
    )
    use_model(SentenceModel())  # the cue words alone: no sentence model to add the sentence
    try:
        draft = imported(text)
    finally:
        use_model(None)
    assert draft.root_cause.startswith("We realised quickly that the outage was caused by an expired certificate")


def test_a_cause_word_denied_is_never_stored_as_the_cause() -> None:
    draft = imported(
        "# Publishing tokens stolen from CI\n\n## Summary\n\n"
        "The package index was not compromised, and no packages were published by the attackers. "
        "The issue was not exploited on any installation we know of. "
        "Malicious actors injected code into CI workflows, which caused publishing tokens to be sent to them.\n"
    )
    assert "injected code into CI workflows" in draft.root_cause
    assert "not compromised" not in draft.root_cause and "not exploited" not in draft.root_cause


def test_a_sentence_pointing_to_the_details_is_never_stored_as_the_cause() -> None:
    draft = imported(
        "# Function runs stalled\n\n"
        "Full timeline, root cause and corrective actions are detailed below. "
        "You can read more about the gateway in our earlier blog post on its design.\n\n"
        "The gateway ran out of disk space because its logs were rotated too rarely.\n\n"
        "## Timeline\n\n- 10:00 Runs stalled.\n- 11:00 Disk cleared, runs resumed.\n"
    )
    assert "ran out of disk space" in draft.root_cause
    assert "detailed below" not in draft.root_cause and "read more" not in draft.root_cause


def test_a_status_pages_schedule_and_its_warning_of_a_delay_are_no_cause() -> None:
    draft = imported(
        "# Outage Notice - Site Power Issue\n\n"
        "The cause of the site outage has been identified as a failure of the resilient UPS systems. "
        "The cleaning of the UPS room is due to be completed by 2PM. "
        "The data center operator was due to provide an update at 8AM. "
        "While this will cause us a delay, we are working with our vendors on the remediation.\n"
    )
    assert "failure of the resilient UPS systems" in draft.root_cause
    assert "due to be completed" not in draft.root_cause and "delay" not in draft.root_cause
    assert "due to provide" not in draft.root_cause


def test_a_status_page_saying_what_the_issue_was_related_to_gives_that_cause() -> None:
    from bot.reader.sentences import SentenceModel, use_model

    use_model(SentenceModel())  # the cue words alone: no sentence model to add the sentence
    try:
        related = imported(
            "# Outage: packet loss in Sao Paulo\n\nCustomers saw errors and packet loss on routes towards Brazil. "
            "Issue was related to outgoing routes via one transit carrier.\n"
        )
        suggested = imported(
            "# Outage: 502s for a short period\n\nFor a short period the site returned 502 errors. "
            "IP level routing to the origin was not affected, suggesting the 502s relate to issues routing "
            "between the CDN's tiers.\n"
        )
        unrelated = imported(
            "# Checkout outage\n\nCheckout returned errors for an hour. We closed the tickets related to checkout.\n"
        )
    finally:
        use_model(None)
    assert related.root_cause == "Issue was related to outgoing routes via one transit carrier."
    assert "relate to issues routing between the CDN's tiers" in suggested.root_cause
    assert unrelated.root_cause is None


def test_the_root_cause_named_after_a_colon_is_kept_among_many_cause_words_said_in_passing() -> None:
    from bot.reader.sentences import SentenceModel, use_model

    text = (
        "# Blog down\n\n## What happened\n\n"
        "I had no way to know about the alert because the inbox is not on my phone. "
        "The install failed because the process was killed. "
        "It worked the second time because memory was free then. "
        "Postgres stopped because its locale was missing. "
        "This leads me to the root cause of this problem: the server needs more RAM!\n"
    )
    use_model(SentenceModel())
    try:
        draft = imported(text)
    finally:
        use_model(None)
    # read first, with what "this" is: the four cause-word sentences before it no longer push it out
    assert draft.root_cause.startswith(
        "Postgres stopped because its locale was missing. This leads me to the root cause of this problem: "
        "the server needs more RAM!"
    )


def test_the_sentence_model_reads_a_cause_whose_quotes_only_name_things_but_never_a_quoted_error() -> None:
    from bot.reader.sentences import Head, SentenceModel, use_model

    text = (
        "# Hub outage\n\nUsers could not start servers.\n\n## Details\n\n"
        "The GKE resource quota was preventing the `prod` hub from creating new pods. "
        "The hub log shows: `Failed to start hub: fatal signal received by control process`\n"
    )
    by_words = {"w:quota": 3.0, "w:log": 3.0}  # sure of both sentences (no cause word), nothing else
    use_model(SentenceModel({"cause": Head(-2.0, by_words, threshold=0.6, keep=2)}))
    try:
        draft = imported(text)
    finally:
        use_model(None)
    assert draft.root_cause == "The GKE resource quota was preventing the `prod` hub from creating new pods."


def test_the_cause_a_later_section_tells_joins_a_summary_that_only_tells_the_effect() -> None:
    from bot.reader.sentences import SentenceModel, use_model

    story = (
        "# Hub outage\n\n## Summary\n\n"
        "On February 25 the kubernetes API server became unreachable, causing new servers to fail to start.\n\n"
        "## Timeline\n\n### 11:21\n\nStudents report errors.\n\n"
        "## Conclusion\n\nThe subscription was disabled because its budget ran out.\n\n"
        "## Action items\n\n- Monitor the budget.\n"
    )
    busy = story.replace(
        "causing new servers to fail to start.",
        "causing new servers to fail to start. The proxy failed because of it. Logins failed due to it. "
        "That caused many reports.",
    )
    use_model(SentenceModel())  # the cue words alone
    try:
        draft, crowded = imported(story), imported(busy)
    finally:
        use_model(None)
    # the summary's sentence first, then the cause the conclusion names (the date that opens the summary's sentence
    # is cut: a date tells when, never what — rule T, bot/reader/metadata_time.py, 2026-12-07)
    assert draft.root_cause == (
        "The kubernetes API server became unreachable, causing new servers to fail to start. "
        "The subscription was disabled because its budget ran out."
    )
    # a summary that already gives four cause-word sentences keeps the field at four: nothing added
    assert "budget ran out" not in crowded.root_cause
    assert "Monitor the budget" not in draft.root_cause


def test_a_section_telling_the_mechanism_is_read_after_the_summarys_cause_and_a_root_cause_section_alone() -> None:
    mechanism = (
        "# Chain split\n\nA memory-corruption bug within the EVM can cause a consensus error on crafted input.\n\n"
        "## Technical details\n\nDuring CALL-variants, the node does not copy the input.\n"
    )
    named = mechanism.replace("## Technical details", "## Root cause")
    analysed = mechanism.replace("## Technical details", "## Root Cause Analysis")
    draft, plain = imported(mechanism), imported(named)
    # a heading that names no cause tells how it broke; the summary says what broke, read first
    assert draft.root_cause == (
        "A memory-corruption bug within the EVM can cause a consensus error on crafted input.\n"
        "During CALL-variants, the node does not copy the input."
    )
    # a section headed "Root cause" is the cause as its authors wrote it, alone
    assert plain.root_cause == "During CALL-variants, the node does not copy the input."
    # "analysis" beside a phrase that names the cause: the cause section, alone
    assert imported(analysed).root_cause == plain.root_cause


def test_a_summary_sentence_saying_a_share_of_users_is_never_read_before_the_mechanism() -> None:
    draft = imported(
        "# Tokens exposed\n\nWe found a vulnerability that may have exposed tokens for <0.01% of our users, "
        "stemming from the import feature.\n\n"
        "## Technical details\n\nThe import cloned the repository with a URL that contained the token.\n"
    )
    assert draft.root_cause == "The import cloned the repository with a URL that contained the token."


def test_a_list_of_downtime_figures_a_cause_word_introduces_is_never_stored_as_the_cause() -> None:
    draft = imported(
        "# Cluster incidents 2019\n\n### Operational summary for 2019\n\n* Full downtime:\n\n"
        "  - Scheduled: 96 hours = 4.0 days = 1.1%\n  - Unscheduled: 83.5 hours = 3.5 days = 1.0%\n"
        "  - External factors: 15% of the above downtime were due to external factors\n\n"
        "### Login issues\n\nThe issues with login were because one of the file servers became unreliable.\n"
    )
    cause = draft.root_cause or ""
    # the items are metadata lines, each judged as a line of its own; the cause the story tells is kept
    assert "83.5 hours" not in cause and "Scheduled: 96" not in cause
    assert "one of the file servers became unreliable" in cause


def test_a_figure_in_a_later_sections_cause_sentence_never_fills_the_summarys_cause() -> None:
    draft = imported(
        "# API outage\n\nOn March 3 the API became unreachable, causing new deployments to fail.\n\n"
        "## Details\n\nThe certificate expired because the renewal job had been disabled. "
        "Because of this, about 12% of users could not log in.\n"
    )
    assert "renewal job had been disabled" in draft.root_cause
    assert "12% of users" not in draft.root_cause


def test_a_status_update_naming_what_broke_as_its_subject_gives_the_cause_without_the_sites_markup() -> None:
    draft = imported(
        "---\ntitle: Sign-in problems\nseverity: partial-outage\nresolved: true\n---\n"
        "Sign-ins are failing, our engineers are looking into it.\n\n"
        "::: update Identified | 2021-03-02T10:15:00Z\n"
        "There is an issue with the old session store that is preventing mobile logins. "
        "We have paused mobile logins for now.\n:::\n\n"
        "::: update Resolved | 2021-03-02T11:00:00Z\nSign-ins work again for everyone.\n:::\n"
    )
    assert draft.root_cause == "There is an issue with the old session store that is preventing mobile logins."
    provider = imported(
        '+++\ntitle = "CDN outage"\n+++\n'
        "It seems that our CDN provider is having some issues with its edge nodes. We're aware of the outage "
        "and are looking into it.\n"
    )
    assert provider.root_cause == "It seems that our CDN provider is having some issues with its edge nodes."
    upstream = imported(
        "---\ntitle: Frankfurt unreachable\nseverity: disrupted\nresolved: true\n---\n"
        "*Update* Traffic is flowing again, no word from upstream yet.\n\n"
        "Upstream network is offline in Frankfurt. We have been told they are investigating.\n"
    )
    # one organisation's wording, not read (the rule asks for two; docs/BENCHMARKS.md, r23-cause fifth pass)
    assert upstream.root_cause is None


def test_what_users_saw_said_as_a_subject_is_no_cause_and_a_cause_said_elsewhere_is_kept_alone() -> None:
    from bot.reader.sentences import SentenceModel, use_model

    use_model(SentenceModel())  # the cue words alone: what they read, not a model's pick
    try:
        seen = imported(
            "---\ntitle: Routing problems\nseverity: disrupted\nresolved: true\n---\n"
            "We are aware some locations are having issues and are investigating. "
            "The website is having issues for some users. Upstream is investigating. "
            "There is an issue with logins for some users. There is currently an outage of the dashboard.\n"
        )
        said = imported(
            "---\ntitle: Checkout errors\nseverity: disrupted\nresolved: true\n---\nThere is an issue with checkout for some users. "
            "The errors were caused by an expired certificate on the payment gateway.\n"
        )
    finally:
        use_model(None)
    assert seen.root_cause is None
    assert said.root_cause == "The errors were caused by an expired certificate on the payment gateway."


def test_a_root_cause_section_that_also_says_who_it_hit_keeps_its_cause() -> None:
    draft = imported(
        "# API outage\n\n## Root cause\n\nThe primary database ran out of disk and every write was affected.\n\n"
        "## Resolution\n\nWe grew the volume and restarted the writers.\n"
    )
    assert draft.root_cause == "The primary database ran out of disk and every write was affected."


def test_what_users_saw_is_never_the_cause_even_to_a_model_sure_of_every_sentence() -> None:
    from bot.reader.sentences import Head, SentenceModel, use_model

    symptoms = (
        "Some customers were unable to log in to the dashboard. "
        "The checkout page is not working on iOS. We are noticing issues with new cluster launches."
    )
    sure = SentenceModel({head: Head(10.0, {}, threshold=0.5, keep=2) for head in ("cause", "fix")})
    use_model(sure)
    try:
        told = imported(
            f"# Instances restarted\n\n{symptoms} A kernel update rolled out to the hypervisors rebooted them.\n"
        )
        only_symptoms = imported(f"# Instances restarted\n\n{symptoms}\n")
    finally:
        use_model(None)
    assert "A kernel update rolled out to the hypervisors rebooted them" in told.root_cause  # the model was read
    for seen in ("unable to log in", "not working on iOS", "noticing issues"):
        assert seen not in told.root_cause
        assert seen not in (only_symptoms.root_cause or "")


def test_a_status_update_followed_by_a_rule_between_updates_is_read_as_text_not_as_a_heading() -> None:
    # Markdown reads a paragraph underlined by `---` as a heading; status pages put `---` between their updates
    draft = imported(
        "---\ntitle: Nodes not ready\nseverity: disrupted\n---\n"
        "A failed switch is causing some clusters to fall into a not ready state.\n"
        "Some workloads may need to be restarted.\n---\n\n2026-01-12 17:05 UTC\n\n"
        "The issue is now resolved.\n"
    )
    assert draft.root_cause is not None and "A failed switch is causing" in draft.root_cause
    short = imported("# Outage\n\nSome text.\n\nWhat we saw\n---\n\nA failed switch caused the outage.\n")
    assert short.root_cause is not None and "What we saw" not in short.root_cause


def test_a_heading_underlined_by_dashes_that_asks_a_question_still_heads_its_section() -> None:
    # "Why did …?" is how postmortems head their cause: only a statement underlined by --- is a status update
    draft = imported(
        "Database outage\n===============\n\nCheckout was down for 40 minutes on March 2.\n\n"
        "Why did the primary database stop accepting writes?\n---\n\n"
        "The disk filled up with WAL files after the archiver stalled.\n"
    )
    assert draft.root_cause is not None and "disk filled up with WAL files" in draft.root_cause
