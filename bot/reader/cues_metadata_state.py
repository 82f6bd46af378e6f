r"""The one vocabulary's metadata section, continued (bot/reader/cues_metadata.py, split for length only): a
status page's word on the state of a part of the service, whatever the part is called; what it will see or when it
will be back; what followed from it, told as a state; a handle alone. Never a fix or a cause (bot.reader.read
`is_metadata`). Each is matched against one sentence of bounded length, with bounded repeats only.
"""

from __future__ import annotations

import re

# The same word on the state with any part of the service for its subject ("The authentication service in
# Openstack is working well now", "HPC/Grid Storage - GPFS is operational.", "The Backup system was restored and
# currently up.", "Some of them are already recovered, but the rest are waiting for a manual check"): a short
# noun phrase with no verb or pronoun of its own, one copula, a state of being up. Never a fix, a patch or a
# release as the subject ("A fix is available in 2.3" tells the fix), nor a state told with its means or its
# end ("… up again after we moved the disk", "… was running fine until the disk filled").
_PART_WORD = (
    r"(?!(?:is|are|was|were|has|have|had|been|be|being|will|would|should|can|could|did|do|does|we|i|you|they|he|she|"
    r"after|by|when|once|because|since|if|until|then|but|as|so|while|though|although|whereas|where|which|that|who|"
    r"fix\w{0,30}|patch\w{0,30}|workarounds?|releases?|versions?|updates?|"
    r"upgrades?|solutions?|mitigations?|changes?)\b)[\w/&().,’'+\ufeff-]{1,40}"
)
_ADVERB = r"(?:now|already|currently|finally|all|fully|again|still|completely|mostly|largely|also|back)"
_UP = (
    r"(?:up(?: and running)?|online|running(?: (?:normally|smoothly|again|fine|well))?|operational|functional|"
    r"available|accessible|reachable|working(?: (?:well|fine|properly|correctly|normally|as expected))?|stable|healthy|"
    r"back to normal|restored|recovered|ok|"
    # the trouble gone ("The behavior is no longer exhibiting.", "The errors are no longer occurring.")
    r"no longer (?:occurring|happening|exhibiting|present|reproducible|observed|seen|an issue))"
)
_SUBJECT_OF_A_STATE = r"(?:" + _PART_WORD + r"\s{1,40}(?:[-–—]\s{1,40})?){1,7}?"  # "HPC/Grid Storage - GPFS "
# what it now runs on or in is a change, not a state ("It is now running on an 8 vCPU/32 GB RAM system")
_NOT_WHERE = r"(?! (?:on|in|with|from|under|at|via) (?:an?|the|our|its|their|new|version|v?\d)\b)"
_IS_UP = (
    r"(?:is|are|was|were|seems?|appears?|looks?|remains?|has been|have been)\s{1,40}(?:"
    + _ADVERB
    + r"\s{1,40}){0,2}"
    + _UP
    + _NOT_WHERE
)
_AND_UP = r"(?:\s{1,40}(?:and|but)\s{1,40}(?:" + _ADVERB + r"\s{1,40}){0,2}" + _UP + r")?(?:\s{1,40}" + _ADVERB + r")?"
# … or that it runs as it should again ("Everything is operating normally", "Error rates have returned to normal levels",
# "Blocks are being produced again", "The backlog has been processed", "Block production resumed at 14:07 UTC",
# "Performance has improved")
_RUNS_AGAIN = (
    r"(?:(?:(?:is|are|has been|have been|was|were)\s{1,40})?(?:being\s{1,40})?(?:operat|function|perform|respond|behav|run|work|process|"
    r"serv|produc|sync|finali[sz]|accept)\w{0,30}\s{1,40}(?:[\w-]{1,40}\s{1,40}){0,2}?(?:normally|as (?:expected|usual|normal)|again)|"
    r"(?:has|have) (?:now |since )?(?:returned to normal(?: levels)?|improved|stabili[sz]ed)|"
    r"(?:has|have) (?:now )?(?:all )?been (?:processed|drained|cleared|caught up)|(?:has|have) (?:now )?(?:drained|caught up)|"
    r"(?:resumed|(?:came|comes?) back(?: online| up)?)(?: (?:producing|processing) \w{1,30})?(?: (?:normally|again))?)"
)
STATE_OF_A_PART = re.compile(
    r"^[\W_]{0,6}(?:(?:update|resolved|monitoring|identified)\b[^A-Za-z]{0,40})?"
    + _SUBJECT_OF_A_STATE
    + r"(?:"
    + _IS_UP
    + _AND_UP
    + r"|"
    + _RUNS_AGAIN
    + r")"
    # no means, no end ("… up again after we moved the disk", "… running fine until the disk filled"), and a "but"
    # only for the rest of the parts ("…, but the rest are waiting for a manual check")
    + r"\b(?![^.;]{0,100}?\b(?:by|after|via|thanks|because|due|following|once|when|with|from|using|through|until|"
    r"before|since|then)\b)(?![^.;]{0,100}?\band (?:was|were|then|(?:we|i)(?! (?:will |are )?(?:continue|continuing|keep) (?:to )?monitor))\b)(?![^.;]{0,100}?\bbut\b(?! (?:the rest|the others|others|some|a few|several|one|two|\d{1,12})\b))"
    r"[^.;!]{0,100}[.;!]?\s*$",
    re.I,
)
# what a part of the service will see or when it will be back, told ahead ("Eastern US may experience higher than
# expected latency until the situation is resolved", "Services will return online when upstream resolves"): an
# estimate, never the fix
STATE_FORECAST = re.compile(
    r"^[\W_]{0,6}(?:(?:update|monitoring|identified)\b[^A-Za-z]{0,40})?"
    + _SUBJECT_OF_A_STATE
    + r"(?:(?:may|might|could|will|should) (?:continue to |still |also )?(?:experience|encounter|see|notice|observe)\b|"
    r"will (?:be )?(?:return(?:ing)?|come back|back|restored|available|online|operational)\b)"
    # nor one that tells why ("Users may see SSL warnings to say that the certificate expired today")
    r"(?![^.;]{0,150}?\b(?:because|due to|caused|since|as a result of|say(?:s|ing)? that|that the)\b)",
    re.I,
)
# a reading that rose or fell, the reading as its subject ("Block time increased to 30s", "Error rates spiked to 40%");
# "We increased the timeout to 30s" and "The timeout was increased to 30s" tell a step
READING_MOVED = re.compile(
    r"^[\W_]{0,6}"
    + _SUBJECT_OF_A_STATE
    + r"(?:increased|rose|spiked|climbed|jumped|dropped|fell|grew|went up|went down|peaked)(?: sharply| significantly)? "
    r"(?:to|from [^.;]{1,30}? to|by|at) [~≈]?\d[\d,.]{0,40}\s?(?:%|x|ms|s|secs?|seconds?|mins?|minutes?|h|hours?|k|m)?"
    r"(?![^;]{0,120}?\b(?:by|after|because|due to|when|once|since|as a result of)\b)",
    re.I,
)
# a line that is only a handle, linked or not ("[@sh3ll3x3c](https://github.com/sh3ll3x3c)", "@sam, @alex"): who
# wrote it, a value; a line of links stays (a fix may cite the page it followed)
_HANDLE = r"(?:\[@[\w-]{1,40}\]\([^)\s]{1,300}\)|@[\w-]{1,40})"
REFERENCE_ONLY = re.compile(
    r"^[\s*+>-]{0,6}" + _HANDLE + r"(?:[\s,;]{1,40}(?:and\s{1,40})?" + _HANDLE + r"){0,5}[\s.,;]{0,40}$", re.I
)

