r"""The one vocabulary's last section (bot/reader/cues.py, split for length only): what is
metadata about an incident rather than a finding in it — a `Key: value` field, a duration, an
impact count, money lost, a field's bare value, a quoted alert, a status page's boilerplate.
Never a fix or a cause (bot.reader.read `is_metadata` / `strip_metadata`). A `Key: value` line
and a field or a table's row told by its shape are in bot/reader/cues_metadata_field.py.

Patterns are written so their work grows linearly with the text (bounded repeats only), and a figure
is tried only where a number starts (`(?<![\d.,])`): tried at every digit of a 10,000-character run
of "1,1,1…", `\d[\d,.]*` made one search take 18 s.
"""

from __future__ import annotations

import re

from bot.reader.cues_metadata_state import DONE_WORD

# a statement that is a figure about the incident: how long it lasted, how many it hit (that nothing was lost: METADATA_IMPACT)
NUMBER = (
    r"(?:[~≈]\s?)?(?:(?:(?<![\d.,])\d{1,12}(?:[.,]\d{1,12})?(?:\s{0,40}(?:-|–|to)\s{0,40}\d{1,12})?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|twenty|thirty|forty|fifty|sixty|several|few|24)(?: and a half)?)"  # "for about 7 and a half hours"
)
UNIT = r"(?:min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|seconds?|secs?|h|m)"
# the words that qualify a figure, with the space after them: the one list (review F84: four lists and eight inline
# parts of them before), read wherever a figure is — a figure told as approximate ("about 40 minutes", "~2 h") and one
# told as a bound ("just over 1.6 PB", "for at least 30 days"); a time of day told as approximate is APPROX_TIME_MARK's
# ("from about 8:43 UTC")
ABOUT_THIS_MUCH = r"(?:[~≈]|(?:approximately|approx\.?|about|around|roughly)\s{1,40})"
FIGURE_QUALIFIER = (
    r"(?:" + ABOUT_THIS_MUCH + r"|(?:nearly|almost|over|under|just|some|at least|(?:less|more) than|up to)\s{1,40})"
)
METADATA_FIGURE = re.compile(
    r"\b(?:lasted|(?:(?:down|unusable|unavailable|offline|degraded|disrupted|inaccessible|unreachable|outages?|ongoing|"
    r"on going|lasting|interrupted|impacted|affected|unable to \w{1,30}|could(?: not|n't) \w{1,30})\b[^.]{0,30}?\b(?:for|of)|took) (?:"
    + FIGURE_QUALIFIER
    + r"){0,2}"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b|(?<![\d.,])\d{1,12}h\d{1,12}m?\b|"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r" (?:of )?(?:downtime|outage|disruption|degradation|offline|delay|lag|latency)|"
    r"\b(?:delayed|lagg(?:ed|ing)|behind) (?:by )?(?:" + FIGURE_QUALIFIER + r")?" + NUMBER + r"\s{0,40}" + UNIT + r"\b|"
    # an approximate figure only: the whole list here moved a fold-B draft (review F84), a reading change of its own
    r"(?:resolved|restored|mitigated|fixed|recovered) (?:with)?in (?:"
    + ABOUT_THIS_MUCH
    + r")?"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b|"
    # "Service was restored after 45 minutes."; "… after 45 minutes by failing over" names the step
    r"\b(?:can |could |may |might |would |will )?(?:take|takes|took|taking) (?:up to |several |many |a few )?(?:hours|days|weeks)\b|"
    r"(?:resolved|restored|recovered|back up|back online) after (?:"
    + FIGURE_QUALIFIER
    + r")?"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b(?![^.;]{0,80}\b(?:by|via|using|through|thanks to|once|when)\b)|"
    r"(?<![\d.,])\d[\d,.]{0,40}+\s{0,40}(?:\w{1,40}\s{1,40})?(?:users?|customers?|requests?|participants?|sites?|accounts?|hosts?|servers?|projects?|"
    r"packages?|releases?|tokens?)\s{1,40}(?:were |was |have been |had been )?(?:\w{1,30}ly )?(?:affected|impacted|phished|"
    r"compromised|lost|dropped|failed)|"
    r"peak(?:ed)? (?:of|at) [~≈]?\d|[~≈]?(?<![\d.,])\d[\d,.]{0,40}k?\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,2}(?:were|was|had been|have been|are|got) "
    r"(?:\w{1,30} )?(?:affected|impacted|phished|compromised|lost|dropped|failed|stuck|unable|delayed|pending|queued|rejected)|"
    r"[~≈]?(?<![\d.,])\d[\d,.]{0,40}k?\s{1,40}(?:\w{1,30}\s{1,40}){0,2}(?:were|was) caused by|(?:over |about |~)\d[\d.,]{0,40}k? times|"
    r"(?:restarted|downloaded|retried|failed) (?:over |about |~)?\d[\d.,]{0,40}k? times|"
    r"between \d{1,2}:\d{2}\s{0,40}(?:utc)? and \d{1,2}:\d{2}|(?:total )?(?:exposure|response) times?\b|"
    r"(?:rate|success|availability|uptime)\s{1,40}(?:\w{1,30}\s{1,40}){0,3}\d{1,12}(?:\.\d{1,12})?\s{0,40}%|"
    r"(?<![\d.,])\d{1,12}(?:[.,]\d{1,12})?\s{0,40}(?:[kmgt]bits?/s|[kmgt]b/s|[kmgt]bps|rps|req(?:uest)?s?/s(?:ec)?|qps|pps)\b|"
    r"\bload (?:average )?(?:gets?|got|went|goes|is|was|of|at|back to|reached)(?: back)?(?: to)? [~≈]?\d|"
    r"(?:\$|usd ?|€|£)\s?\d[\d,.]{0,40}\s{0,40}(?:k|m|mm|million|b|bn|billion)?\b[^.]{0,60}\b(?:lost|stolen|drained|at risk|losses?|"
    r"exploited|affected)|\b(?:lost|stole|stolen|drained|losses? of|loss of) (?:"
    + FIGURE_QUALIFIER
    + r")?(?:\$|usd ?|€|£)\s?\d|(?<![\d.,])\d[\d,.]{0,40}\s{0,40}(?:k|m|million)?\s{0,40}(?:usd|eth|dai|usdc|usdt|btc|tokens?)\b[^.]{0,40}\b(?:lost|stolen|drained))",
    re.I,
)
# A field's value that is only a figure, a date or a blank ("31 minutes", "N/A", "?", "2024-03-18 14:05 UTC",
# "99.5 %", "$1.2M", "OK"): never a fix or a cause, whatever the field is called. Each part is a
# fixed-length alternation or a single bounded repeat (linear work).
# a bare value may be bounded by a sign too ("< 5 min"): in prose the sign moved a fold-A draft (review F84), so here only
_ABOUT = r"(?:[<>]|" + FIGURE_QUALIFIER + r")?"
_DURATION = r"\d{1,12}(?:[.,]\d{1,12})?\s{0,40}(?:min(?:ute)?s?|m|h(?:ou)?rs?|h|hours?|days?|d|weeks?|w|months?|seconds?|secs?|s)\b\.?"
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_CLOCK = (
    r"\d{1,2}[:.h]\d{2}(?::\d{2})?(?:\s{0,40}[ap]\.?m\.?)?(?:\s{0,40}\(?(?:utc|gmt|z|[a-z]{2,4}t|[+-]\d{2}:?\d{2})\)?)?"
)
_DAY = (
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,40},? )?(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}\.\d{1,2}\.\d{4}|"
    r"\d{1,2}(?:st|nd|rd|th)? " + MONTH + r",? \d{4}|" + MONTH + r" \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?)"
)
# a time told as approximate, the mark before its clock ("~20:58", "approx. 20:58", "identified at approximately 12:07",
# "from about 8:43 UTC"): the one list of these words, read by the timeline's rows (bot/importer/timeline.py) and by the
# reader's times told in prose (review F72)
APPROX_TIME_MARK = r"(?:[~≈]\s{0,40}|(?:approx\.?|approximately|around|about|roughly|circa|ca\.)\s{1,40})"
WHEN = r"(?:" + _DAY + r"(?:(?:,|\s{1,40}at|\s|T)\s{0,40}" + _CLOCK + r")?|" + _CLOCK + r")"
# a timeline entry's time opening a stored line ("2013-02-06 12:20 UTC — Incident closed.", the importer's own "when —
# text"): when, not what; the line is judged by what follows it (read.without_metadata)
WHEN_LEAD = re.compile(r"^[\W_]{0,6}" + WHEN + r"[ \t]{0,3}(?:—|–|-{1,2}|:)[ \t*_-]{1,6}(?=\S)", re.I)
_ONE_VALUE = (
    r"(?:" + _ABOUT + r"(?:" + _DURATION + r"(?:\s{0,40}(?:and\s{1,40}|,\s{0,40})?" + _DURATION + r"){0,3}|"
    r"\d{1,12}(?:[.,]\d{1,12})?\s{0,40}%|(?:\$|usd ?|€|£)\s?\d[\d,.]{0,40}\s{0,40}(?:k|m|mm|million|b|bn|billion)?|\d[\d,.]{0,40}\s{0,40}(?:k|m|million)?)|"
    + WHEN
    + r"|n/?a|none|nil|null|unknown|tb[cda]|\?{1,10}|-{1,10}|–|—|yes|no|ok|critical|warning|down|up|failed|firing|resolved|fixed|solved|"
    # "**Root Causes:** Yet To Be Determined", "Trigger: under investigation": a blank said in words
    r"(?:yet |still )?to be (?:determined|confirmed|decided|announced)|undetermined|(?:still )?under investigation|"
    r"not (?:yet )?(?:determined|known|identified|confirmed)|"
    r"ongoing|open|closed|investigating|identified|monitoring|mitigated|operational|degraded)"
)
BARE_VALUE = re.compile(
    r"^\W{0,20}" + _ONE_VALUE + r"(?:\s{0,40}(?:-|–|—|to|until|→)\s{0,40}" + _ONE_VALUE + r")?\W*$", re.I
)
# "Time to resolve: 31 minutes", "**Detected:** ?", "| Duration | 1h 20m |", "- Impact: N/A": a field's label
# (a few words) and a value that is only a figure, a date or a blank
FIELD_WITH_BARE_VALUE = re.compile(
    r"^[\W_]{0,40}[a-z][\w '’/()&.-]{0,40}?[*_]{0,40}\s{0,40}(?::|\||=)[\s*_]{0,40}"
    + _ONE_VALUE
    + r"(?:\s{0,40}(?:-|–|—|to|until|→)\s{0,40}"
    + _ONE_VALUE
    + r")?[\W_]{0,40}$",
    re.I,
)
# a note in brackets closing the line ("- Total Time: 2 hours and 55 minutes. (I was asleep when it went down)"): a
# field whose value is only a figure is still one with the note after it (issue 23, pmfix)
NOTE_AT_THE_END = re.compile(r"\s{0,3}\([^()\n]{1,160}\)[.!]?\s{0,40}$")
# a monitor's or an alert's own words, quoted ("Monitor is DOWN: hachyderm streaming", "CRITICALs: /rpool
# is 99.51", "[FIRING:1] HighErrorRate"): what was seen, not what caused or fixed it. Upper case as the
# tools write it.
ALERT_LINE = re.compile(
    r"^[\W_]{0,40}(?:\[?(?:FIRING|RESOLVED|ALERT|ALARM|CRITICAL|WARNING|PROBLEM|RECOVERY)[Ss]?\b[^\w\n]{0,3}(?::|\]|\s-)|"
    r"(?i:monitor|check|service|host|alert) (?i:is|went) (?:DOWN|UP|CRITICAL|OK)\b|"
    # a severity label opening the line ("SEV-1 – full chain halt (testnet)", "Sev 2: degraded API")
    r"(?i:sev(?:erity)?)[- ]?[0-5]\b\s{0,40}[–—:|-])"
)
# who or what it hit, said without a number or with a count ("a lot of requests are being rejected", "only
# users of carbonplan were disrupted", "a number of hosts have already been compromised", "this caused 21
# incoming emails to be wrongfully rejected", "we dropped 10 of our ~500 upstream connections", "a total
# outage", "no services apparently affected", "other services remained available")
THINGS = (
    r"(?:users?|customers?|clients?|requests?|hosts?|accounts?|sites?|servers?|jobs?|pods?|projects?|packages?|members?|"
    r"people|visitors?|funds|e-?mails?|messages?|connections?|builds?|transactions?|files?|articles?|repositories|repos?|"
    r"nodes?|validators?|blocks?|images?|pages?|downloads?|uploads?|orders?|payments?)"
)
_HIT = (
    r"(?:affected|impacted|disrupted|delayed|rejected|dropped|compromised|phished|lost|unable|stuck|failing|failed|exposed|"
    r"at risk|bounced)"
)
METADATA_IMPACT = re.compile(
    r"\b(?:(?:a (?:lot|number|large number|handful|majority|few) of|many|most|some|all|several|only|"
    r"(?:thousands|hundreds|dozens|millions) of|[~≈]?(?<![\d.,])\d[\d,.]{0,40}k?)\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,3}?"
    + THINGS
    + r"\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,2}?"
    r"(?:were|was|are|is|have|has|had|got|get|to be|being)\s{1,40}(?:\w{1,30}\s{1,40})?(?:been\s{1,40})?(?:\w{1,30}ly\s{1,40})?"
    + _HIT
    + r"|"
    r"(?:dropped|lost|rejected|failed|affected|impacted) (?:about |~)?\d[\d,.]{0,40}k? (?:of (?:our|the|all|about|~|\s){0,6}\d[\d,.]{0,40}k?)|"
    r"(?<!caused )(?<!caused a )(?<!caused an )(?:total|full|complete|partial|site-?wide|global|widespread)\s{1,40}"
    r"(?:[\w-]{1,40}\s{1,40})?(?:outage|downtime|disruption)|"
    # that nothing and no one was hit, the one list of no-harm words ("no data was lost", "No data should have been
    # lost", "nothing was lost", "no loss of service", "There was no customer impact.", "No production user impact", "with no
    # downtime", "No public service impact (…)"); METADATA_FIGURE holds none, so a no-harm line is told "impact" by one list
    r"no (?:[\w-]{1,40} ){0,2}(?:was |were |has been |have been |should have been )?(?:apparently |seemingly )?(?:affected|"
    r"impacted|disclosed|exposed|leaked|lost|accessed|compromised)|nothing was lost|no loss of|"
    r"no (?:(?:user|customer|client|end-user|production|public|service|business|external|real|actual)(?:[- ]facing)?[- ]){0,2}"
    r"(?:impacts?|downtimes?|data loss)|(?:there was|with) no (?:(?:user|customer)[- ]facing |production )?loss(?:es)?|"
    r"(?:remain(?:s|ed)?|stay(?:s|ed)?) (?:fully )?(?:available|unaffected|operational|online|up|functional|accessible|usable)|"
    r"(?:were|was|are|is|remained) (?:\w{1,30}ly )?(?:[*_]{0,2}not[*_]{0,2} |un)affected|"
    # none of the faults hit anyone ("None caused user-facing outages.")
    r"none (?:of (?:them|these|those|it|the [\w-]{1,30}) )?(?:caused|had|saw|led to|resulted in) (?:any )?(?:[\w-]{1,40} ){0,2}?"
    r"(?:outages?|impact|downtime|data loss)|"
    # "All customer workloads continue to operate as normal", "should be unaffected", "Customers may experience
    # increased latency": who it did not hit, or a status page's stock word on who it may
    r"continu(?:e|es|ed) (?:to (?:operate|run|work|function) (?:as normal|normally|as usual|as expected)|unaffected)|"
    r"should (?:be|remain) unaffected|(?:customers?|users?)(?: \([^()]{0,80}\))? (?:may|might|could) (?:experience|encounter))\b",
    re.I,
)
# a share of who or what it hit ("About 40% of builds failed during the window", "Half of the nodes were down",
# "12% of customers saw errors", "Validators representing 35% of voting power were offline"); a share moved or
# shifted is a step ("100% of traffic was shifted to the new cluster")
METADATA_SHARE = re.compile(
    r"\b(?:[~≈]?(?<![\d.,])\d{1,12}(?:[.,]\d{1,12})?\s?%|half|a third|a quarter|two[- ]thirds|three[- ]quarters)\s{1,40}of\s{1,40}"
    r"(?:[\w-]{1,40}\s{1,40}){0,3}?(?:"
    + THINGS
    + r"|voting power|stake|traffic|capacity|(?:the |our )?network)\s{1,40}"
    r"(?:[\w-]{1,40}\s{1,40}){0,2}?(?:(?:were|was|are|is|got|had|have)\s{1,40}(?:\w{1,30}\s{1,40})?)?(?:"
    + _HIT
    + r"|down|offline|unavailable|"
    r"unreachable|timed out|timing out|erroring|errored|(?:saw|got|hit|received|returned|experienced|encountered) "
    r"(?:\w{1,30} )?(?:errors?|failures?|timeouts?|5\d\d|delays?|outages?))\b",
    re.I,
)
# how long, said around the figure: "for approximately 1hr, 9mins", "over the course of 19 minutes", "actual downtime was probably from 16
# minutes", "some downtime: 53 minutes", "from about 8:43 UTC until 14:07 UTC", "after 2 weeks of running
# without finality", "about 4% of download requests were failing"
METADATA_SPAN = re.compile(
    # the incident as the subject of what it did to the service ("Some of these outages caused TorBox to become
    # entirely unavailable to users for extended periods of time"): who it hit and how long, not why
    r"\b(?:outages?|incidents?|disruptions?|downtime|interruptions?) (?:\w{1,30} ){0,2}?caused (?:\w{1,30} ){1,4}?to (?:become|be|go) "
    r"(?:\w{1,30} )?(?:unavailable|inaccessible|unreachable|down|offline|unusable|degraded)\b|"
    # of the bounds only "nearly", "almost", "over": the others here ("for up to …", "for more than …") moved two fold-B
    # drafts (review F84), a reading change of its own
    r"\bfor (?:a (?:period|total) of |the next )?(?:"
    + ABOUT_THIS_MUCH
    + r"|(?:nearly|almost|over)\s{1,40})"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b|"
    # "for the next ~1.5 years", "would usually last anywhere from 45 to 90+ minutes", "estimating 18 days until
    # finalization"; a bare "for 30 days" stays out ("had been failing silently for 30 days after …" is a cause)
    r"\bfor the (?:next|last|past) [~≈]?" + NUMBER + r"\s{0,40}(?:" + UNIT + r"|months?|years?)\b|"
    r"\blast(?:s|ed|ing)? (?:anywhere )?(?:from|between) \d{1,12} (?:to|and) \d{1,12}\+?\s{0,40}" + UNIT + r"\b|"
    r"\bestimat\w{0,30} [~≈]?\d[\d.,]{0,40}\s{0,40}(?:" + UNIT + r"|months?|years?) (?:until|to|before|for)\b|"
    r"\b(?:over|during|in) the course of (?:" + FIGURE_QUALIFIER + r")?" + NUMBER + r"\s{0,40}" + UNIT + r"\b|"
    r"\b(?:downtime|outage|disruption|interruption)\s{0,40}(?:was|of|lasted|totall?ed|:)\s{0,40}(?:\w{1,30}\s{1,40}){0,2}?"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b|"
    r"\bfrom " + APPROX_TIME_MARK + r"?\d{1,2}:\d{2}\s{0,40}(?:utc|gmt)? (?:until|till|to) \d{1,2}:\d{2}|"
    r"\bafter (?:" + FIGURE_QUALIFIER + r")?" + NUMBER + r"\s{0,40}" + UNIT + r" of\b|"
    r"\b\d{1,12}(?:\.\d{1,12})?\s{0,40}%\s{1,40}of\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,3}(?:were|was|are|is)\s{1,40}(?:\w{1,30}\s{1,40})?(?:failing|failed|affected|impacted|"
    r"cached|lost|dropped|rejected|delayed|erroring|served)\b",
    re.I,
)
# where a sentence's clauses part: "we were the target of a DDoS attack, approximately 75Gbit/s in size"; a time
# window is a clause of its own ("A change caused kernels to die on start from about Mar 22 19:30 to Mar 23 09:45"),
# and so is the reason told after it ("… between 08:00 UTC and 14:30 UTC due to an upstream outage")
METADATA_CLAUSE_BREAK = re.compile(
    r"(?<=[,;:])\s{1,40}|\s{1,40}(?:--|-|—|–)\s{1,40}|\s{1,40}(?=(?:from|between) "
    + APPROX_TIME_MARK
    + r"?(?:\d{1,4}[:/-]\d|"
    r"(?i:" + MONTH + r") \d))|\s{1,40}(?=(?:due to|because|caused by)\b)"
)
# an author's note left in the text for someone to finish ("[Yuvi to fill in the right technical
# information]", "[TODO: add the graph]", "(TBD)"): a blank, never a finding
EDITOR_NOTE = re.compile(
    r"^[\[(]\s{0,40}(?:[\w@.'-]{1,40}\s{1,40}){0,2}?(?:to fill(?: in| out)?|fill in|to be (?:added|filled|confirmed|written)|todo|tbd|to confirm)"
    r"\b[^\[\]()]{0,200}[\])]\W{0,3}$",
    re.I,
)
# that the cause is not known ("the provider was unable to establish root cause", "the root cause is still
# unknown", "we could not determine why"): a line about the investigation, never the cause itself
CAUSE_UNKNOWN = re.compile(
    r"\b(?:(?:(?:unable|not able|failed) to|could(?: not|n't)|can(?:not|'t)|did(?: not|n't)|never|yet to|not yet) "
    r"(?:\w{1,30} )?(?:establish|determine|identify|find|pin ?point|work out|figure out|isolate|confirm|understand)\w{0,30} "
    r"(?:the |a |an |any |what (?:the )?)?(?:exact |precise |underlying |specific |real |actual )?(?:root )?(?:cause|reason)|"
    r"(?:root )?cause (?:is|was|remains|remained) (?:still )?(?:unknown|unclear|undetermined|a mystery|"
    r"not (?:yet )?(?:known|clear|determined|identified))|not sure (?:what|why)|no information (?:\w{1,30} ){0,2}?(?:on|about|as to) (?:the )?(?:root )?cause|"
    r"no (?:root )?cause (?:was|has been|could be) (?:found|identified|determined)|"
    # that the cause is still being looked for ("Other potential root causes still under investigation", "Still
    # investigating other root causes", "The exact root cause of this failure was still under forensic investigation")
    r"(?:root )?causes?\b[^.;]{0,80}?\b(?:(?:is|are|was|were|remains?|remained) )?(?:still |currently )?(?:under|pending) "
    r"(?:\w{1,30} )?investigation|(?:still|currently) investigating (?:\w{1,30} ){0,3}?(?:root )?causes?)\b",
    re.I,
)
# the watching said beside a step taken ("We are monitoring the database and rolled back the deploy"): the step is the
# fix, so the line is no stock line
_NO_STEP_BESIDE = r"(?![^.;]{0,120}?\band (?:then |also |have |had |we |i ){0,2}" + DONE_WORD + r"\b)"
# a status page's own words: what it always says, never what caused or fixed this incident
STATUS_BOILERPLATE = re.compile(
    r"\b(?:(?:we )?(?:sincerely |deeply )?apologi[sz]e (?:for|to)|apologies for|sorry for (?:any|the|this) (?:\w{1,30} )?(?:inconveniences?|"
    r"interruptions?|disruptions?|troubles?|downtime|outages?|delays?|issues?)|"
    r"we are (?:currently |still |actively )?(?:investigating|looking into|aware of|continuing to (?:investigate|monitor|work))|"
    r"(?:subscribe|sign up) (?:to|for) updates|"
    # when the next word comes, thanks, no ETA, where the provider's own page is ("We will next update here in
    # 15 minutes", "We will provide a further update within the next 15 minutes", "Thank you for your patience", "We
    # appreciate your understanding", "There is still no ETA for full resolution", "Their status page can be followed
    # here", "We will provide further updates"); each once (review F86: "we will provide updates" and "we thank you for
    # your patience" were second branches beside the next update and the thanks)
    r"we (?:will|'ll) (?:next )?(?:provide |post |share |give |send )?(?:an? |the )?(?:further |next |more |another |regular )?updates?|"
    r"next update (?:will be|is|at|in|within)|(?:thank you for|we appreciate) your (?:patience|understanding)|"
    r"no (?:eta|estimated time|estimate) (?:for|of|yet|at)|"
    r"status page (?:for this incident )?(?:can be (?:followed|found|seen)|is (?:available|here))|"
    r"(?:published|posted|shared) (?:a|an|the|their|its) (?:post-?mortem|incident report|rca)|"
    r"a fix has been implemented and we are monitoring|we are (?:still |currently )?experiencing|"
    # the stock lines of a hosted status page's states (identified, monitoring, resolved) and what follows
    # them: "A fix has been deployed and we are monitoring the results", "We are marking this incident as
    # resolved", "We will continue to monitor the situation", "The post-mortem is available here: …"
    r"(?:a|the) fix has been (?:deployed|rolled out|applied|released|put in place) and we (?:are|will be|will) monitor|"
    r"(?:marking|marked|mark) (?:this|the) incident as (?:resolved|closed|fixed)|"
    r"we (?:will|'ll) continue to monitor(?! and)" + _NO_STEP_BESIDE + r"|"
    r"we are (?:continuing to |still )?monitoring (?:the|for|closely)(?! and)" + _NO_STEP_BESIDE + r"|"
    r"post-?mortem (?:is|will be|has been) (?:now )?(?:available|published|posted)|"
    r"(?:post-?mortem|rca|incident report)\s{0,40}[:-]\s{0,40}(?:<|\[|https?://)|"
    # telling the users where ("announced incident occurrence on discord", "announced the recovery of the
    # mainnet on discord and twitter"): a line about the incident, not a step in it
    r"announc(?:ed|es|ing|ement)\b[^.;]{0,80}?\b(?:on|via|in|to|through) (?:our |the |its )?(?:discord|twitter|x|telegram|"
    r"slack|forums?|blog|mailing lists?|status page|social media|community)|"
    r"^\W{0,20}(?:the )?(?:root )?(?:issue|problem|cause) (?:has been|is|was) identified,? and (?:an? )?(?:fix|patch)(?:es)? "
    r"(?:is|are|was|were) being (?:implemented|deployed|worked on|rolled out|prepared|developed)(?=\W*$)|"
    r"post-?mortem (?:to follow|will follow|(?:is )?coming(?: soon)?)|we(?: are|'re|’re) (?:now )?seeing (?:signs of |a |full "
    r"|partial )?(?:recovery|improvements?)|(?:consider|marking|mark|marked) (?:this |the )?(?:incident |issue )?(?:as )?"
    r"(?:resolved|closed)|"
    r"not (?:service|customer|user)[- ]impacting|(?:is|are) taking longer than (?:expected|anticipated|planned)|(?:an? |the |our )?(?:root[- ]cause )?(?:investigation|analysis) (?:is|remains) (?:still )?(?:ongoing|under ?way|in progress)|"
    # work under way that names no step ("The data center provider continue to work towards resolving the problem",
    # "we are working to get the remaining ones back online")
    r"(?:are|is|continues?|remains?) (?:still |actively |currently )?(?:working|continuing to work|to work) (?:to|towards|on) "
    r"(?:\w{1,30} )?(?:resolv|restor|fix|get|bring|mitigat|recover)\w{0,30}|"
    # the word that it is over ("All clear given for datahub", "an all-clear signalled at 11:35"), naming no action
    r"all[- ]clear (?:was |has been |is )?(?:given|signall?ed|sounded|declared|issued|called)|"
    r"(?:gave|give|giving|signall?ed|sounded|declared|issued|called) (?:the |an )?all[- ]clear|"
    # who is on it, naming no step ("Our admins are investigating the issue and trying to resolve it asap", "Capitol
    # Hosting is investigating both failures", "actively working to identify the root cause", "Hosting has been contacted
    # and are working on a fix"); a fix that names no step ("We have identified the issue and implemented a fix for it.")
    r"(?:admins?|administrators?|engineers?|team|staff|provider|hosting|support|vendor)\b[^.;]{0,30}?\b(?:is|are) (?:currently |"
    r"actively |still |now )?(?:investigating|looking into)\b|working (?:to|on) (?:identify|determine|find|finding|identifying) "
    r"(?:the |a )?(?:root )?cause|(?:is|are) working on (?:a|the) (?:fix|solution|resolution)\b|"
    r"^\W{0,20}(?:we |the team )?(?:have |has )?(?:identified (?:the|this) (?:issue|problem|cause) and )?(?:have |has )?"
    r"(?:implemented|deployed|applied|released|rolled out|put in place) a (?:fix|patch|solution)(?: for (?:it|this|the "
    r"(?:issue|problem)))?(?=\s*[.!]?\s*$)|"
    # watching, thanks, regrets, where news comes next ("We will keep monitoring the data center", "We will now monitor
    # the situation", "Thank you once again to our community members", "We understand the inconvenience this may cause",
    # "Apologies to my user base for any inconveniences", "We'll update this page with any further findings",
    # "We have decided to close this issue", "Steps are being taken to prevent recurrence")
    r"we (?:will|'ll|’ll) (?:now |closely )?(?:keep|continue) monitoring|we (?:will|'ll|’ll) now monitor|"
    r"thank(?:s| you)\b[^.;]{0,40}?\b(?:community|members|operators|users|customers|everyone|everybody)\b|"
    r"we understand the (?:inconvenience|frustration|disruption)|apologies (?:\w{1,30} ){0,5}?for (?:any|the) "
    r"(?:inconveniences?|troubles?|disruptions?|instability)|update this (?:page|post|status page|incident)\b|"
    r"(?:decided to |will )close (?:this|the) (?:issue|incident)|steps are being taken to prevent|"
    # work under way on the incident itself, no step named ("We are working on solving this issue", "We are currently
    # trying to recover the service", "we are working on it"), and watching it ("Monitoring the situation.")
    # (the whole sentence: "An openstack problem was detected with neutron dhcp, we are trying to solve it" tells the cause)
    r"^\W{0,20}(?:we|our (?:team|admins|engineers)|the team) (?:are|is) (?:currently |still |actively |now )?(?:working on|trying to|"
    r"attempting to) (?:(?:solv|resolv|fix|recover|restor|investigat)\w{0,30} )?(?:it|this|(?:the|this) (?:issue|problem|service|"
    r"incident|outage|situation))(?=\W*$)|"
    r"^\W{0,20}(?:we are |we're |we will be )?(?:closely |still |now )?monitoring (?:the (?:situation|service|system|issue)|it)(?=\W*$))\b",
    re.I,
)
# A status page's word on the state, naming no action ("All services back to normal.", "We are happy to
# report that everything has been stable for a number of hours", "the issue is now resolved", "queues
# are draining and systems are stabilizing"): what it always says once it is over, never the fix. A
# timeline's time, an "Update: 21:18" label or "@sam confirms that" may open it; "… resolved by
# restarting the proxy", "… stable after we moved the disk" name the fix and are not it.
_STATE_SUBJECT = (
    r"(?:(?:all|the|our)\s{1,40})?(?:services?|systems?|sites?|everything|things|traffic|queues?|platform|network|website|"
    r"(?:the|this) (?:issue|incident|problem|outage)|it|this)"
)
_STATE = (
    r"(?:back to normal|(?:fully )?operational|stable|stabili[sz](?:ed|ing)|nominal|working(?: normally| again| fine)?|solved|"
    r"(?:back )?up(?: again| and running)?|(?:back )?online|restored|recovered|resolved|fixed|draining|running (?:normally|smoothly|again)|"
    r"returned to normal|healthy|available again|normal again|over)"
)
STATE_ONLY = re.compile(
    r"^[\W_]{0,6}(?:(?:update|resolved|monitoring|identified)\b[^A-Za-z]{0,40}(?:[a-z]{3,9}\.?\s{1,40}\d{1,4}(?:,?\s{1,40}\d{4})?[^A-Za-z]{0,20})?)?"
    r"(?:\{\{[<%][^{}]{0,80}[>%]\}\}\s{0,40})?(?:[\d/:.T -]{4,25}(?:utc|gmt|z)?\s{0,40}(?:—|–|-|:)\s{0,40})?"
    r"(?:(?:[@\w`.’'-]{1,40}\s{1,40}){0,3}(?:notes?|confirms?|confirmed|reports?|reported|says|said|posts?|announces?)\s{1,40}(?:that\s{1,40})?)?"
    r"(?:we are (?:happy|pleased|glad) to (?:report|confirm|say) (?:that )?)?"
    + _STATE_SUBJECT
    + r"(?:(?:\s{1,40}[\w-]{1,40}){0,2}?(?:\s{1,40}(?:now|all|fully|again|still)){0,2}(?:\s{1,40}(?:is|are|has|have|was|were|seems?|appears?|should|"
    r"looks?|remains?|now|all|fully|again|been|be|to|already|currently|finally)){1,4}\s{1,40}"
    + _STATE
    + r"|\s{1,40}(?:now\s{1,40}|all\s{1,40})?(?:back to normal|back online|back up|nominal again))"
    r"\b(?![^.;]{0,100}?\b(?:by|after|via|thanks|because|due|following|once|when|with|using|through)\b)[^.;!]{0,100}[.;!]?\s*$",
    re.I,
)
# how long it is expected to take, said as an estimate ("They are expecting a 10 hours recovery", "We expect
# the recovery … to continue to improve over the next 45 minutes"); the share it hit ("affecting 0.07% of
# its free tier databases")
METADATA_ESTIMATE = re.compile(
    r"\b(?:expect\w{0,30}|estimat\w{0,30}|eta)\b[^.;]{0,120}?\b(?:an? |the next |"
    + NUMBER
    + r"\s{0,40}-?\s{0,40})"
    + UNIT
    + r"\b|"
    r"\b(?:affect|impact|hit)(?:ing|ed|s)? (?:" + FIGURE_QUALIFIER + r"|only )?\d{1,12}(?:[.,]\d{1,12})?\s{0,40}% of\b",
    re.I,
)
# a timeline entry that names only a phase of the response ("Root cause identified", "Issue diagnosed.",
# "Investigation ends."): when, not what; never the cause or the fix
PHASE_ONLY = re.compile(
    r"^[\W_]{0,6}(?:(?:the |a )?(?:root cause|cause|issue|problem|fix|incident|investigation)s? (?:was |is |has been )?"
    r"(?:identified|found|diagnosed|determined|confirmed|understood|declared|opened|closed|started|begins|began|ends|ended|"
    r"escalated|acknowledged|resolved|solved|fixed)|(?:investigation|incident|war room|bridge) (?:starts?|begins?|ends?|opened|closed))"
    r"[\s.!]{0,3}$",
    re.I,
)
# a note on the clock the timeline is told in ("2019-10-27 (all times UTC)", "All times approximate, in PDT.",
# "All below times in UTC.", "Times are in Central European Time")
TIME_NOTE = re.compile(
    r"^[\W_]{0,6}(?:"
    + _DAY
    + r"\s{0,40})?\(?\s{0,40}(?:all |the )?(?:below )?(?:times?|timestamps?)(?: below| shown| listed)?(?: are| is)?,?"
    r"(?: approximate,?)?(?: in| are in)? (?:[a-z]{1,40} ){0,3}?(?:utc|gmt|[a-z]{2,4}t|time|time zone|timezone)(?:\s?[+-]\d{1,2}(?::?\d{2})?)?\)?[\s.:]{0,3}$",
    re.I,
)
# how often it has happened, a clause of its own ("This is the second Thanos-compact corruption incident in 11 days, and
# …", "This is the third outage this month", "- Recurred every hour until mitigated"): a count of incidents, never what
# caused this one or what fixed it
RECURRENCE = re.compile(
    r"^[\W_]{0,6}(?:(?:this|it|that) (?:is|was|marks) (?:the|our) (?:second|third|fourth|fifth|sixth|\d{1,3}(?:st|nd|rd|th)) "
    r"(?:[\w-]{1,40} ){0,4}?(?:incidents?|outages?|failures?|occurrences?|times?|events?|issues?|recurrences?) "
    r"(?:in|within|over|this|of the) (?:the (?:last|past) )?(?:(?:\d{1,4}|a|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"several|few) )?(?:days?|weeks?|months?|years?|quarter)|(?:(?:it|this|the (?:[\w-]{1,40} ){0,3}?(?:issue|incident|outage|"
    r"failure|problem|error|alert)s?) )?(?:recurred|reoccurred|recurring|repeated) (?:every|each) (?:\d{1,4} |few |other )?"
    r"(?:minutes?|hours?|days?|nights?|weeks?|months?))\b",
    re.I,
)
# an aside of figures inside a sentence, two to six items each a figure with its unit or a count ("block `01KX…` (14
# days of raw data, 1.83 billion samples, compaction level 4)", "(03:14 UTC, 04:00 UTC)"): what the thing measured, cut
# from what is stored; a version or a bare number is no such item ("(v1.2, v1.3)", "(5432, 6432)")
_FIGURE_ITEM = (
    r"[^(),]{0,60}?(?:(?<![\w.])[~≈]?\d[\d.:/-]{0,20}\s?(?:%|[a-z]{1,12}\b)|\b[a-z]{2,30} \d{1,12}(?=\s{0,3}[,)])|"
    r"\b(?:several|many|multiple|a few|dozens|hundreds|thousands|millions)\b)[^(),]{0,60}"
)
FIGURES_ASIDE = re.compile(r"\s{0,3}\((?:" + _FIGURE_ITEM + r",\s{1,3}){1,5}" + _FIGURE_ITEM + r"\)", re.I)
# who or what it hit and how long, said in words rather than a figure (bot.reader.read `_holds_a_figure`): "The
# incident resulted in reduced availability for users", "Customers … likely experienced delays or failures",
# "SMS Long Code … services in North America were affected", "All funds were safe", "we know it hasn't been
# exploited", "app.foundries.io is not available", "13 minutes of intermittent downtime", "over a 32-minute
# period", "resumed approximately 5.5 hours later", "testnet fell behind for 45 minutes", "86 consecutive epochs
# without finality", "~1000 hotspots stuck at block", "a discrepancy of approximately 274 million tokens",
# "from 11:48 PM PDT on October 19 until 1:50 PM PDT", "between 2025-10-20 08:00 UTC and 2025-10-20 ~14:30 UTC"
_CLOCK_AT = (
    r"(?:"
    + _DAY
    + r"[ ,T]{1,3}(?:at )?)?~?\d{1,2}:\d{2}(?::\d{2})?\s{0,40}(?:[ap]\.?m\.?)?(?:\s{0,40}(?:utc|gmt|[a-z]{2,4}t))?"
)
# the trouble users met, as a noun ("customers experienced delays", "We are seeing elevated error rates"): the one list
# METADATA_SAID's "… experienced <harm>" and cues_metadata_shape.SYMPTOM_SEEN's "… are seeing <harm>" both read (each adds
# forms of its own)
HARM_NOUN = r"delays?|failures?|errors?|downtime|outages?|disruptions?|latency|slowness|timeouts?"
METADATA_SAID = re.compile(
    r"\b(?:incidents?|outages?|disruptions?|downtime|halts?)\b (?:\w{1,30} ){0,2}?(?:resulted|results) in (?:an? |the )?(?:\w{1,30} ){0,2}?"
    r"(?:increased|reduced|degraded|elevated|higher|lower|limited|partial|complete|total|intermittent|significant|"
    r"widespread|delayed|no)\b|"
    r"\b(?:customers?|users?|clients?|developers?|visitors?|merchants?|subscribers?)\b[^.;]{0,100}?\b(?:likely |may have |"
    r"might have |would have |could have |have |had |all )?experienced (?:\w{1,30} ){0,3}?(?:"
    + HARM_NOUN
    + r"|degraded)\b|"
    r"\b(?:services?|systems?|components?|products?|features?|endpoints?|apis?|websites?|apps?|applications?)\b"
    r"(?: in [\w .-]{1,40}?)? (?:were|was|are|is|have been|has been) (?:also |all |both |partially |directly |heavily |"
    r"severely )?(?:affected|impacted|disrupted)\b(?! by\b)|"
    # what it stopped, bound to the incident's own span ("All transactions … were non-functional during the downtime")
    r"\b(?:were|was|are|is|became) (?:\w{1,30} )?(?:non-?functional|unavailable|inaccessible|unusable|unreachable|down|offline|"
    r"degraded|blocked|halted|paused|stuck) (?:\w{1,30} ){0,3}?(?:during|throughout|for the (?:duration|length) of) the "
    r"(?:downtime|outage|incident|halt|disruption)\b|"
    r"\b(?:all |user |customer )?(?:funds|assets) (?:were|are|was|is|remain(?:ed)?) (?:\w{1,30}ly )?(?:safe|secure|intact)\b|"
    r"\b(?:has|have|had|was|were)(?:n't| not| never)(?: yet| ever)? been (?:exploited|breached|abused)\b|"
    # a host as the subject of the line ("* app.example.io is not available"), not one a report names ("Investigation
    # starts after a user reported that mybinder.org was down" tells how it was found)
    r"^[\W_]{0,4}`?(?:[\w-]{1,40}\.){1,8}[a-z]{2,24}`? (?:is|are|was|were) (?:not available|unavailable|not reachable|unreachable|"
    r"inaccessible|down)\b(?![^.]{0,80}\b(?:because|due to|caused|since|after)\b)|"
    r"(?<![\d.,])\d{1,12}(?:[.,]\d{1,12})?\s{0,40}"
    + UNIT
    + r" of (?:[\w-]{1,40} )?(?:downtime|outage|disruption|degradation|unavailability)\b|"
    r"(?<![\d.,])\d{1,12}(?:\.\d{1,12})?-(?:minute|hour|day|second|week)s? (?:long )?(?:period|window|outage|downtime|disruption|"
    r"interruption|gap|halt|delay|degradation)\b|"
    r"\b(?:resumed|continued|restored|recovered|returned|came back)\b[^.;]{0,40}?\b(?:"
    + FIGURE_QUALIFIER
    + r"){0,2}"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r" later\b|"
    r"\b(?:halted|stalled|fell behind|paused) (?:for|by) (?:"
    + FIGURE_QUALIFIER
    + r")?"
    + NUMBER
    + r"\s{0,40}"
    + UNIT
    + r"\b|"
    r"(?<![\d.,])\d{1,12} (?:consecutive |skip(?:ped)? )?(?:epochs?|blocks?|slots?)(?: gap)? (?:without|in|of|since) "
    r"(?:finality|missed|downtime)|\bgap (?:was|of) (?:" + FIGURE_QUALIFIER + r")?\d{1,12} (?:epochs|blocks|slots)\b|"
    r"(?<![\d.,])\d{1,12} skip(?:ped)? slots\b|\b\d{1,12} (?:\w{1,30} )?(?:hours?|epochs?|blocks?) (?:out )?from finality\b|"
    r"[~≈]?(?<![\d.,])\d[\d,.]{0,40}k?\s{1,40}(?:\w{1,30}\s{1,40})?(?:hotspots?|validators?|nodes?|miners?|peers?|devices?)\s{1,40}(?:were |have |"
    r"had |got )?(?:\w{1,30}\s{1,40})?(?:stuck|slashed|ejected|exited|offline|out of sync|ceased|jailed|forked)\b|"
    r"\b(?:halted|stopped|stalled|froze|frozen|hung|stuck) (?:at|on) (?:block height|block|height|slot|epoch) (?:number |#)?`?\d|"
    r"\bbetween (?:block heights?|blocks?|heights?|slots?|epochs?) #?`?\d[\d,]{0,40}`? and #?`?\d|"
    r"\b(?:discrepancy|shortfall|deficit|over-?emission|underfunding) of (?:" + FIGURE_QUALIFIER + r")?[`$]?\d|"
    # a reading of the usual level ("The average PoC rate before the halt was ~270 receipts per block")
    r"\b(?:average|mean|median|typical|baseline)\b(?: [\w-]{1,40}){0,5} (?:was|were|is|of|at) [~≈]?\d[\d,.]{0,40}k?\s{0,40}(?:%|\w{1,30} per \w{1,30})|"
    r"\b(?:from|between) "
    + APPROX_TIME_MARK
    + r"?"
    + _CLOCK_AT
    + r"(?: on [a-z]{1,40} \d{1,2}(?:st|nd|rd|th)?)? (?:until|till|to|and|through) "
    + APPROX_TIME_MARK
    + r"?"
    + _CLOCK_AT,
    re.I,
)
