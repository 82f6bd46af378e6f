"""How a postmortem tells one failed attempt: who tried, what an aside or a plan is, what refers
back to an action, where its action ends and its why begins. A section of the one vocabulary
(bot/reader/cues.py, kept apart for length only); the outcome words (DID_NOT_WORK, SAYS_IT_FAILED)
and the actions (TRIED) stay there, shared with the sentence model and "how it was found".
Patterns are linear in the text (bounded repeats only); the readers cap the text first.
"""

from __future__ import annotations

import re

from bot.reader.cues import CONDITION_WORDS, DID_NOT_WORK, PARTLY_WORKED, SAYS_IT_FAILED, SEEING_VERB
from bot.reader.cues_metadata import MONTH

EXPLICIT_TRY = re.compile(r"\b(?:attempt\w*|tried|tries|trying|to see (?:if|whether)|in the hope)\b", re.I)
WE_TRIED = re.compile(
    r"\b(?:we|i|our team|the team|on-?call|engineers?|responders?|admins?|sres?|ops)\b|@\w+|\b(?:tried|attempt\w*|initially)\b",
    re.I,
)
CLAUSE = re.compile(r"(?:,\s{0,4}so\s+|;\s+)")
REFERS_BACK = re.compile(
    r"^(?:this|that|it|which|these|those|but|however|unfortunately|sadly|still|again|the (?:issue|problem|error|errors|situation|"
    r"outage|symptoms?|site|service|hub|page|pods?)|no\b|nothing|neither|even)",
    re.I,
)
# "The problem is that …": a cause told, not the state a step left (attempt_bound._bound reads it before REFERS_BACK,
# which takes "the problem", "the issue" as a back-reference). Not cues.CAUSE_MARKER on purpose: that list has no
# "the problem/issue is that" (the lines this one is for), and its words in here would leave a later clause opening
# on "turned out …", "because of …" unbound; these words in CAUSE_MARKER would make "the problem is that" a chat cause
CAUSE_TOLD = re.compile(r"the (?:problem|issue|cause|reason) (?:is|was|seems to be|being) (?:that|because|due)\b", re.I)
# "I tried again", "tried it": a try that names no step (what was tried is told nowhere in the line; matched at the
# step verb). Not cues_conversation.TRIED_AGAIN on purpose: that one is read anywhere in a channel sentence and keeps
# "tried again to restart the pod" (a step named after it), which this one must not reject; it has no "tried it",
# "attempted", which this one needs
BARE_TRY = re.compile(
    r"(?:tried|try|trying|tries|attempted|attempting)(?:\s{1,4}(?:it|that|this|again|once more|later|now|too|also|"
    r"as well|then|yesterday|today)){0,4}\s{0,4}(?:[.,;:!?]|$|\b(?:but|and|still|however)\b)",
    re.I,
)
# words before a step, in its clause, that make it no step taken: a condition (cues.CONDITION_WORDS, the guard's
# CLAIM_HEDGE conditions), a plan, a wish or a request. Not CLAIM_HEDGE itself (its "not", "could", "until" are no
# plan: "we could not restart it" tells a step) nor the conversation "plan" cue (it counts "could", "can" and is a
# feature weight, not a gate; r23-pmatt2)
PLANNED = re.compile(
    r"\b(?:" + CONDITION_WORDS + r"|in case|will|would|shall|going to|gonna|might|may|should|plan(?:s|ned|ning)? to|"
    r"need(?:s|ed)? to|want(?:s|ed)? to|let'?s|please|about to|hope to)\b|'ll\b",
    re.I,
)
# "Engineer reports the issue still persists", "After CI times out again, …": a failure said as
# the trouble being there still or again refers back to what was just done, whatever the entry opens
# with (read on the words DID_NOT_WORK matched, so "the pods are up again" never counts)
# ("is taken down again" is someone's action told again, not the trouble coming back)
REPEATED = re.compile(
    r"\b(?:still|same|persist\w*|re-?occur\w*|recur\w*|remain\w*|stay(?:s|ed)?|unchanged|continu\w*)\b|"
    r"\b(?:fail\w{0,8}|crash\w{0,8}|out|error\w{0,8}|broke\w{0,8}|hang\w{0,8}|hung) again\b",
    re.I,
)
# "jakubgs confirms all nodes are updated": an entry that reports a state someone checked, not an
# action whose outcome a later "still …" could be
REPORTS_A_STATE = re.compile(
    r"^(?:[\w@.:'`-]{1,60} ){0,3}?" + SEEING_VERB + r"\b",
    re.I,
)
# "(strangely queue 17 does not work…)", "(we noticed that staging was still stuck)": an aside in
# parentheses, not the outcome of the action the sentence tells
ASIDE = re.compile(r"\([^()]{0,500}(?:\)|$)")
# "As said above, it did not work at first try": a failure that names no action
NOTHING_NAMED = re.compile(
    r"^(?:(?:as (?:said|mentioned|explained|noted) (?:above|before|earlier)|again|unfortunately|but|however),?\s{1,4}){0,4}"
    r"(?:it|this|that)\s{1,4}(?:did|does|do)\s?n[o']t\s{1,4}(?:work|help)",
    re.I,
)
# "the day before, Charles rebooted the proxy": before the incident, not an attempt during it
# ("bumped boskos last week", "we changed it two weeks ago": long before it, a change that may have set
# it off, not a step against it; "yesterday" and "the previous day" stay: an incident can span days and
# "the fix from the previous day did not work" is an attempt)
BEFORE_THE_INCIDENT = re.compile(
    r"\b(?:the (?:day|night|week|evening) before|(?:a|one|two|three|several|few) (?:days?|weeks?|months?) "
    r"(?:before|earlier|prior|ago)|before the (?:incident|outage)|prior to the (?:incident|outage)|"
    r"last (?:week|month|year)|(?:a|one|two|three|several|few|\d{1,2}) (?:weeks?|months?|years?) ago)\b",
    re.I,
)
# "We scaled the workers up, since restarting them did not help", "We restarted the database because it kept
# crashing": a failure told in the clause that gives the reason for the step is what led to it (an earlier step's
# failure, or the trouble itself), not its outcome ("as" only opening a clause of its own: "as it was still
# failing", never "as well", "as a test"; "failed due to …" gives the failure's reason, not the step's)
REASON_FOR_IT = re.compile(
    r"(?:,\s{0,4}|\s)(?:since|because|given that|seeing that|as (?=(?:the|it|they|this|that|these|those|we|our|there|[\w-]{1,30}'s)\s"
    r"(?:[\w'`-]{1,30}\s{1,4}){0,4}?(?:was|were|is|are|had|has|did|does|do|could|would|kept|still|continued)\b))\s{0,4}",
    re.I,
)
# "Deploying to master fails due to a bug", said right after "a deploy is attempted"
FAILS_BECAUSE = re.compile(r"\bfail(?:s|ed)\s{1,4}(?:due to|because|with)\b", re.I)
# "I issued a rollback to see if it would help, it didn't": testing an attempt, not a critique's "would"
# (or "to see if a clean data directory would clear the issue": a few words before the "would")
TESTING_IT = re.compile(
    r"\bto see (?:if|whether) (?:[\w'-]{1,30} ){0,6}?(?:would|could|might) (?:help|work|fix\w*|solve\w*|clear\w*|"
    r"resolve\w*|improve\w*|change\w*|make a difference)\b",
    re.I,
)
# "if this approach didn't succeed, a shadow fork would be created": a plan for a failure, not one
IF_IT_FAILS = re.compile(
    r"\b(?:if|unless|in case|should) (?:[\w'-]{1,30} ){0,4}?(?:(?:did|does|do) ?n[o']t|fail\w*|not)\b", re.I
)
# "the templates are automatically rolled back by AWS", "the automated deployment failed": the system
# acted, not a responder
AUTOMATIC = re.compile(r"\b(?:automatic(?:ally)?|automated|by itself|on its own)\b", re.I)
ADDRESSED = re.compile(r"\byou\b", re.I)  # an FAQ's "No, you didn't do anything wrong": not what responders did
SENTENCE = re.compile(r"(?<=[.!?])\s{1,80}(?=[A-Z(\"'@])")  # "@jsnshrmn deletes …": a handle opens a sentence too
# "Restarted the pods — still 404": the action, then why it failed (the action at most 500 characters,
# fold A's longest is 232: bounded, a member's long line cannot make the split point backtrack)
WHY_SPLIT = re.compile(
    r"^(?P<action>.{1,500}?)\s{0,4}(?:[—–]|\s-\s|;|,\s{0,4}but\b|\bbut\b|\bhowever\b|\.\s|,\s{0,4}(?=still\b)|(?=\b(?:due to|because|as)\b(?! (?:before|above|earlier)\b)))\s{0,4}(?P<why>.+)$",
    re.I,
)
# "research into the error returned no results", "attempts to isolate the bug start again", "tried to
# reproduce the issue": looking for what is wrong is an observation (the labels' kind), not a step
# tried to end the trouble ("No success debugging various CDN nodes" names what it acted on: kept)
LOOKED_FOR_IT = re.compile(
    r"\b(?:research\w{0,6}|investigat\w{0,6}|isolat\w{0,6}|bisect\w{0,6}|diagnos\w{0,6}|pinpoint\w{0,6}|track(?:ed|ing)? down|"
    r"narrow(?:ed|ing)? down|look(?:ed|ing)? (?:into|for)|search(?:ed|ing)? (?:for|into)|(?:tr(?:y|ied|ying)|attempt\w{0,3}) to reproduce|"
    r"(?:tr(?:y|ied|ying)|attempt\w{0,3}) to (?:identify|find|determine|understand|explain)) "
    r"(?:into |for |down )?(?:the |this |that |a |an |any )?(?:\w{1,30} ){0,2}?(?:bug|error|issue|problem|cause|culprit|regression|fault)s?\b",
    re.I,
)
# "I am still attempting to figure out why the branchprotector failed": working out what is wrong,
# whatever the object is called (LOOKED_FOR_IT needs it named bug/error/cause), not a step against it
FIGURING_OUT = re.compile(
    r"\b(?:figur\w{0,5} out|work(?:ed|ing)? out|find(?:ing)? out|found out|understand|determine) "
    r"(?:why|what|how|where|which|whether)\b",
    re.I,
)
# "Users trying to log in received 502 errors", "when we tried to access the console, the page failed to
# load", "Connection attempts to the primary failed": someone using the service (a symptom, however it is
# worded) or the system's own tries, not a responder's step against the trouble (a bounded list of the
# ways a service is used; "tried to restart it" is a step and stays)
USED_THE_SERVICE = re.compile(
    r"\b(?:(?:when|while|whilst)\s{1,4}(?:[\w'-]{1,30}\s{1,4}){0,3}?|(?:users?|customers?|clients?|visitors?|people|requests?|"
    r"browsers?|anyone|members?|i'?m|i am|we're|we are)\s{1,4}(?:who\s{1,4})?(?:were\s{1,4}|are\s{1,4}|currently\s{1,4})?)"
    r"(?:tr(?:y|ies|ied|ying)|attempt\w{0,3})\s{1,4}to\s{1,4}(?:log ?in|sign ?in|sign ?up|access|reach|connect|load|open|browse|"
    r"visit|use|view|download|upload|push|pull|check ?out|fetch|clone|install|buy|pay|register|send|post|read|write)\b|"
    r"\b(?:connection|login|log-?in|sign-?in|authentication|auth|access|write|read|request|reconnect\w{0,4}|delivery|"
    r"download|upload|payment|api|client|user)\s{1,4}(?:re)?(?:attempts|retries)\b|"
    # "Some users tried clearing their cache, but it did not help": whatever users tried, they are not the responders
    r"\b(?:users?|customers?|clients?|visitors?|subscribers?)\s{1,4}(?:who\s{1,4}[\w'-]{1,30}\s{1,4})?"
    r"(?:had\s{1,4}|have\s{1,4}|also\s{1,4}|then\s{1,4})?(?:tr(?:y|ies|ied|ying)|attempt\w{0,3})\b",
    re.I,
)
# "Kubernetes restarted the pod several times but it kept crashing", "Our monitoring attempted to restart
# the container": the system acted on itself (AUTOMATIC, said by its name), not a responder
SYSTEM_ACTED = re.compile(
    r"^[\W\d_]{0,25}(?:(?:utc|gmt|[ap]m)\W{1,4})?(?:the\s{1,4}|our\s{1,4}|its\s{1,4})?(?:kubernetes|k8s|kubelet|systemd|"
    r"orchestrator|scheduler|monitoring|health ?-?checks?|load ?-?balancers?|auto-?scaler|watchdog|supervisor|"
    r"the (?:cluster|system|database|client|controller|operator|service))\s{1,4}(?:\w{1,30}\s{1,4}){0,2}?"
    r"(?:tried|tries|attempt\w{0,4}|restart\w{0,4}|retr(?:y|ied|ies)\w{0,4}|reboot\w{0,4}|kill\w{0,4}|evict\w{0,4}|re-?schedul\w{0,4}|"
    r"roll(?:ed|s)? back|fail(?:ed|s)? over)\b",
    re.I,
)
# "We reduced max_connections, after which the database restarted without issues. However, some queries
# still failed": the step is told as having worked (the issue's own example), so what failed after it is a
# remainder or something else, not its outcome
STEP_WORKED = re.compile(
    r"\bwithout (?:any |further |more )?(?:issues?|problems?|errors?|trouble|incident)\b|"
    r"\b(?:which|and|this) (?:then |quickly |immediately )?(?:restored|resolved|fixed|recovered|stabili[sz]ed) "
    r"(?:the |it\b|service|things|everything)|\band the (?:\w{1,30} ){0,2}?(?:recovered|came back|was restored|were restored)\b|"
    # "I published the new version and updated the database, it's fixed for now": the step told as having worked
    r"\b(?:it|this|that|which)(?:'s|’s|\s{1,4}is|\s{1,4}was|\s{1,4}has been)\s{1,4}(?:now\s{1,4}|finally\s{1,4})?(?:fixed|resolved|solved)\b|"
    # "we had the fix out and could start builds again. Unfortunately a few builds could not be restarted": what could
    # be done again is the service back, and a remainder failing after it is not the step's outcome ("could not start
    # again" is no recovery)
    r"\b(?:could|can|(?:was|were|are|is) able to)\s{1,4}(?!not\b|never\b)(?:[\w'-]{1,30}\s{1,4}){1,3}?again\b",
    re.I,
)
# "Because of this, we decided to not restart the resynchronization, instead let it continue", "Before the fix could
# be deployed to production, the production instance went down again": a step decided against, or not yet taken when
# the trouble came back, is no attempt, whatever failed after it (read before the failure's words; a step taken before
# something else "could" is another matter: only a sentence that opens on "before … could" is read so)
NOT_TAKEN = re.compile(
    r"\b(?:decided|chose|opted|elected|agreed)\s{1,4}(?:not|against)\b|\b(?:decided|chose|opted) to not\b|"
    r"^[\W\d_]{0,25}(?:(?:utc|gmt|[ap]m)\W{1,4})?before\s{1,4}(?:[\w'-]{1,30}\s{1,4}){0,5}?(?:could|can|was able|were able)\b",
    re.I,
)
# "The queue drained within minutes, although a few jobs still failed": a remainder conceded, not the
# step failing (a failure told after a concession in its own clause)
# ("Though the subscription is re-enabled, the portal still does not permit it": the step is in the
# concession and the failure in the main clause: a comma between, not this)
CONCEDED = re.compile(r"\b(?:although|though|albeit|except(?: that| for)?|apart from|other than)\b[^.;,]{0,120}$", re.I)
# "14:02 Alert fired: KubePodCrashLooping, pod api-7 restarting, still failing": what a monitor said, not
# an action someone took (with cues_metadata.ALERT_LINE, the alert's own words quoted)
ALERT_SAID = re.compile(
    r"^[\W\d_]{0,25}(?:(?:utc|gmt|[ap]m)\W{1,4})?(?:[\w@.-]{1,60} ){0,2}?(?:alerts?|alarms?|monitors?|pagerduty|opsgenie|pingdom|"
    r"alertmanager)\b(?:[^.;:]{0,40}?\b(?:fired|fires|firing|triggered|triggers|went off|goes off|raised|reports?|reported|"
    r"says|said|shows?)\b|\s{0,4}:)",
    re.I,
)
# "After restoring service, we cleaned up the stale locks", "once we were confident it was resolved, we
# re-queued the failed jobs": a clean-up or a follow-up once the trouble was over, not an attempt (the
# whole service or incident over: "after the database was restored, we restarted the app" is not it)
AFTER_IT_WAS_OVER = re.compile(
    r"\b(?:after|once|when|now that)\s{1,4}(?:[\w'’-]{1,30}\s{1,4}){0,4}?(?:service|services|the (?:site|service|platform|incident|"
    r"issue|outage|problem)|everything|it|things)\s{1,4}(?:was|were|had been|has been|is|are)\s{1,4}(?:fully\s{1,4}|now\s{1,4})?"
    r"(?:restored|resolved|recovered|back online|back to normal|stable|stabili[sz]ed|over|healthy|up and running|"
    r"(?:up|available|working|operational) again)\b|"
    r"\bafter (?:restoring|recovering) (?:the )?(?:service|site|platform)\b|\bafter (?:the |service )?(?:recovery|restoration)\b(?! attempt)",
    re.I,
)
# "a routine upgrade was started, but it failed halfway", "… and the deploy failed, which started the
# incident": the change that set it off (the labels' trigger), not a step tried to end it ("I took down
# the API" is a responder's step: not a trigger word)
TRIGGERED_IT = re.compile(
    r"\b(?:(?:started|began|caused|triggered|kicked off|set off) "
    r"(?:the|this) (?:incident|outage|problem|issue|downtime)|routine (?:deploy\w*|upgrade|release|update|maintenance|change))\b",
    re.I,
)
# "the upgrade fails", "the hub does not start", "wal-g had failed to restore": a failure said as what
# the system did (its own failure), not that a step did not help. Said of an action, it links the two
# only when the action is told as a responder's step (RESPONDER_STEP) or the failure names the action
# again ("triggers a rebuild" ... "the rebuild failed"): "Changes are deployed. The hub does not start."
# is how the incident began (the labels' trigger) as often as a step that failed
OWN_FAILURE = re.compile(
    r"\b(?:fail\w*|errored|crash\w*|time[sd] out|timing out|start\w*|boot\w*|c[ao]me (?:back|up)|respond\w*|mount|connect|load)\b",
    re.I,
)
# What a stored attempt needs (precision first, on organisations no rule was read from: the bar "told as
# tried, or an outcome that refers back"): words inside its failure cue that say the step had no effect,
# the trouble stayed or came back, it made things worse or it was turned down ("did not help", "still
# failing", "no change", "same error", "without success", "was insufficient", "responds … as invalid").
# Failure words that only say something failed ("the upgrade fails", "the hub does not start") tell the
# trouble itself as often as a step's outcome: alone, they need the step told as tried (told_as_failed), and
# they link a step to it only when it is a responder's (narrative._linked); these words link it by themselves
# ("still failing the handshake", "errors came back within minutes": the trouble outlasted the step).
STEP_OUTCOME = re.compile(
    r"\b(?:help|fix|resolv|solv|work|improv|effect|succe|solution|difference|chang|still|again|persist|remain|"
    r"continu|kept|same|unchanged|recur|re-?occur|vain|avail|no-?op|joy|luck|(?:in)?sufficient|enough|invalid|"
    r"reject|worse|breaking|mediation|no results?)|"
    r"\b(?:errors?|alerts?|issues?|problems?|symptoms?|timeouts?|5\d\ds?) c[ao]me back",
    re.I,
)
# "we had pulled the base backup, but wal-g had failed to restore", "We had planned this rollout earlier,
# but ... we were unable to": told in the past perfect, an earlier state the story steps back to (the
# background), not the outcome of the step just told
PAST_PERFECT = re.compile(
    r"\b(?:had|hadn't|'d)\s{1,4}(?:not\s{1,4}|never\s{1,4}|already\s{1,4}|just\s{1,4}|also\s{1,4})?(?:been\s{1,4})?(?!to\b)[a-z]{1,30}(?:ed|en|wn|ne|lt|nt)\b",
    re.I,
)
# "We removed those that could not be processed", "restarted the pods which failed to start": a failure
# in a clause that picks out what was acted on (no comma before "that"/"which") says which things, not
# how the step went (", which did not help" refers back to the step: not this; nor "that" right after "but", "and" or
# "yet": "We restarted nginx, but that didn't fix it" tells the step back as the subject of its outcome)
QUALIFIES = re.compile(r"(?<![,;(])(?<!\bbut)(?<!\band)(?<!\byet)\s(?:that|which|who)\b\s*$", re.I)
# someone is said to act: a responder, an explicit try, or a step done by hand
RESPONDER_STEP = re.compile(WE_TRIED.pattern + r"|\b(?:manual(?:ly)?|by hand|forc(?:e|ed|ibly))\b", re.I)
# "Jun 04 14:51:36 db1 systemd[1]: postgresql.service: Can't open PID file": a log the system wrote,
# pasted into the report, not a step someone took (the name before "[pid]:" bounded: linear in the text; the month's name
# is the reader's one list, review F83)
LOG_LINE = re.compile(
    r"\b[\w.@-]{1,60}\[\d{1,7}\]:\s|\b" + MONTH + r" {1,3}\d{1,2} \d\d:\d\d:\d\d\b",
    re.I,
)
# "To fix this we increased the parallel processing, which in turn led to builds not finishing", "We scaled
# the API cluster to account for this increase in requests, but the workers led to connection limits being
# reached": a step taken against the trouble (named: "this", "the increase") that made new trouble
REMEDY = re.compile(
    r"\b(?:to|in order to|in an (?:effort|attempt) to)\s{1,4}(?:fix|mitigate|handle|address|resolve|stop|reduce|account for|"
    r"deal with|work around|alleviate|counter|cope with|absorb|relieve|keep up with)\s{1,4}(?:this|that|it|these|those|"
    r"the (?:\w{1,30} ){0,2}?(?:issue|problem|outage|load|increase|errors?|spikes?|traffic|backlog|incident|failures?))\b",
    re.I,
)
CONSEQUENCE = re.compile(
    r"\b(?:(?:in turn )?(?:led|leads) to|resulted in|resulting in|caused(?! by)|causing|made (?:it|things|matters) worse)\b",
    re.I,
)
TROUBLE_MADE = re.compile(
    r"\b(?:error\w*|fail\w*|crash\w*|down|outage|broke\w*|worse|degrad\w*|time ?outs?|timing out|locked out|"
    r"not (?:finishing|completing|working|loading|starting)|limits? (?:being |to be |were |was )?(?:reached|exceeded|hit))\b",
    re.I,
)
# "> The following subscriptions have been canceled": a quoted email or chat line begins
QUOTED = re.compile(r"(?:^|\s)>\s")

