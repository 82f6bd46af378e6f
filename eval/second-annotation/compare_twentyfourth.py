"""Agreement between truth.jsonl and twentyfourth-collection.jsonl, field by field (README.md, "The twenty-fourth
collection").

compare_twentythird.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentyfourth.tsv and drawn-twentyfourth-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentyfourth.py
"""

from compare_seventeenth import both_draws
from sample_twentyfourth import EXTENSION_TSV, TSV

LABELS = "twentyfourth-collection.jsonl"
EXTENSION_LABELS = "twentyfourth-extension.jsonl"
# No stratum was read for either draw (every third file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("abundantsalmon-judo-techniques-bot-8", "root_cause_keywords"): True,  # second without "for a while"
    ("abundantsalmon-judo-techniques-bot-8", "fix_keywords"): False,  # [] / "has been resolved with the mods"
    ("amcat-amcat-763", "root_cause_keywords"): True,  # second a longer piece of the same sentence
    ("cbrgm-telegram-robot-rss-14", "root_cause_keywords"): False,  # [] / "the official bot is not active"
    ("codesandbox-codesandbox-client-678", "fix_keywords"): True,  # second without "i"
    ("cs50-check50-382", "root_cause_keywords"): False,  # "it's likely a github issue" / [] ("we don't know")
    ("d07riv-diabloweb-84", "root_cause_keywords"): True,  # second without "at the time"
    ("datamade-scrapers-us-municipal-33", "date"): False,  # the PR's day / null (since an untold deploy day)
    ("datamade-scrapers-us-municipal-33", "root_cause_keywords"): True,  # second without "the"
    ("ezard-semantic-prs-987", "root_cause_keywords"): True,  # second without "something around"
    ("ezard-semantic-prs-987", "found_keywords"): True,  # two pieces of one line (the error the maintainer saw)
    ("gitcoinco-web-8246", "found_keywords"): False,  # [] / "it eventually dies" (the Killed line)
    ("jamcowl-portmanteau-bot-1", "root_cause_keywords"): True,  # second shorter pieces of both phrases
    ("kawamataryo-github-trending-bot-12", "root_cause_keywords"): False,  # "twitter bot suspended" / []
    ("kunkundi-crossdesk-web-client-5", "root_cause_keywords"): False,  # expiry and ICP / [] (the certificate rule)
    ("kunkundi-crossdesk-web-client-5", "fix_keywords"): True,  # second with "the"
    ("librenms-librenms-3591", "root_cause_keywords"): True,  # second the first episode's phrase only
    ("librenms-librenms-3591", "found_keywords"): True,  # second the whole line
    # the extension
    ("exercism-exercism-6321", "root_cause_keywords"): True,  # second with "accidentally"
    ("kittinan-spotify-github-profile-84", "fix_keywords"): True,  # second without "i"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("deleting the linked sheet and trying to reconnect it", "deleting the linked sheet"),
    ("clearing browser cookies / logging out and back in", "clearing browser cookies"),
    ("i tried to remove the epg data to import new data", "tried to remove the epg data to import new data"),
    ("also ran the iptv connector again", "ran the iptv connector again"),
    ("tried reinstalling, delete old epg data", "tried reinstalling"),
    ("when i go to run it on the cronbox", "when i go to run it on the cronbox"),
    ("i decided to disconnect and reconnect the skill", "disconnect and reconnect the skill"),
    ("i have tried this with ei and edge", "i have tried this with ei and edge"),
    # the extension
    ("i have tried all 3 of my emails", "tried all 3 of my emails"),
    ("cleared my cache", "cleared my cache"),
    ("i've tried remaking and removing then creating", "tried remaking and removing then creating"),
    ("i already tried to change the file type", "tried to change the file type"),
    (
        "tried to get access from the web from different browsers and devices",
        "tried to get access from the web from different browsers and devices",
    ),
    ("i migrated any existing images", "i migrated any existing images"),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
