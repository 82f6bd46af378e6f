"""Agreement between truth.jsonl and twentythird-collection.jsonl, field by field (README.md, "The twenty-third
collection").

compare_twentysecond.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentythird.tsv and drawn-twentythird-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentythird.py
"""

from compare_seventeenth import both_draws
from sample_twentythird import EXTENSION_TSV, TSV

LABELS = "twentythird-collection.jsonl"
EXTENSION_LABELS = "twentythird-extension.jsonl"
# No stratum was read for either draw (every third file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("alistapart-alistapart-418", "root_cause_keywords"): True,  # second a piece of the label's, adds "server downtime"
    ("alistapart-alistapart-418", "found_keywords"): False,  # [] / "firebug / developer tools" (the report's 500)
    ("benjamincburns-websockproxy-7", "root_cause_keywords"): True,  # second without "my"
    ("fluxpointdev-cloudfrost-dev-6", "root_cause_keywords"): True,  # second without "due to z"
    ("inkdropapp-inkdrop-vim-17", "root_cause_keywords"): True,  # second without "due to"
    ("kamalisk-arkhamdb-664", "root_cause_keywords"): True,  # second a piece of the label's sentence
    ("libretranslate-libretranslate-82", "root_cause_keywords"): True,  # second a piece of the label's sentence
    ("libretranslate-libretranslate-82", "fix_keywords"): True,  # second adds the mitigation (the label's recovery)
    ("medyo-hackertab.dev-177", "date"): False,  # null / 3 days before the report (the posts "from 3 days ago")
    ("medyo-hackertab.dev-177", "root_cause_keywords"): True,  # second without "the"
    ("silverwind-droppy-263", "root_cause_keywords"): True,  # one sentence split in two
    ("taniarascia-laconia-23", "fix_keywords"): True,  # second without "and it's good now"
    # the extension
    ("cloudrac3r-bibliogram-77", "root_cause_keywords"): True,  # second without "instagram appears to be"
    ("grouparoo-open-source-data-stack-conference-14", "root_cause_keywords"): True,  # second without "the"
    ("grouparoo-open-source-data-stack-conference-14", "fix_keywords"): True,  # second without "we"
    ("valentinbinotto-status-17", "fix_keywords"): False,  # [] / maintenance mode off and the updates (outcome untold)
    ("valentinbinotto-status-17", "found_keywords"): True,  # two lines of the monitor's issue
    ("alkl58-notenoughav1encodes-40", "fix_keywords"): True,  # second without "has been now"
    ("lobstrio-shadow-useragent-9", "root_cause_keywords"): True,  # second without "the"
    ("lobstrio-shadow-useragent-9", "fix_keywords"): True,  # second without "i"
    ("onestay-cr-unblocker-24", "root_cause_keywords"): True,  # second without "my", "the"
    ("matthewpalmer-charter-46", "date"): False,  # 06-09 / 06-08 (no message "sent after June 8th")
    ("matthewpalmer-charter-46", "root_cause_keywords"): True,  # second without "something going on"
    ("yochaigal-kettlewright-226", "root_cause_keywords"): True,  # second without "our"
    ("yochaigal-kettlewright-226", "fix_keywords"): True,  # second without "it's been"
    ("soapboxraceworld-gamelauncher-nfsw-103", "fix_keywords"): False,  # [] (a recovery entry) / the CDN switched
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("have rebooted server", "rebooted server"),
    ("re-sending the email didn't work either", "re-sending the email"),
    ("clearing cache on reddit.com", "clearing cache on reddit.com"),  # second holds both steps as one attempt
    ("even after password reset", "even after password reset"),
    ("i have tried different wifi's and mobile network", "tried different wifi's and mobile network"),
    ("we restarted our webserver", "restarted our webserver"),
    ("i tried reinstalling", "tried reinstalling, restarting"),  # second holds both steps as one attempt
    ("i tried uninstalling the reinstalling the app", "tried uninstalling the reinstalling the app"),
    ("multiple users across multiple email addresses and providers", "tried yesterday and today"),  # the user's tries
    ("completely uninstalling the antivirus", "completely uninstalling the antivirus"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
