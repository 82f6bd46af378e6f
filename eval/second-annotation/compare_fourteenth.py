"""Agreement between truth.jsonl and fourteenth-collection.jsonl, field by field (README.md, "The fourteenth collection").

compare_twelfth.py's two readings (judged: compare_eleventh.py's JUDGED/MATCHES method; scored: bot/importer/scoring.py's
rule with the second label's phrases as the stored text), on the files drawn-fourteenth.tsv records.

    .venv/bin/python eval/second-annotation/compare_fourteenth.py
"""

from compare_twelfth import run
from sample_twelfth import recorded

LABELS = "fourteenth-collection.jsonl"
# Items whose stratum (a labelled failed attempt or none) the collectors' commit messages told before the draw.
STRATUM_SEEN = (
    "equinor-radix-",  # c14-pm's batch 3 names its attempts by cluster (weekly-48-c, weekly-51)
    # c14-conv's batches 1-4 name every labelled attempt: every conversation's stratum was known
    "wally3k-", "catalogueoflife-", "oliyh-", "xbgmsharp-", "hyphacoop-", "poonlab-", "dfo-", "chef-server-",
    "lineageos4microg-", "weidai11-", "nullpxl-", "rear-", "bio2hazard-", "security-force-monitor-",
)  # fmt: skip
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    # postmortems (c14-pm)
    ("ppy-2014-09-29-the-last-week-of-fail", "root_cause_keywords"): True,  # truth adds issue 4's wordpress botnet
    ("ppy-2014-09-29-the-last-week-of-fail", "fix_keywords"): True,  # patched them all; new IPs / hot-backup servers
    ("ppy-2014-09-29-the-last-week-of-fail", "found_keywords"): False,  # the steal% graph / none
    ("types-of-ants-2025may03-consistent-builds", "date"): False,  # null (text gives none) / the file name's day
    ("types-of-ants-2025may03-consistent-builds", "root_cause_keywords"): True,
    ("flowglad-postmortem-faceseek-2026-01-22", "root_cause_keywords"): True,
    ("flowglad-postmortem-faceseek-2026-01-22", "fix_keywords"): True,  # "restore 4am backup" / "backup restoration"
    ("cogni-dao-pm.billing-observability-gaps.2026-02-14", "found_keywords"): True,  # observes / noticed
    ("ppy-2013-09-19-stopping-a-ddos", "root_cause_keywords"): True,  # truth adds the banned cheater's motive
    ("ppy-2013-09-19-stopping-a-ddos", "fix_keywords"): True,
    ("ppy-2013-09-19-stopping-a-ddos", "found_keywords"): False,  # the relayed IM logs (who attacked) / none
    ("ikanisa-2025-10-15-auth-login-outage", "root_cause_keywords"): True,
    ("ikanisa-2025-10-15-auth-login-outage", "found_keywords"): True,
    ("cogni-dao-2026-02-07-production-vm-loss", "root_cause_keywords"): True,
    ("cogni-dao-2026-02-07-production-vm-loss", "found_keywords"): False,  # the curl 502 / the ssh that failed
    ("cogni-dao-pm.secret-regen-cascade.2026-03-25", "root_cause_keywords"): True,  # truth adds the password desync
    ("cogni-dao-pm.secret-regen-cascade.2026-03-25", "fix_keywords"): True,  # truth adds the synced passwords
    ("cogni-dao-pm.secret-regen-cascade.2026-03-25", "found_keywords"): False,  # ERR_INVALID_URL / none
    ("vostudiofinder-INCIDENT_SUMMARY_SHORT", "root_cause_keywords"): True,
    ("vostudiofinder-CLIENT_INCIDENT_SUMMARY_2025_12_16", "root_cause_keywords"): True,
    ("vostudiofinder-CLIENT_INCIDENT_SUMMARY_2025_12_16", "found_keywords"): True,
    ("types-of-ants-2024may25-non-tweeting-event", "root_cause_keywords"): True,
    ("types-of-ants-2024may25-non-tweeting-event", "fix_keywords"): True,  # truth adds the postgres 15 target
    ("types-of-ants-2024may25-non-tweeting-event", "found_keywords"): False,  # journalctl -xef / none
    ("equinor-radix-2019-01-19-bad-helm-deploy", "root_cause_keywords"): True,
    ("equinor-radix-2019-01-19-bad-helm-deploy", "fix_keywords"): True,  # the aliases to beta-3
    ("cogni-dao-2026-01-25-main-staging-divergence", "root_cause_keywords"): True,
    ("equinor-radix-2018-12-04-cluster-post-mortem", "root_cause_keywords"): True,
    ("equinor-radix-2018-12-04-cluster-post-mortem", "fix_keywords"): True,  # truth adds attempt 4's manual install
    ("equinor-radix-2018-12-04-cluster-post-mortem", "found_keywords"): False,  # "curl does not get an ip" / none
    ("equinor-radix-2019-01-30-kubernetes-objects-missing", "root_cause_keywords"): True,  # truth adds the etcd guess
    ("equinor-radix-2019-01-30-certificate-requests-failing", "root_cause_keywords"): True,
    ("equinor-radix-2019-01-30-certificate-requests-failing", "found_keywords"): True,  # the cert-manager logs
    # conversations (c14-conv)
    ("catalogueoflife-backend-861", "root_cause_keywords"): False,  # the hedged index change / [] (doubted)
    ("oliyh-stardev-feedback-24", "date"): False,  # null / the report's day
    ("oliyh-stardev-feedback-24", "fix_keywords"): True,
    ("oliyh-stardev-feedback-24", "found_keywords"): False,  # the log line with the expensive query / none
    ("xbgmsharp-ipxe-buildweb-41", "date"): False,  # null / the report's day
    ("xbgmsharp-ipxe-buildweb-41", "fix_keywords"): False,  # "the space issue now fix" / [] (a state)
    ("hyphacoop-organizing-422", "date"): False,  # null / the meeting's day
    ("hyphacoop-organizing-422", "root_cause_keywords"): True,
    ("poonlab-covizu-516", "root_cause_keywords"): True,
    ("chef-server-2486", "root_cause_keywords"): True,
    ("lineageos4microg-docker-lineage-cicd-457", "date"): False,  # null / the day the full disk was seen
    ("weidai11-cryptopp-720", "root_cause_keywords"): True,
    ("weidai11-cryptopp-720", "fix_keywords"): True,
    ("nullpxl-nullctf-20", "root_cause_keywords"): True,
    ("nullpxl-nullctf-20", "found_keywords"): False,  # discord's status page / none
    ("rear-1113", "root_cause_keywords"): True,
    ("bio2hazard-steamcompletionist-15", "date"): False,  # null / "at least two weeks" before 04-23
    ("bio2hazard-steamcompletionist-15", "root_cause_keywords"): True,
    ("security-force-monitor-sfm-cms-722", "date"): False,  # null (copy starts at a comment) / the comment's day
    ("security-force-monitor-sfm-cms-722", "fix_keywords"): True,
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("redeploy the droplets", "suggested i redeploy the droplets"),
    (
        "dns was manually updated to `84.32.83.38`",
        "dns was manually updated to `84.32.83.38` in an attempt to restore service",
    ),
    ("hex passwords set via `gh secret set`", "manual remediation: hex passwords set via `gh secret set`"),
    ("vms wiped (`docker compose down -v`)", "vms wiped (`docker compose down -v`)"),
    ("re-run of old production workflow", "re-run of old production workflow"),
    ("sudo apt update && sudo apt upgrade", "sudo apt update && sudo apt upgrade"),
    ("re-install the correct `radix-stage1` chart", "unable to re-install the correct `radix-stage1` chart"),
    ("clean reinstall base components", "clean reinstall base components"),
    ("pulled down deploy config of external-dns", "external-dns component"),
    # conversations
    ("started a reindex job for those", "started a reindex job for those"),
    ("put it behind cloudflare", "put it behind cloudflare"),
    ("badbotblocker on nginx", "badbotblocker on nginx"),
    ("issue 40 (the lack of space) is claimed as fixed", "issue 40 (the lack of space) is claimed as fixed"),
    ("has updated `spf` record", "updated `spf` record on march 23rd"),
    ("tried tuning apache, php and the caches", "tried tuning apache, php and the caches"),
    ("cleaned up the logs", "i cleaned up the logs"),
]

if __name__ == "__main__":
    run(recorded("drawn-fourteenth.tsv"), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