# A failed outcome said in other words than DID_NOT_WORK's, each a kind rather than one report's
# phrase: the trouble still there ("the issue still persists"), no effect ("it was a no-op", "was
# not successful", "did not change the outcome", "but nothing seemed to help", "without any success"),
# turned down ("responds to the report as "invalid"", "closes #12 as won't fix"). Read by the postmortem reader only (an action must
# be told before it, or the entry before names one); the shared DID_NOT_WORK stays as the sentence
# model was fitted on it. Measured and left out (fold A, one organisation out, each a wrong line by
# the document labels): the same error met again ("runs into same error"), "is blocked by/on", a
# typeset apostrophe ("didn’t"); docs/BENCHMARKS.md, issue 23, eleventh pass.
_OTHERWISE = (
    r"still (?:persist|recur|re-?occur)\w*|"
    r"(?:was|is|were|are|it's|proved|turned out to be) (?:a |effectively a |just a )?no-?op|"
    r"nothing (?:seemed to |appeared to |we tried )?(?:help|work|fix|chang)\w*|without any (?:success|effect|luck)|"
    r"(?:was|were|is|are) not successful|"
    r"(?:did|does) ?n[o']t change (?:anything|much|the (?:situation|outcome|result|behaviou?r|symptoms?))|"
    r"the (?:situation|outcome|result|behaviou?r|symptoms?) (?:did|does|has) ?n[o']t (?:change|improve)d?|"
    r"same (?:error|issue|problem|failure|message)s?\b[\w ,]{0,30}?\b(?:as (?:before|above|earlier)|again)|"
    # "I tried to cancel it and start a new one, but nothing happened", "I restarted the server but still
    # leading to the error", "cleared the cache, but I still can't log in", "tried to turn it on but it never
    # connected", "still doesnt work": the step's outcome in the same sentence, said in plain words (read
    # from fold A's conversations, measured on the postmortems: docs/BENCHMARKS.md, r23-attempts)
    r"nothing happen(?:ed|s)|(?:did|does|do)nt (?:help|work|fix|resolve|change)|"
    r"(?:but|yet)\s{1,4}(?:(?:it|we|i|they|the \w{1,30})\s{1,4})?still\s{1,4}(?!(?:work|up|fine|ok|okay|good|healthy|running|serving|"
    r"available|operational|functional|online|responsive|valid|safe|possible|need|had|have|has|within|early|able|"
    r"manag|wait|want|took|take|requir|recommend|chose|decid|continu|kept|the best))[\w']{1,30}|"
    r"(?:but|and) (?:it |they |the \w{1,30} )?never (?:connect|start|boot|c[ao]me (?:back|up)|recover|finish|complet|respond)\w{0,6}|"
    r"(?:reject(?:s|ed)|refus(?:es|ed)|clos(?:es|ed)|answer(?:s|ed)|respon(?:ds?|ded|se)|mark(?:s|ed)) "
    r"(?:[\w#()-]{1,30} ){0,8}?as [\"“']?(?:invalid|rejected|won't fix|wontfix|not (?:a bug|actionable))"
)
# "Update: The configuration change has not resolved the issue", "the restart hasn't helped": a status
# page's present perfect says by itself that the step did not work, as "did not resolve" does
# ("We have not yet resolved every report" is where the work stands, not the step's outcome; SAYS_IT_FAILED is
# shared with the sentence model: this is the postmortem reader's alone)
_HAS_NOT_HELPED = (
    r"(?<!\bwe )(?<!\bi )(?<!\bthey )(?:has|have) ?n[o']?t (?:yet |fully |completely )?(?:resolved|helped|fixed|solved|improved|worked|"
    r"changed anything|made (?:a|any) difference|had (?:any|an|the intended) effect)"
)
# "The site remains unavailable", "Error rates remained high", "Errors are unchanged": the trouble still
# there, said of whatever shows it (DID_NOT_WORK's "remain" needs the error or issue as its subject)
_REMAINS = (
    r"(?:remain(?:s|ed)?|stay(?:s|ed)?) (?:completely |largely |mostly |very )?(?:unavailable|down|high|elevated|"
    r"degraded|broken|stuck|unchanged|the same|offline|unreachable|inaccessible|unresponsive|slow|full|impacted|affected)|"
    r"(?:is|are|was|were) (?:still )?unchanged"
)
FAILED_OUTCOME = re.compile(
    DID_NOT_WORK.pattern + r"|\b(?:" + _OTHERWISE + "|" + _HAS_NOT_HELPED + "|" + _REMAINS + r")\b", re.I
)
# "The problem is not fixed", "has not been resolved": a recovery word negated tells no recovery
NEGATED_RECOVERY = re.compile(
    r"\b(?:not|n't|never)\s{1,4}(?:yet\s{1,4}|been\s{1,4}|fully\s{1,4}|completely\s{1,4}){0,3}(?:resolv|fix|restor|recover|mitigat)\w{0,6}",
    re.I,
)
SAYS_THE_STEP_FAILED = re.compile(SAYS_IT_FAILED.pattern + r"|\b" + _HAS_NOT_HELPED + r"\b", re.I)

