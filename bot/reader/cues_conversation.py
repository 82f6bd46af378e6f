"""The conversation reader's checks beside its cue groups (bot/reader/cues.py `CONVERSATION_CUES`):
what a sentence says that makes it no fix or no failed attempt, whatever its score. Part of the one
vocabulary of bot/reader/cues.py, kept apart for length only; linear patterns, as there.
"""

from __future__ import annotations

import re

from bot.reader.cues import _NOT_A_STEP, _words

# "that worked", "fixed it", "works now": says it is fixed, not what fixed it (the fix is said before)
CHAT_STATE = _words(
    r"(?:that|this|it|which|these|those)(?: \w{1,30})? (?:worked|works|did it|did the trick|fixed it|helped|solved it)",
    r"fixed it",
    r"works? (?:now|again)",
    r"(?:it|this|that|everything|all)(?:'s| is| are| seems| looks)? (?:fine|good|ok|okay)",
)
# "cluster didn't scale up properly", "nginx didn't restart or reload the certs": a part that did not do
# its job (the cause, told), not an action of the responders that failed
PART_FAILED = _words(
    r"(?:didn'?t|did not|wasn'?t|was not|failed to) (?:properly |correctly )?(?:restart|reload|renew|scale|sync|"
    r"update|rotate|trigger|pick up)\w{0,12}"
)
# "upgraded the clusters yesterday", "we tried to update it last week": done before the incident
BEFORE_THE_TALK = _words(
    r"yesterday",
    r"last (?:week|month|night|year)",
    r"(?:a|one|two|three|few|several|\d{1,4}) (?:days?|weeks?|months?) ago",
    r"the (?:day|night|week) before",
)
# "We tried to ping 10.0.0.1 but only answer was host is unreachable": what was tried, not what fixed it
# (unless the sentence says it worked: fold A's 8 such fix candidates are all attempts or checks). Only
# the words that say "tried": cues.TRIED is every action verb, and CONVERSATION_CUES' "tried" feature
# also holds "I restarted", which is how a fix is told
SAID_TRIED = _words(r"tried", r"trying", r"attempted")
# "I'm trying to browse your documentation but I'm getting 503 errors", "we tried to ping 10.0.0.1 but only
# answer was host is unreachable": using the service (or checking it) and meeting the trouble is the symptom
# told, not a step taken to fix it (fold A: its 7 such sentences are 6 observations and a check), unless it is
# a retry ("after trying to refresh multiple times") or the sentence names a step of its own ("… so I
# cleared the cache")
TRIED_TO_USE = _words(
    r"(?:tried|trying|try|attempted|attempting) (?:to )?(?:access|reach|brows|view|visit|open|load|install|download|"
    r"pull|fetch|log ?in|login|sign ?in|connect|use|using|ping|curl|hit)\w{0,12}"
)
RETRY = _words(
    r"again", r"(?:multiple|several|a few|many|two|three|\d{1,4}) times", r"once more", r"re-?tr(?:y|ied|ying)"
)
# "I restarted all nightlies to see if they all work again": a step taken to check, whose outcome is still to
# come, not the told fix (fold A: its 6 such sentences are checks, plans, follow-ups and observations)
TO_CHECK = _words(r"to (?:see|check|test|verify|confirm) (?:if|whether)", r"to make sure")
# "I've updated things so future failures won't delete the existing nightly releases … to hopefully prevent this
# in the future": what keeps it from happening again is a follow-up, not what fixed it
FOLLOW_UP = _words(
    r"prevent (?:this|it|that|us|future|the same|a repeat)",
    r"in the future",
    r"future (?:failures|outages|incidents|problems|issues)",
    r"going forward",
    r"from now on",
)
# "If it had been only one or the other, this would have been resolved about 10 hours earlier": what would have
# happened, not what did (the mood says so, whatever the verb): never the told fix nor a step that failed. A cause
# may still be said so ("from a version that would have worked to one that did not")
COUNTERFACTUAL = _words(
    r"would(?:n'?t| not)? have",
    r"could(?:n'?t| not)? have (?:been )?(?:fixed|resolved|avoided|prevented)",
    r"if (?:it|we|i|they|this|that|you|he|she|only) had(?:n'?t| not)?",
)
# "It may be the cause.", "That explains why the build worked and the deploy didn't": a cause said by pointing
# back at what was just said; the cause is that sentence, not the pointer (which names nothing)
POINTS_BACK = re.compile(
    r"^\W{0,3}(?:and |so )?(?:that|this|it|which)(?:'s| is| was| (?:may|might|could|must|would) (?:be|explain)|"
    r" seems to be| explains| would explain)(?: (?:also|probably|likely|definitely|really|indeed))? "
    r"(?:the (?:(?:root )?cause|reason|culprit)|why)\b",
    re.IGNORECASE,
)
# "I have restarted the machine and runner.", "I already tried re-installing the bot": a step told in the perfect
# or with "already" (done before now, while the trouble is still told), not a verb of seeing, saying or thinking
# ("I have checked", "we've noticed"; trying counts). Read only in the opening report (conversation.py)
REPORTED_STEP = re.compile(
    r"(?<![\w-])(?:i|we)(?:(?:'ve| have)(?: already| also| even| just)?| already) "
    r"(?!been\b|got\b|had\b|seen\b|(?!tried|attempted)" + _NOT_A_STEP + r")"
    r"[a-z]{1,20}(?:ed|[^e\W]en|ne|un|ut|lt|ried)(?![\w-])",
    re.IGNORECASE,
)
# "It looks like the server crashed around 1 AM, so I've restarted it": the doubt is the cause's, said before "so";
# the step after it is told as done (a past tense after "so I / so we")
STEP_AFTER_SO = _words(r"so (?:i|we)(?:'ve| have)?(?: just| also| then| now)? (?:[a-z]{2,20}ed|ran|put|reset)")
# "Hi, I tried again, still no luck on google DNS": trying again with no step named is using the service once more
# (a check of whether it works), not a step taken to fix it
TRIED_AGAIN = _words(r"tried (?:it )?again", r"trying (?:it )?again")
# "I allocated the last GB to the pool but it seems like I also need to remove files": a step followed by "but" and
# what is still to do was not enough, whatever its verb: never the told fix
NOT_ENOUGH = _words(
    r"but (?:[\w'-]{1,20} ){0,6}(?:i|we|you)(?: \w{1,12}ly| still| also| just)? (?:need to|have to|must|will have to)"
)
