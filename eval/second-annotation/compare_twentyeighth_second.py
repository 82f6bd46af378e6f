"""pm28second's blind labels of all 18 pm28 postmortems against truth.jsonl, field by field (README.md, "The held-out
postmortem judge pm28 (pm28second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's
method; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the reports
drawn-twentyeighth-second.tsv records (bench/held_out_postmortems.tsv's pm28 block at f3323e51).

    .venv/bin/python eval/second-annotation/compare_twentyeighth_second.py
"""

from compare_twelfth import run
from sample_twentyeighth_second import TSV, recorded

LABELS = "twentyeighth-postmortems-second.jsonl"
# Every report's stratum was seen: pm28 took only reports where responders tell a step that did not help, and its
# commit subjects (read before the labels) say "every report at least one".
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    (
        "prysm-testnet-postmortems",
        "root_cause_keywords",
    ): True,  # incident #8's deposit contracts, one of two both sides
    ("prysm-testnet-postmortems", "fix_keywords"): True,  # #8's hacked branch for the minority chain, #7's fork digest
    ("prysm-testnet-postmortems", "found_keywords"): True,  # the Dora interface; the label adds #1's Prometheus alarm
    ("snoonet-services-update-oct-2020", "root_cause_keywords"): True,  # second without "suffered a"
    ("snoonet-services-update-oct-2020", "found_keywords"): False,  # "whilst conducting maintenance, we noted" / []
    ("tim-mccann-INC-006", "root_cause_keywords"): True,  # the NIC failure; the label adds the one-way ARP black hole
    ("tim-mccann-INC-006", "found_keywords"): True,  # the NodeDown alerts, the longer cut
    (
        "tim-mccann-INC-001",
        "root_cause_keywords",
    ): True,  # the missing issuer URL and the API server contention, longer cuts
    (
        "jeremy-misola-2026-06-24",
        "root_cause_keywords",
    ): True,  # the terminating CRD; its destroy failing (409 / "permanently")
    ("jeremy-misola-2026-06-24", "fix_keywords"): True,  # the Orphan deletion policy, both sides
    ("jeremy-misola-2026-09-13", "root_cause_keywords"): True,  # the same two, second's "on that node"
    ("jeremy-misola-2026-09-13", "fix_keywords"): True,  # the pod-to-pod transfer of the 6 PVCs, both sides
    ("jeremy-misola-2026-09-13", "found_keywords"): False,  # the user's report / free -h and the sandbox events
    ("ananjiani-2026-02-01", "root_cause_keywords"): True,  # HTTP/2 over VXLAN both sides; the zero-margin MTU
    ("ananjiani-2026-02-01", "found_keywords"): True,  # the alpine/git test pod, one of two both sides
    ("ananjiani-2026-01-31", "root_cause_keywords"): True,  # nfsd's two-step create and open, git's 0444
    ("ananjiani-2026-01-31", "fix_keywords"): True,  # kernel-permissions-check=false, one of two both sides
    ("quasarlab-2026-04-18", "root_cause_keywords"): True,  # the per-account daily cap and ESO's retry loop, both sides
    ("chezmoidotsh-2026-05-26", "root_cause_keywords"): True,  # the removed gate still in the patch, the longer cut
    ("chezmoidotsh-2026-05-26", "fix_keywords"): True,  # the full config extracted, stripped and re-applied
    ("chezmoidotsh-2026-05-26", "found_keywords"): True,  # talosctl logs -k, the longer cut
    ("chezmoidotsh-2026-05-30", "root_cause_keywords"): True,  # the corrupted index.json and the exhausted rate limit
    ("chezmoidotsh-2026-05-30", "fix_keywords"): True,  # the manual reconstruction; the label adds the rebuilt index
    ("chezmoidotsh-2026-05-30", "found_keywords"): True,  # the Zot logs; second adds the manual look at the pods
    ("adreenabermudez-2026-08-09", "date"): False,  # 08-09 (the range's end) / null ("late july", no start day)
    ("adreenabermudez-2026-08-09", "fix_keywords"): True,  # the kernel upgrade, shorter cuts
    ("adreenabermudez-2026-08-09", "found_keywords"): True,  # netconsole, both sides
    ("jellebens-2026-08-31", "date"): False,  # 08-31 (the timeline's day) / 08-30 (the header's start, the discharge)
    ("jellebens-2026-08-31", "root_cause_keywords"): True,  # the Root cause row: REST cannot tell idle from dead
    ("jellebens-2026-08-31", "fix_keywords"): True,  # the heartbeat attribute and force-refresh, both sides
    ("jellebens-2026-08-31", "found_keywords"): True,  # the frozen last_updated, the shorter cut
    ("buth11-2026-07-25", "root_cause_keywords"): True,  # the directory entry cache under cache=strict, the shorter cut
    ("buth11-2026-07-25", "fix_keywords"): True,  # the forced unmount of the globalmount
    ("buth11-2026-07-25", "found_keywords"): True,  # the unchanged error count that placed the cache below the pod
    ("buth11-2026-07-26", "root_cause_keywords"): True,  # the missing nls_utf8 module
    ("buth11-2026-07-26", "fix_keywords"): True,  # the module installed, the PV recreated with iocharset=utf8
    ("buth11-2026-07-26", "found_keywords"): True,  # the find that returns nothing; second adds the hex dump
    (
        "kaid0x-incident-log",
        "root_cause_keywords",
    ): True,  # the DNS deadlock (circular dependency / Tailscale's DNS), cable
    ("kaid0x-incident-log", "fix_keywords"): True,  # the same two, second's shorter cut
    ("kaid0x-incident-log", "found_keywords"): True,  # the same two phrases, in the other order
    ("adrienvictor-e-INC-2026-002", "date"): False,  # 05-27 (the header) / 05-25 (usage past the limit, "~")
    ("adrienvictor-e-INC-2026-002", "root_cause_keywords"): True,  # the 512Mi limit not sufficient, both sides
    ("adrienvictor-e-INC-2026-002", "fix_keywords"): True,  # the limit raised to 768Mi, the shorter cut
    ("jellebens-2026-10-07", "root_cause_keywords"): True,  # the AC button alone toggling the rack's output, both sides
    ("jellebens-2026-10-07", "fix_keywords"): True,  # the AC output switched back on
    ("jellebens-2026-10-07", "found_keywords"): True,  # the Bluetti MAC absent from the LAN sweep, the shorter cut
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    # Prysm's page (12 both; the second's revert of the connection manager fix and old image, incident #5, only second)
    ("we try to wipe el dbs", "we try to wipe el dbs"),
    (
        "the coordinated client effort to finalize the chain",
        "the coordinated client effort to finalize the chain begins",
    ),
    ("trying to sync prysm nodes but without much success", "trying to sync prysm nodes"),
    ("attempts to point prysm vcs to other beacon nodes fail", "attempts to point prysm vcs to other beacon nodes"),
    ("preston restarts prod-7 and shifts all traffic there", "preston restarts prod-7 and shifts all traffic there"),
    ("shifts all traffic to prod-7, which has the hotfix", "shifts all traffic to prod-7, which has the hotfix"),
    (
        "tries to rollout the current master image to all production pods",
        "rollout the current master image to all production pods",
    ),
    (
        "deploys a new fix which includes a recently merged pr for faster sync processing",
        "deploys a new fix which includes a recently merged pr for faster sync processing",
    ),
    ("scaling down archival nodes to 0", "suggest scaling down archival nodes to 0"),
    ("enables --enable-skip-slots-cache", "enables --enable-skip-slots-cache"),
    ("rolls out the hotfix with the pr reverted", "rolls out the hotfix with the pr reverted"),
    ("node restarts are welcome to flush any cache", "normal canary rollout proceeds"),  # incident #3's rollout
    ("while attempting to render a fix", "while attempting to render a fix"),
    (
        "multiple recovery attempts: nat, proxy arp, static arp",
        "multiple recovery attempts: nat, proxy arp, static arp",
    ),
    ("memory limits increased from none to 512mi to 1gi", "memory limits increased from none to 512mi to 1gi"),
    ("compare-options: ignoreextraneous", "`compare-options: ignoreextraneous` had no effect"),
    ("initially copied out via `kubectl cp`", "initially copied out via `kubectl cp` to the local operator machine"),
    ("first pod-to-pod attempt (not yet backgrounded) is killed", "first pod-to-pod attempt (not yet backgrounded)"),
    (
        "transfer processes mid-flight a second time",
        "backgrounded with `nohup`",
    ),  # the nohup'd transfer the timeout killed
    ("`kubectl scale`", "scaling a deployment to 0 replicas doesn't stick"),
    (
        "switched gitrepository url from codeberg to github mirror",
        "switched gitrepository url from codeberg to github mirror",
    ),
    ("url had a case mismatch", "github mirror url had a case mismatch"),
    (
        "attempted `godebug=http2client=0` on source-controller",
        "attempted `godebug=http2client=0` on source-controller",
    ),
    ("mid-session attempt to hot-patch the mtu", "attempt to hot-patch the mtu"),
    ("`chown`/`chmod` via nfs client had no effect", "`chown`/`chmod` via nfs client had no effect"),
    (
        "fixed permissions directly on disk2 via ssh to theoden",
        "fixed permissions directly on disk2 via ssh to theoden",
    ),
    ("attempted `core.sharedrepository=group`", "attempted `core.sharedrepository=group` and `0664`"),
    ("switched nfs client to nfsv4.2", "switched nfs client to nfsv4.2"),
    ("first deploy-rs rollback", "first deploy-rs rollback"),
    ("second deploy-rs rollback", "second deploy-rs rollback"),
    ("create a separate service account for eso", "create a separate service account for eso so it has its own bucket"),
    (
        "`talosctl patch machineconfig --patch @patch-config.yaml` applied",
        "`talosctl patch machineconfig --patch @patch-config.yaml` applied",
    ),
    ("json6902 patch (`op: remove`) attempted", "json6902 patch (`op: remove`) attempted"),
    (
        "`crane copy` to push image directly to zot attempted but fails",
        "`crane copy` to push image directly to zot attempted but fails",
    ),
    ("i also swapped in a new power supply and the crashes continued", "swapped in a new power supply"),
    ("pod restart attempted — **did not clear**", "pod restart attempted"),
    (
        "v0.18.3 deployed (guard keyed on rest `last_reported`) — **insufficient**",
        "v0.18.3 deployed (guard keyed on rest `last_reported`)",
    ),
    (
        "v0.18.4 deployed (liveness-entity override) + ha-side alive sensor — override still 0",
        "v0.18.4 deployed (liveness-entity override) + ha-side alive sensor",
    ),
    (
        "triggered a full `db/scan` via the syncthing rest api -- error count unchanged",
        "triggered a full `db/scan` via the syncthing rest api",
    ),
    (
        "`kubectl rollout restart` on the syncthing deployment -- error count still unchanged",
        "`kubectl rollout restart` on the syncthing deployment",
    ),
    (
        "attempted `echo 3 > /proc/sys/vm/drop_caches` inside a `kubectl debug node/... --image=busybox -- chroot /host "
        "bash` session -- no change",
        "attempted `echo 3 > /proc/sys/vm/drop_caches`",
    ),
    (
        "deleted and recreated the pv with `vers=3.0` (up from `2.0`) — no change, same corruption",
        "deleted and recreated the pv with `vers=3.0`",
    ),
    (
        "attempted explicit `iocharset=utf8` mount option — mount failed outright",
        "attempted explicit `iocharset=utf8` mount option",
    ),
    (
        "swapping in a **spare cable of unknown quality** made things *worse*, not better",
        "swapping in a **spare cable of unknown quality**",
    ),
    (
        "owner at the front panel attempting the #319 route (hold ac power + eco ~2 s → p07); settings mode never appeared",
        "owner at the front panel attempting the #319 route",
    ),
    # only truth.jsonl: adrienvictor-e's 512Mi limit (INC-2026-001's fix) and jellebens' 10-05 restart (the earlier incident's)
]


if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