# "we restarted the pods, but …": a responder's step told against its outcome; or its outcome, told apart,
# opening on the step ("It crashed again", "Still 503s"; not "The hub does not start": the trouble's own words)
CONTRAST = re.compile(r"\b(?:but|however|yet|unfortunately)\b", re.I)
# a reason clause ends at another sentence or a turn of the story ("but", "then", "so"): a failure told after that
# is not the reason's own (reason_begins)
REASON_CLAUSE_BROKEN = re.compile(r"[.;]|\b(?:but|however|yet|then|so)\b", re.I)
OPENS_ON_THE_STEP = re.compile(r"^(?:but|however|yet|unfortunately|still|again|it|they|this|that|which)\b", re.I)
# "cheqd validators isolated. - AP node crash resolved via restart … - Second upgrade attempt initiated.":
# list items run together are a story of several steps (or a list of follow-ups), not one attempt
LIST_MARKER = re.compile(r"(?:^|\s)(?:[*•]|\d{1,2}[.)])\s{1,4}(?=\S)")
LIST_DASH = re.compile(r"(?:^|\s)-\s{1,4}(?=\S)")


# "Some customers may still see delayed webhooks", "this will not resolve it for every user": a failure foretold or
# feared (AHEAD_OR_RISK's modals, read just before the failure's words), not the outcome of a step taken ("could not",
# "would not start" tell what happened: their modal is in the failure's own words)
FORECAST = re.compile(
    r"\b(?:may|might|will|shall|should)\s{1,4}(?:(?:also|probably|likely|possibly|still|continue to|be)\s{1,4}){0,2}$",
    re.I,
)
# "it's fixed for now, I am still not sure what caused it": not knowing is no failure of the step
UNSURE = re.compile(r"still\s{1,4}not\s{1,4}(?:sure|certain|clear|known|aware)\b", re.I)
# "This attracted more traffic than we anticipated", "(we noticed that staging was still stuck)": a responder named in
# a comparison, a clause of their own or an aside is not who took the step the line tells
NOT_THE_ACTOR = re.compile(r"\b(?:than|as|what|how|because|whether)\s{1,4}(?:we|i)\b|\([^()]{0,500}(?:\)|$)", re.I)


