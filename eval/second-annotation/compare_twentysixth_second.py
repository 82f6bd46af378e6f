"""c26second2's labels of c26's later batches against truth.jsonl, field by field (README.md, "The twenty-sixth
collection's later batches (c26second2)"): the draw and its extension each alone, then pooled, by compare_twentysixth.py's
method (compare_seventeenth.both_draws: judged by JUDGED and MATCHES, scored by scoring.py's rule).

    .venv/bin/python eval/second-annotation/compare_twentysixth_second.py
"""

from compare_seventeenth import both_draws
from sample_twentysixth_second import EXTENSION_TSV, TSV

DRAWS = ((TSV, "twentysixth-second-collection.jsonl"), (EXTENSION_TSV, "twentysixth-second-extension.jsonl"))
TITLES = ("every-third draw", "extension (c26's unread attempt threads, as many without; stratum hidden)")
STRATUM_SEEN: tuple[str, ...] = ()  # neither draw's stratum was printed or seen before the labels landed
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("ewels-sra-explorer-12", "root_cause_keywords"): True,  # second without "maybe just"
    ("kopecmaciej-vi-mongo-57", "root_cause_keywords"): True,  # second without "during that time"
    ("marathonlabs-marathon-732", "root_cause_keywords"): True,  # one sentence / its two halves
    ("mirage-mirage-886", "root_cause_keywords"): True,  # one sentence / its two halves
    ("neilbrown-wiggle-8", "root_cause_keywords"): True,  # second without "minor"
    ("paritytech-parity-processbot-369", "root_cause_keywords"): True,  # "a failure on github's side", one of two each
    ("paritytech-parity-processbot-369", "found_keywords"): True,  # the delivery search and the experiment, both sides
    ("rpisec-mbe-44", "root_cause_keywords"): True,  # second without "the"
    ("ssyyhhrr-stewardle-7", "root_cause_keywords"): True,  # second without "of the 2024 team changes"
    # the extension
    ("matuxgg-modmanager-10", "root_cause_keywords"): True,  # second without "matux.fr"
    ("glotcode-glot-19", "root_cause_keywords"): True,  # "hard disk is full", one of two
    ("taunometsalu-clustvis-7", "root_cause_keywords"): True,  # second without "there was"
    (
        "eatradish-seje2-4",
        "root_cause_keywords",
    ): True,  # second the sentence's first clause (its second an attempt here)
    ("aqiu384-megaten-fusion-tool-222", "fix_keywords"): False,  # [] / "fixed with a4a647c"
    ("cubeghost-tagreplacer-30", "root_cause_keywords"): True,  # second without "more frequently", one of two
    ("mrstahlfelge-lightblocks-12", "found_keywords"): True,  # "the server itself is up and running", one of two
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    # eatradish-seje2-4: the label gained the blocked renewal after this comparison (the lead, this round's proposal)
    ("renewing it", "godaddy's 2fa blocked me from renewing it"),
    ("i've been trying this for a week", "i've been trying this for a week"),
    ("i did try different browsers", "i did try different browsers"),
    ("i've tried several times during the day", "i've tried several times during the day"),
    # the extension
    ("i then downloaded the 3.0.0.4 exe and installed it that way", "downloaded the 3.0.0.4 exe and installed it"),
    (
        "i've tried to save a public snippet four or five times",
        "i've tried to save a public snippet four or five times",
    ),
    ("having been trying most days recently", "having been trying most days recently"),
    ("tried it with several files", "tried it with several files"),
    ("tried it in firefox 48.0.2 on windows7 and in ie11", "tried it in firefox 48.0.2 on windows7 and in ie11"),
    ("i restarted the computer but no change", "i restarted the computer"),
    (
        "i switched from our institutional network to my phone's wifi",
        "i switched from our institutional network to my phone's wifi",
    ),
    (
        "i even tried resubmitting files that previously succeeded",
        "i even tried resubmitting files that previously succeeded",
    ),
    ("i've tried refreshing", "i've tried refreshing"),
]

if __name__ == "__main__":
    both_draws(*DRAWS, JUDGED, MATCHES, STRATUM_SEEN, titles=TITLES)
