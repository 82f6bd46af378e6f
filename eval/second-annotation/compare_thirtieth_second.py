"""pmsecond's blind labels of pm30's first 9 postmortems (batches 1-2) against truth.jsonl, field by field (README.md,
"The held-out postmortem judges pm29 and pm30 (pmsecond)"): compare_twelfth.py's two readings (judged by JUDGED and
MATCHES, compare_eleventh.py's method; scored by bot/importer/scoring.py's rule with the second label's phrases as the
stored text), on the reports drawn-thirtieth-second.tsv records (bench/held_out_postmortems.tsv's pm30 block at 69145dc5),
then on the extension's (drawn-thirtieth-second-extension.tsv: batches 3-4, landed by 18:55 UTC), then the two pooled.

    .venv/bin/python eval/second-annotation/compare_thirtieth_second.py
"""

from compare_seventeenth import both_draws
from sample_thirtieth_second import EXTENSION_TSV, TSV, recorded

LABELS = "thirtieth-postmortems-second.jsonl"
EXTENSION_LABELS = "thirtieth-postmortems-second-extension.jsonl"
# Every report's stratum was seen: pm30 took only posts where responders tell a step that did not help, and its commit
# subjects (read before the labels) give each batch's attempt count.
STRATUM_SEEN = tuple(file for tsv in (TSV, EXTENSION_TSV) for _corpus, file, _fold, _commit in recorded(tsv))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("oneuptime-2025-11-19", "root_cause_keywords"): True,  # the single control plane dependency, both sides
    ("auto-trader-2017-06-16", "root_cause_keywords"): True,  # the VDS endpoint left in DC1, both sides
    ("auto-trader-2017-06-16", "found_keywords"): True,  # Dozor's service health check, one sentence
    ("ppp-2014-04-14", "root_cause_keywords"): True,  # the Vary header and gunicorn's hang, other cuts
    ("ppp-2014-04-14", "fix_keywords"): True,  # uwsgi + nginx and the ELB both sides; second adds the cookie key
    ("joel-dueck-personal-site", "root_cause_keywords"): True,  # the same two phrases, in the other order
    ("joel-dueck-personal-site", "fix_keywords"): True,  # the 18-hour-old backup restored, the longer cut
    ("ibug-2024-03-13", "date"): False,  # null / 2024-03-12 (the anecdote's resilver, the datacenter visit)
    ("ibug-2024-03-13", "root_cause_keywords"): True,  # GRUB pointing to the deleted root partition, both sides
    ("ibug-2024-03-13", "fix_keywords"): True,  # the grub rescue set root, both sides
    ("ibug-2024-03-13", "found_keywords"): False,  # [] / "i carefully recalled every step taken"
    ("ibug-2022-11-27", "root_cause_keywords"): True,  # the infinite recursion and the brass funnel, other cuts
    ("ibug-2022-11-27", "fix_keywords"): True,  # the modified region file swapped in, both sides
    ("ibug-2022-11-27", "found_keywords"): False,  # [] / the crash log's hint at the block
    ("netlify-2017-02-03", "fix_keywords"): True,  # the same two phrases, other cuts and order
    ("netlify-2017-02-03", "found_keywords"): True,  # the alerts for failed origin requests, the longer cut
    ("netlify-2019-11-20", "fix_keywords"): True,  # the IP bans both sides; the new capacity, other sentences
    ("supabase-2020-07-10", "date"): False,  # null / 2020-05-27 (the launch day)
    ("supabase-2020-07-10", "root_cause_keywords"): True,  # the 1000-subdomain limit; second adds DO's server limit
    ("supabase-2020-07-10", "fix_keywords"): False,  # Cloudflare's account upgrade / DO's limit bump (truth: recovery)
    ("supabase-2020-07-10", "found_keywords"): False,  # "managed to identify the problem early" / []
    # the extension (batches 3-4)
    ("simplelogin-july-13", "root_cause_keywords"): True,  # something wrong with RDS, both sides
    ("simplelogin-july-13", "fix_keywords"): True,  # the export to an UpCloud database, both sides
    ("simplelogin-july-13", "found_keywords"): True,  # the users' emails both sides; second adds the debugging
    ("simplelogin-august-11", "root_cause_keywords"): True,  # all requests to SpamAssassin timed out, both sides
    ("simplelogin-august-11", "fix_keywords"): True,  # spam checking disabled and the messages re-queued, other cuts
    ("simplelogin-august-11", "found_keywords"): True,  # mx2's peak of emails; second adds SpamAssassin's CPU
    ("octopus-deploy-2023-02", "fix_keywords"): True,  # Azure's internal changes, the longer cut
    ("octopus-deploy-2023-02", "found_keywords"): False,  # the 12:21 report / the endpoint's two IPs, one 404ing
    ("haiku-2018-11-06", "root_cause_keywords"): True,  # the failed OS upgrade, both sides
    ("arkency-2016-11-30", "root_cause_keywords"): True,  # the same two, second's "he"
    ("arkency-2016-11-30", "fix_keywords"): True,  # grub-reboot both sides; second adds the rerun (truth: recovery)
    ("brettinternet-zfs-passthrough", "root_cause_keywords"): True,  # the same two, second's "it's"
    ("brettinternet-zfs-passthrough", "fix_keywords"): True,  # the -X flag again, both sides
    ("girtby-2004-12-13", "root_cause_keywords"): True,  # the dying hard drive, the shorter cut
    ("girtby-2004-12-13", "fix_keywords"): True,  # the fstab entry and the read-only mount, other cuts
    ("girtby-2004-12-13", "found_keywords"): False,  # "found that it wasn't booting" / READ_DMA, disk errors
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("failover was stuck one click away", "our \"simple\" failover was stuck one click away"),
    ("we restarted some of the affected systems", "we restarted some of the affected systems"),
    ("nginx -> apache", "nginx -> apache"),
    ("installed php7", "installed php7 because why the hell not"),
    ("installed the latest version of textpattern on one of the sites", "installed the latest version of textpattern on one of the sites"),
    ("hand-editing each of the tables", "hand-editing each of the tables in one of the affected websites"),
    ("tried manually editing lvm metadata", "even tried manually editing lvm metadata"),
    ("connect to the machine's ipmi", "connect to the machine's ipmi"),
    ("restore our world from a backup", "restore our world from a backup"),
    ("try opening the region file with [nbted]", "i try opening the region file with [nbted]"),
    (
        "multiple failed attempts to modify the file using a hex editor",
        "multiple failed attempts to modify the file using a hex editor",
    ),
    ("triggering the initial badges of rebuilds", "when triggering the initial badges of rebuilds"),
    ("we blocked the domain that was attacked", "we blocked the domain that was attacked"),
    ("reached out to the support to increase the limit", "reached out to the support to increase the limit"),
    # only truth.jsonl: netlify 2017's wait for the full dump from S3 (the read-only snapshot mount, realized late)
    # only second: joel-dueck's DB upgrade script; ibug 2024's re-partitioning of the new drive and the reboot
    # the extension (batches 3-4)
    ("the database is immediately scaled up 2x", "the database is immediately scaled up 2x"),
    ("we found the slowest query and disabled it", "we found the slowest query and disabled it"),
    ("we tried different database optimization options", "we tried different database optimization options"),
    ("increased the first server capacity 4x", "we increased the first server capacity 4x"),
    ("flushing postfix queue doesn't help", "flushing postfix queue doesn't help"),
    (
        "attempted mitigation steps based on assumption that cname flattening was the root cause",
        "attempted mitigation steps based on assumption that cname flattening was the root cause",
    ),
    ("created a new afd endpoint for `www.octopus.com`", "we created a www subdomain on the affected domains"),
    ("i made the call to reboot the system", "i made the call to reboot the system"),
    ("mounted the os partition to attempt", "i mounted the os partition to attempt"),
    (
        "attempted to reinstall the os using the hetzner vnc installer",
        "i then attempted to reinstall the os using the hetzner vnc installer",
    ),
    (
        "my plan was to chroot into system and run nixos rollback configuration command",
        "chroot into system and run nixos rollback configuration command",
    ),
    ("$ zpool import -f tank", "$ zpool import -f tank"),
    ("$ zpool import -n -o readonly=on -f tank", "$ zpool import -n -o readonly=on -f tank"),
    ("$ zpool import -f -m tank", "$ zpool import -f -m tank"),
    ("wasn't responding to `fsck -y`", "the dying drive wasn't responding to `fsck -y`"),
    # only truth.jsonl: brettinternet's first `zpool import -FX`, interrupted ("forgive my impatience"), the fix rerun
    # only second: brettinternet's plain `zpool import tank` and the read-only import with -R
]  # fmt: skip


if __name__ == "__main__":
    titles = ("first part (batches 1-2, 9 reports at 69145dc5)", "extension (batches 3-4, landed by 18:55 UTC)")
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN, "postmortems", titles)
