"""The conversation reader's vocabulary (bot/reader/conversation.py): its named cue groups
(`CONVERSATION_CUES`, each a feature of a sentence for its linear models) and the checks beside them,
what a sentence says that makes it no fix or no failed attempt, whatever its score. Part of the one
vocabulary of bot/reader/cues.py, kept apart for length only; linear patterns, as there.
"""

from __future__ import annotations

import re

from bot.reader.cues import CHAT_ACTION, CHAT_FAILED, SEEING_VERB

# ---- channel messages read as a conversation (bot/reader/conversation.py) --------------------------
# Named cue groups: each is a feature of a sentence for the conversation's linear models (their
# weights in bot/data/reader_chat.json are keyed by these names: rename one, refit), but those in
# `NOT_WEIGHED`, read by rules only.


def _words(*alternatives: str) -> re.Pattern[str]:
    """One of the phrases, as whole words (a hyphen joins words), case-insensitive."""
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


_TROUBLE = r"(?:outage|issue|problem|bug|incident|failure|trouble)s?"
# verbs of seeing, saying, thinking, wanting and trying: what someone did that is no step on the system
# (seeing and saying: cues.SEEING_VERB, shared with the postmortem's REPORTS_A_STATE)
_NOT_A_STEP = (
    r"(?:" + SEEING_VERB + r"|checked|looked|asked|reached|tracked|investigated|logged|started|tried|attempted|wanted|"
    r"needed|used|experienced|received|expected|hoped|wondered|suspected|assumed|guessed|decided|reali[sz]ed|figured|"
    r"tested|mentioned|contacted|emailed|posted|replied|answered|opened|created|seemed|"
    r"appeared|waited|talked|discussed|learned|considered|planned|agreed|encountered|faced|worked|called|pinged|"
    r"filed|followed|monitored|watched|inspected|reviewed|searched|googled|debugged|discovered|traced|"
    r"determined|diagnosed|narrowed|spotted|liked|loved|missed|failed|explained|described|documented|"
    r"attached|pasted|shared|linked|included|listed|subscribed|signed|managed|ended|stopped)\b"
)
_FEW_WORDS = r"(?:[\w`'-]{1,40} ){0,3}"
CONVERSATION_CUES: dict[str, re.Pattern[str]] = {
    # what caused it
    "cause_marker": _words(
        r"root[ -]?caus\w*", r"caused by", r"causing", r"because", r"due to", r"which is why", r"turn(?:s|ed) out",
        r"the (?:problem|issue|cause|culprit|reason) (?:is|was|were|seems)(?! (?:now )?(?:resolved|fixed|gone|back))",
        r"what happened(?: here)? (?:is|was)",
        r"for some reason", r"misbehaving", r"culprit", r"related to", r"responsible for",
        # general English for "this is why", whoever says it
        r"(?:was|were|is|are|been|being) caused", r"caused (?:the|this|that|an?|our|all|these|those) (?:[\w-]+ )?"
        r"(?:outage|issue|problem|incident|failure|error|downtime|bug)s?", r"caused (?:this|it|that)(?! \w)", r"cause of", r"the reason", r"result(?:ed)? (?:of|from|in)", r"as a result", r"led to",
        r"trigger(?:ed|ing)? by", r"stem(?:s|med) from", r"(?:that|this)(?:'s| is| was) why", r"thanks to",
        r"(?:an? |the )?regression", r"known (?:issue|problem|bug)",
    ),
    "outage_noun": _words(
        r"there (?:was|were|is|has been|have been) (?:an? |some |a couple of |several )?" + _FEW_WORDS + _TROUBLE,
        r"(?:we|they|it) (?:had|have|are having|were having|'re having|'ve had|have had|experienced|are experiencing) "
        r"(?:an? |some |a couple of |several )?" + _FEW_WORDS + _TROUBLE,
        r"(?:an? |the )?(?:outage|incident|issue|problem|bug) (?:in|of|with|on)",
        # "GitHub had an outage", "it was a DNS problem", "Fastly is experiencing issues": anyone's trouble
        r"[\w.-]{2,40}(?:'s)? (?:had|has had|have had|(?:is|are|was|were) (?:having|experiencing)|experienced|suffered) "
        r"(?:an? |some |a couple of |several )?(?:[\w`'-]{1,40} ){0,2}" + _TROUBLE,
        r"(?:was|were|is|it's|that's|this is) (?:an? |some )?(?:[\w./-]{1,40} ){1,2}(?:outage|issue|problem|bug|failure|error)s?",
        r"(?:scheduled |planned |unplanned |emergency )?maintenance",
    ),
    # "…pointing to a deleted instance, so errors were appearing": what came of it names the cause
    "consequence": _words(
        r"so (?:that )?(?:[\w`'-]+ ){0,4}(?:errors?|fail\w*|can ?not|cannot|couldn'?t|can'?t|never|down|broken|"
        r"inconsisten\w*|unavailable|timeouts?|timing out|crash\w*|not (?:be )?(?:able|work\w*|load\w*))",
    ),
    # "we think it might be some custom DNS work": what it is, offered as a hypothesis
    "might_be": _words(
        r"(?:it|this|that)(?:'s| is| was)? (?:might|may|could|must|probably|likely) (?:be|have been) (?:an?|the|some)",
    ),
    # "the site is down", "img.shields.io is down": the outage itself, said (in fold A the opener's words
    # and never a cause by themselves: 1 of 12 such sentences is labelled one, and it says "causing");
    # a feature, not a cause cue (bot/reader/conversation.py `SAYS`)
    "down_state": _words(r"(?:is|was|are|were|went|has gone|have gone|being) down"),
    # "db6 crashed.", "a database update filled the server with Wal": a part that broke, told in the past. No head's
    # feature (`NOT_WEIGHED`), not a cause cue (`SAYS`): from anyone it opens nothing ("I lost some hours", "The page
    # crashed for me as well");
    # the chat's by-fixer fallback reads it (bot/reader/chat.py `_told_with_the_fix`; issue 23, r23-f13, r23-past)
    "broke_past": _words(
        r"crashed", r"died", r"filled", r"ran out", r"(?:was|were|got|been) (?:locked|corrupted|wiped|hacked|missed|down)",
        r"wiped", r"hacked", r"expired", r"went down", r"stopped working", r"lost", r"broke",
    ),
    "broken_state": _words(
        r"filled up", r"ran out of", r"exhaust\w*",
        r"out of (?:disk|space|memory)", r"throttl\w*", r"overload\w*", r"stale", r"crash[ -]?loop\w*", r"expired?",
        r"not (?:reloading|renewing|renewed|picking up)", r"misconfigur\w*", r"leak\w*", r"deadlock\w*", r"oom\w*",
        r"wrong (?:namespace|cluster|version|config\w*)", r"bug",
        # general English for a part that broke
        r"(?:not|n't) (?:been )?(?:renewed|updated|reloaded|restarted|deployed|synced|running|responding)",
        r"(?:disk|drive|server|node|host|machine|job|cron\w*|deploy\w*|migration|upgrade|update|renewal|sync\w*|"
        r"database|db|provider|upstream|dns|certificate|cert) (?:had |has |have )?(?:fail(?:ed|ure|ing)|broke|died|crashed)",
        r"broke(?:n by)?", r"corrupt\w*", r"out of (?:sync|date)", r"outdated", r"(?:got|was|were|been) "
        r"(?:blocked|banned|suspended|blacklisted|rate[ -]limited|revoked|deleted|removed|compromised)",
        r"hit (?:the |a |an |our |their )?(?:\w+ ){0,2}(?:limit|quota|cap)", r"exceeded", r"rate[ -]limit\w*",
        r"ddos\w*", r"(?:under|an?) attack", r"(?:is|was|are|were) full", r"full disk", r"no (?:disk )?space",
        r"(?:didn'?t|did not|wasn'?t|was not|failed to) (?:properly |correctly )?(?:restart|reload|renew|scale|sync|"
        r"update|rotate|trigger|pick up)\w*", r"maxed out", r"piling up", r"lack of", r"over (?:quota|capacity)",
        r"too (?:high|low|many|much|big|large|small|old)", r"(?:got|was|were|been) paused", r"low on \w+",
    ),
    "hedge": _words(
        r"think", r"might", r"may", r"maybe", r"suspect\w*", r"believe", r"probably", r"possibl[ey]", r"perhaps",
        r"looks? like", r"seems?", r"guess", r"not sure", r"unclear", r"likely", r"could be", r"wonder\w*",
        r"assume", r"theory",
    ),
    # "not sure what the root cause was, but for now it's fixed": no cause said
    "negated_cause": _words(
        r"not sure (?:what|why)", r"no idea (?:what|why)", r"unrelated", r"not related", r"isn't related",
        r"not the (?:cause|problem|issue)", r"don'?t know (?:what|why)", r"unknown reasons?",
    ),
    # what was done
    "we_did": _words(
        r"(?:we|i)(?:'ve| have| had|'d)? (?:just |now |also |finally |then |actually )?(?:re-?)?(?:deployed|rolled|"
        r"implemented|disabled|enabled|moved|configured|restarted|bounced|reverted|fixed|patched|upgraded|"
        r"increased|added|removed|migrat\w+|bringing up|brought up|switched|re-?deployed|pushed|updated|changed|"
        r"ended up|resolved|flushed|cleared|purged|rebuilt|replaced|renewed|rotated|reloaded|killed|scaled|spun up|"
        r"span up|applied|merged|released|reset|cleaned|set up|put|rebooted|restored|repaired|corrected|adjusted|"
        r"regenerated|re-?issued|re-?published|re-?uploaded|uploaded|re-?synced|synced|invalidated|freed|extended|raised|"
        r"bumped|lowered|reduced|tuned|whitelisted|allowlisted|unblocked|blocked|redirected|pointed|terminated|stopped|"
        r"kicked|re-?ran|re-?indexed|re-?created|re-?installed|installed|downgraded|rolled|got it|managed to|deleted)",
        r"(?:i'm|i am|we're|we are) (?:now |also )?(?:bringing up|migrating|rolling (?:back|out)|reverting|deploying|"
        r"restarting|moving|switching|increasing|adding|draining|scaling|patching)",
        # any step told in the first person past ("I shut down a few services", "I have pruned docker images"),
        # not a verb of seeing, saying, thinking or trying (what someone looked at or asked is no step); the
        # letter before "ed" is never "e": "I need", "we feed" are no past tense
        r"(?:we|i)(?:'ve| have| had)? (?:just |now |also |finally |then |already |manually )?(?!" + _NOT_A_STEP + r")"
        r"(?:[a-z]{1,20}[a-df-z]ed|shut|cut|built|paid|made|took|gave|put|set|ran|re-?ran|brought|bought|"  # irregular
        r"(?:re)?wrote|spun|threw|undid|redid|split|swept)(?![\w-])",  # pasts too: "I've paid them more", "we put a limit"
    ),
    "bare_did": re.compile(
        r"^(?:deployed|configured|bounced|restarted|reverted|rolled (?:back|out)|rebooted|redeployed|fixed|patched|"
        r"disabled|enabled|moved|migrated|flushed|purged|cleared|renewed|applied|merged|released)\b",
        re.IGNORECASE,
    ),
    # "a fix has been deployed", "the certificate was renewed": done, said without saying who
    "passive_did": _words(
        r"(?:has|have|had) (?:now |just )?been (?:fixed|renewed|restarted|deployed|rolled back|reverted|updated|upgraded|"
        r"replaced|patched|resolved|re-?enabled|disabled|increased|cleared|purged|reloaded|rebooted|rebuilt|"
        r"re-?deployed|merged|released|applied|moved|migrated|rotated|reset|removed|added|restored)",
        r"(?:was|were) (?:restarted|renewed|rebooted|redeployed|reverted|rolled back|purged|flushed|restored|replaced)",
    ),
    "fix_noun": _words(r"(?:a |the |some )?(?:fix|patch|hotfix|workaround|changes?|rollback|revert)"),
    "how_fixed": _words(
        r"ended up", r"resolving (?:this|it) (?:using|by|with)", r"in order to (?:resume|fix|get)", r"had to",
        r"(?:fixed|resolved|solved|mitigated) (?:it |this |the issue )?(?:by|using|with)", r"\w+ worked",
        r"that (?:fixed|did) it", r"the fix (?:is|was)", r"fix(?:ed)? by",
        r"(?:this|that|which) (?:fixed|solved|resolved) (?:it|the|this)", r"fixed (?:in|with|via)",
        r"fix (?:is|was|has been|have been) (?:now )?(?:deployed|released|merged|live|out|applied|pushed)",
        r"(?:fixed|solved|resolved) (?:it|the (?:issue|problem))", r"after (?:a |an |the |i |we )?(?:re-?start\w*|"
        r"reboot\w*|re-?deploy\w*|rollback|revert\w*|fix|upgrade|update|renewal|rebuil\w*)",
        # "this is resolved after deploying the new config": the state, and what brought it
        r"(?:works?|working|resolved|fixed|fine|ok|okay|solved|gone)(?: now| again)? (?:after|since|once|thanks to)",
    ),
    "resolved_now": _words(
        r"should be (?:all )?(?:fixed|resolved|fine|working|ok|good|back)(?: now)?", r"back (?:online|up|to normal)",
        r"(?:is|are|'s|seems?|looks?) (?:fixed|resolved|back|fine)", r"(?:working|running|moving|processing) "
        r"(?:again|now|fine|normally)", r"looks? (?:good|fixed|better)", r"coming back", r"resolved now",
        r"recover\w*", r"all good", r"works? (?:now|again)", r"normal operations",
        r"(?:is|are|should be|has been|have been) now (?:fixed|resolved|working|up|back|online|available|restored)",
    ),
    "imperative_advice": re.compile(
        r"^(?:please |just |simply |you can |you should |try |could you try )?(?:re-?save|cancel|re-?start|re-?run|"
        r"retry|re-?trigger|clear|re-?build|push)\b",
        re.IGNORECASE,
    ),
    # what was tried and how it went
    "action": _words(
        r"re-?start(?:ed|ing)?", r"reboot(?:ed|ing)?", r"bounc(?:ed|ing)", r"revert(?:ed|ing)?",
        r"roll(?:ed|ing) ?back", r"rollback", r"cancel(?:l?ed|l?ing)?", r"disabl(?:ed|ing)", r"enabl(?:ed|ing)",
        r"delet(?:ed|ing)", r"remov(?:ed|ing)", r"re-?add(?:ed|ing)?", r"re-?build(?:ing)?", r"rebuilt",
        r"re-?deploy(?:ed|ing)?", r"re-?push(?:ed|ing)?", r"push(?:ed|ing)", r"clon(?:ed|ing)", r"reset(?:ting)?",
        r"clear(?:ed|ing)", r"flush(?:ed|ing)", r"purg(?:ed|ing)", r"re-?install(?:ed|ing)?", r"upgrad(?:ed|ing)",
        r"downgrad(?:ed|ing)", r"bump(?:ed|ing)", r"scal(?:ed|ing)", r"block(?:ed|ing)", r"switch(?:ed|ing)",
        r"re-?creat(?:ed|ing)", r"re-?ran", r"re-?run(?:ning)?", r"re-?trigger(?:ed|ing)?", r"amend(?:ed)?",
    ),
    "tried": _words(
        r"(?:i|we)(?:'ve| have| had)? (?:also |already |even |just |then |again |\w{1,12}ly )?tried", r"tried (?:to )?", r"(?:i|we) (?:also )?attempted", r"if i try",
        r"i (?:also )?(?:deleted|canceled|cancelled|restarted|re-?ran|pushed|disabled|cleared|removed|re-?installed|"
        r"reset|re-?created|cloned)",
    ),
    "failed_outcome": _words(
        r"(?:did|does|do|would|will|wo|could|can)(?:n'?t| not) (?:seem to )?(?:help|work|resolve|fix|change|"
        r"do anything|start|make a difference)", r"nothing (?:happened|changed|helps?)", r"persists?",
        r"no (?:luck|change|effect|difference|dice)", r"still (?:doesn'?t|does not|not|stuck|fail\w*|broken|the same|"
        r"hang\w*|happen\w*|timing out|erroring|queued|pending|down|dead)", r"even now (?:it |this |that )?(?:still )?fails?",
        r"all paths lead", r"always only",
        r"same (?:outcome|result|response|error|problem|issue|thing)", r"(?:is|are) stuck",
        # "but this has not solved my problem", "but it isn't working yet": the outcome negated on its auxiliary
        r"(?:has|have|had)(?:n'?t| not) (?:yet )?(?:solved|fixed|helped|resolved)",
        r"(?:is|are|was|were)n'?t (?:yet )?working", r"stuck (?:again|too)",
        r"not working", r"didn'?t", r"doesn'?t help", r"without (?:success|luck)", r"to no avail", r"in vain",
        r"fails? to (?:start|run|build|load|connect|complete)", r"won'?t (?:start|run|build|load|let (?:me|us))",
        r"never (?:start(?:s|ed)?|ran|runs|finish(?:es|ed)?)",
        r"(?<=but )(?:(?:it|they|this|that|i|we|he|she) )?never (?!mind)[a-z]{2,20}",
        r"still nothing", r"nothing (?:works?|worked|helped|fixed it)",  # the outcome negated by its subject
        r"(?:don'?t|do not) think (?:[\w-]+ ){0,3}(?:worked|helped|fixed|did anything)",
    ),
    "said_action": CHAT_ACTION,  # the explicit drafter's "restarted", "raised", "rolled back"
    "said_failed": CHAT_FAILED,  # the explicit drafter's "still", "back after", "didn't help"
    # "restarted it and the agents are spawning again": a recovery, not a failure
    "recovered_again": _words(
        r"(?:working|running|spawning|back|up|green|moving|processing|flowing|passing|building|starting)(?: \w+ly)? again"
    ),
    # "we'll" only with its apostrophe, typed or typeset: a bare "well" is no plan ("well, the restart fixed it", "as
    # well"); "ill" is still read as "I'll" ("So i guess ill move the website"), not a word incident threads use
    "plan": _words(
        r"(?:we|i|you)(?: \w{1,12}ly| still| also| just)? (?:could|should|will|'ll|can|might|need to|ought to)", r"let'?s", r"plan(?:ning)? to",
        r"going to", r"i['’]?ll", r"we['’]ll", r"consider\w*", r"next time", r"follow[ -]?up", r"ideally", r"in the future",
        r"should (?:fix|help|resolve|work)", r"you (?:want|may want|might want) to", r"what you can do",
    ),
    "closing": _words(r"clos(?:e|ing|ed) (?:this|it|the (?:issue|ticket|incident))", r"ok to close"),
    # "I had disabled the timers during maintenance and forgot to turn them back on": the cause, told
    "confession": _words(
        r"(?:i|we) (?:had |have )?(?:accidentally|mistakenly) \w+",
        r"(?:accidentally|mistakenly|inadvertently) (?:re)?(?:removed|deleted|disabled|dropped|broke|changed|revoked|"
        r"overwrote|pushed|merged|deployed|turned off|shut down|stopped|killed)",
        # "forgot to turn them back on", "forgot to copy these files over on redeploy": any step left undone, not
        # something left unsaid ("forgot to mention the logs")
        r"forgot to (?!(?:mention|say|tell|ask|post|reply|answer|write|note|attach|share|link|include|cc|ping)(?![\w-]))"
        r"[a-z]{2,20}", r"(?:my|our) bad",
        r"(?:it was|that was|that's|it's|this was) (?:my|our) (?:fault|mistake)",
        # "we've managed to exhaust our IOPS quota": what they did is what broke it
        r"managed to (?:exhaust|break|fill|overload|crash|lose|exceed|take down|knock)\w*",
    ),
    # "the fix was merged days ago but has not propagated": a symptom, not the resolution
    "earlier_fix_not": _words(
        r"(?:has|have|had|is|was)(?:n'?t| not) (?:yet )?(?:propagated|deployed|released|landed|rolled out|taken effect)",
        r"but (?:it )?(?:has|have|is)(?:n'?t| not)",
    ),
    "me_too": _words(
        r"same (?:issue|problem|here|for me|thing)", r"me too", r"\+1", r"seeing (?:the same|this too)",
        r"having the same",
    ),
    # "we are investigating", "having a look": the response under way, not what caused it
    "status_update": _words(
        r"investigat\w*", r"looking into", r"(?:having|take|taking) a look", r"(?:we are|we're) aware",
        r"will (?:post|update|keep)", r"keep monitoring", r"monitoring",
    ),
    "thanks": _words(r"thanks?", r"thank you", r"sorry", r"apolog\w*"),
    # asked, with or without its "?" ("are you seeing pods in the wrong namespace"): the word order says it
    "question": re.compile(
        r"\?\s*$|^(?:are|is|do|does|did|can|could|would|have|has|was|were)\s+(?:you|it|there|we|they|anyone|anybody)\b",
        re.IGNORECASE,
    ),
    # an issue template's heading ("Describe the outage: 503 …") is the form, not what was found
    "template": re.compile(
        r"^(?:describe|steps to reproduce|expected|actual|what happened|environment|version)\b[^:]{0,40}:", re.I
    ),
    "first_person_plural": _words(r"we", r"we've", r"we're", r"we'd", r"our"),
    "first_person": _words(r"i", r"i've", r"i'm", r"my"),
    "you": _words(r"you", r"your"),
}  # fmt: skip
# Cue groups read by rules only, never a feature of a sentence for the heads (bot/reader/conversation_features.py
# `sentences` leaves them out, so bench/fit_reader.py --out never fits them). `broke_past`: the shipped recipe would
# weigh it 0.437 and draft 3 more wrong causes on the development threads (docs/BENCHMARKS.md, r23-broke's section);
# only the chat's by-fixer fallback reads it (bot/reader/chat.py `_told_with_the_fix`). To weigh one, refit and judge.
NOT_WEIGHED = frozenset({"broke_past"})
# never an attempt (nor a fix), whatever else the sentence says: a user's workaround offered to others, a thread bumped
CONVERSATION_VETOES = _words(
    r"quick fix:",
    r"workaround:",
    r"as a workaround",
    r"works for (?:us|me)",
    r"if (?:you|your)(?: \w{1,30})? (?:were|are|was)",
    # "Have to bump this, as bot stopped responding again": the thread bumped, no step on the system
    r"bump(?:ing|ed)? (?:this|the thread|this thread|the issue|this issue)(?![\w-])",
)

