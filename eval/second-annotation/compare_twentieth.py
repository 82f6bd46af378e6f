"""Agreement between truth.jsonl and twentieth-collection.jsonl, field by field (README.md, "The twentieth collection").

compare_seventeenth.py's method (compare_twelfth.py's judged and scored readings, then the draw and the extension
pooled) on drawn-twentieth.tsv and drawn-twentieth-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentieth.py
"""

from compare_seventeenth import both_draws
from sample_twentieth import EXTENSION_TSV, TSV

LABELS = "twentieth-collection.jsonl"
EXTENSION_LABELS = "twentieth-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("acieroid-paste-py-14", "root_cause_keywords"): True,  # second adds "the server being"
    ("ivanceras-diwata-8", "root_cause_keywords"): True,  # second adds the second outage's panics
    ("ivanceras-diwata-8", "fix_keywords"): True,  # second adds the second outage's redeploy
    ("link-nv-logback-s3-rolling-policy-5", "root_cause_keywords"): True,  # second adds the repository's move
    ("privacydevel-nitter-48", "root_cause_keywords"): True,  # second without "the old way of"
    ("privacydevel-nitter-48", "fix_keywords"): False,  # [] (a recovery not-attempt) / the switch to regular accounts
    ("romankuchin-ica0002-2020-11", "root_cause_keywords"): True,  # second without "because of"
    ("streamlit-demo-uber-nyc-pickups-17", "root_cause_keywords"): False,  # [] / "gone over its resource limits"
    # the extension
    ("covid19datahub-covid19-199", "date"): False,  # null / 02-14 ("have not updated since february 14")
    ("covid19datahub-covid19-199", "root_cause_keywords"): False,  # [] / the 13-hour update (the symptom, or why)
    ("covid19datahub-covid19-199", "fix_keywords"): True,  # second adds "added a small fix to"
    ("klange-tsundere-me-3", "root_cause_keywords"): True,  # second adds "cannot be used for image hosting anymore"
    ("cortexlabs-cortex-446", "root_cause_keywords"): True,  # second adds "when we uploaded the new"
    ("cortexlabs-cortex-446", "fix_keywords"): True,  # second adds "we have"
    ("essentialsx-essentials-877", "root_cause_keywords"): False,  # [] / "maven repo is offline" (the third party's)
    ("shiva-sankaran-lineex-1", "root_cause_keywords"): True,  # second keeps the hedge's whole sentence
    ("idealo-image-super-resolution-57", "root_cause_keywords"): True,  # second adds "we"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("deployed version 1.5 and a new 1.6", "deployed version 1.5 and a new 1.6"),
    ("copying the collab notebook in my google drive", "copying the collab notebook in my google drive"),
    ("i triggered a rerun of the job", "triggered a rerun of the job"),
    ("archive build artifacts to the maven repo", "archive build artifacts to the maven repo"),
    ("terminating and restarting rstudio", "terminating and restarting rstudio"),
    ("killing the process from the command line", "killing the process from the command line"),
    ("removing the rhistory and rdata files", "removing the rhistory and rdata files"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
