"""Agreement between truth.jsonl and eighteenth-collection.jsonl, field by field (README.md, "The eighteenth collection").

compare_seventeenth.py's method (compare_twelfth.py's judged and scored readings, then the draw and the extension
pooled) on drawn-eighteenth.tsv and drawn-eighteenth-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_eighteenth.py
"""

from compare_seventeenth import pooled
from compare_twelfth import run
from sample_eighteenth import EXTENSION_TSV, TSV
from sample_twelfth import recorded

LABELS = "eighteenth-collection.jsonl"
EXTENSION_LABELS = "eighteenth-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("aburns4-motif-9", "root_cause_keywords"): True,  # the same phrase without "i recently"
    ("aburns4-motif-9", "fix_keywords"): True,
    ("deepomicslab-phagescope-8", "root_cause_keywords"): True,
    ("ev-map-evmap-444", "root_cause_keywords"): True,  # the hedged shutdown ("seems"), kept by both
    ("ev-map-evmap-444", "fix_keywords"): True,  # the new account, a replacement, a fix for both
    ("ipeagit-intro-access-book-18", "root_cause_keywords"): True,  # second adds the quoted rate-limit message
    ("kellia-dictionary-193", "date"): False,  # "since last evening" (06-21) / the report's day
    ("kellia-dictionary-193", "fix_keywords"): True,  # the clone and redirect, a mitigation, a fix for both
    ("lnenad-slouch-stoppah-3", "root_cause_keywords"): True,
    ("lnenad-slouch-stoppah-3", "fix_keywords"): True,
    ("mcgill-nlp-aurora-12", "root_cause_keywords"): True,
    ("mcgill-nlp-aurora-12", "fix_keywords"): True,  # the re-upload, told twice
    ("nanoadblocker-nanocore-304", "root_cause_keywords"): True,  # second adds "and it broke dns resolution"
    ("projectknife-projectfork-1550", "root_cause_keywords"): True,
    ("rigsofrods-rigs-of-rods-1444", "date"): False,  # "down for about a day" (01-11) / the report's day
    ("rigsofrods-rigs-of-rods-1444", "root_cause_keywords"): True,  # the unpaid bill; then top-up / server deleted
    ("sar5430-crackmes-one-9", "root_cause_keywords"): True,  # without "seems to be": hedged, kept by both
    # the extension
    ("parse-community-parse-server-6417", "date"): False,  # null / the report's day
    ("parse-community-parse-server-6417", "root_cause_keywords"): True,
    ("kinto-kinto-2295", "date"): False,  # "since at least 10/10/19" / the report's day
    ("kinto-kinto-2295", "root_cause_keywords"): True,  # both keep the hedged deletion nobody doubted
    ("kinto-kinto-2295", "fix_keywords"): True,  # without the restorer's name "ckolos"
    ("unclegoogle-galaxy-integration-osu-8", "root_cause_keywords"): True,
    ("unclegoogle-galaxy-integration-osu-8", "fix_keywords"): False,  # [] / "reactivate it manually" ("Try now")
    ("unclegoogle-galaxy-integration-osu-8", "found_keywords"): False,  # the hard-coded page's URL / []
    ("nerfirelia73-hkwordle-8", "root_cause_keywords"): True,  # second adds the quoted quota message
    ("nerfirelia73-hkwordle-8", "fix_keywords"): True,
    ("the-blue-alliance-2464", "date"): False,  # null / the follow-up's day
    ("the-blue-alliance-2464", "fix_keywords"): False,  # [] / the daily quota raised from $20 to $100
    ("kareemn-android-mk-5", "root_cause_keywords"): True,
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("https://floss.social", "floss.social"),
    ("i sent the payment just now", "sent the payment just now"),
    ("reached out for support from gcp", "reached out for support from gcp"),
    ("gae budget editing", "gae budget editing was erroring"),
    ("we have contacted with the manager", "contacted with the manager"),
]

if __name__ == "__main__":
    print("== the every-sixth draw")
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    print("== the extension (every other labelled attempt, 5 without; stratum hidden)")
    run(recorded(EXTENSION_TSV), EXTENSION_LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    pooled([(recorded(TSV), LABELS), (recorded(EXTENSION_TSV), EXTENSION_LABELS)], JUDGED, MATCHES)