# ---- what makes a sentence no fix or no failed attempt, whatever its score ---------------------

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
# What says no outcome of a step, though it holds a failure word (a failed attempt's outcome must be bound to its
# step: the trouble still there, or the step said not to help): "still" of ongoing work, a need, a use, what is
# fine or what is foretold ("still investigating", "we still need to", "should still work fine", "still a
# mystery"); "didn't" of anything but what a step was for ("didn't take long", "nginx didn't come back", "didn't
# update the CNAME", "scaling up didn't happen": an event or a part, not how a step went); "won't help" foretells.
# The trouble denied or foretold not to come back ("We removed it, so it won't happen again", "it shouldn't happen
# again (I hope...)", "hasn't crashed again since", "to prevent it from happening again") tells what a step was for or
# that it worked, never that it failed; and "still" of what the speaker knows ("I tried to fix this but I still didn't
# know is it because …") or of work going on ("Still working out what to do") tells no state of the trouble.
# Blanked before the failure words are looked for again (conversation_vetoes.py `no_attempt`)
_NOT_AGAIN = (
    r"(?:(?:wo|would|should|has|have|had|did|does|do|ca)n'?t|(?:will|would|should|has|have|had|did|does|do) not|never|"
    r"not|from)(?: [\w']{1,12}){0,2}? (?:happen|occur|recurr?|crash|fail|break|go(?:es)? down|went down)\w{0,4}"
    r"(?: [\w']{1,20}){0,2}? again"
)
NO_OUTCOME = re.compile(
    r"(?<![\w-])(?:" + _NOT_AGAIN + r"|(?:should|would|could|will|'ll|may|might|must|can)(?: [\w']{1,12})? still"
    r"|still(?= (?:be |being )?(?:investigat\w{0,6}|looking|monitor\w{0,4}|work(?:s|ing)? (?:fine|ok|well|normally|on|out|through|with)|"
    r"need\w{0,2}|us(?:e|es|ed|ing)|want\w{0,3}|wait\w{0,3}|hav(?:e|ing) to|has to|in progress|an? (?:mystery|open)|"
    r"unclear|unknown|not (?:sure|clear|known)|tr(?:y|ying)|figuring|digging|up|online|available|valid|fine|ok|okay|"
    r"good|able|(?:do|did)(?:n'?t| not) (?:know|understand)|no (?:idea|clue))(?![\w-]))"
    r"|(?:didn'?t|did not)(?! (?:seem to |really |even |quite )?(?:help|work|fix|resolve|solve|change|do (?:anything|a thing|"
    r"much|it)|make (?:a|any|much) difference|start|succeed|matter|go through|take effect)(?![\w-]))"
    r"|(?:won'?t|will not)(?= (?:help|fix|resolve|solve|change|make (?:a|any) difference|matter)(?![\w-]))"
    # "Someone deleted the DNS record, so mail still bounces": what came of it (a cause), not how a step went
    r"|(?<=so )(?:[\w'-]{1,20} ){0,4}still"
    # a failure under a condition someone else meets ("please reopen the issue if it's not working for you", "in case
    # it still fails"): what would be, not what came of a step ("even if", "as if" and "if I/we …" left alone: a step
    # the speaker took can be what the clause tells)
    r"|(?<!even )(?<!as )(?:if|unless|in case) (?!(?:i|we)(?![\w'’]))[\w'’ ]{1,60}?(?=[,.;:!?)]|$)"
    # "I still cleared some old files": "still" right before the speaker's own step is "all the same", not the
    # trouble still there
    r"|(?<![\w-])(?:i|we) still(?= " + CONVERSATION_CUES["action"].pattern + r")"
    # "others who may experience this same problem": a failure told as a possibility, not as what came of a step
    r"|(?:may|might)(?! not| never)(?: [\w'’]{1,15}){1,4}"
    # "this seems like either a disabled feature or one not working as intended": a guess at what the trouble is, its
    # failure words describing the thing, up to the clause's end (a guess that tells a step's verdict, "looks like an
    # upgrade didn't help", is left alone: only a step helps, fixes or makes a difference)
    r"|(?:seems?|looks?|sounds?) like (?:a|an|either|one|some)(?![\w-])"
    r"(?![^,.;:!?]{0,100}?(?:n'?t|not|never) (?:seem to |really )?(?:help|fix|resolve|solve|change|make (?:a|any) difference))"
    r"[^,.;:!?]{1,100})",
    re.IGNORECASE,
)
# "Still coming up empty.", "But still `expired ci license`.", "The Cloud is still unavailable.": the sentence opens on
# the trouble still there (a short subject and its verb at most before "still"; not "if you still …", "It still loads")
STILL_OPENS = re.compile(
    r"^\W{0,3}(?:(?:but|and|yet|however|sadly|unfortunately),?\s{1,3})?(?:(?:(?:the|my|our|this|that|it|its|it's)\s{1,3})?"
    r"[\w.-]{1,30}(?:\s{1,3}[\w.-]{1,30})?\s{1,3}(?:is|are|was|were|remains?|stays?)\s{1,3}|(?:it|that|they)(?:'|\u2019)"
    r"(?:s|re)\s{1,3})?still\b",
    re.IGNORECASE,
)
# "I have upgraded to 2.3 and since then the builds fail", "I upgraded the package." "Now it doesn't start": the
# trouble told as beginning after the step (the step set it off), not as the step's failure to end it, unless it
# says the trouble is still there ("I restarted it, now it's still down")
CAME_AFTER = _words(
    r"^\W{0,3}(?:and |but |so )?(?:now|since (?:then|that|this)|ever since|after (?:that|this|which)|from then on)",
    r"(?:and|,) (?:ever )?since (?:then|that|this)",
    r"(?:and|,) now",
    r"since (?:i|we)(?: \w{1,12}ly)? [a-z]{2,20}ed",  # "builds fail since we upgraded"
)
# "Live site, clearing the cache didn't do anything", "Deploying to heroku is not working either": a step named as
# the subject of its own failure, its gerund opening the sentence after a short lead
# ("Nope,", "Live site,", "Simply"); the gerund is a step on the system (`STEP_GERUND`), not a use of it ("Loading
# the dashboard doesn't work", "Trying to log in" are the trouble met). Read by conversation_told.py `step_as_subject`
STEP_AS_SUBJECT = re.compile(
    r"^\W{0,3}(?:[\w'-]{1,20}(?: [\w'-]{1,20}){0,2}, {1,3})?(?:(?:simply|just|also|even|manually|then|and|so|but) {1,3}){0,2}"
    r"(?P<step>[a-z-]{3,30}ing)(?![\w-])",
    re.IGNORECASE,
)
# the gerunds of steps taken on the system: the conversation's `action` cue's, cues.CHAT_ACTION's stems with "ing"
# (conversation_told.py `_a_step`: "deploying", "rotating", "draining"), and these, which neither list names. Not every
# first-person past step (`we_did`'s "-ed" verbs): as a gerund those take in uses of the service ("loading",
# "accessing the site doesn't work")
STEP_GERUND = re.compile(
    r"(?:re-?)?(?:updat|restor|replac|renew|migrat|regenerat|reissu|reupload|re-?launch|re-?join|re-?connect|"
    r"re-?authenticat|re-?invit|re-?load|re-?apply|re-?submit|re-?queu)ing",
    re.IGNORECASE,
)
# "Did 2. already - without success": an outcome that names which of a numbered list's items it answers ("2.", "#2",
# "option 2"), not the step told last (conversation_replies.py)
POINTS_AT_ITEM = re.compile(
    r"^\W{0,3}(?:(?:did|tried|done|doing|ran|and|but|also)\s{1,3}){0,2}(?:#\d{1,2}|\d{1,2}[.)](?!\d)|"
    r"(?:item|option|step|number|no\.?|point)\s{0,3}#?\d{1,2}(?![\d.]))",
    re.IGNORECASE,
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
    r"again",
    r"(?:multiple|several|a few|many|two|three|\d{1,4}) times",
    r"once more",
    r"re-?tr(?:y|ied|ying)",
    r"even (?:after|when) (?:i|we)",  # "Even when I tried using a previously tested alignment, …": tried once more
)
# "I'm still getting a 500 even after updating nodester-cli", "Even when I tried using a previously tested alignment, it
# showed the same response": the step named after "even after / when", its failure told in the rest of the sentence
# (conversation_told.py `step_even_after`: the step is tried or a step's gerund)
EVEN_AFTER = re.compile(
    r"(?<![\w-])even (?:after|when) (?P<step>(?:(?:i|we)(?:'ve| have| had)? (?:also |just )?)?(?:(?P<tried>tried|attempted) "
    r"(?:to )?)?(?P<verb>[a-z-]{3,30})(?![\w-])[^,.;:!?()]{0,80})",
    re.IGNORECASE,
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
# "I've fixed it", "Fixed now, thanks", "we have resolved the issue": what follows an outcome verb ("fixed",
# "resolved", "solved") ending a step said done (`we_did`, `bare_did`) when it names the trouble only; not "fixed the
# baseUrl", "fixed it by restarting", "fixed it manually", "fixed this and the configs are …", which say more
# (its repeats bounded: tests/test_reading_limits.py, a member's run of spaces cannot make it backtrack)
OUTCOME_ONLY = re.compile(
    r"(?: (?:it|this|that|everything|the " + _TROUBLE + r"))?"
    r"(?: (?:now|finally|properly|already|again|for now|today|yesterday|this morning)){0,3}\s{0,3}(?:[,.!;:()+—–-]|$)",
    re.IGNORECASE,
)
