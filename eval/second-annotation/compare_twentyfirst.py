"""Agreement between truth.jsonl and twentyfirst-collection.jsonl, field by field (README.md, "The twenty-first
collection").

compare_twentieth_second.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentyfirst.tsv and drawn-twentyfirst-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentyfirst.py
"""

from compare_seventeenth import both_draws
from sample_twentyfirst import EXTENSION_TSV, TSV

LABELS = "twentyfirst-collection.jsonl"
EXTENSION_LABELS = "twentyfirst-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("adaway-adaway-1575", "root_cause_keywords"): True,  # second adds "our"
    ("antest1-kcanotify-20", "root_cause_keywords"): False,  # "data server of kcanotify" (the symptom's server) / []
    ("blauhaustechnology-moonbaseissues-16", "date"): False,  # null / the report's day ("has stopped updating")
    ("coralnet-coralnet-484", "found_keywords"): False,  # the console's message that names billing / []
    ("felixphew-pokepaste-150", "fix_keywords"): False,  # [] / "try and expand it" (announced, then "back up now")
    ("hyphaapp-hypha-547", "root_cause_keywords"): True,  # the OWASP XSS rule's false positives on staff input
    ("jackaudio-jack2-518", "root_cause_keywords"): True,  # second adds "down"
    ("martin-pabst-online-ide-62", "fix_keywords"): False,  # "my hoster has solved its network problem" / []
    ("nager-nager-date-49", "root_cause_keywords"): True,  # second without "the"
    ("nager-nager-date-49", "fix_keywords"): False,  # [] (the move a follow_up) / the move to an own server
    ("pdm-project-pdm-844", "root_cause_keywords"): False,  # Airtel peering with Cloudflare / [] ("possibly related")
    # the extension
    ("overviewer-minecraft-overviewer-1465", "root_cause_keywords"): False,  # the expiry / [] (why not said)
    ("gramineproject-gramine-785", "root_cause_keywords"): False,  # the expiry / [] (why not said)
    ("the-mcgrail-foundation-mimedefang-25", "root_cause_keywords"): False,  # the anti-spam tempfail / [] (the symptom)
    ("the-mcgrail-foundation-mimedefang-25", "fix_keywords"): True,  # second adds the new list's address
    ("ietf-github-services-activity-summary-48", "root_cause_keywords"): True,  # second adds "there"
    ("eclipse-openj9-openj9-1629", "root_cause_keywords"): True,  # "an issue starting slackin" / its log line
    ("eclipse-openj9-openj9-1629", "fix_keywords"): True,  # the new instance: its sentence / its URL
    ("eclipse-openj9-openj9-1629", "found_keywords"): True,  # the logs: their line / the sentence naming them
    ("factbook-factbook-15", "date"): False,  # the report's day / null (disabled at an untold time)
    ("factbook-factbook-15", "fix_keywords"): True,  # second without the manual update
    ("wavesplatform-wavesexplorerlite-19", "root_cause_keywords"): True,  # second adds "faucet address is"
    ("darshansingh11-avlectures-6", "root_cause_keywords"): True,  # second adds "the dataset has been"
    ("nathangeffen-space-travel-4", "root_cause_keywords"): True,  # second without "i"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("brought it up with my av's support", "brought it up with my av's support"),
    ("tried downloading 2x on sg", "tried downloading 2x on sg"),
    ("tried reinstlaling the cert", "tried reinstlaling the cert"),
    ("resend the email to the mailing list", "resend the email to the mailing list"),
    ("restart the app from an error state", "can't restart the app from an error state"),
    ("changed dns like suggested", "changed dns like suggested"),
    ("restarted mc, pc", "restarted mc, pc"),
    ("tried on two other pc's", "tried on two other pc's"),
    ("--dns-servers 8.8.8.8,8.8.4.4", "--dns-servers 8.8.8.8,8.8.4.4"),
    ("i tried to get too many certificates", "tried to get too many certificates"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
