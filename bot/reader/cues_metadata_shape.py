r"""The one vocabulary's metadata section, continued (bot/reader/cues_metadata.py, split for length only): metadata
told by its shape, whatever the organisation's words (issue 23: the rules read from the tuning fold's own phrasings
missed the reporting fold's). Never a fix or a cause (bot.reader.read `is_metadata`). Each is matched against one
sentence or clause of bounded length, with bounded repeats only.
"""

from __future__ import annotations

import re

from bot.reader.cues_metadata import HARM_NOUN, NUMBER, THINGS, UNIT, WHEN

# a sentence that tells why ("… because the disk filled up", "… due to a bad deploy") is never only metadata: the
# shapes below stop where one of these words follows in the same sentence
_TELLS_WHY = r"\b(?:because|due to|caused|as a result of)\b"

# A status page's line on the talking, not the incident: sorry, waiting for someone, when news comes, that it stays open
# ("Appologies for the resolution time, this was an incredibly difficult issue to resolve", "We still await upstream
# fix", "No update from upstream yet.", "Will keep this incident open until we know more.", "We have contacted our
# support team to further investigate and are awaiting a resolution.", "A resolution time is unknown."). A status
# label may open it ("*Update* …", "**Investigating** - …"); a sentence that also tells why is not one.
_STATUS_LABEL = r"(?:[*_\[(]{0,2}(?:update|investigating|identified|monitoring|resolved|scheduled)[*_\])]{0,2}\s{0,3}(?:[:–—-]\s{0,3})?)?"
TALK_ONLY = re.compile(
    r"^[\W_]{0,6}"
    + _STATUS_LABEL
    + r"(?:(?:(?!(?:and|then|so)\b)[\w@.’'()\[\]/:?=&-]{1,120}\s{1,3}){0,12}?(?:sincerely |deeply |again )?(?:a{1,2}p{1,2}olog\w{0,6}|sorry)\b|"
    r"(?:(?:we|i|the team) )?(?:(?:are|am|is) |still |currently |now ){0,3}(?:await|wait(?:ing)? (?:for|on))\w{0,3} (?:an? |the |"
    r"further |their |any )?(?:[\w-]{1,30} )?(?:fix|response|reply|resolution|update|feedback|news|word|answer|eta)s?\b|"
    r"no (?:[\w-]{1,30} ){0,2}?(?:update|response|reply|news|word|answer|eta|feedback)s?(?: (?:from|by) [\w .-]{1,40}?)? (?:yet|so far)\b|"
    r"(?:(?:we|i) )?(?:will|'ll) (?:keep|leave) (?:this|the) (?:incident|issue|ticket|status|page) open\b|"
    r"(?:a |the )?(?:resolution|recovery|restoration) (?:time|date|eta) is (?:unknown|not (?:yet )?known|unclear)\b|"
    # watching, and news or a look for the cause to come ("We're monitoring the system and will shortly update", "We are
    # monitoring affected systems closely and investigating the root cause"); what is watched and done next is a step
    r"(?:we|the team|our (?:team|engineers|admins))(?: are|'re|’re| is) (?:\w{1,30}ly |still |now ){0,2}monitoring "
    r"(?:[\w-]{1,30} ){0,3}?(?:closely )?(?:and (?:will |are )?(?:shortly |soon |\w{1,30}ly )?(?:update|investigat\w{0,10}|"
    r"provide|post|share|keep (?:you|everyone) (?:posted|updated))\b|[.!]?$)|"
    # where to ask ("If you have any questions or concerns, please feel free to contact us")
    r"(?:if you have any (?:further )?(?:questions|concerns)|(?:please )?(?:feel free to|do not hesitate to|don't hesitate to) "
    r"(?:contact|reach out|get in touch))\b)"
    r"(?![^.;!?]{0,200}?" + _TELLS_WHY + r")",
    re.I,
)
# What the users could not do while it lasted, bound to the incident's own span ("During this period, ticket submission
# to todo.sr.ht failed", "During this period, customers were unable to access the CircleCI UI", "Builds/tests that
# require containerized environments were blocked in this window", "Certain dashboard features are interrupted during
# this time", "Deployments are paused until this was fixed"): the harm, never why (no "because", "due to", "caused")
_SPAN = (
    r"\b(?:(?:during|in|throughout|for) (?:this|that|the) (?:period|time|window|interval|outage|incident|disruption|downtime)|"
    r"while (?:the |this )?(?:issue|incident|outage|problem) (?:was )?(?:in place|ongoing|lasted)|"
    r"until (?:this|it|the issue) (?:was|is|had been|has been) (?:fixed|resolved)|over the course of the (?:incident|outage|disruption))\b"
)
_HARM = (
    r"\b(?:(?:were|was|are|is|got|became|remained) (?:\w{1,30} )?(?:unable|blocked|paused|interrupted|unavailable|inaccessible|"
    r"unreachable|delayed|stuck|degraded|slowed(?: down)?|not (?:\w{1,30}ed|available|accessible|working))|"
    r"(?<!we )(?<!i )(?:failed|errored|timed out)(?! over\b)|could(?: not|n't) (?:be )?\w{1,30})\b"
)
# what the users met, said anywhere in a sentence ("The in app purchase … is not working on iOS"): the sentence model's
# cause picks are read with it (bot/reader/fix.py `tells_trouble_not_why`)
HARM_SAID = re.compile(_HARM, re.I)
_IN_SENTENCE = r"(?:[^.;!?]|\.(?=\S)){0,300}?"  # a host's dots ("todo.sr.ht") do not end it
HARM_IN_THE_SPAN = re.compile(
    r"^(?=" + _IN_SENTENCE + _SPAN + r")(?=" + _IN_SENTENCE + _HARM + r")"
    r"(?!" + _IN_SENTENCE + r"\b(?:because|due to|caused|as a result of|since|root cause)\b)"
    # nor a step someone took in it ("During the outage we could not reach the console, so we rebooted the host"), nor
    # the recovery ("Users can select to only replay functions that failed during this time range")
    r"(?!"
    + _IN_SENTENCE
    + r"\b(?:(?:we|i|they|the team)(?: \w{1,30}){0,2}? \w{2,30}ed|(?:so|then|and) (?:we|i|the team)|"
    r"re-?(?:play|run|try|queue|start|deploy)\w{0,3}|retri\w{0,3}|roll(?:ed|ing)? back)\b)",
    re.I,
)
# a table row whose last cell is a duration (an impact table: "| `seerr` | Completely unavailable | ~31m |")
DURATION_CELL = re.compile(
    r"^[~≈<>]?\s{0,3}\d{1,9}(?:[.,]\d{1,9})?\s{0,3}(?:m|mins?|minutes?|h|hrs?|hours?|d|days?|s|secs?|seconds?)$", re.I
)
# a count of what it hit or left waiting ("Telemetry showed this affected 316,378 requests between 11:03 and 11:42",
# "we had 3300 requests waiting to be handled", "there are 94 pending pods")
_MORE_THINGS = r"(?:" + THINGS + r"|failures|errors|tasks|vms|instances|tickets|calls|queries)"
COUNT_OF_HARM = re.compile(
    # never in a sentence that tells why ("there are 600 pending pods stuck because of not finding the right secret")
    r"^(?!" + _IN_SENTENCE + _TELLS_WHY + r")" + _IN_SENTENCE + r"(?:"
    r"\b(?:affected|impacted|rejected|delayed) (?:about |around |roughly |approximately |over |~)?"
    r"(?<![\d.,])\d[\d,.]{0,15}k?\+? (?:[\w-]{1,30} )?" + _MORE_THINGS + r"\b|"
    r"(?<![\d.,])\d[\d,.]{0,15}k?\+?\s{1,3}(?:[\w-]{1,30}\s{1,3}){0,2}?"
    + _MORE_THINGS
    + r"\s{1,3}(?:were |are |still )?(?:waiting|pending|queued)\b|"
    r"(?<![\d.,])\d[\d,.]{0,15}k?\+? (?:pending|queued|waiting|stuck|failed|failing) " + _MORE_THINGS + r"\b)",
    re.I,
)
# who or what it hit, said with "affected" whatever the subject is called ("Multiple DE accounts are affected.", "Five
# LP positions were affected.", "- k8s02: not affected", "Any app that makes requests to `mapserv.utah.gov` is
# affected including:", "These are affecting some Discover services.", "This issue only affected devices attempting
# joins"): the harm; never with a why or an agent ("because", "due to", "… suggesting the 502s relate to …", "affected
# by a bad deploy", "affected after the upgrade"), nor a step someone took ("we", "I": "We are scanning the file
# system to identify which files are affected"), nor "affected" in a clause that leads to another ("Any builds that
# were affected have been restarted", "While only a minority of nodes were affected, …"); a subject of its own
# other than the incident is not one ("A bad deploy affected the API" names what did it)
_AFFECTED_WHY = (
    r"(?:" + _TELLS_WHY + r"|\b(?:suggest\w{0,5}|since|by|when|after|once|following|while|we|i)\b|"
    r"\b(?:that|which|who) (?:(?:is|are|was|were|had been|have been|has been) )?(?:\w{1,30}ly )?affected\b)"
)
AFFECTED_ONLY = re.compile(
    r"^(?!"
    + _IN_SENTENCE
    + _AFFECTED_WHY
    + r")(?:"
    + _IN_SENTENCE
    + r"\b(?:is|are|was|were|been|being|not|only|also)\s{1,3}(?:\w{1,30}ly\s{1,3})?affected\b|"
    r"[\W_]{0,6}(?:this|these|it|which)(?:\s{1,3}(?:issue|incident|outage|problem|disruption))?\s{1,3}"
    r"(?:(?:is|are|was|were|has been|have been)\s{1,3})?(?:only\s{1,3})?affect(?:ing|ed|s)\b)",
    re.I,
)
# what someone is seeing or has met, told by a status page with no why ("A small number of compute instances in the NYC1
# region have experienced an unexpected restart.", "We are seeing elevated error rates on the API.", "Some customers are
# experiencing intermittent errors when creating clusters."): the symptom, never the cause; a why or a trigger in the
# sentence ("… errors because the disk filled up", "… since the deploy") makes it no such line. The harm is a symptom's
# word, never a fault's ("experienced a disk failure" names what broke): cues_metadata.HARM_NOUN, and the forms a status
# page's "seeing" takes besides
_SEEN_HARM = (
    r"(?:(?:error|failure|timeout|retry) rates?|latencies|(?:response|load|build|queue) times|restarts?|reboots?|"
    r"interruptions?|degradation|(?:degraded )?performance(?: issues| problems| degradation)?|"
    r"(?:connectivity|connection|network|login|access|delivery) (?:issues|problems|errors|failures)|"
    r"issues|problems|instability|packet loss|5\d\d(?:s| errors| responses)?|" + HARM_NOUN + r")"
)
SYMPTOM_SEEN = re.compile(
    r"^[\W_]{0,6}"
    + _STATUS_LABEL
    + r"(?:(?!(?:and|then|so|but|because|after|since|which|that)\b)[\w@.’'()/&,-]{1,60}\s{1,3}){1,10}?"
    r"(?:is|are|was|were|has|have|had)\s{1,3}(?:been\s{1,3})?(?:(?:currently|still|now|also|intermittently)\s{1,3}){0,2}"
    r"(?:experienc(?:ing|ed)|seeing|observing|noticing|encountering)\s{1,3}"
    r"(?:(?:an?|some|the|intermittent|elevated|increased|higher|high|unexpected|significant|occasional|sporadic|partial|major|"
    r"minor|brief|short|slow|slower|degraded|widespread|\w{1,30}ly)\s{1,3}){0,4}"
    + _SEEN_HARM
    + r"\b(?![^.;!?]{0,200}?(?:"
    + _TELLS_WHY
    + r"|\b(?:after|since|following|from the|triggered|related to|caused)\b))[^.;!?]{0,200}[.!]?\s*$",
    re.I,
)
# telling the users about it, not a step in it ("Throughout the disruption, the team worked to keep users up to date on
# the status", "notifying the community of the app outage.", "The community was asked to be patient at this time", "We
# will continue to provide updates on our status page until the services are fully restored"); never in a sentence
# that also names a step or tells why ("We rolled back the deploy and notified customers")
TELLING_USERS = re.compile(
    r"^(?!"
    + _IN_SENTENCE
    + r"(?:"
    + _TELLS_WHY
    + r"|\b(?:restart\w{0,5}|roll\w{0,5} back|revert\w{0,5}|deploy\w{0,5}|fix\w{0,5}|patch\w{0,5})\b))"
    + _IN_SENTENCE
    + r"(?:\b(?:keep|kept|keeping) (?:\w{1,30} ){0,3}?(?:up to date|updated|informed|posted)\b|"
    r"\bnotif(?:y|ied|ying) (?:the |our |all |affected )?(?:community|users|customers|clients|everyone|subscribers)\b|"
    r"\b(?:asked|told|requested) (?:\w{1,30} ){0,2}?to be patient\b|"
    r"\b(?:continue to|will) (?:provide|post|share|publish) (?:\w{1,30} ){0,2}?updates\b)",
    re.I,
)
# a status label and a bare state, naming no step ("*Update* Resolved.", "*Update* - Looks resolved.", "**Update**
# Situation seems to be resolving.", "There has been a Packit outage now resolved."): when, never the fix
_BARE_STATE = (
    r"(?:resolved|resolving|fixed|stable|stabili[sz](?:ed|ing)|ok|okay|better|improving|recovered|recovering|back to normal|"
    r"back up|back online|operational|over|gone|done|closed)"
)
STATE_WORD_ONLY = re.compile(
    r"^[\W_]{0,6}(?:(?:update|resolved|monitoring|identified|investigating)[\W_]{0,4}\s{0,3}(?:[-–—:]\s{0,3})?)?"
    r"(?:(?:the |this )?(?:issue|incident|problem|situation|outage|it|everything|all)\s{1,3})?"
    r"(?:(?:now |all |fully |finally )?(?:(?:is|has been|was|seems|looks|appears)(?: to be)?\s{1,3})?(?:now |all |fully |finally )?)?"
    + _BARE_STATE
    + r"[\s.!]{0,3}$|"
    # an incident named and said to be over, naming nothing else ("There has been a Packit outage now resolved.")
    r"^[\W_]{0,6}there (?:has been|was) an? (?:[\w-]{1,30} ){0,2}?(?:outage|incident|disruption|issue|problem)(?: (?:which|that) "
    r"(?:is|has been|was))? (?:now |since )?" + _BARE_STATE + r"[\s.!]{0,3}$",
    re.I,
)
# what a line's own words tell, for the kinds no key names (bot.reader.metadata_kind; never what is metadata): a
# figure with a unit of time anywhere in it ("lasted approximately nine hours", "Unscheduled: 551.25 hours (= 23.0
# days)", "2h32m"), a date or a clock time anywhere in it ("between 10:39-10:52am on april 2")
DURATION_SAID = re.compile(r"(?<![$€£\w])" + NUMBER + r"\s{0,40}" + UNIT + r"\b|(?<![\d.,])\d{1,12}h\d{1,12}m?\b", re.I)
WHEN_SAID = re.compile(r"(?<![\w.])" + WHEN + r"(?!\w)", re.I)
# a note on the report itself, not on the incident ("Note: We most likely forgot writing this post mortem properly, so
# this file is here as a placeholder", "Timestamps are approximate.", "Numbers based on https://status.cloudinary.com/")
_REPORT = r"(?:post[- ]?mortem|incident report|report|document|write-?up|page|file|rca)"
REPORT_NOTE = re.compile(
    r"^[\W_]{0,6}(?:(?:note|nb|disclaimer)\s{0,3}[:-]\s{0,3})?(?:"
    r"(?:[\w'’,-]{1,30}\s{1,3}){0,8}?(?:forgot|neglected|never got (?:round|around)) (?:to )?(?:writ\w{1,5}|fill\w{0,5}|"
    r"finish\w{0,5}) (?:(?:in|out) )?(?:this|the) " + _REPORT + r"\b|"
    r"(?:this|the) " + _REPORT + r" (?:is|was) (?:here |left |only )?(?:as )?(?:a |an )?(?:placeholder|draft|stub|"
    r"work in progress|wip|incomplete|unfinished)\b|"
    r"(?:all )?(?:times|timestamps|numbers|figures|durations)(?: (?:are|were|is))? (?:\w{1,30}ly )?(?:approximate|approximated|"
    r"estimates|estimated|rough|based on|taken from)\b)"
    r"(?![^.;!?]{0,200}?" + _TELLS_WHY + r")",
    re.I,
)
