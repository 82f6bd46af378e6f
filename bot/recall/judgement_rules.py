"""The rules that give a recalled memory a tier at least, whatever the fitted judgement's probability
(bot/recall/judgement.py): evidence the model cannot weigh, the same alert, the same error signature,
the suspected cause said in the memory's root cause, the incident's own service, a long query naming
much of the memory's opening. Each rule says in words why, for "Why this?".
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.recall.judgement import BELOW, STRONG, WEAK

SERVICE_CLOSE = 0.4
"""Relevance from which a memory in the incident's own service is close enough for the weak line
(by_rule). Not fitted: the first reports carry no service. It posted a thread until jira-dev
measured it (docs/BENCHMARKS.md): there, where nearly every memory shares the incident's project,
a thread bought 0.001 more right memories shown than a weak line, for 0.139 more false threads."""
CAUSE_CLOSE, CAUSE_SURE = 0.7, 0.8
"""Shares of the query's weight (idf) found in a memory's root cause and diagnosis from which it is
close enough for the weak line, and from which it posts a thread (by_rule): a responder who types
the cause they suspect sees the memory that found it, though its title and symptoms say other
words. Not fitted (the first reports describe symptoms, not causes): CAUSE_CLOSE is the lowest share
at which no target-absent first report of the tuning fold (A) has a candidate among its first three
(0.5 had 4 of 92, 0.6 had 2); at these values no first-report figure moves."""
ECHO_CLOSE = 1.5
"""echo_standout from which a memory among the first three is close enough for the weak line
(by_rule): a long query names much of its duplicate's opening though most of its own words stay
unmatched (low `head`, so the model fitted on two-line first reports reads it as weak). Chosen on
the tuning fold (A) of long Apache Jira re-filings filed from 2014 on (docs/BENCHMARKS.md), the
value maximising right memories shown minus 0.42 × target-absent weak lines; a first report
rarely reaches it (its right memory's 90th percentile is 1.1)."""
SIGNATURE_SURE = 0.7
"""Relevance from which the same error signature makes a memory strong (rule_of). The signature is
the first telling line of the error text, and in tickets that is often a bare exception name
(`java.lang.nullpointerexception`, 47 of jira-dev's 2,796 memories with one) or a line of prose:
alone it posted a thread wherever such a line recurred. With relevance beside it, measured on
jira-dev and the long re-filings (bench/recall_signature_rule.py; docs/BENCHMARKS.md), it removes
17 and 29 false threads for 10 and 9 right memories no longer strong (raising strong_from until as
many false threads go costs 19 and more than 18), and keeps a recurring incident's thread (five
memories of one pool failure, relevance 1.0 each). The first reports carry no signature."""


def rule_of(
    relevance: float, components: Mapping[str, float], evidence: Mapping[str, float] | None = None
) -> tuple[str, str | None]:
    """The tier that evidence the fitted model cannot weigh gives a memory at least, and the rule's
    words for "Why this?": strong for the same alert (name and identifying labels), the same error
    signature at SIGNATURE_SURE relevance, or at CAUSE_SURE of the query's weight in its root cause and diagnosis; weak at CAUSE_CLOSE of it, at SERVICE_CLOSE of the query's evidence in the
    incident's own service, or at ECHO_CLOSE of echo_standout (a long query naming much of the
    memory's opening); else below (no words). Reads a match's signals
    (RecallMatch.score_components) and features (RecallMatch.evidence)."""
    if components.get("same_alert") == 1.0:
        # the same alert, same identifying labels (issue 29): what the sure rule posted before it was
        # dropped (the alert alone gives half the query's evidence, floor.ALERT_EVIDENCE)
        return STRONG, "the same alert fired for it"
    if components.get("signature") == 1.0 and relevance >= SIGNATURE_SURE:
        # the same error signature (an exception, a status line) is the failure itself, told by
        # the system: a recurring incident whose memories all carry it stands out of none of them;
        # with most of the query's evidence beside it, not a bare exception name shared by chance
        return STRONG, f"it failed with the same error signature (relevance {relevance:.2f})"
    cause = components.get("cause", 0.0)
    said = f"its root cause and diagnosis hold {cause:.2f} of the query's weight"
    if cause >= CAUSE_SURE:
        return STRONG, f"{said} (strong from {CAUSE_SURE})"
    if components.get("same_service") == 1.0 and relevance >= SERVICE_CLOSE:
        return WEAK, f"the incident's own service at relevance {relevance:.2f} (weak from {SERVICE_CLOSE})"
    if cause >= CAUSE_CLOSE:
        return WEAK, f"{said} (weak from {CAUSE_CLOSE})"
    echo = (evidence or {}).get("echo_standout", 0.0)
    if echo >= ECHO_CLOSE:
        return WEAK, f"the query names much of its opening, standing out at {echo:.2f} (weak from {ECHO_CLOSE})"
    return BELOW, None


def by_rule(relevance: float, components: Mapping[str, float], evidence: Mapping[str, float] | None = None) -> str:
    """The tier the rules give a memory at least (rule_of without the words)."""
    return rule_of(relevance, components, evidence)[0]
