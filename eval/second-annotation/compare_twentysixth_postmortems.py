"""Agreement between truth.jsonl and the blind second reading of the held-out postmortem judges pm25 and pm26
(twentysixth-postmortems.jsonl, its extension), field by field (README.md, "The held-out postmortem judges pm25 and
pm26").

compare_twelfth.py's judged and scored readings (compare_eleventh.py's JUDGED/MATCHES method; bot/importer/scoring.py's
rule with the second label's phrases as the stored text) on drawn-twentysixth-postmortems.tsv and its extension, each
alone, then pooled (compare_seventeenth.both_draws, given the postmortem corpus).

    .venv/bin/python eval/second-annotation/compare_twentysixth_postmortems.py
"""

from compare_seventeenth import both_draws
from sample_twentysixth_postmortems import EXTENSION_TSV, TSV

LABELS = "twentysixth-postmortems.jsonl"
EXTENSION_LABELS = "twentysixth-postmortems-extension.jsonl"
# Told before the draw by commit subjects (not label lines): andorthehood's not-an-incident call (the lead's 4744f39f),
# "no failed attempt" for pm26's batches 9 (ronaldlokers, sescanella) and 10 (markus-barta).
STRATUM_SEEN = ("andorthehood-", "ronaldlokers-", "sescanella-", "markus-barta-")
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("pgmac-2026-06-24", "root_cause_keywords"): True,  # the same parallel restart; second holds the dqlite unit's name
    ("pgmac-2026-06-24", "fix_keywords"): True,  # the runbook's restarts on k8s02; the label adds the cordon
    ("pgmac-2026-06-24", "found_keywords"): True,  # second without the check's name
    ("mitoyosh-2026-08-18", "root_cause_keywords"): True,  # the same two phrases, in the other order
    ("mitoyosh-2026-08-18", "fix_keywords"): True,  # the same per-session check; the marker / the idempotency key
    ("xrel-2021-08-15", "root_cause_keywords"): True,  # second without "a"
    ("xrel-2021-08-15", "fix_keywords"): True,  # second adds "backup process improved"
    ("jd4883-plex-2020", "root_cause_keywords"): True,  # the label adds the docker configuration's issues
    ("jd4883-plex-2020", "fix_keywords"): True,  # second without "use a"
    ("formoseanip-Part1", "found_keywords"): True,  # the same Pingdom alerts and DNS query results
    ("jukasdrj-DOCKER", "root_cause_keywords"): True,  # the auto-update plugin / its conflict with Compose: one fault
    ("jukasdrj-DOCKER", "fix_keywords"): True,  # the same two phrases, in the other order
    ("markus-barta-2025-12-25", "root_cause_keywords"): True,  # the dataset not created; the mount failure told twice
    ("markus-barta-2025-12-25", "fix_keywords"): True,  # second without "before the 2nd (resilient) attempt"
    ("markus-barta-2025-12-25", "found_keywords"): False,  # the log line "failed to mount /var/lib/ncps" / []
    ("futuroptimist-sugarkube-2025-11-21", "root_cause_keywords"): True,  # second a shorter cut of both
    ("futuroptimist-sugarkube-2025-11-21", "fix_keywords"): True,  # the same two, shorter and reordered
    ("futuroptimist-sugarkube-2025-11-21", "found_keywords"): True,  # second without the event's text
    ("harsh-upadhayay-INC-2026-004", "fix_keywords"): True,  # the same limit raise, the longer cut
    ("harsh-upadhayay-INC-2026-004", "found_keywords"): True,  # the pod's OOM evidence, in its other sentence
    ("tzbtc-bridge", "root_cause_keywords"): True,  # second adds "inprecise"
    ("tzbtc-bridge", "found_keywords"): True,  # the user's notice, the longer cut
    ("ronaldlokers-longhorn", "root_cause_keywords"): True,  # the missing setting, the same phrase one of two
    ("ronaldlokers-longhorn", "fix_keywords"): True,  # second without "to the longhorn s3 backup secret"
    ("ronaldlokers-longhorn", "found_keywords"): False,  # [] / "key clue came from understanding ... url formatting"
    ("formoseanip-Part3", "root_cause_keywords"): True,  # second without "and updated dns settings ..."
    ("pgmac-2026-05-15", "root_cause_keywords"): True,  # the RBAC gap, the same phrase
    ("pgmac-2026-05-15", "found_keywords"): True,  # the calico log and describe pod, shorter cuts
    ("pgmac-2026-06-05", "root_cause_keywords"): True,  # the same sentence, in one piece here
    ("pgmac-2026-06-05", "fix_keywords"): True,  # second adds the replica force-delete
    ("pgmac-2026-06-05", "found_keywords"): True,  # zero scheduler events: the same signal, another sentence
    ("bibigon14-2026-07-11", "root_cause_keywords"): True,  # second adds "attempted to open a"
    ("bibigon14-2026-07-11", "found_keywords"): True,  # Uptime Kuma's Telegram alerts and FTL.log, both sides
    ("sescanella-finalizar", "root_cause_keywords"): True,  # the same phrase, one of two
    ("atmed", "root_cause_keywords"): True,  # the stale locks and shell error handling, both sides
    ("apmurtha-2026-01-24", "root_cause_keywords"): True,  # the same sentence, in one piece here
    ("apmurtha-2026-01-24", "found_keywords"): True,  # second adds Docker's health state
    # the extension
    ("kord1an-pve", "root_cause_keywords"): True,  # the driver/power-management race, the same sentence
    ("kord1an-pve", "fix_keywords"): True,  # second without "interruptthrottlerate=3000"
    ("hiepgithub2001-2026-07-29", "root_cause_keywords"): True,  # the driver update under the container, both sides
    ("hiepgithub2001-2026-07-29", "fix_keywords"): True,  # second adds "and recreate it"
    ("hiepgithub2001-2026-07-29", "found_keywords"): True,  # the fresh-container test, both sides
    ("openra-server-issues", "fix_keywords"): True,  # the replacement servers, the longer cut
    ("lqdev-turning-off-on", "root_cause_keywords"): True,  # the disk running out, the federated media
    ("lqdev-turning-off-on", "fix_keywords"): True,  # the restart ("turn it off and on again")
    ("pgmac-2026-07-13", "root_cause_keywords"): True,  # the sync burst both sides; the ctrl pods moved
    ("pgmac-2026-07-13", "fix_keywords"): True,  # the cordon-first delete and the seerr umount, both sides
    ("liveagent-2024-07-26", "root_cause_keywords"): True,  # the ES move, one of two
    ("liveagent-2024-07-26", "fix_keywords"): True,  # the primary shards recovered
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    (
        "`just ha3-untaint-control-plane` prints that no taint is present",
        "`just ha3-untaint-control-plane` prints that no taint is present",
    ),
    ("`snap restart microk8s.daemon-kube-scheduler` fails", "snap restart microk8s.daemon-kube-scheduler` fails"),
    ("multiple nyc servers tested", "multiple nyc servers tested with identical failure behavior"),
    # the extension
    (
        "attempted to disable energy efficient ethernet (eee) via `ethtool`",
        "attempted to disable energy efficient ethernet (eee) via `ethtool` runtime commands",
    ),
    ("none of my commands worked", "using the cli to clean up my instance"),  # the cleanup commands that failed
    ("plain `kubectl delete pod` — **failed**", "plain `kubectl delete pod` — **failed**"),
    ("seerr pod manually deleted", "seerr pod manually deleted"),
]


if __name__ == "__main__":
    titles = ("draw (every second name, the first 20 of the seeded order)", "extension (the 6 left of the same order)")
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN, "postmortems", titles)
