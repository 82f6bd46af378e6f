"""The one vocabulary's section on how an incident was found (bot/reader/cues.py, split for length
only): an alert that fired, a report by a user or anyone outside the team, a message posted on a
channel, someone noticing, a graph, a log line or a command's output that showed it. Read by
bot/reader/found.py (which also keeps out critiques, hedges and failures said to go on).

Patterns are written so their work grows linearly with the text (bounded repeats only).
"""

from __future__ import annotations

import re

_A_FEW = r"(?:[\w@#`'.-]{1,40} ){0,3}"  # up to three words between ("users of the hub report", "received a Freshdesk support ticket")
_TOOLS = (
    r"(?:sentry|pagerduty|grafana|kibana|prometheus|nagios|uptime ?robot|munin|stackdriver|datadog|opsgenie|"
    r"alertmanager|new ?relic|cloudwatch|pingdom|statuscake|icinga|zabbix)"
)
# what a responder looked at when they found it ("found it in the heap dump")
_INSTRUMENT_SEEN = r"(?:heap ?dumps?|logs?|graphs?|dashboards?|metrics|traces?|profiles?|query plan|explain output)"
# told by someone outside the responders: the people a service has ("Students report that their kernels
# keep dying", "validators reported errors"), a report somewhere ("A report in the course Piazza
# said"), a finding sent in ("reported the bug to us via security@…", "reports their finding"), a
# channel notified ("notified the allcoredevs-channel"), "signaled us on slack"
_REPORTED_BY = (
    r"(?:students?|validators?|operators?|partners?|developers?|contributors?|researchers?|maintainers?|"
    r"instructors?|clients?|subscribers?|visitors?|editors?|staff|teams?) "
    r"(?:(?:also|then|first|all|had|have) )?(?:reported|report|reports|noticed|notice|notices|complained|emailed|"
    r"posted|pinged|flagged)|"
    r"(?:an?|first) report (?:in|on|from|via|came|arrived)|"
    r"reported (?:(?:the|a|an|this|their) )?(?:[\w-]{1,40} ){0,2}(?:to us|via|through)|reports? (?:their|his|her|a|the) findings?|"
    r"notified (?:the |our )?#?[\w-]{0,40}channel|signal(?:l)?ed us|flagged (?:it|this|the issue) to us|"
    r"@\w{1,40} (?:reported|notified|flagged|raised|posted)"
)
# a message on a named channel ("posted a message on the sitefeedback Slack channel", "posted the
# situation in Slack")
_POSTED_ON = (
    r"(?:posted|posts|sent|sends|wrote|writes) (?:[\w'-]{1,40} ){0,3}(?:on|in|to) (?:the |our )?(?:[\w#-]{1,40} ){0,2}"
    r"(?:slack|github|discord|matrix|irc|mastodon|twitter|piazza)"
)
# a line that opens with the alert it tells ("1436 - alert that CDN check has failed", "alert from
# the uptime check: …"): a timeline entry's text
_ALERT_OPENS = r"^\W{0,25}alerts? (?:that|from|saying)"
# a graph or a tool looked at ("happened to look at grafana", "noticed via grafana"; "a good idea to
# look at the graph" is advice), and "detected"
# in quotes or with a second verb ("was "detected" by", "was discovered and reported internally")
_SEEN_ON = (
    r"(?:looked|looks|looking|happened to look) at (?:the )?(?:[\w-]{1,40} ){0,2}(?:logs?|graphs?|dashboards?|metrics|"
    + _TOOLS
    + r")|"
    r"(?:notic\w{1,8}|seen|spotted|detected) (?:via|on|in|through) (?:the )?(?:[\w-]{1,40} ){0,2}"
    r"(?:graphs?|dashboards?|metrics|logs?|" + _TOOLS + r")|"
    r"(?:was|were) (?:first )?[\"'“”‘’]?(?:detected|noticed|discovered|spotted|found|caught|identified)[\"'“”‘’]?"
    r"(?: and \w{1,30})? (?:by|when|after|within|while|through|via|in|on|during|internally|externally)"
)
# notifications met, what sent them named or not ("woken up to this email from the provider", "My inbox got flooded
# with server failure mails"): in a channel these name what showed it, as an alert does (FOUND_BY_INSTRUMENT)
_NOTIFIED = (
    r"(?:(?:woke|woken|waking) up to|(?:flooded|spammed|bombarded|inundated) with) (?:an? |the |this |some |several |"
    r"multiple )?(?:[\w'-]{1,40} ){0,3}(?:e-?mails?|mails?|alerts?|pages?|notifications?)"
)
# a step of looking ("checking the logs", "grepping the journal"): how it was found when it names what it looked
# at (FOUND_BY), and in a channel the looking rather than the finding (LOOKING_STEP)
_LOOKING = r"(?:looking at|browsing|checking|checked|checks|reading|read|grep\w{0,8}|inspect\w{0,8})"
# a source as the subject of what it showed ("The logs show …", "Logs around that incident indicate …", "The terminal
# mentioned something about …")
_SHOWED_PLAINLY = r"show\w{0,8}|indicat\w{0,8}|reveal\w{0,8}"  # what a source did, in so many words
_SHOWED = r"(?:" + _SHOWED_PLAINLY + r"|mention\w{0,8}|complain\w{0,8}|said|says)"
_SOURCE_SAID = (
    r"(?:logs?|log files?|syslog|terminal|console|graphs?|dashboards?|metrics) (?:[\w-]{1,40} ){0,3}" + _SHOWED
)
# a source as the subject of what it showed ("The logs show …", "Logs around that incident indicate …", "The terminal
# mentioned something about …"), or named as where it was read ("According to the Travis logs …", "In our logs the error
# looks like this:", "ol-www1 warning in NAGIOS"), what let someone find it ("the error logging … allowed me to find the
# root cause in seconds"), notifications met (586ce0c, r23-convatt3)
_NAMED_SOURCE = (
    _SOURCE_SAID + r"|"
    r"according to (?:the |our |its |their )?(?:[\w-]{1,40} ){0,2}(?:logs?|graphs?|dashboards?|metrics|monitoring|"
    + _TOOLS
    + r")|"
    r"^\W{0,3}in (?:the |our |its |their )?(?:[\w-]{1,40} )?(?:logs?|log files?|syslog|journal)|"
    r"(?:warning|alert|alarm|error)s? (?:in|on|from|by) " + _TOOLS + r"|"
    r"(?:allowed|helped|let|enabled) (?:me|us) (?:to )?(?:quickly |easily )?(?:find|spot|identify|pinpoint|locate|track down)|"
    + _NOTIFIED
)
# "the first alert fires", "we received a support ticket", "users reported", "was detected by", "looking at the logs"
FOUND_BY = re.compile(
    r"\b(?:alerts? (?:fired|fires|firing|were firing|was firing|was triggered|triggered|went off|began|started)|"
    r"(?:received|got|had|saw|sees|see|receives|gets) (?:an? |the |several |multiple |some )?" + _A_FEW + r"(?:alerts?|"
    r"pages?|reports?|tickets?|e-?mails?|mails?|warnings?|notifications?|notices?|requests?|messages?)\b|"
    # "started receiving reports that …", "started getting pages for …": not "getting error messages" (a symptom)
    r"(?:receiving|getting) (?:an? |the |several |multiple |some )?" + _A_FEW + r"(?:alerts?|pages?|reports?|"
    r"tickets?|e-?mails?|notifications?|notices?)\b|"
    r"(?:were|was|got|get|are|is|been) (?:alerted|paged|notified|informed)|alert(?:ing|ed|s)? us|"
    r"monitoring (?:fired|alerted|showed|shows|is showing|detected|picked up|flagged)|"
    r"(?:sentry|pagerduty|grafana|prometheus|nagios|uptime ?robot|munin|stackdriver|datadog|opsgenie|alertmanager|"
    r"new ?relic|cloudwatch|pingdom|statuscake|icinga|zabbix|monitoring|monitors?) "
    r"(?:began|begins|starts|started|sent|sends|alert\w{0,8}|report\w{0,8}|show\w{0,8}|email\w{0,8}|fired|fires|rais\w{0,8}|flag\w{0,8})|"
    r"(?:began|begins|started|starts) (?:sending|firing|raising|reporting) (?:\w{1,40} )?(?:alerts?|errors?|pages?)|"
    r"rais(?:es|ed|ing) (?:an? )?" + _A_FEW + r"alerts?|"
    r"(?:posted|posts|sent|sends|wrote|writes) (?:a |an )?(?:message |post |note |report |issue )?(?:on|in|to) (?:the )?"
    r"(?:slack|github|discord|matrix|irc|mastodon|twitter|#[\w-]+)|reports? (?:on|in) (?:slack|github|discord|#[\w-]+)|"
    r"@\w{1,40} reports?\b|reports of|"
    r"(?:first|initial) (?:alert|report|page|notice|sign)|"
    r"(?:users?|customers?|someone|people|members?|community|folks) " + _A_FEW + r"(?:reported|report|reports|noticed|"
    r"notice|notices|complained|emailed|emails|posted|pinged|alerted|signal(?:l)?ed|flagged)|"
    r"reported (?:by|to us|in|on|via|that)|(?:was|were) reported|notif(?:ied|ies|y) (?:us|that)|"
    r"notic(?:ed|es|ing) (?:that|the|a|an|it|this|something|some|errors?|high|slow)|"
    r"(?:was|were) (?:first )?(?:detected|noticed|discovered|spotted|found|caught|identified) "
    r"(?:by|when|after|within|while|through|via|in|on|during)|detection|"
    + _LOOKING
    + r" (?:the )?"
    + _A_FEW
    + r"(?:logs?|syslog|"
    r"journal\w{0,8}|graphs?|dashboards?|metrics)|" + _NAMED_SOURCE + r"|"
    # what pinned it down, in a channel's words ("found it in the heap dump", "the query plan shows a seq scan")
    r"(?:found|spotted|saw|seen) (?:it |this |that )?(?:in|on|via|through|from) (?:the |a )?" + _INSTRUMENT_SEEN + r"|"
    r"(?:traces?|profiles?|heap ?dumps?|query plan|explain|pg_stat\w{0,20}) (?:show\w{0,8}|reveal\w{0,8}|point\w{0,8}|says|said)|"
    + _REPORTED_BY
    + r"|"
    + _POSTED_ON
    + r"|"
    + _SEEN_ON
    + r"|"
    + _ALERT_OPENS
    + r")\b",
    re.I,
)
# In a channel, how it was found names what showed it: an alert or a page, monitoring or a named tool,
# a log, a graph, a dashboard or metrics ("got an alert earlier this morning", "Saw the Nagios alert",
# "The logs show …"). Someone noticing, reporting or posting is mostly the symptom told again
# ("noticed this as well", "Noticed it last night") or the opening report, which is not how it was found.
FOUND_BY_INSTRUMENT = re.compile(
    r"\b(?:alert\w{0,8}|alarms?|pag(?:ed|es?|ing|er)|monitor\w{0,8}|logs?|logging|syslog|journal\w{0,8}|graphs?|"
    r"dashboards?|metrics|dumps?|traces?|profil\w{0,8}|explain|query plan|" + _TOOLS + r")\b",
    re.I,
)
# The source words 586ce0c added (_NAMED_SOURCE, beyond the old "logs show" / "graphs show" said next to each other),
# each written from one fold-A organisation's thread: on the threads no rule was written from they drafted no right
# "how found" and two wrong ones (the fifteenth collection 1, fold B 1; docs/BENCHMARKS.md, r23-convfound), so the
# channel reader does not take them; a postmortem's reader still does (FOUND_BY unchanged)
UNPROVEN_IN_CHANNEL = re.compile(r"(?:" + _NAMED_SOURCE + r")", re.I)
ADJACENT_SOURCE = re.compile(
    r"logs? (?:" + _SHOWED_PLAINLY + r"|said|says)|(?:graphs?|dashboards?|metrics) (?:" + _SHOWED_PLAINLY + r")", re.I
)
# a found-cue that is a step of the investigation ("checking dashboards", "Checked the audit logs, pod was …"):
# in a postmortem it tells what showed the cause; in a channel it is mostly the looking, not the finding
LOOKING_STEP = re.compile(r"^(?:looked at|" + _LOOKING + r")\b", re.I)
# "No process was set up to alert", "did not fire alerts", "Users may see warnings": not how it was found
# ("On May 12 we received a ticket": the month, not a hedge)
NOT_FOUND_BY = re.compile(r"\b(?:no|not|never|without|nobody|may(?!\s+\d)|might|could|would|will|if)\b|n't\b", re.I)
# a section headed "Detection", "How it was discovered", "Alert": told as how it was found
DETECTION_HEADING = re.compile(
    r"\b(?:detect\w{0,8}|discover\w{0,8}|notic\w{0,8}|alert\w{0,8}|how (?:\w{1,40} ){0,4}(?:found|find))\b", re.I
)
# A found cue in a sentence that is not how this incident was found: a pointer to elsewhere in the
# document ("a detailed timeline based on developer chat logs is available below", "see the full incident
# report"), a call to act ("the network team were alerted to identify the destination"), a habit
# or a policy ("When we receive reports of accounts seeking funds, we try to validate the posts"), a recovery
NOT_HOW_FOUND = re.compile(
    r"\b(?:(?:is|are) (?:available|described|detailed|given|included|listed|summari[sz]ed) (?:below|above|here|in (?:the )?"
    r"(?:appendix|section|report))|see (?:the )?(?:full|detailed|complete|whole)? ?(?:incident )?(?:report|timeline|appendix)|"
    # a figure pointed at ("The graph below shows the delay, in seconds, between …")
    r"(?:graphs?|charts?|figures?|screenshots?|images?|tables?) (?:below|above)|"
    r"for (?:more|further|full|comprehensive|complete) (?:details|information|analysis|incident analysis)|"
    r"(?:alerted|paged|notified|called|asked|informed) to (?:identify|investigate|look|check|help|fix|assist|deal|handle|"
    r"mitigate|restore|respond|join|work)|"
    r"^(?:when|whenever) (?:we|users?|someone|people|members?) (?:receive|get|see|report|file|notice)s?|"
    # what the monitoring saw once it was over ("Our internal monitoring reports all systems are now reachable again")
    r"(?:reachable|available|accessible|responding|responsive|healthy|online|fine|normal|green) again)\b",
    re.I,
)
# ---- in a channel: a machine's words a responder quotes as evidence ------------------------------------------------
# a line of a pasted block that tells an error: an error word standing alone ("Assertion failed:", "connection
# refused"), an exception's class ("java.io.IOException:"), a resource run out ("Out of memory: Kill process 23525",
# "No space left on device"); not a word inside a name, as a configuration paste has them ("error_log
# /var/log/nginx/error.log", "ErrorDocument 404")
ERROR_LINE = re.compile(
    r"(?<![\w/.-])(?:errors?|exception|fatal|panic\w{0,4}|fail(?:ed|s|ure)?|refused|denied|timed? ?out|killed|unable|"
    r"cannot|can't|out of memory|no space left|kill process|oom\w{0,8}|quota exceeded|segmentation fault)(?!\.?[\w/-])|"
    r"(?-i:[a-z](?:Error|Exception))\b",
    re.I,
)
# the prose around the block says it is what showed the trouble: the block named as the log, its entries or a trace
# ("Here are the relevant log entries that identified the problem:"), the program said to complain ("it's complaining
# about CRDs"), the failure put down to it ("failed with syncing due to this error,"), "in the logs I found"; a bare
# hedge ("looks like", "seems") or a bare "logs" does not (the review's F1, F1b: "Looks like it's fixed now. The last
# error was: ```…```", "My logs after upgrading show: ```…```", "Please attach logs, example: ```…```")
EVIDENCE_INTRO = re.compile(
    r"\b(?:log (?:entries|lines?|output)|(?:these|the|relevant|following) entries|stack ?traces?|complain\w{0,8}|"
    r"identified|due to (?:this|that|these|the following|the) (?:\w{1,20} )?errors?|"
    r"in (?:the|our) (?:[\w-]{1,30} )?logs? (?:i|we) (?:found|saw|see|noticed))\b",
    re.I,
)
# the block said outright to have shown the problem ("log entries that identified the problem"): evidence even in a
# message that also tells the recovery
EVIDENCE_TOLD = re.compile(
    r"\b(?:identified|pinpointed|revealed|showed|shows|pointed (?:to|at)) (?:the |this |our )?(?:problem|issue|cause|culprit)\b",
    re.I,
)
# a pasted line that is no error told: a command ("kubectl logs pod | grep -i error", "$ systemctl status x") or a
# setting ("log_level = error", "level: error"), though an error's class with its value is one ("ValueError: bad")
NOT_AN_ERROR_LINE = re.compile(
    r"^\s{0,8}(?:[$#>%]\s|sudo\s)|\|\s{0,4}(?:grep|egrep|awk|sed|tail|head|less)\b|"
    r"^\s{0,8}(?![\w.-]{0,50}(?:error|exception|fatal|fail))[\w.-]{1,60}\s{0,4}[=:]\s{0,4}[\w./\"'-]{1,60}\s{0,4};?\s{0,4}$",
    re.I,
)
# the block pasted as the symptom someone meets ("I get the following error:", "we are seeing this"): not evidence
SYMPTOM_PASTE = re.compile(
    r"\b(?:i|we|you|they|users?|people|everyone)\s{1,4}(?:(?:also|still|now|just|keep|are|am)\s{1,4})?"
    r"(?:get|gets|got|getting|see|sees|seeing|saw|receiv\w{1,4}|hit|hitting|encounter\w{0,4}|run into|ran into)\b|"
    r"\b(?:i'm|we're|i am|we are) (?:also |still |now )?(?:getting|seeing|receiving|hitting)\b|\bnot sure\b|\?\s*$",
    re.I,
)
# The opening message is the report, not how it was found ("The logs show the upload fails every night"), unless a
# sentence of it opens with the source read over a window of the incident, as the subject of what it showed ("Logs around
# that incident indicate we had some issues with postgres"), or with a look at a source setting the scene ("While
# browsing the bot's log I noticed an almost infinite loop …"): an issue opened after the fact by the one who found it
OPENING_SOURCE = re.compile(
    r"^\W{0,3}(?:(?:the |our |its |their )?(?:[\w-]{1,40} )?(?:logs?|log files?|syslog|graphs?|dashboards?|metrics) "
    r"(?:around|from|during|at|for|over|since|before|after) (?:[\w-]{1,40} ){1,3}"
    + _SHOWED
    + r"|(?:upon|while|when|after|on) "
    + _LOOKING
    + r" (?:the |our |its |their )?(?:[\w-]{1,40}'s )?(?:[\w-]{1,40} ){0,2}"
    + _INSTRUMENT_SEEN
    + r")\b",
    re.I,
)
