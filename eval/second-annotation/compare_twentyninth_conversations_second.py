"""c29second's blind labels of the c29 threads against truth.jsonl, field by field (README.md, "The twenty-ninth
collection (c29second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's method;
scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the threads
drawn-twentyninth-conversations-second.tsv records (bench/held_out.tsv's c29 block at 01c602ca), then the extension
(the threads c29's later batches added by 78486cda, drawn-twentyninth-conversations-second-extension.tsv), then both
pooled (compare_seventeenth.both_draws), then fold B's threads of each.

    .venv/bin/python eval/second-annotation/compare_twentyninth_conversations_second.py
"""

from compare_seventeenth import both_draws
from compare_twentyseventh_second import fold_b
from sample_twentyninth_conversations_second import EXTENSION_TSV, TSV
from sample_twentyseventh_second import recorded

DRAWS = (
    (TSV, "twentyninth-conversations-second.jsonl"),
    (EXTENSION_TSV, "twentyninth-conversations-second-extension.jsonl"),
)
TITLES = ("c29 block at 01c602ca (batches 1-2)", "extension (batches 3-6, at 78486cda)")
# Every thread's stratum was seen: c29 holds only threads where a step did not help, and its file names tell the step.
STRATUM_SEEN = tuple(file for tsv, _labels in DRAWS for _corpus, file, _fold, _commit in recorded(tsv))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("purescript-registry-152", "found_keywords"): True,  # one message: its words / the job log it links
    ("expo-expo-569", "root_cause_keywords"): False,  # [] / "some issues with the android builders"
    ("imgbot-imgbot-1342", "date"): False,  # null / the opening report's day
    ("imgbot-imgbot-1342", "root_cause_keywords"): False,  # [] / a user's "bot servers are down"
    ("rolv-io-rolvapp-6", "root_cause_keywords"): True,  # second with "we"
    ("jquery-codeorigin.jquery.com-45", "found_keywords"): False,  # [] / the origin against the CDN
    ("githedgehog-dataplane-157", "fix_keywords"): True,  # the same mitigation, second adds #150's publishing fix
    ("avr-rust-book.avr-rust.com-6", "root_cause_keywords"): True,  # one of the label's two
    ("bitwalker-exrm-212", "found_keywords"): False,  # [] / the private window that placed the cache on the server
    ("sdkman-sdkman-cli-587", "root_cause_keywords"): False,  # [] / the API call's error
    ("sdkman-sdkman-cli-587", "found_keywords"): True,  # one Slack post: its sentence / its curl
    ("sdkman-sdkman-cli-1173", "root_cause_keywords"): False,  # [] / "api is down"
    ("twitter-twemoji-178", "root_cause_keywords"): False,  # the reporter's question, then purged / []
    ("twitter-twemoji-178", "fix_keywords"): True,  # the purge: "try to purge" / "purge edge cache"
    ("sphinx-themes-sphinx-themes.org-67", "root_cause_keywords"): True,  # the CNAME's generation, one of two each
    ("sphinx-themes-sphinx-themes.org-67", "fix_keywords"): True,  # "my latest push" / its commit "fixed by 2c45a9b"
    ("codeisscience-manifesto-40", "fix_keywords"): True,  # second without "some"
    # the extension
    ("go-kit-kit-1058", "fix_keywords"): False,  # "thanks github support" / [] (a provider's repair, no step)
    ("go-kit-kit-1058", "found_keywords"): False,  # [] / the github.io address that still worked
    ("boswatch-bw3-core-116", "found_keywords"): False,  # [] / the GH Pages link that was reachable
    ("rbind-support-260", "root_cause_keywords"): False,  # "an issue with netlify" (a question) / []
    ("cloudcaptainsh-cloudcaptain-160", "fix_keywords"): False,  # the user's re-created app / []
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("delete and reimport this package", "delete and reimport this package"),
    ("cancelling the build and starting a new one", "cancelling the build and starting a new one"),
    ("tried starting a build for a different project", "tried starting a build for a different project"),
    ("reinstalling expo globally", "tried reinstalling expo globally"),
    ("tried a vpn to get around this issue", "i have tried a vpn"),
    ("removed the app from github applications", "i removed the app from github applications"),
    ("happens even after reinstalling", "even after reinstalling"),
    ("tested on another device", "tested on another device"),
    ("despite refreshing, restarting the app", "despite refreshing"),
    ("i've run it locally several times", "i've run it locally several times"),
    ("removing and re-adding the custom domain", "removing and re-adding the custom domain"),
    ("tried to reload for half an hour", "tried to reload for half an hour"),
    ("even after pushing fresh docs", "update to ex_doc 0.10.0 and regenerate"),
    ("broke it further during fixing it", "broke it further during fixing it"),
    ("uninstalling and reinstalling sdkman", "uninstalling and reinstalling sdkman"),
    ("i tried flushing candidates", "i tried flushing candidates"),
    ("i have tried to uninstall and install", "i have tried to uninstall and install"),
    ("i have also tried `sdk flush candidates`", "sdk flush candidates"),
    ("tried refresh that way", "tried refresh that way"),
    ("i thought this'd get fixed by #65", "fixed by #65"),
    ("i've updated the dns settings", "i've updated the dns settings"),
    ("re-configured", "re-configured as my last fix"),
    # the extension
    ("tried to change the folders", "tried to change the folders"),
    ("the manual download from the server", "manual download from the server"),
    ("i've tried everything i could think of", "i've tried everything i could think of"),
    ("verified the domain again", "verified the domain again"),
    ("add this custom domain to the repo", "try to add this custom domain to the repo"),
    ("i tried deleting and adding it gain", "i tried deleting and adding it gain"),
    ("i triggered deploy", "i triggered deploy"),
    ("forcing https", "forcing https did not do anything"),
    ("set that to true and pushed", "set that to true and pushed"),
    ("kill the ec2 instance", "kill the ec2 instance"),
]


if __name__ == "__main__":
    both_draws(*DRAWS, JUDGED, MATCHES, STRATUM_SEEN, titles=TITLES)
    for tsv, labels in DRAWS:
        fold_b(tsv, labels, JUDGED, MATCHES)
