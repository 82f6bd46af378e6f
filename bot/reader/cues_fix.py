r"""What reads like a fix but names no step that fixed it, and the cause said around it: a section of
the one vocabulary (bot/reader/cues.py, kept apart for length only), used by bot/reader/fix.py and
bot/importer/cause_fix.py.

- Work still under way ("we are working with the data centre provider to restore service", "work
  continues with restoring affected pods", "connectivity is being restored", "we hope to have the
  remaining nodes restored soon"): a status page's progress line, not a step that was taken.
- A fix word said not to have happened ("a certificate that had not been renewed", "the firewall
  was not re-enabled after the reboot", "has not been patched yet"): that is a cause, not the fix.
- The state said once it is over, with the incident as its subject and nothing after it that says
  how ("The issue affecting cluster launches has been resolved.", "We believe the issue around DNS
  records is fixed."). `STATE_ONLY` (cues_metadata.py) keeps the shorter "All services back to
  normal."; this one is the longer subject a status page names its incident by.
- The cause beside them (`CAUSE_*`, `INCIDENT_AS_CAUSE`): a cause said found but not named, denied or
  told elsewhere, the incident on its own cause side, the incident's own cause named, what it relates
  to, and what broke named as a status entry's subject (`CAUSE_AS_SUBJECT`).

Patterns are linear in the text (bounded repeats only); the readers cap the text first.
"""

from __future__ import annotations

import re

from bot.reader.cues import CHAT_ACTION, THE_TROUBLE_IS
from bot.reader.cues_metadata import MONTH

