r"""The one vocabulary's metadata section, continued (bot/reader/cues_metadata.py, split for length only): metadata
told by its shape, whatever the organisation's words (issue 23: the rules read from the tuning fold's own phrasings
missed the reporting fold's). Never a fix or a cause (bot.reader.read `is_metadata`). Each is matched against one
sentence or clause of bounded length, with bounded repeats only.
"""

from __future__ import annotations

import re

from bot.reader.cues_fix import CAUSE_FOUND_VERB, CAUSE_NOUN, EMAIL_US, INVITE_TO_ASK, REACH_US, REACH_US_WHOM
from bot.reader.cues_metadata import APPROX_TIME_MARK, FIGURE_QUALIFIER, HARM_NOUN, NUMBER, THINGS, UNIT, WHEN
from bot.reader.cues_metadata_state import DONE_WORD

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
    # where to ask, what to do meanwhile ("If you have any questions or concerns, please feel free to contact us", "If you have
    # any further issues, please contact the helpdesk.", "Please do not contact the helpdesk.", "Please watch for further
    # updates on the status page.", "Please refer to the CEDA status page for updates on each of these.")
    r"(?:if you have any (?:further |other )?(?:questions|concerns|issues|problems)|(?:please )?"
    + INVITE_TO_ASK
    + " to "
    + REACH_US
    + r"|please (?:do not |don't )?(?:"
    + REACH_US_WHOM
    + "|report|"
    + EMAIL_US
    + r"|watch|refer to|keep an eye on|check|see|follow)\b[^.;!?]{0,120}?\b(?:help ?desk|support|service ?desk|"
    r"status page|updates?)|"
    # that it may trouble them, and the progress made, naming no step ("We appreciate this may cause some difficulties: the
    # system team is actively engaged with the storage vendor on this issue to find a solution", "We are making good
    # progress with recovering data back into the Archive"); progress made by a step ("… progress by restarting …") is none
    r"(?:we|i) (?:appreciate|understand|realise|realize|recogni[sz]e|know) (?:that )?(?:this|it|these (?:\w{1,30} )?\w{1,30}) "
    r"(?:may|might|will|could|can|has|have|is|are)(?: be)? (?:caus\w{1,4} )?(?:\w{1,30} ){0,2}?(?:difficult(?:y|ies)|"
    r"inconvenien\w{1,6}|disruptions?|frustrat\w{1,6}|problems|troubles?|annoying|disruptive)|"
    r"(?:we|the team|our (?:team|engineers|staff|admins))(?: are| have| continue to| continued to|'re|’re|'ve|’ve)? "
    r"(?:\w{1,30}ly )?(?:making|made) (?:\w{1,30} )?progress\b(?![^.;!?]{0,120}?\bby \w{2,30}ing\b)|"
    # who is on it with whom, naming no step ("The storage vendor is engaged with the system team's investigation", "the
    # system team is actively engaged with the storage vendor on this issue to find a solution")
    r"(?:the |our )?(?:[\w-]{1,30} ){0,2}?(?:team|staff|engineers?|admins?|vendors?|providers?|suppliers?|partners?) (?:is|are) "
    r"(?:(?:\w{1,30}ly|now|currently|still) ){0,2}engaged (?:with|in)\b)\b)"
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
    r"\b(?:affected|impacted|rejected|delayed) (?:" + FIGURE_QUALIFIER + r")?"
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
# a ticked item, a check mark opening a bullet ("- ✅ Cluster 100% healthy", "✅ No data loss", "- ✅ Agent MUST verify …"):
# a checklist's outcome, a lesson or a rule, never the fix or the cause; a step told first ("- ✅ Restarted the database")
# stays, and so does one in the fix's or the cause's words (bot/reader/read.py `_is_metadata_by_shape`)
TICKED_ITEM = re.compile(r"^[\s*_>-]{0,6}(?:✅|✔|☑|✓)\ufe0f?[\s*_]{0,6}+(?!" + DONE_WORD + r"\b)", re.I)
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
# a downtime tally's line, whatever it says the hours were due to (a yearly "Operational Summary": "External factors: 36%
# of the above downtime, corresponding to 114 hours (= 4.8 days), were due to external factors", "Unscheduled downtimes
# due to power outage:" over its list of dates and hours): a share of the downtime, or a category's title in the tally,
# never the cause of one incident though "due to" is said ("The downtime was due to a failed disk" is no tally)
DOWNTIME_TALLY = re.compile(
    r"(?<![\d.,])\d{1,3}(?:[.,]\d{1,3})?\s?% of (?:the )?(?:above |total |overall |yearly |annual )?(?:downtimes?|outage time)\b|"
    r"^[\W_]{0,6}(?:(?:un)?scheduled |(?:un)?planned |total |other )?downtimes (?:due to|caused by) [^.:;!?]{1,80}:\s{0,3}$",
    re.I,
)
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
# The cause said found and never told, with only the work to come beside it ("The root cause of the problem has been
# identified and work is currently underway to resolve it.", "We have identified the underlying cause of this problem and
# working with colleagues to get this resolved", "The cause has been identified and our team is working extremely hard
# (including out of hours) to resolve this."): a status page's phase, never the cause. A colon or a why in the sentence
# may tell it ("The cause has been identified: a full disk"), and the line is then no such line. The verbs of finding and
# the noun are the ones CAUSE_NOT_SAID reads (bot/reader/cues_fix.py): one list.
_CAUSE_NOUN = (
    CAUSE_NOUN
    + r"(?: of (?:the|this|these) (?:\w{1,30} )?(?:problems?|issues?|incidents?|outages?|failures?|disruptions?|errors?))?"
)
_WORK_TO_COME = (
    r"(?:under ?way|in progress|(?:working|work|engaged)\b[^.;:!?]{0,80}?\bto (?:get |getting )?(?:\w{1,30} ){0,2}?"
    r"(?:resolv|fix|address|restor|sort|mitigat|correct)\w{0,20})"
)
CAUSE_FOUND_UNTOLD = re.compile(
    r"^[\W_]{0,6}"
    + _STATUS_LABEL
    + r"(?:(?:we|the team|our team)(?: have| has|'ve|’ve)? (?:now |already )?"
    + CAUSE_FOUND_VERB
    + r" "
    + _CAUSE_NOUN
    + r"|"
    + _CAUSE_NOUN
    + r" (?:has|have|had) (?:now |already )?been "
    + CAUSE_FOUND_VERB
    + r")(?![^.;!?]{0,200}?"
    + _TELLS_WHY
    + r")(?:\s{0,3}[.!]?\s{0,3}$|,?\s{1,3}and\s{1,3}[^.;:!?]{0,160}?\b"
    + _WORK_TO_COME
    + r"\b[^.;:!?]{0,120}[.!]?\s{0,3}$)",
    re.I,
)
# what it will do to those who use it, said ahead ("This will have wide-reaching effects across the JASMIN platform and
# CEDA Archive services.", "It may cause some disruption to running jobs"): the harm to come, never why (no "because",
# "due to") and never what did it (a subject of its own other than the incident: "A bad deploy will have effects" names it)
IMPACT_FORECAST = re.compile(
    r"^[\W_]{0,6}(?:this|it|these|that|the (?:issue|incident|outage|problem|disruption|failure|situation))(?: \w{1,30}ly)? "
    r"(?:will|would|may|might|could|can|is likely to|are likely to|is expected to|are expected to) (?:also |still |likely )?"
    r"(?:have|cause|result in|lead to) (?:an? |some |the )?(?:[\w-]{1,30} ){0,2}?(?:effects?|impacts?|consequences|"
    r"knock-on|disruptions?|implications)\b(?![^.;!?]{0,200}?" + _TELLS_WHY + r")",
    re.I,
)
# a state and, after it, what the users are asked to do ("Issues now resolved, please report any further problems.", "A
# separate issue with PFS storage from earlier in the week is now resolved: if any further issues are encountered …,
# please wait until the above issues are resolved before reporting to the JASMIN helpdesk."): when, never the fix. A
# site's shortcode may open it ("{{<alert type="info">}}Issues now resolved, …"); a state with its means ("… resolved by
# restarting the proxy", "… resolved after we moved the disk") is no such line.
_ASKED = r"(?:if [^.;!?]{0,160}?,\s{0,3})?please\b"
STATE_THEN_ASK = re.compile(
    r"^[\W_]{0,6}(?:\{\{[<%][^{}]{0,80}[>%]\}\}\s{0,3})?"
    r"(?:(?!(?:we|i|after|by|because|since|when|once|following|thanks)\b)[\w@.’'()/&`*-]{1,60}\s{1,3}){0,12}?"
    r"(?:(?:is|are|has been|have been|was|were)\s{1,3})?(?:(?:now|all|fully|finally)\s{1,3}){0,2}"
    r"(?:resolved|fixed|restored|back to normal|back online|over)\s{0,3}[,:;—–-]\s{0,3}"
    + _ASKED
    + r"[^.!?]{0,300}[.!]?\s{0,3}$",
    re.I,
)
# a volume of data told with what became of it ("Over 1.6 Petabytes of data have been recovered to a holding area",
# "1.3 Petabytes of this has now been moved to its correct location", "approximately 5 Petabytes of data have been
# deleted"): how much, a figure about the incident; a volume that did something ("2TB of logs filled the disk") tells why
# and is no such line, nor is a sentence that tells why after it. A clause of its own too ("As a result of this incident,
# approximately 5 Petabytes of data have been deleted from the archive.")
_VOLUME = (
    r"(?:"
    + FIGURE_QUALIFIER
    + r"|(?:a further|another)\s{1,3})?(?<![\d.,])\d[\d,.]{0,12}\s{0,3}\+?\s{0,3}(?:[kmgtpe]i?b|bytes|(?:kilo|mega|giga|tera|peta|exa)-?bytes?)\b"
)
VOLUME_TOLD = re.compile(
    r"(?:^[\W_]{0,6}|[,;:]\s{1,3}|\s[-–—]\s{1,3})"
    + _VOLUME
    + r"(?![^.;!?]{0,200}?"
    + _TELLS_WHY
    + r")[^.;!?]{0,80}?\b(?:has|have|had|was|were|is|are)\s{1,3}(?:(?:now|so far|since|already|also|successfully)\s{1,3}){0,2}"
    r"(?:been\s{1,3})?(?:\w{1,30}ly\s{1,3})?(?:recovered|restored|copied|transferred|moved|migrated|rescued|retrieved|processed|"
    r"deleted|lost|removed|corrupted|re-?synced|synced|uploaded|downloaded|replicated|checked|verified|freed|reclaimed)\b",
    re.I,
)
# a phase of the response with its time, as a clause of its own ("The issue was identified at approximately 12:07, …",
# "… and the incident was fully diagnosed by 14:00."): when, never the cause or the fix; a clause that goes on after the
# time ("… resolved at 14:32 by restarting the pod") is no such clause
PHASE_AT_TIME = re.compile(
    r"(?:^|[,;:]\s{1,3})(?:and |then )?[\W_]{0,3}(?:the |this |our )?(?:incident|issue|problem|outage|root cause|cause|fault|"
    r"failure|degradation)s? (?:was|were|had been|has been|got) (?:\w{1,30}ly )?(?:identified|detected|noticed|spotted|diagnosed|"
    r"declared|escalated|acknowledged|reported|understood|confirmed|resolved|mitigated|contained|closed) (?:at|by|around|on|"
    r"from)\s{1,3}" + APPROX_TIME_MARK + "?" + WHEN + r"(?:\s{0,3}(?:utc|gmt|[a-z]{2,4}t))?"
    r"\s{0,3}(?=[,;.!]|$)",
    re.I,
)
