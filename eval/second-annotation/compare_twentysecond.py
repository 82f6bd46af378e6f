"""Agreement between truth.jsonl and twentysecond-collection.jsonl, field by field (README.md, "The twenty-second
collection").

compare_twentyfirst.py's method (compare_twelfth.py's judged and scored readings, then compare_seventeenth.py's
pooling of the draw and the extension) on drawn-twentysecond.tsv and drawn-twentysecond-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentysecond.py
"""

from compare_seventeenth import both_draws
from sample_twentysecond import EXTENSION_TSV, TSV

LABELS = "twentysecond-collection.jsonl"
EXTENSION_LABELS = "twentysecond-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("111116-webosu-60", "date"): False,  # null / the report's day ("last few days")
    ("111116-webosu-60", "root_cause_keywords"): False,  # [] / "sayobot removed the beatmap mirror" (hedged)
    ("111116-webosu-60", "found_keywords"): True,  # second a piece of the label's sentence
    ("code-golf-code-golf-651", "root_cause_keywords"): False,  # "a server-side problem" (the lead, 03:36) / []
    ("basemax-coronavirusoutbreakapi-1", "root_cause_keywords"): True,  # one sentence split in two
    ("foojayio-discoapi-87", "root_cause_keywords"): True,  # one sentence split in two
    ("helldivers-2-api-13", "root_cause_keywords"): True,  # second without "of the actual game backend servers"
    # the job's runs without new data / the frozen in-game progress: different until 75285b3 (04:07 UTC) gave the label
    # both phrases; the label now holds the second's phrase and one more reading of the field (agree, as eleventh's)
    ("helldivers-2-api-13", "found_keywords"): True,
    ("inukshuk-anystyle-51", "root_cause_keywords"): True,  # second without "when we"
    ("jrowen-rhandsontable-64", "root_cause_keywords"): True,  # second without "for my account"
    ("mehr-schulferien-de-www.mehr-schulferien.de-690", "root_cause_keywords"): True,  # second without "an"
    ("musescore-musescore-34234", "root_cause_keywords"): True,  # second without "might be"
    ("omarciovsena-abibliadigital-73", "root_cause_keywords"): True,  # shorter pieces of the same two
    ("openmobilitydata-openmobilitydata-public-440", "root_cause_keywords"): True,  # second adds "isn't a direct think"
    ("openmobilitydata-openmobilitydata-public-440", "fix_keywords"): True,  # second adds "use the direct link"
    ("phoronix-test-suite-phoronix-test-suite-466", "root_cause_keywords"): True,  # second adds "false positive"
    ("redlib-org-redlib-155", "root_cause_keywords"): True,  # second without "reddit has started"
    ("skycryptwebsite-skycrypt-2092", "root_cause_keywords"): True,  # second adds the endpoint changes' link
    ("vasanthv-jsonbox-22", "root_cause_keywords"): True,  # second without "exceeding their"
    ("digitalplatdev-freedomain-issues-1", "fix_keywords"): True,  # second a piece of the label's sentence
    # the extension
    ("vincedelmas-mylists-47", "date"): False,  # null / the report's day (the 504 "for like a week and a half")
    ("vincedelmas-mylists-47", "root_cause_keywords"): True,  # second without "the"
    ("notrustverify-pastenym-27", "date"): False,  # null / the report's day (the paste "about 4 days old")
    ("notrustverify-pastenym-27", "root_cause_keywords"): True,  # second without "we had"
    ("nsupdate-info-nsupdate.info-465", "root_cause_keywords"): True,  # second adds the trigger's "new database fields"
    ("nsupdate-info-nsupdate.info-465", "fix_keywords"): False,  # [] / the migration, implied by "try again now?"
    ("ontozoo-ontobee-207", "root_cause_keywords"): True,  # second without "broken due to"
    ("haxball-haxball-issues-693", "root_cause_keywords"): True,  # second without "i use for the site"
    ("riotgames-developer-relations-900", "root_cause_keywords"): False,  # "new keys are invalid" / [] (the symptom)
    ("clipto-pro-android-23", "date"): False,  # null / the report's day ("over a period of a week")
    ("riotgames-developer-relations-1054", "root_cause_keywords"): False,  # keys not refreshing / [] (the symptom)
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("tried loading map on multiple devices", "tried loading map on multiple devices"),
    ("tried maps that were just played minutes ago", "tried maps that were just played minutes ago"),
    ("i tried refreshing, logging out then back in", "tried refreshing, logging out then back in"),
    ("i tried three real mailboxes", "tried three real mailboxes"),
    ("tried my mobile phone", "tried my mobile phone"),
    ("contact support at musescore.com", "contact support at musescore.com"),  # the lead's 02:45 call: a failed attempt
    ("the new update", "solved with the new update"),  # the label's phrase without its outcome word (the lead, 03:37)
    ("flush ui cache", "flush ui cache"),
    ("with a clean history and cache", "with a clean history and cache"),
    ("already tried regenerating the key", "regenerating the key"),
    ("i signed in and out, multiple times", "signed in and out, multiple times"),
    ("try logging in with google", "logging in with google"),
    (
        "created a new riot developer portal account and generated a new key",
        "created a new riot developer portal account",
    ),
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
