"""c31second's blind labels of the c31 threads against truth.jsonl, field by field (README.md, "The thirty-first
collection (c31second)"): compare_thirtieth_conversations_second.py's reading (compare_twelfth.run, judged by JUDGED and
MATCHES, compare_eleventh's rule; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored
text) on the threads drawn-thirtyfirst-conversations-second.tsv records (bench/held_out.tsv's c31 block at b898c2a2),
then fold B's threads alone.

    .venv/bin/python eval/second-annotation/compare_thirtyfirst_conversations_second.py
"""

from compare_twelfth import run
from compare_twentyseventh_second import fold_b
from sample_thirtyfirst_conversations_second import TSV
from sample_twentyseventh_second import recorded

LABELS = "thirtyfirst-conversations-second.jsonl"
# Every thread's stratum was seen: c31 holds only threads where a step did not help, and its file names tell the step.
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("voyanttools-voyant-8", "root_cause_keywords"): True,  # the same two phrases, longer
    ("techlore-plexus-app-61", "root_cause_keywords"): True,  # second with "it was"
    ("techlore-plexus-app-61", "found_keywords"): True,  # second with "all previous versions and"
    ("pierreaubert-spinorama-297", "root_cause_keywords"): True,  # the security flag's rejected mjs / the mime type and
    # the crashed service worker: one fault told over two sentences, cut differently; the dead host alike
    ("pierreaubert-spinorama-297", "fix_keywords"): True,  # the same two phrases, in the other order
    ("orinks-freight-fate-176", "root_cause_keywords"): True,  # the same two phrases, in the other order, with "i"
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
]  # fmt: skip


if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    fold_b(TSV, LABELS, JUDGED, MATCHES)
