"""Agreement between truth.jsonl and twentysixth-collection.jsonl, field by field (README.md, "The twenty-sixth
collection").

compare_twentyfifth.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentysixth.tsv and drawn-twentysixth-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentysixth.py
"""

from compare_seventeenth import both_draws
from sample_twentysixth import EXTENSION_TSV, TSV

LABELS = "twentysixth-collection.jsonl"
EXTENSION_LABELS = "twentysixth-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("0xjacky-nginx-ui-453", "root_cause_keywords"): True,  # the command alone, without "i just ran … everything gone"
    ("byu-is-media-independent-study-130", "root_cause_keywords"): True,  # second without "it was"
    ("gatech-genemark-prothint-12", "root_cause_keywords"): True,  # second without "we've had"
    ("grauenwolf-travellertools-138", "root_cause_keywords"): False,  # [] / "the whole server was broken"
    ("intrinsic-dev-aic-479", "fix_keywords"): True,  # the same unblocking; the label adds the zones (one of two)
    ("jsxc-jsxc-689", "root_cause_keywords"): True,  # the ISP's broken linecard, a shorter piece, one of two
    ("lingdb-cobl-348", "found_keywords"): True,  # second without "i could reproduce this after"
    ("noahhl-batsd-23", "root_cause_keywords"): True,  # second without "and didn't consider those links"
    ("piwheels-piwheels-307", "root_cause_keywords"): True,  # second without "there's"
    ("relax-relax-40", "root_cause_keywords"): True,  # the same sentence, in two pieces here
    ("sketchy502-sdv-summary-24", "root_cause_keywords"): True,  # second without "probably"
    ("sketchy502-sdv-summary-24", "fix_keywords"): False,  # [] (the hotfix's outcome untold) / the hotfix pushed
    # the extension
    ("elofssonlab-topcons2-12", "root_cause_keywords"): True,  # second without "our it is"
    ("richzhang-perceptualsimilarity-36", "root_cause_keywords"): True,  # second without "going through"
    ("spcl-ncc-48", "root_cause_keywords"): True,  # second without "there was"
    ("albrow-fo-6", "root_cause_keywords"): True,  # the type-checker bug; the label adds the crash it caused
    ("piwheels-piwheels-37", "root_cause_keywords"): True,  # the swap on NFS; second adds Mythic's NFS issue
    ("piwheels-piwheels-37", "found_keywords"): True,  # second without "woke up to a pile of"
    ("doctrine-doctrine-website-390", "fix_keywords"): True,  # second without "for the dbal and orm projects"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    # shiftedit-361: the label gained it after this comparison (the lead, review F38)
    ("have sent emails", "have sent emails"),
    ("when trying again", "when trying again"),
    ("if i try to submit it again", "if i try to submit it again"),
    ("after resubmitting", "after resubmitting"),
    ("tried cleaning my cache", "tried cleaning my cache"),
    # the extension
    ("i tried reloading and changing view", "i tried reloading"),  # second splits the one phrase in two
    (
        "i tried downloading the dataset with different devices and ips",
        "i tried downloading the dataset with different devices and ips",
    ),
    ("clearing the browser cache did not resolve the problem", "clearing the browser cache"),
    ("i just tried firefox", "i just tried firefox"),
    ("i tried other accounts too", "i tried other accounts too"),  # second holds the day's retries in the same attempt
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
