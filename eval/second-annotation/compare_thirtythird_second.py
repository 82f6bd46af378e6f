"""pm33second's blind labels of pm33's postmortems against truth.jsonl, field by field (README.md, "The held-out
postmortem judge pm33 (pm33second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's
method; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the reports
drawn-thirtythird-second.tsv records (bench/held_out_postmortems.tsv's pm33 block at 68ae19d4: batch 1).

    .venv/bin/python eval/second-annotation/compare_thirtythird_second.py
"""

from compare_twelfth import run
from sample_thirtythird_second import DRAWN_AT, TSV, recorded

LABELS = "thirtythird-postmortems-second.jsonl"
# Every report's stratum was seen: pm33 takes only posts where responders tell a step that did not help, and its commit
# subjects (read before the labels) give each batch's attempt count.
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("deimosfr-2015-01-29", "root_cause_keywords"): False,  # the options' loop / the 0k dump, MariaDB
    ("deimosfr-2015-01-29", "fix_keywords"): True,  # data folder, repair both; second adds dump
    ("markcheret-have-my-domain-back", "root_cause_keywords"): True,  # one sentence; second adds the emails
    ("markcheret-have-my-domain-back", "fix_keywords"): True,  # the lift both; second adds validation
    ("markcheret-have-my-domain-back", "found_keywords"): True,  # the notification; second adds research
    ("samueldebruyn-about-that-time", "root_cause_keywords"): True,  # the plugins both; other cuts
    ("samueldebruyn-about-that-time", "found_keywords"): True,  # Versio's suspension both; second adds its notices
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("i first restored a compressed backup", "so i first restored a compressed backup on the host"),
    ("searching for a previous backup", "when i was searching for a previous backup, i didn't find any correct one"),
    ("asked my best friend living in the uk to transfer the domain over", "asked my best friend living in the uk to transfer the domain over"),
    (
        "the previous administrator tried to delete the infected files and changed his passwords",
        "the previous administrator tried to delete the infected files and changed his passwords",
    ),
    ("i reinstalled them all using sucuri security", "a few days before i reinstalled them all using sucuri security"),
    # only second: samueldebruyn's first clean-up ("i simply deleted everything except for the *wp-content* directory"),
    # withdrawn: "i repeated the whole process" beside the plugins' removal ("that did it"), its rerun part of the fix
]  # fmt: skip


if __name__ == "__main__":
    print(f"== the first part (batch 1, 3 reports at {DRAWN_AT})")
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
