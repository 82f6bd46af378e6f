"""Agreement between truth.jsonl and twentyfifth-second-collection.jsonl, field by field (README.md, "The
twenty-fifth collection's batches 5-12").

compare_twentyfifth.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentyfifth-second.tsv and drawn-twentyfifth-second-extension.tsv with
their labels.

    .venv/bin/python eval/second-annotation/compare_twentyfifth_second.py
"""

from compare_seventeenth import both_draws
from sample_twentyfifth_second import EXTENSION_TSV, TSV

LABELS = "twentyfifth-second-collection.jsonl"
EXTENSION_LABELS = "twentyfifth-second-extension.jsonl"
# No stratum was read for either draw (every third file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("2016rshah-githubchart-api-33", "fix_keywords"): True,  # second without "with"
    ("classicpress-classicpress-2653", "root_cause_keywords"): True,  # second without "at namecheap", one of two
    ("firstdarkdev-modpublisher-31", "root_cause_keywords"): True,  # second with "a"
    ("grubersjoe-react-github-calendar-25", "root_cause_keywords"): True,  # the scraping / the HTML change it breaks on
    ("grubersjoe-react-github-calendar-25", "fix_keywords"): True,  # second without "i" and the version number
    ("konradbartecki-podatki.wtf.opensource-53", "root_cause_keywords"): True,  # second without "due to"
    ("sakaki--gentoo-on-rpi-64bit-95", "date"): False,  # null ("frozen for a while") / the report's day
    ("sakaki--gentoo-on-rpi-64bit-95", "root_cause_keywords"): True,  # second without the release's name
    ("sakaki--gentoo-on-rpi-64bit-95", "fix_keywords"): True,  # second without "i have just"
    # the lead's label change after this round (review F29's rule, c25second2's medium proposal): [] / npm's page
    ("yarnpkg-yarn-5846", "found_keywords"): False,
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("restarting the client and my computer", "tried restarting the client and my computer"),
    # the extension
    ("i am unable to add my card to heroku account", "unable to add my card to heroku account"),
    (
        "i tried many times in many devices and in different networks",
        "i tried many times in many devices and in different networks",
    ),
    ("i've tried restarring the project", "i've tried restarring the project"),
    ("the euro mirror", "the euro mirror"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
