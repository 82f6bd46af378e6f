"""Claims the guard refuses, in whatever field and wording: the rules' opinion, sentence by sentence.

Three claims are refused anywhere in an answer:
- a past cause stated as today's ("it is the retry-loop leak again");
- an instruction to skip checks or stop investigating ("no need to look further");
- applying a past fix given as the verdict ("redeploy the finally-block fix").

No single phrase decides. A sentence is read for what it links: a reference to the past (a
recurrence, a past time, a memory's id, or words only a memory's cause or fix uses, see
evidence.PastContent) and an assertion about the present, unless a hedge, a negation or a
question makes it a hypothesis. How much is needed depends on the field: in what is happening
now any reference to the past is a claim; in what worked before, past words are expected and
only a link to today is one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.investigation.evidence import PastContent
from bot.investigation.models import Findings, ModelAnswer
from bot.investigation.text import clip


class Group(StrEnum):
    NOW = "now"  # what is happening now: about today by definition
    VERDICT = "verdict"  # checks, hypotheses, conflicts, questions: where a verdict would be read as one
    HISTORY = "history"  # why a check, what worked or failed before: about the past by definition


FIELD_GROUPS = {
    "happening_now": Group.NOW,
    "current_summary": Group.NOW,
    "checks_to_run.action": Group.VERDICT,
    "hypotheses.statement": Group.VERDICT,
    "conflicts.description": Group.VERDICT,
    "conflicts.evidence_needed": Group.VERDICT,
    "open_questions": Group.VERDICT,
    "checks_to_run.why": Group.HISTORY,
    "successful_previous_actions.action": Group.HISTORY,
    "failed_previous_actions.action": Group.HISTORY,
    "failed_previous_actions.why_it_failed": Group.HISTORY,
}


class Claim(StrEnum):
    PAST_AS_PRESENT = "past_as_present"
    SKIP_CHECKS = "skip_checks"
    APPLY_OLD_FIX = "apply_old_fix"


CLAIM_WORDING = {
    Claim.PAST_AS_PRESENT: "says a past incident is the current cause",
    Claim.SKIP_CHECKS: "tells responders to skip checks or stop investigating",
    Claim.APPLY_OLD_FIX: "gives applying a past fix as the verdict",
}


@dataclass(frozen=True)
class Sentence:
    index: int
    field: str  # a key of FIELD_GROUPS
    item: int  # which item of its list
    text: str

    @property
    def where(self) -> str:
        """ "hypotheses statement 2": the field and the item, as the model and responders can find it."""
        return self.field if self.field == "current_summary" else f"{self.field.replace('.', ' ')} {self.item + 1}"


_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SPLIT.split(text or "")) if s]


def sentences_of(answer: ModelAnswer | Findings) -> list[Sentence]:
    """Every sentence of every free-text field, numbered (quoted evidence is checked against the incident instead)."""
    fields: list[tuple[str, int, str]] = []
    if isinstance(answer, ModelAnswer):
        fields += [("happening_now", i, s.statement) for i, s in enumerate(answer.happening_now)]
    else:
        fields.append(("current_summary", 0, answer.current_summary))
    for i, c in enumerate(answer.checks_to_run):
        fields += [("checks_to_run.action", i, c.action), ("checks_to_run.why", i, c.why)]
    fields += [("hypotheses.statement", i, h.statement) for i, h in enumerate(answer.hypotheses)]
    fields += [
        ("successful_previous_actions.action", i, a.action) for i, a in enumerate(answer.successful_previous_actions)
    ]
    for i, a in enumerate(answer.failed_previous_actions):
        fields += [
            ("failed_previous_actions.action", i, a.action),
            ("failed_previous_actions.why_it_failed", i, a.why_it_failed),
        ]
    for i, c in enumerate(answer.conflicts):
        fields += [("conflicts.description", i, c.description), ("conflicts.evidence_needed", i, c.evidence_needed)]
    fields += [("open_questions", i, q) for i, q in enumerate(answer.open_questions)]
    out: list[Sentence] = []
    for field, item, text in fields:
        for sentence in split_sentences(text):
            out.append(Sentence(len(out), field, item, sentence))
    return out


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


_SEASON = r"(?:spring|summer|autumn|fall|winter|january|february|march|april|may|june|july|august|september|october|november|december)"
_PERIOD = r"(?:time|" + _SEASON[3:-1] + r"|year|month|week|quarter|incident|outage|occurrence|sale|release|peak)"

# The present thing is a past one (recurrence, identity). Enough on its own where a verdict is read.
RECURRENCE = _words(
    r"again", r"once more", r"one more time", r"a second time", r"all over again",
    r"(?:is|are|'s|'re|was|were|be|been|being|has|have|had)\s{1,40}(?:\w{1,40}\s{1,40})?back",
    r"(?:came|come|comes|coming)\s{1,40}back", r"back again",
    r"(?:has|have|had)\s{1,40}returned(?=\s{0,40}(?:$|[.,;:!?]|and\b|to\b))",
    r"recurr\w{0,30}", r"re-?occurr\w{0,30}", r"reappear\w{0,30}", r"resurfac\w{0,30}", r"relaps\w{0,30}",
    r"repeat(?:s|ing|ed)?\s{1,40}itself", r"repeating", r"a repeat of", r"repetition of",
    r"(?:a\s{1,40})?(?:rerun|re-run|replay|rehash|reprise|redux|carbon copy|copy|instance|recurrence) of",
    r"d[ée]j[àa] vu",
    r"(?:seen|had|hit|faced|met|fixed|solved|handled)\s{1,40}(?:\w{1,40}\s{1,40}){0,2}before(?=\s{0,40}(?:$|[.,;:!?]))",
    r"we(?:'ve| have)?\s{1,40}(?:seen|had|hit|fixed|solved|handled)\s{1,40}(?:exactly\s{1,40})?(?:this|that|it)",
    r"been here before",
    r"(?:the\s{1,40})?same\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,2}?(?:story|thing|issue|problem|bug|failure|fault|cause|culprit|incident|outage|"
    r"pattern|leak|mechanism|beast|defect|root cause|playbook|old)",
    r"exactly (?:like|as) (?:in|last|before|it|we|they|the)", r"just like (?:last|before|in)", r"like last", r"as last",
    r"as (?:it|they|we) (?:did|had|saw)", r"identical (?:to|with)",
    r"old (?:friend|foe|bug|issue|problem|culprit|leak|story|nemesis|enemy|pattern|fault)",
    r"usual suspect", r"known (?:issue|problem|bug|culprit)", r"(?:textbook|classic) case of",
)  # fmt: skip

# A time in the past: a reference to history, not yet a claim.
PAST_TIME = _words(
    r"before(?=\s{0,40}(?:$|[.,;:!?]))", r"previously", r"historically", r"back then", r"at the time", r"in the past",
    r"last " + _PERIOD + r"(?:'s)?", r"(?:a|one|two|three|few|several|some|many)\s{1,40}(?:\w{1,40}\s{1,40})?(?:days|weeks|months|years|quarters)\s{1,40}ago",
    r"(?:in|during|this)\s{1,40}(?:the\s{1,40})?" + _SEASON + r"(?:'s)?", r"(?:previous|prior|earlier|past|former)\s{1,40}(?:incident|outage|occurrence|time)s?",
)  # fmt: skip

# ...and a link to today: a time (weak: "look at the locks now" links nothing) or a predicate
# that makes something today's cause (strong).
NOW_TIME = _words(
    r"now", r"today(?:'s)?", r"currently", r"right now", r"at the moment", r"at present", r"this time",
    r"this (?:incident|outage|one|failure|problem|issue|event|alert|page|fault|beast|mess|exact \w{1,40})",
    r"these (?:errors|failures|timeouts|503s|5xx|alerts|symptoms)",
    r"the current (?:incident|outage|errors?|failures?|problem|one|issue|state|situation)",
)  # fmt: skip
CAUSE_LINK = _words(
    r"what(?:'s| is) (?:happening|going on)", r"(?:is|are) (?:happening|going on)", r"going on",
    r"(?:is|are|'s)\s{1,40}(?:the\s{1,40}|our\s{1,40})?(?:real\s{1,40}|actual\s{1,40})?(?:root\s{1,40})?cause", r"cause of (?:this|it|today|the current)",
    r"to blame", r"responsible for", r"behind (?:this|it|the (?:errors|outage|503s|timeouts|failures))",
    r"explains?", r"accounts? for", r"(?:is|are) causing", r"culprit", r"the answer", r"hitting", r"brought \w{1,40} down",
    r"we(?:'re| are) (?:seeing|facing|dealing with|living through|in)", r"what we have",
)  # fmt: skip
PRESENT = re.compile(NOW_TIME.pattern + "|" + CAUSE_LINK.pattern, re.I)
# The present thing likened to a past one: a claim when what it is likened to is a memory's.
LIKENED = _words(
    r"match(?:es|ing)?",
    r"mirror(?:s|ing)?",
    r"resembl\w{0,30}",
    r"replicat\w{0,30}",
    r"duplicat\w{0,30}",
    r"echo(?:es|ing)?",
    r"same as",
    r"identical",
    r"just like",
    r"exactly like",
    r"no different from",
)
_ASSERTS = _words(r"is", r"are", r"'s", r"'re", r"has", r"have", r"keeps?", r"remains?", r"stays?")

CERTAIN = _words(
    r"definitely", r"clearly", r"obviously", r"certainly", r"surely", r"undoubtedly", r"unquestionably", r"evidently",
    r"no doubt", r"without (?:a |any )?doubt", r"beyond (?:any |reasonable )?doubt", r"for sure", r"of course",
    r"(?:already|well) known", r"we know", r"is known", r"not a (?:hypothesis|guess|theory)", r"no longer a (?:hypothesis|guess)",
    r"precisely", r"exactly what",
)  # fmt: skip

# "It's the…", "This is the…": the present thing named as something.
_IDENTITY = re.compile(
    r"^(?:it|this)(?:'s|’s|\s{1,40}is)\b(?!\s{1,40}(?:how|why|when|where|worth|unclear|not|likely|possible|unknown))",
    re.I,
)
_NOT_A_HEDGE = re.compile(r"\b(?:not|no longer) a (?:hypothesis|guess|theory)\b", re.I)

HEDGE = _words(
    r"may", r"might", r"could", r"possibly", r"possible", r"perhaps", r"maybe", r"whether", r"if", r"unless",
    r"unclear", r"unknown", r"unconfirmed", r"not yet (?:confirmed|known|clear)", r"to be (?:checked|confirmed|verified|ruled out)",
    r"would", r"suspect(?:ed)?", r"hypothes[ie]s", r"candidate", r"rule out", r"consistent with", r"in case", r"pending",
)  # fmt: skip
NEGATION = _words(
    r"not",
    r"\w{1,40}n't",
    r"\w{1,40}n’t",
    r"no",
    r"never",
    r"no longer",
    r"unlike",
    r"rather than",
    r"instead of",
    r"different from",
    r"differs?",
)
_CLAUSE = re.compile(r"\s{0,40}[,:;—–]\s{0,40}|\s{1,40}(?:and|but|so|because|while|which|since)\s{1,40}", re.I)

# Applying a fix: an imperative, a prediction that it will work, or calling it the fix.
_IMPERATIVE = re.compile(
    r"^(?:(?:just|simply|now|so|then|please|immediately|and)\s{1,40}){0,6}"
    r"(?:re-?apply|apply|re-?deploy|deploy|roll\s{1,40}out|ship|push|re-?run|do|use|put|implement|bring\s{1,40}back|restore|"
    r"re-?use|hotfix|patch|re-?release|release|go\s{1,40}(?:ahead\s{1,40})?with|fall\s{1,40}back\s{1,40}to|reinstate|re-?do|repeat)\b",
    re.I,
)
PREDICTION = _words(
    r"(?:will|'ll|should|shall|would|is going to|are going to|going to|must|can)\s{1,40}(?:\w{1,40}\s{1,40})?"
    r"(?:fix|resolve|solve|sort|cure|clear|end|stop|remedy|mitigate|take care of|do the trick|work|restore|settle|handle)",
    r"(?:cures|fixes|resolves|solves|sorts)\s{1,40}(?:it|this|the)",
    r"(?:is|'s)\s{1,40}(?:today's|the|our|the only|the real|the right)\s{1,40}(?:fix|remedy|answer|solution|cure)",
    r"(?:all|what) (?:we|you) need",
)  # fmt: skip
OLD_FIX = _words(
    r"(?:old|same|previous|prior|earlier|last time's|known|usual|proven|existing|spring|[\w-]{1,40}-block)\s{1,40}"
    r"(?:[\w-]{1,40}\s{1,40})?(?:fix|patch|remedy|workaround|solution|change|playbook|runbook|hotfix|mitigation|cure)",
    r"what (?:worked|fixed it)", r"the fix that worked",
)  # fmt: skip
_GENERIC_FIX = _words(r"(?:the|that|this) (?:[\w-]{1,40}\s{1,40})?(?:fix|patch|remedy|workaround|hotfix)")
CONDITION = _words(
    r"if",
    r"once",
    r"after",
    r"when",
    r"unless",
    r"whether",
    r"provided",
    r"assuming",
    r"in case",
    r"only",
    r"until",
    r"pending",
    r"as soon as",
    r"confirm(?:s|ed)?",
)

# Skipping verification.
_TARGET = (
    r"(?:investigat\w{0,30}|check\w{0,30}|verif\w{0,30}|confirm\w{0,30}|look\w{0,30}|dig\w{0,30}|debug\w{0,30}|diagnos\w{0,30}|triag\w{0,30}|test\w{0,30}|validat\w{0,30}|"
    r"analy[sz]\w{0,30}|troubleshoot\w{0,30}|inspect\w{0,30}|evidence|data|question\w{0,30}|research\w{0,30}|explor\w{0,30}|examin\w{0,30}|review\w{0,30}|"
    r"figur\w{0,30} out|find out|work out|learn\w{0,30}|understand\w{0,30}|gather\w{0,30}|pg_stat_activity|dashboards?|logs|metrics|traces?|"
    r"theor(?:y|ies)|hypothes\w{0,30}|the investigation)"
)
SKIP = re.compile(
    r"(?<![\w-])(?:"
    r"(?:skip|skipping|bypass|forgo|forget|ditch|abandon|drop|ignore|stop|halt|cease|quit|end|close|call off|wrap up|"
    r"give up|cut short|short-circuit)\s{1,40}(?:[\w'-]{1,40}\s{1,40}){0,5}?"
    + _TARGET
    + r"|(?:no need|needn't|need not|(?:don't|do not) need|no reason|no point|nothing (?:new |more |else |further |left )?|"
    r"no further|no more|without (?:any |more |further )?|(?:don't|do not) bother|not worth|why bother|why waste)"
    r"\s{0,40}(?:[\w'-]{1,40}\s{1,40}){0,3}?"
    + _TARGET
    + r"|"
    + _TARGET
    + r"\s{1,40}(?:[\w'-]{1,40}\s{1,40}){0,3}?(?:unnecessary|pointless|not needed|needless|moot|redundant|superfluous|"
    r"overkill|a formality|only delay\w{0,30}|a waste)"
    + r"|no (?:\w{1,40} )?(?:checks?|investigation|verification|evidence|questions?)\b(?! (?:of|that|about|from))"
    + r"|none needed|not needed|a waste of time|waste (?:of )?time|wasting time|(?:only |just |merely )?a formality|"
    r"box-ticking|case closed|end of story|move on|nothing to ask|already know|we know (?:it|what|the)|would only delay|"
    r"close (?:the|this) (?:incident|investigation|out)|close (?:it|this) out"
    r")(?![\w-])",
    re.I,
)


@dataclass(frozen=True)
class Verdict:
    sentence: Sentence
    claim: Claim
    source: str = "rules"  # or "second opinion"

    def describe(self) -> str:
        by = " (second opinion)" if self.source != "rules" else ""
        return f"{self.sentence.where} {CLAIM_WORDING[self.claim]}{by}: “{clip(self.sentence.text, 200)}”"


def _clauses(sentence: str) -> list[str]:
    return [c for c in _CLAUSE.split(sentence) if c.strip()]


def _hedged(sentence: str) -> bool:
    return bool(HEDGE.search(_NOT_A_HEDGE.sub(" ", sentence)))


def past_as_present(sentence: Sentence, past: PastContent, memory_ids: list[str]) -> bool:
    text = sentence.text
    group = FIELD_GROUPS[sentence.field]
    certain = bool(CERTAIN.search(text))
    if text.endswith("?") and not certain:
        return False  # a question asks; only a rhetorical one that already knows the answer claims
    if _hedged(text) and not certain:
        return False
    named = any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text, re.I) for i in memory_ids)
    clauses = [c for c in _clauses(text) if not NEGATION.search(c)]
    for clause in clauses:
        recurrence = bool(RECURRENCE.search(clause)) or bool(LIKENED.search(clause) and past.carried(clause, minimum=1))
        history = recurrence or bool(PAST_TIME.search(clause)) or named
        if group is Group.NOW:
            if history or (certain and past.carried(clause)):
                return True
            continue
        if group is Group.VERDICT and recurrence:
            return True
        linked = PRESENT.search(clause) or _IDENTITY.search(clause) or CERTAIN.search(clause)
        if history and linked:
            return True
        if NOW_TIME.search(clause) and _ASSERTS.search(clause) and past.carried(clause):
            return True  # "the pool is leaking through the retry loop right now"
    if group is not Group.NOW and clauses and (CAUSE_LINK.search(text) or certain):
        # the link and the past may sit in different clauses: "…the retry path leaks, which is what is hitting checkout"
        return bool(past.carried(text) or any(RECURRENCE.search(c) or PAST_TIME.search(c) for c in clauses))
    return False


def skips_checks(sentence: Sentence) -> bool:
    return bool(SKIP.search(sentence.text))


def applies_old_fix(sentence: Sentence, past: PastContent) -> bool:
    text = sentence.text
    if CONDITION.search(text):
        return False  # "if pg_stat_activity shows it, release…": a check first, then the fix
    group = FIELD_GROUPS[sentence.field]
    for clause in _clauses(text):
        acts = bool(_IMPERATIVE.search(clause))
        predicts = bool(PREDICTION.search(clause))
        if not (acts or predicts):
            continue
        old = bool(OLD_FIX.search(clause))
        if group is Group.HISTORY and not predicts:
            # what worked before is often written as an order ("release the connection…"): only an
            # old fix as such, or a link to today, makes it today's verdict
            if old or PRESENT.search(clause) or RECURRENCE.search(clause):
                return True
            continue
        if old or _GENERIC_FIX.search(clause) or past.fix_carried(clause) or (predicts and past.carried(clause)):
            return True
        if predicts and (
            sentence.field == "successful_previous_actions.action" or past.fix_carried(text) or OLD_FIX.search(text)
        ):
            return True  # "Released connections in finally, which is today's fix": what worked, made today's verdict
    return False


def rule_verdicts(sentences: list[Sentence], past: PastContent, memory_ids: list[str]) -> list[Verdict]:
    verdicts: list[Verdict] = []
    for sentence in sentences:
        if skips_checks(sentence):
            verdicts.append(Verdict(sentence, Claim.SKIP_CHECKS))
        elif applies_old_fix(sentence, past):
            verdicts.append(Verdict(sentence, Claim.APPLY_OLD_FIX))
        elif past_as_present(sentence, past, memory_ids):
            verdicts.append(Verdict(sentence, Claim.PAST_AS_PRESENT))
    return verdicts
