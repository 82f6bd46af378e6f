"""pm32second's blind labels of pm32's postmortems against truth.jsonl, field by field (README.md, "The held-out
postmortem judge pm32 (pm32second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's
method; scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the reports
drawn-thirtysecond-second.tsv records (bench/held_out_postmortems.tsv's pm32 block at 099dde93: batch 1), then on the
extension's (drawn-thirtysecond-second-extension.tsv: the later batches), then the two pooled.

    .venv/bin/python eval/second-annotation/compare_thirtysecond_second.py
"""

from compare_seventeenth import both_draws
from compare_twelfth import run
from sample_thirtysecond_second import DRAWN_AT, EXTENDED_AT, EXTENSION_TSV, TSV, recorded

LABELS = "thirtysecond-postmortems-second.jsonl"
EXTENSION_LABELS = "thirtysecond-postmortems-second-extension.jsonl"
# Every report's stratum was seen: pm32 took only posts where responders tell a step that did not help, and its commit
# subjects (read before the labels) give each batch's attempt count.
STRATUM_SEEN = tuple(
    file for tsv in (TSV, EXTENSION_TSV) if EXTENDED_AT or tsv == TSV for _corpus, file, _fold, _commit in recorded(tsv)
)
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("battleroid-2018-11-19", "root_cause_keywords"): True,  # the same two sentences, second's longer cuts
    ("battleroid-2018-11-19", "found_keywords"): True,  # the page both sides; the odd node / the old node, other cuts
    ("vsolovyov-postgresql", "fix_keywords"): True,  # kill -9 both sides; truth adds the new archiver deleting the WALs
    ("vsolovyov-postgresql", "found_keywords"): True,  # the disk alert both sides; the logs / `ps aux | grep archiver`
    ("torrentsmp-2025-02-02", "root_cause_keywords"): True,  # the same two phrases, second's longer cut
    # the extension
    ("samskivert-happy-new-year", "root_cause_keywords"): True,  # the break-in and the databases forgotten, both sides
    ("samskivert-happy-new-year", "fix_keywords"): True,  # the blog rebuilt, both; the wipe / Jekyll
    ("samskivert-happy-new-year", "found_keywords"): True,  # the login both sides; truth adds the uid changed
    ("torrentsmp-2024-09-14", "root_cause_keywords"): True,  # the chmod and the user locked out, both; truth adds root
    # torrentsmp-2024-09-14's how found and maicol07's fix: [] both sides since the lead's decision (04044a4d)
    ("bgk0018-home-server", "root_cause_keywords"): True,  # the failing memory both sides, other sentences
    ("bgk0018-home-server", "fix_keywords"): True,  # the old memory and the 3-week-old backup, both, other cuts
    ("bgk0018-home-server", "found_keywords"): True,  # MemTest both sides since the lead's decision (04044a4d)
    ("elitepc-email-deliverability", "root_cause_keywords"): True,  # SmartScreen both sides; truth adds the tenant
    ("elitepc-email-deliverability", "found_keywords"): True,  # the Office 365 inboxes both since 04044a4d
    ("mmk21hub-2025-07-24", "root_cause_keywords"): True,  # the SD card's write errors, one sentence, other cuts
    ("mmk21hub-2025-07-24", "found_keywords"): True,  # the use of Immich both; UptimeRobot / the console's I/O errors
    ("boardcentral-2020-05-17", "fix_keywords"): True,  # the rollback, one line, other cuts
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("i sent off a request, the recovery started", "so without further ado i sent off a request, the recovery started"),
    ("adjusting the bandwidth rates, chunk sizes", "adjusting the bandwidth rates, chunk sizes, netted me no extra benefit"),
    ("reload the config, but it did nothing", "so we tried to change `archive_command`"),
    ("archiver process didn't react to `kill`", "archiver process didn't react to `kill`"),
    ("tested with different mtu values", "i tested with different mtu values, and setting it back to default"),
    ("tried reworking the docker containers", "i tried reworking the docker containers and changing the pterodactyl network"),
    ("i did not receive a response in my ticket", "i did not receive a response in my ticket"),
    # the extension
    ("i have scripts that back everything up to s3", "no problem, i have scripts that back everything up to s3"),
    ("you can use vncviewer, which doesn't work on ubuntu", "you can use vncviewer, which doesn't work on ubuntu"),
    (
        "you can try connecting with powershell, but won't be able to `esc` into the boot manager",
        "you can try connecting with powershell, but won't be able to `esc` into the boot manager",
    ),
    ("you can use their cloud shell console", "you can use their cloud shell console"),
    ("weren't able to restore the database", "weren't able to restore the database"),
    ("except the backup didn't restore", "just go ahead and delete and restore from backup"),
    (  # one restore attempt in truth.jsonl, the latest backups and the month-old ones; two here
        "trying some backups from over a month earlier and those also failed similarly",
        "i ended up trying some backups from over a month earlier and those also failed similarly",
    ),
    ("i also tried to go and look at the snapshots i had of the smb share", "i also tried to go and look at the snapshots i had of the smb share"),
    # Microsoft's desk cut by episode in truth.jsonl before 04044a4d (day one's forms and mails, the 20th's repeats, the
    # escalation), by channel here and in truth.jsonl since (the portal, the delist address, the escalation's mitigation, the reply about the previous tenant)
    ("-> fill out this form: https://sender.office.com", "fill out this form: https://sender.office.com"),
    ("-> forward the message to delist@messaging.microsoft.com", "i've forwarded multiple emails to their delist email"),
    ("so i've repeated the process", "fill out this form: https://sender.office.com"),
    ("so i've replied with the error messages i was getting", "the they implemented mitigation for my ip"),
    (
        "i've replied again on the same day explaining that this ip belongs to a cloud provider",
        "i've replied again on the same day explaining that this ip belongs to a cloud provider",
    ),
    # only second: elitepc's JMRP/SNDS sign-ups "which i can't because they don't send me the activation email" (withdrawn)
    ("i restarted the pi (forcing power off by holding power for 10 seconds)", "i restarted the pi (forcing power off by holding power for 10 seconds)"),
    ("i tried to clone the sd card using it, but it failed to copy the root partition", "i tried to clone the sd card using it, but it failed to copy the root partition"),
    ("deploying a fix", "deploying a fix should"),
]  # fmt: skip


if __name__ == "__main__":
    if EXTENDED_AT:
        titles = (f"first part (batch 1, 3 reports at {DRAWN_AT})", f"extension (the later batches, at {EXTENDED_AT})")
        both_draws(
            (TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN, "postmortems", titles
        )
    else:
        print(f"== the first part (batch 1, 3 reports at {DRAWN_AT})")
        run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