# "did not seem to help", "hasn't helped", "nothing has improved": a word of PARTLY_WORKED / STEP_WORKED negated in
# the few words before it says the step did not work (read on the 40 characters before the word: bounded)
NEGATED_BEFORE = re.compile(
    r"(?:\b(?:not|no|never|nothing|none|without)|n[’']t)\W{1,4}(?:[\w’'-]{1,30}\W{1,4}){0,2}$", re.I
)


def told_as_background(said: str, cues: list[re.Match[str]]) -> bool:
    """The failure is not the outcome of the step the line tells, by where it stands (docs/BENCHMARKS.md, r23-att5):
    only in an aside ("@ops clears out all staging resources (we noticed that staging was still stuck …)": ASIDE, as
    narrative._attempt reads one sentence, where a parenthesis opening the line is none: "(it does not) manually reset
    …"), or after the past perfect the story steps back to ("we had pulled the base backup, but wal-g had failed to
    restore": `stepped_back`, as narrative._linked reads a failure). Held on every path, not only those two."""
    if not cues:
        return False
    asides = [(m.start() + 1, m.end() + 1) for m in ASIDE.finditer(said[1:])]
    return all(any(a <= m.start() and m.end() <= b for a, b in asides) for m in cues) or stepped_back(said, cues)


def failure_cues(said: str) -> list[re.Match[str]]:
    """Where `said` tells a failure: a step's outcome (FAILED_OUTCOME) or the system's own (SAYS_THE_STEP_FAILED),
    in that order. Every reading of a failure starts here: told_as_failed, narrative._linked and the benches."""
    return [m for pattern in (FAILED_OUTCOME, SAYS_THE_STEP_FAILED) for m in pattern.finditer(said)]


