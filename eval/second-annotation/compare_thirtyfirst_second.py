"""pm31second's blind labels of pm31's postmortems against truth.jsonl, field by field (README.md, "The held-out
postmortem judge pm31 (pm31second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's
method; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the reports
drawn-thirtyfirst-second.tsv records (bench/held_out_postmortems.tsv's pm31 block at c57eaabd: batches 1-2), then on the
extension's (drawn-thirtyfirst-second-extension.tsv: the later batches), then the two pooled.

    .venv/bin/python eval/second-annotation/compare_thirtyfirst_second.py
"""

from compare_seventeenth import both_draws
from sample_thirtyfirst_second import EXTENDED_AT, EXTENSION_TSV, TSV, recorded

LABELS = "thirtyfirst-postmortems-second.jsonl"
EXTENSION_LABELS = "thirtyfirst-postmortems-second-extension.jsonl"
# Every report's stratum was seen: pm31 took only posts where responders tell a step that did not help, and its commit
# subjects (read before the labels) give each batch's attempt count.
STRATUM_SEEN = tuple(file for tsv in (TSV, EXTENSION_TSV) for _corpus, file, _fold, _commit in recorded(tsv))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("wincent-server-issues", "root_cause_keywords"): True,  # the rogue process filling the file system, both sides
    ("wincent-server-issues", "found_keywords"): True,  # the du command both sides; second adds the full file system
    ("pseudoyu", "root_cause_keywords"): False,  # STRRL's "might be an issue with the rootfs" / []
    ("pseudoyu", "fix_keywords"): True,  # the img mounted on OrbStack both sides; rclone / rsync
    ("pseudoyu", "found_keywords"): True,  # Uptime Kuma's alert both sides; second adds the console
    ("sahinakkaya-2022-04-08", "root_cause_keywords"): True,  # the same two phrases, second's "i"
    ("tiagodll-certbot", "date"): False,  # null / 2021-09-08 (the post's day)
    ("tiagodll-certbot", "root_cause_keywords"): True,  # the same two phrases, the other order
    ("d-griffin-2014-01-08", "fix_keywords"): True,  # sudo service mysql start both sides; second adds its words
    ("rizfahma-a-longer-blog-downtime", "fix_keywords"): True,  # the reinstall without SSL both sides, other cuts
    ("phwl-2022-10-05", "root_cause_keywords"): True,  # the lapsed hosting both sides; Bluehost's disabling, other cuts
    ("phwl-2022-10-05", "fix_keywords"): True,  # Cloudflare's nameserver and the A record; second adds the account
    ("phwl-2022-10-05", "found_keywords"): False,  # [] / "about an hour to determine this from an online chat"
    # the extension
    ("dicelette-17-02-26", "fix_keywords"): True,  # the stable image reinstalled and the second restoration, other cuts
    ("hackerearth-2014-01-27", "root_cause_keywords"): True,  # the old, unsafe haystack; truth adds the signals
    ("hackerearth-2014-01-27", "fix_keywords"): True,  # the same two phrases; truth adds the request logging disabled
    ("hackerearth-2014-01-27", "found_keywords"): True,  # the notification both sides; the status server, other cuts
    ("ibizaman-2024-06-13", "root_cause_keywords"): True,  # the misplaced exit both sides; the generations, other cuts
    ("ibizaman-2024-06-13", "fix_keywords"): True,  # the incriminated line changed both sides; truth adds three steps
    ("ketansingh-how-not-to-do-mysql-failover", "fix_keywords"): True,  # the same two, second's "$ "
    ("davidventura-messing-up-backups", "root_cause_keywords"): True,  # rsync -x both sides; hang / /etc/pve
    ("davidventura-messing-up-backups", "fix_keywords"): True,  # the reinstall and the proxmox module both sides
    ("dondebonair-crashing-servers", "fix_keywords"): True,  # the blog put online on the new VPS, both sides
    ("dondebonair-crashing-servers", "found_keywords"): True,  # the provider's probing complaint; second adds the scan
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("delete some files to give me some breathing room", "the first thing i tried to do was delete some files to give me some breathing room"),
    ("`docker image prune --all`", "ran a series of `docker image prune --all`"),
    ("my first instinct was to restart", "my first instinct was to restart"),
    ("even a forced restart proved ineffective", "even a forced restart proved ineffective"),
    ("restore the machine directly from the snapshot", "restore the machine directly from the snapshot"),
    ("restoring the june 15th backup", "i tried restoring the june 15th backup as well"),
    (
        "mounted this `.vmdk` as a disk on a virtual box centos virtual machine",
        "mounted this `.vmdk` as a disk on a virtual box centos virtual machine",
    ),
    ("command-line version [p7zip]", "use the command-line version [p7zip]"),
    ("tried fiddling with fuse", "tried fiddling with fuse"),
    ("submitted a support ticket", "i immediately submitted a support ticket"),
    ("just run `certbot` again", "just run `certbot` again"),
    ("reboot the server", "told me to reboot the server"),
    ("adding missing mx records for my domain", "adding missing mx records for my domain"),
    ("remove it and install it again", "remove it and install it again"),
    ("from `'localhost'` to my own ip address", "from `'localhost'` to my own ip address"),
    ("recover it using the earlier backup", "i tried to recover it using the earlier backup (s) on my linode server"),
    ("deleted tons and tons of unused individual website backups", "i have deleted tons and tons of unused individual website backups"),
    ("update some sort of sql package", "update some sort of sql package"),
    ("upgrade my server package", "i had to upgrade my server package to see if it works or not"),
    ("i rebooted the server to see if that would fix", "naturally i rebooted the server to see if that would fix"),
    ("went ahead and added them", "so i went ahead and added them"),
    ("try www in front of the urls", "try www in front of the urls"),
    ("they wouldn't restore the settings", "they wouldn't restore the settings"),
    ("i thus restored the dns settings", "i thus restored the dns settings and waited 24 hours"),
    ("paid for hosting with hostgator and transferred the domain", "i decided to just transfer to a different registrar"),
    ("clear out all my plugins", "clear out all my plugins"),  # the lead's decision (a79c4211) added it to truth.jsonl
    # only second: rizfahma's "i tried many tutorials" (told twice: "i tried any articles")
    # the extension
    ("i tried to repair the system using an sd card via an sd reader", "i tried to repair the system using an sd card via an sd reader"),
    ("i decided to reinstall a new image on the hard drive, but it failed **several times**", "i decided to reinstall a new image on the hard drive"),
    ("throwing extra servers also didn't help", "throwing extra servers also didn't help"),
    ("i tried anyways but `show slave status` returned replication error", "make these nodes followers/leader of each other"),
    ("previous kernels didn't help", "previous kernels didn't help"),
    ("after 2 days fighting in a chroot", "after 2 days fighting in a chroot"),
    ("brand-new (empty) metadata files over the original metadata files", "brand-new (empty) metadata files over the original metadata files"),
    ("i wiped the whole thing yet again, with no luck", "so i wiped the whole thing yet again"),
    ("after mailing back and forth a few times", "mailing back and forth a few times with the totally unhelpful \"servicedesk\" people"),
    # only truth.jsonl: dicelette's first restoration (the second was the fix) and the bot hosted on the PC (unstable);
    # ibizaman's first `colmena apply-local … boot` (the boot partition unmounted; rerun, the fix) and the reboot before the
    # pools were exported; davidventura's reinstall (truth's fix too)
]  # fmt: skip


if __name__ == "__main__":
    titles = ("first part (batches 1-2, 8 reports at c57eaabd)", f"extension (the later batches, at {EXTENDED_AT})")
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN, "postmortems", titles)
