"""c30second's blind labels of the c30 threads against truth.jsonl, field by field (README.md, "The thirtieth collection
(c30second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's method; scored by
bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the threads
drawn-thirtieth-conversations-second.tsv records (bench/held_out.tsv's c30 block at a94b4eb0), then the extension (the
threads c30's later batches added by 57600fca, drawn-thirtieth-conversations-second-extension.tsv), then both pooled
(compare_seventeenth.both_draws), then fold B's threads of each.

    .venv/bin/python eval/second-annotation/compare_thirtieth_conversations_second.py
"""

from compare_seventeenth import both_draws
from compare_twentyseventh_second import fold_b
from sample_thirtieth_conversations_second import EXTENSION_TSV, TSV
from sample_twentyseventh_second import recorded

DRAWS = (
    (TSV, "thirtieth-conversations-second.jsonl"),
    (EXTENSION_TSV, "thirtieth-conversations-second-extension.jsonl"),
)
TITLES = ("c30 block at a94b4eb0 (batches 1-5)", "extension (batches 6-8, at 57600fca)")
# Every thread's stratum was seen: c30 holds only threads where a step did not help, and its file names tell the step.
STRATUM_SEEN = tuple(file for tsv, _labels in DRAWS for _corpus, file, _fold, _commit in recorded(tsv))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("z0al-dep-33", "date"): False,  # null / the report's day ("recently it's stopped working")
    ("machinetranslate-machinetranslate.org-137", "date"): False,  # null / the report's day ("this weekend we moved")
    ("shanselman-hanselman.com-bugs-30", "root_cause_keywords"): True,  # second with "may be"
    ("shanselman-hanselman.com-bugs-30", "found_keywords"): False,  # [] / the VPN to California that showed the images
    ("feedbin-support-495", "found_keywords"): True,  # second adds the feed that works beside Firefox's bookmarks
    ("opensubtitles-service.subtitles.opensubtitles_by_opensubtitles-4", "root_cause_keywords"): True,  # adds the API
    ("rainforestapp-tester-chrome-extension-717", "found_keywords"): False,  # [] / the network tab's red plugin.js
    ("arthurpsmith-author-disambiguator-153", "root_cause_keywords"): True,  # second with "some" and "a"
    ("ijprest-keyboard-layout-editor-377", "date"): False,  # null / the report's day ("the last couple of days")
    ("magnusmanske-quickstatements-55", "fix_keywords"): True,  # second adds "instead of 7.3"
    ("rockfireredmoon-iceee-344", "fix_keywords"): True,  # one of the label's two (the mitigation)
    ("technicpack-techniclauncher-191", "root_cause_keywords"): False,  # [] / "now the website is broken"
    ("pictuga-morss-151", "root_cause_keywords"): True,  # second without "a"
    ("night-betterttv-711", "root_cause_keywords"): False,  # [] / "our api is currently experiencing an outage"
    ("night-betterttv-1304", "root_cause_keywords"): False,  # [] / "there is currently an issue with the api"
    ("casterlabs-caffeinated-73", "root_cause_keywords"): False,  # [] / "an issue on our servers"
    ("casterlabs-caffeinated-74", "root_cause_keywords"): False,  # [] / "we were having server troubles"
    # the extension
    ("semx11-autotip-14", "root_cause_keywords"): True,  # second with the API's subject
    ("sp614x-optifine-3250", "root_cause_keywords"): False,  # [] / "cape servers are down"
    ("zachpmanson-minecraftle-9", "root_cause_keywords"): False,  # [] / the second episode's hedged traffic
    ("zachpmanson-minecraftle-9", "fix_keywords"): True,  # second adds the second episode's restart
    ("gryffon-ringteki-1542", "root_cause_keywords"): True,  # second with "temporary error due to"
    ("throneteki-1464", "root_cause_keywords"): False,  # the expiry / why it lapsed ("the server hadnt been restarted")
    ("drawpile-342", "root_cause_keywords"): False,  # the opening's quoted "certificate has expired" / [] (why untold)
    ("drawpile-501", "date"): False,  # the report's day / the last good session three days before
    ("lurkars-gloomhavensecretariat-608", "date"): False,  # three days before the report / null ("a few days")
    ("lurkars-gloomhavensecretariat-608", "root_cause_keywords"): False,  # "a certificate issue" / [] (why untold)
    ("jbelford-eolian-40", "root_cause_keywords"): False,  # [] / "issues affecting the server"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("changing my dns servers back to my isp's", "i've tried changing my dns servers back to my isp's"),
    ('adding "depends on #xx" at the start or end', 'adding "depends on #xx" at the start or end doesn\'t make a difference'),
    ("tried a couple of reinstalls", "we've tried a couple of reinstalls"),
    ("adding a cname to point www", "despite adding a cname to point www"),
    ("deleting the gitbook site completely", "after deleting the gitbook site completely"),
    ("i'd tried two connections and a vpn from uk to usa", "i'd tried two connections and a vpn from uk to usa"),
    ("i tried removing and re adding the feed", "i tried removing and re adding the feed"),
    ("i've refreshed it multiple times", "i've refreshed it multiple times"),
    ("i have reinstalled it", "i have reinstalled it"),
    ("i logged out and logged in and installed the extension", "i logged out and logged in and installed the extension"),
    ("restarted with canonical flag", "restarted with canonical flag"),
    ("re-pulled the translation server files from github", "i re-pulled the translation server files from github"),
    ("i restarted the server", "i restarted the server"),
    ("via chrome, via brave", "tried logging via firefox on linux, android and windows"),
    ("whitelisting the site in the ad blocker", "whitelisting the site in the ad blocker"),
    (
        "i tried different computers, different browses and different places",
        "i tried different computers, different browses and different places",
    ),
    ("i've tried a few different pages", "i've tried a few different pages"),
    ("i tried restarting it several times", "i tried restarting it several times"),
    ("synchronizing repos", "synchronizing repos had no affect"),
    ("i re-downloaded that version", "i re-downloaded that version"),
    ("disabled network blocks", "disabled network blocks"),
    ("i have tried it on chrome (+incognito) and ie", "i have tried it on chrome (+incognito) and ie"),
    ("changing the setting to enable bttv emotes on, and off", "i tried changing the setting to enable bttv emotes on, and off"),
    ("i tried uninstalling and reinstalling it", "i tried uninstalling and reinstalling it"),
    ("reinstalling ffz", "i've tried reinstalling ffz, restarting my pc and restarting chrome"),
    ("reinstalling", "i tried all the same things they did, like reinstalling, restating the computer"),
    ("i removed the twitch token from config file and reconnected it", "i removed the twitch token from config file and reconnected it"),
    # the extension
    ("refreshed", "refreshed, got a different error"),
    ("i closed minecraft and, when i restarted it", "i closed minecraft and, when i restarted it"),
    ("i also tried reinstalling the extensions", "i also tried reinstalling the extensions"),
    ("i tried in some versions", "i tried in some versions"),
    ("reloading and other client-side fixes", "reloading and other client-side fixes do not work"),
    ("wiping cache/hard-refreshing", "wiping cache/hard-refreshing won't work either"),
    ("tested on fresh incognitos", "tested on fresh incognitos"),
    ("i've cleared my cache", "i've cleared my cache"),
    ("i have reset the computer", "i have reset the computer, cleared the cache and ssl slate"),
    ("requested a reset", "requested a reset anyway"),
    ("create a new account", "i tried to create a new account using my gmail account"),
    ("nuking the cache and reloading", "i tried nuking the cache and reloading"),
    ("have tried everything u2 has", "have tried everything"),
    ("several restarts", "system has since been updated"),  # one sentence: the update, restarts, reset and compile
    ("tested on versions 2.0.2, 2.0.3, and 2.0.5", "tested on versions 2.0.2, 2.0.3, and 2.0.5"),
    (
        "i have tried on multiple devices and on different connections to the internet",
        "i have tried on multiple devices and on different connections to the internet",
    ),
    ("we tried kicking it from the server and reauthorising", "we tried kicking it from the server and reauthorising"),
    ("we have tried kicking the bot", "we have tried kicking the bot"),
]  # fmt: skip


if __name__ == "__main__":
    both_draws(*DRAWS, JUDGED, MATCHES, STRATUM_SEEN, titles=TITLES)
    for tsv, labels in DRAWS:
        fold_b(tsv, labels, JUDGED, MATCHES)