def stepped_back(said: str, cues: list[re.Match[str]]) -> bool:
    """The past perfect before the first failure ("…, but wal-g had failed to restore"): the background the story
    steps back to, not the outcome of the step just told."""
    return bool(cues) and bool(PAST_PERFECT.search(said[: min(m.end() for m in cues)]))


def told_as_worked(said: str) -> bool:
    """The line's own words say the step worked, wholly or mostly ("This succeeded in reinitiating block production,
    but the AP node failed again", "This worked and provided the team with a false sense of security", "the pods
    are restarted … This seems to catch most users' state, although some requests still failed"): what failed after
    it is a remainder or something else, not that step's outcome."""
    for pattern in (PARTLY_WORKED, STEP_WORKED):
        for m in pattern.finditer(said):
            if not NEGATED_BEFORE.search(said[max(m.start() - 40, 0) : m.start()]):
                return True
    return False


def told_as_failed(attempt: dict[str, str]) -> bool:
    """What a postmortem may store as "did not work" (precision first: the next responder skips a step
    it reads there): one step, told as tried ("tried", "attempted", "to see if"; a responder's step and a
    contrast, "we restarted it, but …") or with an outcome that refers back to it (STEP_OUTCOME: "did not
    help", "still failing", "no change", "same error"). "The upgrade fails" alone is as often the trouble
    itself as a step's outcome: on organisations no rule was read from, such lines were mostly wrong.
    A line whose own words say the step worked (`told_as_worked`) is not stored: what failed after it is not its outcome.
    `told`: the sentence as the reader judged it, when the action and its why were cut out of one."""
    action, why = attempt["action"], attempt["why_it_failed"]
    said = attempt.get("told") or f"{action} {why}"
    if len(LIST_MARKER.findall(action)) >= 2 or len(LIST_DASH.findall(action)) >= 3 or told_as_worked(said):
        return False
    found = [m for m in failure_cues(said) if not UNSURE.match(said, m.start())]
    if found and all(FORECAST.search(said[max(m.start() - 40, 0) : m.start()]) for m in found):
        return False  # "some users may still see errors": a failure foretold, not an outcome seen
    if told_as_background(said, found):
        return False
    if EXPLICIT_TRY.search(said) or (
        WE_TRIED.search(NOT_THE_ACTOR.sub(" ", action)) and (CONTRAST.search(said) or OPENS_ON_THE_STEP.match(why))
    ):
        return True
    return any(STEP_OUTCOME.search(m.group()) for m in found)


def reason_begins(told: str, at: int) -> int | None:
    """Where the clause that gives the step's reason begins, when the failure at `at` is told in it after a step
    ("We scaled the workers up, since restarting them did not help"); None when it is not (no reason clause, or a
    contrast or another sentence between: "we restarted it, but as it still failed …")."""
    cut = None
    for cut in REASON_FOR_IT.finditer(told, 6, at):  # noqa: B007 (the nearest reason before the failure: one look, linear)
        pass
    if cut is None or REASON_CLAUSE_BROKEN.search(told[cut.end() : at]):
        return None
    return None if CONTRAST.search(told[max(cut.start() - 30, 0) : cut.start()]) else cut.end()