_FIX_WORD = r"(?:resolv|restor|fix|mitigat|recover|repair|re-?energi[sz])\w{0,12}"
_WORDS = r"(?:[\w'’(),-]{1,40}\s{1,4})"
FIX_UNDER_WAY = re.compile(
    # a verb of ongoing effort, then (a few words on) "to / on / towards / with" and the fix word
    r"\b(?:working|workking|continu(?:e|es|ing)|progressing|trying|efforts?|striving|hop(?:e|es|ing)|aim(?:s|ing)?|"
    r"work (?:is |are )?(?:continu\w{0,12}|progress\w{0,12}|ongoing))\s{1,4}"
    + _WORDS
    + r"{0,6}?(?:to|on|towards?|with|at)\s{1,4}"
    + _WORDS
    + r"{0,2}?"
    + _FIX_WORD
    + r"|\b(?:is|are)\s{1,4}(?:still\s{1,4}|now\s{1,4}|currently\s{1,4})?being\s{1,4}"
    + _FIX_WORD
    # "a fix is being implemented", "the fix is still being tested": which step, not said yet
    + r"|\bfix(?:es)?\s{1,4}(?:is|are)\s{1,4}(?:still\s{1,4}|now\s{1,4}|currently\s{1,4})?being\s{1,4}(?:implemented|deployed|worked on|rolled out|"
    r"developed|prepared|tested|written|reviewed|applied)\b"
    # "the work to recover the affected virtual machines is ongoing", "restoration is under way"
    + r"|\b(?:work|restoration|recovery|efforts?)\s{1,4}"
    + _WORDS
    + r"{0,10}?(?:is|are|remains?)\s{1,4}(?:still\s{1,4})?(?:ongoing|under ?way|in progress|progressing|continuing)\b"
    # "we hope to have these remaining nodes restored soon", "awaiting confirmation … restoration of service"
    + r"|\b(?:hope|expect|aim|plan)\w{0,12} to (?:have|get)\s{1,4}"
    + _WORDS
    + r"{0,6}?"
    + _FIX_WORD
    + r"|\b(?:await\w{0,12}|waiting (?:for|on))\s{1,4}"
    + _WORDS
    + r"{0,10}?"
    + _FIX_WORD
    # "workloads are now recovering", "error rates are returning to normal": under way, no step named
    + r"|\b(?:is|are)\s{1,4}(?:now\s{1,4}|still\s{1,4}|slowly\s{1,4}|gradually\s{1,4}|steadily\s{1,4})?(?:recovering|coming back|returning to normal)\b",
    re.I,
)
# a fix word with a negation a few words before it ("had not been renewed", "was not reenabled across
# reboots", "hasn't been fully discovered yet or patched"), or said to fail ("fail to resolve names"): a state, after was / has / had; "did not
# resolve it" is an outcome (a failed attempt), "was not resolved until we …" names the step
FIX_NOT_DONE = re.compile(
    r"(?:\b(?:was|were|is|are|has|have|had|been)\s{0,4}(?:not|never|n't)\s{1,4}(?:(?!until\b|till\b|before\b|after\b|once\b|when\b|but\b)[\w'-]{1,40}\s{1,4}){0,4}?|"
    # "the nameservers periodically fail to resolve names", "unable to restore it": a failure, not a step
    r"\b(?:fail(?:s|ed|ing)?|unable|not able) to\s{1,4}|\b(?:could|can|would)\s{0,4}(?:not|n't)\s{1,4}|\bcannot\s{1,4})"
    r"(?:renew|re-?enabl|patch|updat|fix|restor|repair|rotat|revok|resolv|mitigat|remov|delet)\w{0,12}\b"
    r"(?![^.;]{0,120}\b(?:until|till|unless)\b)",
    re.I,
)
# The incident or what it hit named as the subject, then "has been resolved / restored" and nothing
# that says how ("All customer workload has been restored.", "**Update: 23:17** - Connectivity has
# been restored"); "… restored from the snapshot", "… resolved by restarting" name the step.
_STATE_PREFIX = (
    r"^[\W_]{0,6}(?:(?:update|resolved|monitoring|identified)\b[^A-Za-z]{0,40})?(?:\{\{[<%][^{}]{0,80}[>%]\}\}\s{0,4})?"
    # a month's day before the time ("Aug 28 @ 6:17AM"): a month's name, never any word ("Reverted 14:05 - …" names a
    # step; review F82)
    r"(?:(?:" + MONTH + r" \d{1,2}(?:st|nd|rd|th)?,?(?: \d{4})?\s{0,3}(?:@|at)?\s{0,3})?"
    r"[\d/:.T -]{4,25}(?:utc|gmt|z|[ap]\.?m\.?|[a-z]{1,3}t)?[*\s]{0,6}(?:—|–|-|:)\s{0,4})?"
    r"(?:we (?:believe|think|are (?:happy|pleased|glad)(?: to (?:report|confirm|say))?) (?:that )?)?"
)
_INCIDENT_NOUN = (
    r"(?:issues?|problems?|incidents?|errors?|failures?|outages?|disruptions?|services?|workloads?|connectivity|access|"
    r"functionality|performance|systems?|everything|instances?|resources?|clusters?|nodes?|power|servers?|(?:web ?)?sites?)"
)
STATE_OF_THE_INCIDENT = re.compile(
    _STATE_PREFIX + r"(?:(?:all|most|some|the majority|the rest|the remainder|\d{1,6} ?%)\s{1,4}of\s{1,4})?"
    r"(?:(?:all|the|this|these|that|our|affected|customer|remaining)\s{1,4}){0,3}"
    # two words of what it names, or up to five words (a letter in each) when none is a person, an auxiliary or a past
    # participle ("SSH and mail access to campus", "compute and Kubernetes cluster instance services"): "… has been
    # corrected and service is …" and "Failover 2024-03-05 - services were restored" name a step
    r"(?:(?:[\w'’-]{1,40}\s{1,4}){0,2}?|"
    r"(?:(?!(?:we|i|they|he|she|you|has|have|had|was|were|is|are|be|been)\b|[\w'’-]{1,38}ed\b)(?=[\w'’()-]{0,39}[^\W\d_])[\w'’()-]{1,40}\s{1,4}){3,5}?)"
    + _INCIDENT_NOUN
    + r"\b(?:[^.;:]{0,120}?)\s{1,4}"
    r"(?:(?:has|have|had|is|are|was|were|(?:appears?|seems?) to have)\s{1,4}(?:(?:now|all|fully|been|also|identified and|(?:\w{1,30} )?transitory and)\s{1,4}){0,3}"
    r"(?:resolved|fixed|mitigated|cleared|addressed|gone|restored|recovered|resumed|back (?:up|online|to normal)|"
    r"returned to normal)\b|"
    # the state only beginning to come back ("Services Started coming back online"): no step named
    r"(?:started|began|begun)\s{1,4}(?:to\s{1,4}(?:be\s{1,4})?)?(?:restored|recover\w{0,3}|com(?:e|ing)\s{1,4}back))\b"
    r"(?![^.;]{0,120}\b(?:by|after|via|from|thanks|because|due|following|once|when|with|using|through)\b)"
    r"[^.;!]{0,120}[.!]?\s*$",
    re.I,
)
# The state said of anything, the subject free ("Storage and network performance in the London (LON1) region has returned to
# normal levels", "The issue has been remediated", "everything is back online"): a copula or a passive and a word of the
# state alone, no agent after it ("… resolved after the cache was invalidated" names the step); "restored", "recovered",
# "fixed" are left to STATE_OF_THE_INCIDENT's nouns, since a thing restored is a step ("the metrics container was
# restored"). Read as a frame (bot/reader/fix.py `_only_the_state_said`): the sentence names no step when no fix word and
# no one who acts (ACTOR_SAID) is left outside it, so "We rolled back and service is stable again" keeps its step.
_NO_AGENT_AFTER = r"(?![^.;]{0,120}?\b(?:by|after|via|thanks|following|once|when|using|through)\b)"
STATE_SAID = re.compile(
    r"\b(?:is|are|was|were|(?:has|have|had)\s{1,4}been|(?:appears?|seems?)\s{1,4}to\s{1,4}(?:be|have\s{1,4}been))\s{1,4}"
    r"(?:(?:now|all|fully|also|again|completely|largely|mostly|successfully|considered|believed to be)\s{1,4}){0,3}"
    r"(?:back\s{1,4}(?:up|online|to\s{1,4}normal)|resolved|remediated|(?:fully\s{1,4})?operational|stable|"
    r"(?:working|running|operating|performing)\s{1,4}(?:again|normally|as\s{1,4}(?:expected|normal))|"
    r"returned\s{1,4}to\s{1,4}normal(?:\s{1,4}levels?)?)\b" + _NO_AGENT_AFTER + r"|"
    r"\b(?:has|have|had)\s{1,4}(?:now\s{1,4}|fully\s{1,4})?returned\s{1,4}to\s{1,4}normal(?:\s{1,4}levels?)?\b"
    + _NO_AGENT_AFTER
    + r"|"
    r"\b(?:came|come|comes|coming)\s{1,4}back\s{1,4}(?:up|online)\b" + _NO_AGENT_AFTER + r"|"
    # the incident declared over ("We consider the original incident resolved.", "we now consider this issue closed")
    r"\b(?:we\s{1,4}(?:now\s{1,4})?)?consider(?:s|ed)?\s{1,4}(?:(?:the|this|that|our)\s{1,4})?(?:original\s{1,4})?(?:incident|issue|outage|problem)\s{1,4}"
    r"(?:to\s{1,4}be\s{1,4})?(?:resolved|closed|over|fixed)\b|"
    # a status line's bare participle, the whole sentence ("11:15PM CT — Services Restored.")
    r"^(?:[^\w]{0,6}[\d:]{3,5}\s?(?:[ap]\.?m\.?)?(?:\s?[a-z]{1,3}t)?\s{0,3}[—–:-]\s{0,3})?(?:all\s{1,4})?(?:services?|systems?|connectivity|access)"
    r"\s{1,4}(?:now\s{1,4}|fully\s{1,4})?(?:restored|resolved|back\s{1,4}(?:up|online))[.!]?\s{0,3}$|"
    # resolved with no object: "the burn-rate alerts have all resolved in Alertmanager" ("have resolved the fault": a step)
    r"\b(?:has|have|had)\s{1,4}(?:all\s{1,4}|now\s{1,4})?resolved\b"
    r"(?!\s{1,4}(?:the|a|an|this|that|these|those|it|them|our|their|its|his|her|all|both|each|every|some|any)\b)"
    + _NO_AGENT_AFTER,
    re.I,
)
# someone who acts, named in a sentence ("we", "I", "the team", "engineers", "@alice"), or a step told in the passive
# ("The configuration has been corrected and …"): a step may be named there
ACTOR_SAID = re.compile(
    r"\b(?:we|i|us|our\s{1,4}(?:team|engineers?|admins?|staff)|the\s{1,4}team|engineers?|admins?|administrators?|"
    r"operators?|on-?call|responders?)\b|(?:^|\s)@\w"
    r"|\b(?:was|were|been|being)\s{1,4}(?:[a-z]{1,20}ly\s{1,4})?[a-z]{2,30}(?:ed|en|wn|lt|ut)\b",
    re.I,
)
# it went away with no one's step ("it has previously always resolved itself", "recovered on its own"):
# self-recovery has no fix (eval/README.md)
FIX_BY_ITSELF = re.compile(
    r"\b(?:resolv|recover|fix|clear|heal|restor)\w{0,12}\s{1,4}(?:(?:itself|themselves)|(?:on|by) (?:its|their) own|by itself)\b",
    re.I,
)
# what the readers are asked to do, one sentence alone ("Please open an issue on GitHub for any further query about
# missing or unpublished builds.", "If your Repl is in the remaining 2.5% …, you can email support …", "If you are still
# experiencing any issues, please contact us."): a request to the reader, no step the responders took (issue 23, pmfix).
# The metadata shape for where to ask (cues_metadata_shape.py) cuts the help-desk lines from every field; this frame is
# the fix's only. "Please note / be aware that …" tells something and is not read as asking.
# an invitation to ask ("feel free to", "do not hesitate to"): one fragment, read here and by cues_metadata_shape's
# "where to ask" lines (review F59)
INVITE_TO_ASK = r"(?:feel free|do not hesitate|don't hesitate)"
# the request verbs, how a reader is asked to reach the team ("contact us", "reach out to support", "get in touch with the
# helpdesk"), each with the word its object follows: one list, read here and by cues_metadata_shape's "where to ask"
# lines, bare (REACH_US: "If you …, contact us") or with that word (REACH_US_WHOM: "please reach out to the helpdesk");
# an e-mail is asked alike (EMAIL_US), but never after an invitation ("feel free to e-mail" was not read as one)
# (review F59's leftover: both patterns wrote these verbs; tests/test_reader_request_verbs.py)
REACH_US_VERBS = (("contact", ""), ("get in touch", " with"), ("reach out", " to"))
REACH_US = "(?:" + "|".join(verb for verb, _ in REACH_US_VERBS) + ")"
REACH_US_WHOM = "(?:" + "|".join(verb + whom for verb, whom in REACH_US_VERBS) + ")"
EMAIL_US = r"e-?mail"
FIX_ASKED_OF_READER = re.compile(
    _STATE_PREFIX + r"(?:if (?:you|your)\b(?:[^.;!?]|\.(?=\S)){0,200}?,\s{0,3}(?:please|you|" + INVITE_TO_ASK + r"|"
    r"let us know|" + REACH_US + "|" + EMAIL_US + r"|we (?:will|are|'ll) (?:[\w-]{1,30} ){0,4}?contact\w{0,4})\b|"
    r"please\b(?!\s{1,4}(?:note|be aware|bear in mind|know)\b)|" + INVITE_TO_ASK + r" to\b)"
    r"(?:[^.!?]|\.(?=\S)){0,400}[.!?]?\s*$",
    re.I,
)
# a tool's reading, a count of what it repaired ("0B repaired, 20.80% done"): what was seen, not a step
FIX_COUNTED = re.compile(
    r"(?<![\w.,])\d[\d.,]{0,20}\s?[a-z]{0,3}\s{1,4}(?:repaired|fixed|restored|recovered|resolved)\b(?!\s+(?:by|after|with|via))",
    re.I,
)
# telling people about it ("Joel posts a short summary … that it has now been resolved", "wider team informed of
# fix", "acknowledges that a fix is being worked on", "announced the recovery on Discord"): a line about the
# incident, not a step in it
FIX_TOLD = re.compile(
    r"\b(?:posts|posted|advis(?:es|ed)|announc(?:es|ed|ing)|inform(?:s|ed)? (?:of|that|about)|notif(?:ies|ied) (?:of|that|about)|"
    r"tweet(?:s|ed)|acknowledg(?:es|ed)|let (?:\w{1,30} ){1,2}know)\b[^.;,]{0,160}?\b(?:fix|resolv|restor|recover|mitigat)\w{0,12}",
    re.I,
)
# how the incident began, told with what set it off ("The problem occurred when switching the search cluster from one
# provider to another", "the outage started after the 14:02 deploy"): the step named started it and fixed nothing
# (review F64: a status update telling its cause before "Now one of the two shards was restored", read as a step by
# the sentence model's fix head). The incident's onset only: "errors stopped after the rollback" is no onset.
FIX_IS_THE_ONSET = re.compile(
    r"\b(?:the|this|that) (?:[\w-]{1,30} ){0,2}?(?:incident|outage|problem|issue|downtime|degradation|disruption)s? "
    r"(?:first |initially |originally )?(?:occurr?ed|started|began|happened|arose) (?:when|after|while|during|following)\b",
    re.I,
)
# the fix word only as what could or would happen ("Aggressive per-call pruning could fix this but risks losing
# context", "the earliest that power would be restored"), or as what someone else was asked for or works on ("A remote
# tech has been contacted to restore connectivity", "we are talking to ITS to resolve this"): no step taken
# (bot/reader/fix.py)
FIX_HYPOTHETICAL = re.compile(
    r"\b(?:could|would|might|may)(?:n['’]t|\s{1,4}not)?\s{1,4}(?:(?:also|easily|have|been|be|likely|probably|still)\s{1,4}){0,3}"
    + _FIX_WORD
    + r"|\b(?:talking|speaking|liaising|in contact|contacted|engaged)\b[^.;:!?]{0,100}?\bto\s{1,4}(?:[\w-]{1,30}\s{1,4})?"
    + _FIX_WORD
    # work done by or with others toward it ("Work is being done to help the dependency resolve their issue", "We are
    # working with them to understand why this is happening and resolve the issue"), a wish ("I'd appreciate if some
    # expert helped me resolve this")
    + r"|\b(?:work\s{1,4}is\s{1,4}being\s{1,4}done|working\s{1,4}with\s{1,4}(?:them|[\w-]{1,30}))\b[^.;:!?]{0,100}?"
    r"\b(?:to|and)\s{1,4}(?:[\w-]{1,30}\s{1,4}){0,3}?"
    + _FIX_WORD
    + r"|\b(?:i|we)(?:['’]d|\s{1,4}would)\s{1,4}(?:appreciate|like|love|welcome)\b[^.;:!?]{0,100}?"
    + _FIX_WORD,
    re.I,
)
# what caused the incident, told with a fix word inside it ("The root disk filled up because of some logs that didn't
# get rotated", "The error stemmed from rotating all API tokens", "The issue was caused by incomplete replication after
# the signatures had been renewed"): the step named set it off and fixed nothing. Only when every fix word of the
# sentence follows the cause's word in the same clause (no comma, "and", "which", "we" between): "Due to a bug, we
# rolled back" and "caused by a bad config, which was reverted" keep their step (bot/reader/fix.py).
FIX_INSIDE_THE_CAUSE = re.compile(
    r"\b(?:caused by|because|due to|stemm(?:ed|ing|s) from|(?:was|is|were|are) (?:a|the) (?:direct )?result of|"
    r"result(?:ed|ing|s)? from|as a result of)\b"
    r"(?:(?![,;:()\u2013\u2014]|\s-\s|\b(?:and|but|so|then|which|who|we|they|i|until|before|when|once)\b)[^.!?]){1,200}?$",
    re.I,
)
# The step not taken yet, told by how its verb is told (issue 23, r23-fix: many wrong fixes on fold A were such
# lines with a fix word): a plan or a forecast ("We will restore routes once we get the all clear", "Will be back up
# when they fix their end", "I'll fix it up there"), what is expected ("Instances … should be coming up correctly"),
# a state that only looks right ("the recovery process looks stable"), the watch after it ("We are now monitoring
# to confirm the fix holds"). Each frame runs to its clause's end; the watch stops where a step is named after it.
# Read as FIX_UNDER_WAY is: the sentence names no step when what is left outside the frames has no fix word and no
# step (bot/reader/fix.py). Work under way in any other progressive ("We are tentatively restoring routes") is not
# one of them: status pages label such a line as their fix ("we are working with the data centre team to power
# servers on"), and dropping it cost fold A's write half three right fixes.
_CLAUSE_REST = r"[^.;:!?\n]{0,200}"
_UNTIL_A_STEP = (
    r"(?:(?!\b(?:by|via|after|following|thanks to|because|but|and (?:we|i|then|have|has|had))\b)[^.;:!?\n]){0,200}"
)
FIX_NOT_YET = re.compile(
    r"\b(?:is|are|am)\s{1,4}(?:now\s{1,4}|still\s{1,4}|currently\s{1,4}|also\s{1,4}){0,2}monitoring\b"
    + _UNTIL_A_STEP
    + r"|(?:\b(?:will|shall|(?:is|are|am) going to|plan(?:s|ning)? to|intends? to)|['’]ll)\s"
    + _CLAUSE_REST
    + r"|\bshould (?:now |all |also |soon )?be\s"
    + _CLAUSE_REST
    # the state with what it is said of ("the recovery process looks stable"); not a step as that subject
    + r"|(?:\b(?!(?:fix|roll|revert|restart|reboot|patch|failover|upgrad|downgrad|chang|deploy|migrat))[\w-]{1,30}\s{1,4}){0,3}"
    r"(?:looks?|seems?|appears?|remains?)\s{1,4}(?:to be\s{1,4})?(?:stable|fine|good|healthy|normal|ok)\b"
    + _CLAUSE_REST,
    re.I,
)
# Where the fix is told instead of the fix ("Now that the timeline is established, we explain what actions took place
# to resolve it", "This post details how I went about fixing the problem"): a pointer names no step.
FIX_ELSEWHERE = re.compile(
    r"\b(?:(?:this|the following|the next) (?:post|article|write-?up|document|report|section|page)s? "
    r"(?:details?|describes?|explains?|covers?|goes into|walks through)|(?:we|i) (?:explain|describe|detail|walk through|"
    r"go over)|(?:is|are) (?:detailed|described|explained|outlined) (?:below|above|later|in the)|see below)\b"
    + _CLAUSE_REST,
    re.I,
)
# What keeps it from happening again, said first ("To prevent its recurrence, we have filed a ticket …"): a follow-up,
# not the fix; a step told with its purpose ("Explicit memory limits were set to prevent users from evicting each
# other") is the fix, so only a sentence that opens so.
FIX_FOR_LATER = re.compile(
    r"^\W{0,3}(?:to (?:prevent|avoid)|in (?:the )?future|going forward|from now on)\b" + _CLAUSE_REST,
    re.I,
)
# what a status page expects once it is fixed ("launches should be operational as usual now"): not a
# critique's "should", so a fix said beside it is still read
EXPECTED_STATE = re.compile(
    r"\bshould (?:now )?(?:be )?(?:back |fully )?(?:operational|working|functional|available|online|normal|stable|"
    r"fine|ok|up)\b",
    re.I,
)
# What is no cause, on a status page: the cause said found but not named ("We have identified the root
# cause and are working on the fix", "The root causes have been identified"), the cause still sought
# ("We're investigating the cause", "continuing to track down the cause"), a warning to users
# ("Restarting instances will cause them to be affected", "Affected users may notice restarts").
# "We identified the root cause as a full disk" and "Sam found the culprit (a VM taking all the disk I/O)"
# name it and are kept.
# One meaning, one place: the cause said found ("identified", "tracked down", "pinpointed" …) and what it is called
# ("the likely root cause", "the culprit"), read here as a frame inside a sentence and by the metadata shapes as a
# status page's whole line (cues_metadata_shape.CAUSE_FOUND_UNTOLD).
CAUSE_FOUND_VERB = (
    r"(?:identified|located|found|determined|confirmed|isolated|pinpointed|tracked down|established|understood|know)"
)
CAUSE_NOUN = r"(?:the |an? )?(?:likely |probable |underlying |main )?(?:root )?(?:causes?|culprit)"
CAUSE_NOT_SAID = re.compile(
    r"\b(?:" + CAUSE_FOUND_VERB + r"\s{1,4}(?:what (?:is |was )?)?" + CAUSE_NOUN + r"|"
    r"(?:root )?causes? (?:has|have) (?:now )?been " + CAUSE_FOUND_VERB + r")\b"
    r"(?!\s+(?:as|was|were|is|are|being|to be|of|behind|for)\b|\s*[:(—–-])|"
    r"\b(?:investigat\w{0,12}|track(?:ing)? down|looking (?:into|for)|(?:try|trying|work\w{0,12}) to (?:identify|determine|understand|find))\s{1,4}"
    r"(?:the |what (?:is |was )?|possible )?(?:root )?(?:causes?|culprit)\b|"
    r"\b(?:will|may|might|could) (?:cause (?:them|it|these|those|your|you|us)|notice|experience)\b",
    re.I,
)
# A cause word denied ("PyPI was not compromised", "The issue was not exploited", "has not been breached with
# this attack"): what did not happen is no cause
CAUSE_DENIED = re.compile(
    r"\b(?:was|were|is|are|has|have|had)(?:n't| not| never)(?: been)? "
    r"(?:compromised|exploited|breached|hacked|attacked|leaked|corrupted)\b",
    re.I,
)
# A pointer to where the details are ("Full timeline, root cause and corrective actions are detailed below",
# "You can read more about the attack on their blog"): it names no cause, whatever words it lists
CAUSE_ELSEWHERE = re.compile(
    r"\b(?:read more|(?:more|further|full) (?:details|information|info)(?: \w{1,30}){0,3} "
    r"(?:can be found|is available|are available|below|above|here|in|at|on)|"
    r"(?:are|is) (?:detailed|described|explained|outlined|documented|covered) (?:below|above|here|in (?:the|this|our) \w+)|"
    r"see (?:the |our )?(?:\w{1,30} ){0,3}for (?:more |further |full )?(?:details|information))\b",
    re.I,
)
# The incident itself on the cause side and what it did on the other ("… due to this issue", "The issue that
# caused the API to become inaccessible has been rectified", "the frustrations this prolonged outage is
# causing"), or the issue's state ("the issue is now resolved", "the issue is confirmed with our partner"):
# no cause named. "The issue was caused by …" and "due to the issue with the balancer" go on to name one.
INCIDENT_AS_CAUSE = re.compile(
    r"\b(?:due to|because of|caused by|as a result of) (?:this|that|these|those|the) "
    r"(?:issues?|incidents?|outages?|problems?|disruptions?)\b(?!\s+(?:with|in|on|of|at|where|that|which)\b)|"
    r"\b(?:(?:this|that|these|those) (?:\w{1,30} )?|the )(?:issues?|incidents?|outages?|problems?|disruptions?) "
    r"(?:that |which )?(?:(?:is|was|were|has|have|had|has been|had been) )?(?:causing|caused)\b(?! by\b)|"
    r"\bthe (?:issue|problem) (?:is|was|has been) (?:(?:now|still|fully|being|currently|also) ){0,2}"
    r"(?:resolved|fixed|confirmed|mitigated|ongoing)\b",
    re.I,
)
# the trouble named as the incident, the words CAUSE_OF_THE_INCIDENT and CAUSE_TOLD_OUTRIGHT share ("the outage was
# caused by …", "causing our problem", "the issue happened because …"; review F79: written once). Each adds its own:
# the former "disruption", "breach"; the latter "disruption", "error", "crash" (their union moved a fold B draft, so it
# is a reading rule of its own, not this refactor)
_THE_TROUBLE = r"incident|issue|outage|problem|failure|downtime"
# The incident's own cause named, not a cause word in passing ("… because we use kube-lego", "… causing 500
# errors"): "the incident was caused by a misconfiguration", "The cause of the site outage has been
# identified as a failure of the UPS", "the underlying cause is that …", "This is because …", "…, causing our
# problem", "the root cause of this problem: the server needs more RAM". A summary's sentences that say so are
# read before its other cause-word sentences.
CAUSE_OF_THE_INCIDENT = re.compile(
    r"\b(?:the|this|our) (?:"
    + _THE_TROUBLE
    + r"|disruption|breach)s? (?:was|were|is|has been|had been) (?:(?:mainly|primarily|ultimately|originally|directly|actually) )?"
    r"(?:caused|triggered) by\b|"
    r"\b(?:root|underlying|main|primary|direct) causes?(?: of (?!why|what|how)[\w' -]{1,60}?)?(?:\s(?:was|were|is|are)\b|\s?:)"
    r"(?!\s+(?:still |not |yet |being |under |unknown|unclear|deeper|elsewhere))|"
    r"\bthe cause (?:of (?!why|what|how)[\w' -]{1,60}? )?(?:was|is|has been (?:identified|confirmed|determined) as|"
    r"(?:was|is) (?:identified|confirmed|determined) (?:as|to be)|turned out to be)\b"
    r"(?!\s+(?:still |not |yet |being |under |unknown|unclear|deeper|elsewhere))|"
    r"^(?:this|that|it) (?:is|was) (?:all |simply |mainly )?because\b|"
    r"\bcausing (?:our|the|this) (?:" + _THE_TROUBLE + r")s?\b",
    re.I,
)
# The incident's cause told outright in another way: what happened and why in one breath ("This happened because Loki
# … was running a too new and unsupported version", "the outage was due to …"), the trouble equated with its cause ("The
# issue was outdated application configuration", never "The issue was detected by …"), or the cause tracked down ("We've
# tracked the cause down to an incompatibility …"). With CAUSE_OF_THE_INCIDENT, what a summary says before a root cause
# section whose heading names the cause (bot/importer/cause_fix.py `cause_before_the_mechanism`; docs/BENCHMARKS.md,
# pmcause, seventeenth session). A cause told elsewhere ("The cause is the same as an earlier incident") or not yet
# established names none (`CAUSE_NOT_OWN`).
CAUSE_TOLD_OUTRIGHT = re.compile(
    r"\b(?:this|it|the (?:" + _THE_TROUBLE + r"|disruption|error|crash)s?)\s{1,4}"
    r"(?:happened|occurred|was|were)\s{1,4}(?:(?:all|simply|mainly|ultimately|partly)\s{1,4})?"
    r"(?:because|due to|caused by)\b|"
    r"\b" + THE_TROUBLE_IS + r"\b(?!\s{1,4}(?:that we|not|unknown|unclear|still|resolved|fixed|"
    r"mitigated|detected|reported|noticed|found|first|identified|discovered|escalated|raised|seen|observed|confirmed)\b)|"
    r"\btracked (?:the (?:cause|problem|issue) |it )?down to\b",
    re.I,
)
CAUSE_NOT_OWN = re.compile(r"\b(?:the same as|not (?:yet )?established)\b", re.I)
# The incident said to relate to something ("Issue was related to outgoing routes via Algar", "suggesting the 502s
# relate to issues routing between the CDN's tiers", "The pruning issue was largely related to the patch"): a cause
# the summary names without a cause word (CAUSE). Read beside CAUSE where the importer picks a section's cause
# sentences (bot/importer/cause_fix.py); the sentence model's cue features stay CAUSE's.
CAUSE_RELATED = re.compile(
    r"\b(?:issues?|problems?|outages?|incidents?|errors?|failures?|disruptions?|[1-5]\d\ds|it)\s{1,4}"
    r"(?:(?:is|was|were|are|seems?|seemed|appears?|appeared)\s{1,4})?"
    r"(?:(?:likely|largely|mainly|mostly|probably|specifically|partly|most likely|all)\s{1,4}){0,2}relat(?:ed|es?) to\b",
    re.I,
)
# A status entry that names what broke as its sentence's subject, a cause told without a cause word: "An issue with
# hardware security key is currently preventing builds …" (what it does to something else said), "It seems that our
# CDN provider is having some issues at DNS level.", "Some services are affected by a service interruption with
# Linode". A provider or an upstream having issues is named as one ("Upstream network is offline in Singapore" is not
# read: that wording helped one organisation only, against the two the rule asks, after 2934bcb; the review);
# "There is an issue with logins for some users", "The website is having issues" or "There is an outage of the
# dashboard" is what users saw, not why (precision first: the review's symptoms);
# "Upstream is investigating" tells no trouble. Read on a sentence without a status site's markup, and only where
# nothing else names a cause (bot/importer/cause_fix.py `root_cause_without_section`; docs/BENCHMARKS.md, r23-cause
# fifth pass).
_SEEMS = r"(?:it (?:seems|appears|looks like)(?: that)?\s{1,4})?"
CAUSE_AS_SUBJECT = re.compile(
    r"^" + _SEEMS + r"(?:there (?:is|was|are|were|has been|have been)\s{1,4})?(?:an?|some)\s{1,4}"
    r"(?:[\w-]{1,30}\s{1,4}){0,2}(?:issues?|problems?|faults?)\s{1,4}with\b[^.;:!?]{1,120}?\s"
    r"(?:(?:is|are|was|were)\s{1,4}(?:(?:currently|also|still|now)\s{1,4})?)?(?:preventing|causing|stopping|blocking)\b|"
    r"^" + _SEEMS + r"(?:our|the|an?|one of (?:our|the))\s{1,4}(?:[\w.'-]{1,30}\s{1,4}){0,3}"
    r"(?:provider|upstream|isp|vendor|host|hosting provider|data ?cent(?:er|re)|carrier|supplier|partner)s?\s{1,4}"
    r"(?:is|are|was|were|has been|have been)\s{1,4}(?:(?:currently|also|still)\s{1,4})?(?:having|experiencing)\s{1,4}"
    r"(?:(?:some|an?|a few|\w{1,30})\s{1,4}){0,2}(?:issues?|problems?|outages?|difficult(?:y|ies)|interruptions?)\b|"
    r"\baffected by (?:an?|the)\s{1,4}(?:[\w-]{1,30}\s{1,4}){0,2}(?:interruption|outage|issue|problem|failure)s?\s{1,4}"
    r"(?:with|at)\b",
    re.I,
)


# the writer says they took a step ("We have removed SpamCop from our list of DNSBLs", "We patched the vulnerability
# the same day", "I restarted the proxy"): the sentence opens with "we" / "I", at most three helper words, then an
# action verb (the drafter's CHAT_ACTION, one list; "tried" is an attempt, not a step): how a step is told
WE_TOOK_A_STEP = re.compile(
    r"^[\W_]{0,6}(?:we|i)\s{1,3}(?:(?:have|had|then|also|now|quickly|immediately|manually|finally|eventually|"
    r"successfully|just)\s{1,3}){0,3}(?!tri(?:ed|es)\b)" + CHAT_ACTION.pattern,
    re.I,
)
