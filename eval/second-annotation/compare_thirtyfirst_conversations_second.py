"""c31second's blind labels of the c31 threads against truth.jsonl, field by field (README.md, "The thirty-first
collection (c31second)"): compare_thirtieth_conversations_second.py's reading (compare_twelfth.run, judged by JUDGED and
MATCHES, compare_eleventh's rule; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored
text) on the threads drawn-thirtyfirst-conversations-second.tsv records (bench/held_out.tsv's c31 block at b898c2a2),
then the extension (the threads c31's batches 3-6 added by 4f76af4e, drawn-thirtyfirst-conversations-second-extension.tsv),
then both pooled (compare_seventeenth.both_draws), then fold B's threads of each.

    .venv/bin/python eval/second-annotation/compare_thirtyfirst_conversations_second.py
"""

from compare_seventeenth import both_draws
from compare_twentyseventh_second import fold_b
from sample_thirtyfirst_conversations_second import EXTENSION_TSV, TSV
from sample_twentyseventh_second import recorded

DRAWS = (
    (TSV, "thirtyfirst-conversations-second.jsonl"),
    (EXTENSION_TSV, "thirtyfirst-conversations-second-extension.jsonl"),
)
TITLES = ("c31 block at b898c2a2 (batches 1-2)", "extension (batches 3-6, at 4f76af4e)")
# Every thread's stratum was seen: c31 holds only threads where a step did not help, and its file names tell the step.
STRATUM_SEEN = tuple(file for tsv, _labels in DRAWS for _corpus, file, _fold, _commit in recorded(tsv))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("voyanttools-voyant-8", "root_cause_keywords"): True,  # the same two phrases, longer
    ("techlore-plexus-app-61", "root_cause_keywords"): True,  # second with "it was"
    ("techlore-plexus-app-61", "found_keywords"): True,  # second with "all previous versions and"
    ("pierreaubert-spinorama-297", "root_cause_keywords"): True,  # the security flag's rejected mjs / the mime type and
    # the crashed service worker: one fault told over two sentences, cut differently; the dead host alike
    ("pierreaubert-spinorama-297", "fix_keywords"): True,  # the same two phrases, in the other order
    ("orinks-freight-fate-176", "root_cause_keywords"): True,  # the same two phrases, in the other order, with "i"
    # the extension
    ("dagagren-toot-471", "root_cause_keywords"): False,  # the relay "may have been" down / [] (still failing)
    ("jac241-anki-killstreaks-37", "root_cause_keywords"): True,  # second with "this morning which caused …"
    ("egdata-app-egdata-41", "root_cause_keywords"): True,  # second with "an issue with"
    ("mrknow-filmkodi-76", "root_cause_keywords"): True,  # second with "we have"
    ("osome-iu-botometer-python-26", "root_cause_keywords"): True,  # the same two phrases, in the other order
    ("csubiogroup-dpfunc-8", "fix_keywords"): True,  # second with "we have"
    ("i-celeste-aurora-m-ailabs-dataset-3", "root_cause_keywords"): True,  # second adds the move to a new server
    ("failedshack-usbhelperinstaller-37", "fix_keywords"): False,  # the restore from backup / [] ("started", untold)
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("i have been trying many times to access", "i have been trying many times to access"),
    ("i have attempted to access our etsis through multiple browsers", "i have attempted to access our etsis through multiple browsers"),
    ("every time i try", "every time i try"),
    ("deleting the container and creating a new one", "deleting the container and creating a new one"),
    ("forced reload", "sometimes not even with a forced reload"),
    ("i have attempted using firefox", "i have attempted using firefox 89.0.2 (32-bit) and also chrome"),
    ("deleted the db", "i have already deleted the db"),
    # the extension
    ("i tried to remove/install back again the app", "i tried to remove/install back again the app"),
    ("i just tried to logout/login", "i just tried to logout/login"),
    ("installing the app store version", "installing the app store version"),
    ("i tried send a few messages to the bot", "i tried send a few messages to the bot"),
    ("i logged out and uninstalled and reinstalled the app", "i logged out and uninstalled and reinstalled the app"),
    ("i've tried updating", "i've tried updating, deleting and re-downloading both the add-on and anki itself"),
    ("have tried disabling all other add-ons", "have tried disabling all other add-ons"),
    ("refreshing it", "refreshing it does not help"),
    ("i've tried them on google chrome", "i've tried them on google chrome"),
    ("tried in multiple browsers", "just tried in multiple browsers, incognito, vpn on and vpn off"),
    ("when i go to install it again", "when i go to install it again it fails"),
    ("through zip or super repo", "still not able to download through zip or super repo"),
    ("tried to install the filmkodi repo", "tried to install the filmkodi repo"),
    ("i used different laptops, different os, and different keys/tokens", "i used different laptops, different os, and different keys/tokens"),
    ("with multiple tries", "with multiple tries"),
    ("with wget", "with wget i am getting this error"),
    ("i tried the https version as well", "i tried the https version as well"),
    ("have tried clearing cache and cookies, using different browser", "have tried clearing cache and cookies, using different browser"),
    ("tried installing an older version (v1.1)", "tried installing an older version (v1.1)"),
    ("i tried uninstalling and installing it again", "i tried uninstalling and installing it again"),
]  # fmt: skip


if __name__ == "__main__":
    both_draws(*DRAWS, JUDGED, MATCHES, STRATUM_SEEN, titles=TITLES)
    for tsv, labels in DRAWS:
        fold_b(tsv, labels, JUDGED, MATCHES)
