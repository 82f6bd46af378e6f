"""Agreement between truth.jsonl and thirteenth-collection.jsonl, field by field (README.md, "The thirteenth collection").

compare_twelfth.py's two readings (judged: compare_eleventh.py's JUDGED/MATCHES method; scored: bot/importer/scoring.py's
rule with the second label's phrases as the stored text), on the files drawn-thirteenth.tsv records.

    .venv/bin/python eval/second-annotation/compare_thirteenth.py
"""

from compare_twelfth import run
from sample_twelfth import recorded

LABELS = "thirteenth-collection.jsonl"
# Items whose stratum (a labelled failed attempt or none) the collectors' commit messages told before the draw.
STRATUM_SEEN = (
    "neon-", "godder-xyz-",  # c13-pm's batches 3 and 5 name their failed attempts
    # c13-conv's batches 1-4 name both labelled attempts (arch4edu, openflights): every conversation's stratum was known
    "sopel-irc-", "prosemirror-", "z88dk-", "chrisdone-archive-", "performous-", "arch4edu-", "datacamp-", "luckperms-",
    "jpatokal-", "openparsec-",
)  # fmt: skip
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    # postmortems (c13-pm)
    ("wobscale-index", "fix_keywords"): True,
    ("val-town-post-mortem-blob-storage-outage", "root_cause_keywords"): True,
    ("val-town-post-mortem-blob-storage-outage", "found_keywords"): True,
    ("litellm-server_root_path", "root_cause_keywords"): True,
    ("litellm-server_root_path", "fix_keywords"): True,
    ("litellm-anthropic_wildcard_model_access_incident", "root_cause_keywords"): True,  # second adds "remained stale"
    ("litellm-vllm_embeddings_incident", "root_cause_keywords"): True,  # truth adds vLLM's strict validation
    ("dit-netsoc-issues", "root_cause_keywords"): True,
    ("val-town-post-mortem-sqlite-data-sharing", "root_cause_keywords"): True,
    ("val-town-post-mortem-sqlite-data-sharing", "found_keywords"): True,
    (
        "val-town-post-mortem-exhausted-host-connection-pool",
        "date",
    ): False,  # the post's day 2024-12-31 / null (times only)
    ("val-town-post-mortem-exhausted-host-connection-pool", "root_cause_keywords"): True,
    ("goatcounter-2020-02-19-2-outage", "fix_keywords"): True,
    ("ucr-hpcc-alerts", "root_cause_keywords"): True,  # the AC units' failures and power losses, other entries' words
    ("ucr-hpcc-alerts", "fix_keywords"): True,  # the AC repairs
    ("sourcegraph-330_incident_retro", "root_cause_keywords"): True,
    ("sourcegraph-330_incident_retro", "found_keywords"): True,
    ("sourcegraph-extensibility_repo_name_log", "root_cause_keywords"): True,
    ("sourcegraph-extensibility_repo_name_log", "fix_keywords"): True,  # second adds the log purges (truth: recovery)
    ("peerio-db", "root_cause_keywords"): False,  # roll-up: us-east-1 losses, Ceph MON / unresponsive EC2, reboots
    ("peerio-db", "fix_keywords"): False,  # Route53 to DR / stopping then starting
    ("peerio-db", "found_keywords"): False,  # icinga's recoveries / nagios
    ("neon-aws-cni-lessons-from-a-production-outage", "root_cause_keywords"): True,  # IPs never freed, in other words
    (
        "neon-aws-cni-lessons-from-a-production-outage",
        "found_keywords",
    ): False,  # the ipamd logs / the allocation errors
    ("ucl-rc-Status_page", "root_cause_keywords"): True,
    ("ucl-rc-Status_page", "fix_keywords"): True,  # the rescue copy of the failed volume
    ("godder-xyz-12-12-godder-xyz-first-outage", "found_keywords"): True,  # two halves of one sentence
    # conversations (c13-conv)
    ("sopel-irc-sopel-922", "root_cause_keywords"): True,
    ("z88dk-2346", "fix_keywords"): True,
    ("chrisdone-archive-ircbrowse-29", "root_cause_keywords"): True,
    ("chrisdone-archive-ircbrowse-29", "fix_keywords"): True,  # second adds the one-channel cronjob (truth: recovery)
    ("arch4edu-175", "date"): False,  # the report's day 2022-08-28 / null (reset "recently", before a first sync)
    ("arch4edu-175", "root_cause_keywords"): True,
    ("arch4edu-175", "fix_keywords"): True,  # the re-upload / the sync that re-uploads
    ("luckperms-36", "fix_keywords"): True,
    ("openparsec-48", "root_cause_keywords"): True,
    ("openparsec-48", "found_keywords"): True,
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("admin reloads cost map again", "admin reloads cost map again"),
    ("attempting to recharge the ac refrigerant", "attempting to recharge the ac refrigerant"),
    ("restarted the `aws-node` daemonset", "restarted the `aws-node` daemonset"),
    ("undid that change back to `warm_ip_target=0`", "we reverted back to `warm_ip_target=0`"),
    ("emailed supabase support", "emailed supabase support"),
    # conversations
    ("i tried a sync a few days ago", "i tried a sync a few days ago"),
    ("with 3 browsers + my iphone", "with 3 browsers + my iphone"),
]

if __name__ == "__main__":
    run(recorded("drawn-thirteenth.tsv"), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