# a word that tells a thing done, a past or a participle ("rolled back", "took", "was restarted", "rebuilt", "sent"): the
# one list for a step beside the watching (cues_metadata's STATUS_BOILERPLATE: "We are monitoring the database and rolled
# back the deploy") and for a step told after what followed (CONSEQUENCE_ONLY: "… the scheduler was restarted"). Never
# a state that has a past's shape ("degraded", "affected", "related", "delayed"): "We are monitoring the situation and
# related alerts" is the stock line still, "As a result, Binder service was degraded …" what followed, told as a state
_STATE_NOT_A_STEP = r"(?:un)?(?:related|associated|affected|impacted|degraded|delayed|expected|interrupted)\b"
DONE_WORD = (
    r"(?!" + _STATE_NOT_A_STEP + r")(?:\w{2,30}ed|took|taken|ran|run|put|set|made|brought|shut|cut|kept|"
    r"built|rebuilt|done|sent|given|(?:re)?written|driven|chosen|forgotten|undone|redone)"
)

# what followed from it, told as a state (CONSEQUENCE_ONLY: the whole sentence): "As a result, we have a long-standing
# queue, and new jobs can take hours before being processed", "Consequently, users were unable to log in"; a step told
# after it ("As a result, we rolled back the deploy", "… the scheduler was restarted with more memory") is not one, nor
# "This meant …" (it may tell the mechanism: "This meant the variable was set to 9.09% instead of 6.98%")
CONSEQUENCE_ONLY = re.compile(
    r"^\W{0,20}(?:as a (?:result|consequence)|consequently|because of this|due to this)\s{0,40},?\s{1,40}"
    r"(?:[\w'’-]{1,40}\s{1,40}){1,4}?(?:have|has|had|is|are|was|were|can|could|may|might|would|saw|see|experienced|experience|"
    r"became|become|got|remained|remain)\b(?!\s+(?:\w{1,30}ly\s{1,40})?(?:been\s{1,40})?" + DONE_WORD + r"\b)",
    re.I,
)
