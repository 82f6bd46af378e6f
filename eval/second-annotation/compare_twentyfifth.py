"""Agreement between truth.jsonl and twentyfifth-collection.jsonl, field by field (README.md, "The twenty-fifth
collection").

compare_twentyfourth.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentyfifth.tsv and drawn-twentyfifth-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentyfifth.py
"""

from compare_seventeenth import both_draws
from sample_twentyfifth import EXTENSION_TSV, TSV

LABELS = "twentyfifth-collection.jsonl"
EXTENSION_LABELS = "twentyfifth-extension.jsonl"
# No stratum was read for either draw (every third file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("acoustid-acoustid-server-48", "root_cause_keywords"): True,  # second without "it was"
    ("chocolatey-chocolatey.org-400", "root_cause_keywords"): True,  # second without "currently with intermittent ..."
    ("conda-infrastructure-785", "root_cause_keywords"): True,  # the stress / the ~3000 package updates that stress it
    ("online-go-online-go.com-1025", "root_cause_keywords"): True,  # the same sentence, in two pieces here
    ("online-go-online-go.com-1025", "fix_keywords"): True,  # second with "i"
    ("online-go-online-go.com-1025", "found_keywords"): False,  # [] / "the database back end is not responding"
    ("opentargets-issues-444", "root_cause_keywords"): True,  # second without "they are all"
    ("opentargets-issues-444", "fix_keywords"): True,  # second without "to free some space"
    ("scirate-scirate-511", "root_cause_keywords"): True,  # two overlapping pieces of one sentence
    ("scirate-scirate-511", "fix_keywords"): False,  # [] / "sent a bug report to arxiv"
    ("yuzutech-kroki-1504", "root_cause_keywords"): False,  # [] (the PlantUML release a plan) / the release awaited
    # the extension
    ("conan-io-conan-12687", "found_keywords"): False,  # [] / "status.cloud.google.com" (the provider's status page)
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("i have tried sending to multiple recipients", "i have tried sending to multiple recipients"),
    ("i've rebooted the nodes", "i've rebooted the nodes"),
    # the extension
    ("removing the remote from the virtual repo", "removing the remote from the virtual repo"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
