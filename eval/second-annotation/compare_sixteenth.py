"""Agreement between truth.jsonl and sixteenth-collection.jsonl, field by field (README.md, "The sixteenth collection").

compare_twelfth.py's two readings (judged: compare_eleventh.py's JUDGED/MATCHES method; scored: bot/importer/scoring.py's
rule with the second label's phrases as the stored text), on the files drawn-sixteenth.tsv records.

    .venv/bin/python eval/second-annotation/compare_sixteenth.py
"""

from compare_twelfth import run
from sample_sixteenth import TSV
from sample_twelfth import recorded

LABELS = "sixteenth-collection.jsonl"
# No stratum was read for the draw (every sixth file by name), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("aaronjanse-asciidots-93", "root_cause_keywords"): True,  # second adds the traffic beside the dyno hours
    ("apereo-cas-2637", "root_cause_keywords"): True,
    ("daniellowtw-explosm-rss-6", "root_cause_keywords"): True,
    ("daniellowtw-explosm-rss-6", "fix_keywords"): True,
    ("hatscripts-circle-flags-20", "fix_keywords"): True,
    ("liferay-clay-528", "root_cause_keywords"): True,  # second adds the trigger (CDN enabled) beside the fault
    ("maxcdn-node-maxcdn-13", "root_cause_keywords"): False,  # the expired certificate / [] (why it expired, not said)
    ("oncokb-3574", "root_cause_keywords"): False,  # [] (the SPF cause then doubted: "changes from google") / the SPF
    ("oncokb-3574", "fix_keywords"): True,
    ("prologin-concours-site-175", "fix_keywords"): False,  # "fixed in #219" / [] (a link names no step)
    ("redhat-developer-odo-6194", "date"): False,  # the report's day / null ("paused ... a few months ago")
    ("redhat-developer-odo-6194", "root_cause_keywords"): True,  # second adds "was paused by algolia"
    ("redhat-developer-odo-6194", "fix_keywords"): True,
    ("redhat-developer-odo-6194", "found_keywords"): False,  # "as reported by a user" / []
    ("tburch-jsonblob-14", "root_cause_keywords"): True,  # second adds the blobs that used the inodes
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("tried to create two branches", "tried to create two branches: master and gh-pages"),
]

if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
