"""pmsecond's blind labels of all 8 pm29 postmortems against truth.jsonl, field by field (README.md, "The held-out
postmortem judges pm29 and pm30 (pmsecond)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES,
compare_eleventh.py's method; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored
text), on the reports drawn-twentyninth-second.tsv records (bench/held_out_postmortems.tsv's pm29 block at 69145dc5).

    .venv/bin/python eval/second-annotation/compare_twentyninth_second.py
"""

from compare_twelfth import run
from sample_twentyninth_second import TSV, recorded

LABELS = "twentyninth-postmortems-second.jsonl"
# Every report's stratum was seen: pm29 took only reports where responders tell a step that did not help, and its
# commit subjects (read before the labels) name the attempts of batches 2 and 3.
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("jovie-2026-09-26", "root_cause_keywords"): True,  # the stacked packaging defects and the livelock, both sides
    ("jovie-2026-09-26", "fix_keywords"): True,  # the human promote both sides; the packaging repairs, other cuts
    ("digiklausur-incident-reports", "root_cause_keywords"): True,  # the wrong resource requests both sides; pages
    ("digiklausur-incident-reports", "fix_keywords"): True,  # clearing the output both sides (the request raise below)
    ("oxpulse-chat-2026-04-10", "fix_keywords"): True,  # the explicit axum handler, the shorter cut
    ("psimaker-2025-09-23", "root_cause_keywords"): True,  # the default 30 s keepalive against the NAT idle-timeout
    ("psimaker-2025-09-23", "fix_keywords"): True,  # --keepalive-interval=15s, the shorter cut
    ("psimaker-2025-09-23", "found_keywords"): True,  # the fast-burn page and the cloudflared logs, other cuts
    ("robincapital-2026-05-26", "root_cause_keywords"): True,  # cron's missed fires and the race; second adds linger
    ("robincapital-2026-05-26", "fix_keywords"): True,  # linger and days_back=7; second adds the manual markout run
    ("robincapital-2026-05-26", "found_keywords"): True,  # Nick noticing the staleness, the shorter cut
    ("jdwillmsen-2026-08-30", "root_cause_keywords"): True,  # the ext4 journal left dirty, one of two both sides
    ("jdwillmsen-2026-08-30", "fix_keywords"): True,  # the verified copy promoted onto the live PVC, both sides
    ("jdwillmsen-2026-08-30", "found_keywords"): True,  # the player noticing missing builds (Detection / the table)
    ("jbouey-2026-04-23", "found_keywords"): True,  # the stale last_checkin, the longer cut
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("#18384 hides `.vercelignore` from cli 59", "#18384 hides `.vercelignore` from cli 59"),
    ("#18429 pins cli to 56.3.2", "#18429 pins cli to 56.3.2"),
    ("#18543 dereferences file-symlink traces", "#18543 dereferences file-symlink traces"),
    ("#18604 declares sentry hook packages", "#18604 declares sentry hook packages"),
    ("the manual save did not work too", "the manual save did not work too"),
    (
        "first fix attempt: `servedir::not_found_service(servefile::new(index_html))`",
        "first fix attempt: `servedir::not_found_service(servefile::new(index_html))`",
    ),
    # psimaker: the second replica on airbase (the second's one attempt holds the nodeSelector edit too)
    ("remove the `nodeselector` so it can run on airbase too", "try doubling the cloudflared replica count to 2"),
    ("re-running tonight crashed on a separate polars int64-vs-float64 bug", "re-running tonight crashed"),
    ("restore job attempt 1 fails", "restore job attempt 1"),
    ("hotfix commit (9c624c9) pushed; ci fails for same reason", "hotfix commit (9c624c9) pushed"),
    ("operator flashes all 3 boxes with v40.2", "operator flashes all 3 boxes with v40.2"),
    (
        "first rescue insert targets the **nested** `config.api_key`",
        "first rescue insert targets the **nested** `config.api_key`",
    ),
    # only truth.jsonl: psimaker's `kubectl scale ds --replicas=2` ("doesn't work like that", a DaemonSet)
    # only second: digiklausur 24.07.2020's during-exam raise of the resource requests (truth: its fix)
]


if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
