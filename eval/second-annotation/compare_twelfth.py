"""Agreement between truth.jsonl and twelfth-collection.jsonl, field by field (README.md, "The twelfth collection").

Two readings of each field on the items both call incidents: judged (compare_eleventh.py's method: the same phrases, or
JUDGED says the pair means the same, decided by reading both against the document) and scored by bot/importer/scoring.py's
rule, the second label's phrases standing for the stored text (right when they hold half of truth.jsonl's phrases; the
date within a day; an attempt real / found as score() has it). Run only the files drawn-twelfth.tsv records.

    .venv/bin/python eval/second-annotation/compare_twelfth.py
"""

import json
from datetime import date
from pathlib import Path

from compare import kappa, positive_agreement
from compare_eleventh import FIELDS, compare, report
from sample_twelfth import recorded

from bot.importer.scoring import holds_half

HERE = Path(__file__).parent
LABELS = "twelfth-collection.jsonl"
# Items whose stratum (a labelled failed attempt or none) the collectors' commit messages told before the draw.
STRATUM_SEEN = (
    "uwcs-", "berkeley-scf-", "pine64-",  # c12-pm's batch 2: "no failed attempt"
    # c12-conv's batches 2-5 name the organisations with labelled attempts (the rest by elimination)
    "auroraeditor-", "openrc-", "uqcomputingsociety-", "thebowja-", "nodester-",
    "iftechfoundation-", "jsperf-", "jiangcuo-", "kevinnovak-", "stellagk-", "joebiellik-", "solgenomics-",
)  # fmt: skip
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    # postmortems (c12-pm)
    ("ninepanels-070224", "root_cause_keywords"): True,  # second adds "deprecation of conneciton types"
    ("ninepanels-070224", "fix_keywords"): True,
    ("ninepanels-070224", "found_keywords"): True,  # second adds the app found unreachable beside the log
    ("freistil-2013-03-09-stor02", "fix_keywords"): True,  # second adds the disks replaced
    ("freistil-2013-03-09-stor02", "found_keywords"): True,
    ("cyb3r-jak3-downtime-report", "date"): False,  # null / 2019-03-03, the first of three downtimes on the page
    ("cyb3r-jak3-downtime-report", "root_cause_keywords"): True,
    ("cyb3r-jak3-downtime-report", "fix_keywords"): True,
    ("cyb3r-jak3-downtime-report", "found_keywords"): False,  # [] / "uptime robot" (how the page times downtimes)
    ("osuosl-network-outage-2016-12-17", "root_cause_keywords"): True,
    ("osuosl-network-outage-2016-12-17", "fix_keywords"): True,
    ("dev-osmium-2018-02-26", "root_cause_keywords"): True,
    ("freistil-2013-08-08-storage", "fix_keywords"): True,
    ("ninepanels-070923", "found_keywords"): True,  # second adds the status pages that confirmed the cause
    ("freenode-2003-07-21-hubbing-problems", "root_cause_keywords"): True,
    ("freistil-2013-09-14-network", "found_keywords"): True,  # second adds the data center on-call's detection
    ("freenode-2018-07-27-spambot-attack", "root_cause_keywords"): True,
    ("uwcs-2003-12-05-access-problems", "root_cause_keywords"): True,  # second leaves out the second problem's DoS
    ("eddisonso-2026-01-25-s0-node-failure", "root_cause_keywords"): True,
    ("eddisonso-2026-01-25-s0-node-failure", "fix_keywords"): True,  # the replica's promotion, in other words
    ("eddisonso-2026-01-25-s0-node-failure", "found_keywords"): True,
    ("freenode-2010-10-18-further-webchat-issues", "root_cause_keywords"): True,
    ("osuosl-mysql1-vip-outage-post-mortem", "root_cause_keywords"): True,
    ("osuosl-mysql1-vip-outage-post-mortem", "fix_keywords"): True,
    ("osuosl-mysql1-vip-outage-post-mortem", "found_keywords"): True,
    # conversations (c12-conv)
    ("iftechfoundation-ifdb-1202", "found_keywords"): True,
    ("auroraeditor-429", "date"): False,  # null / the day reported (the artefact had expired before)
    ("auroraeditor-429", "root_cause_keywords"): True,
    ("thebowja-poringworldbot-7", "date"): False,  # 03-10 / 03-09 ("for the past two days" on 03-11), within a day
    ("nodester-159", "fix_keywords"): False,  # [] / the restart asked of users and the "new logging mech"
    ("nodester-159", "found_keywords"): False,  # [] / "from the tcpdump" (the reporter's timeout)
    ("sumpfork-dominiontabs-274", "fix_keywords"): True,
    ("openrc-331", "root_cause_keywords"): True,
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("pushing new env var to staging", "staging server deploy on envvar updates failed"),
    ("restartign service from console", "restartign service from console"),
    (
        "redeploy from console manuall with new db_uyser envavr",
        "redeploy from console manuall with new db_uyser envavr",
    ),
    ("clear build cache and deploy", "clear build cache and deploy"),
    ("tried to preform a graceful shutdown of the server", "tried to preform a graceful shutdown of the server"),
    ("fall back to new and old hubs in the us", "attempted to fall back to new and old hubs in the us"),
    (
        "multiple manual physical reboots attempted to recover s0",
        "multiple manual physical reboots attempted to recover s0",
    ),
    # conversations
    ("#430 did fail", "#430 did fail"),
    ("removing and inviting the bot again", "tried removing and inviting the bot again"),
    ("updating nodester-cli", "updating nodester-cli"),
    ("re-launch it", "tried to re-launch it yesterday"),
    ("tried to renew", "tried to renew"),
    ("ctrl+f5", "ctrl+f5, deleting my cookies"),
    ("clear the cache selectively", "clear the cache selectively"),
]


def scored(corpus: str, only: set[str], labels: str = LABELS) -> dict[str, list[int]]:
    """field -> [right, of]: the second label read as a reader's output by scoring.py's rule."""
    truth = {}
    for line in (HERE.parent / corpus / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        t = json.loads(line)
        truth[t["file"]] = t
    out = {k: [0, 0] for k in ("date", *FIELDS[1:], "attempts_real", "attempts_found")}
    for line in (HERE / labels).read_text(encoding="utf-8").splitlines():
        s = json.loads(line)
        t = truth.get(s["file"])
        if s["file"] not in only or t is None or t.get("not_an_incident") or s["not_an_incident"]:
            continue
        if t["date"]:
            near = (
                s["date"] is not None and abs((date.fromisoformat(s["date"]) - date.fromisoformat(t["date"])).days) <= 1
            )
            out["date"][0] += near
            out["date"][1] += 1
        for f in FIELDS[1:]:
            if t[f]:
                out[f][0] += holds_half(" / ".join(s[f]), t[f])
                out[f][1] += 1
        first = [a["action_keywords"] for a in t["failed_attempts"]]
        stored = [" ".join(a["action_keywords"]) + " " + a["why"] for a in s["failed_attempts"]]
        for text in stored:
            out["attempts_real"][0] += any(holds_half(text, k) for k in first)
            out["attempts_real"][1] += 1
        for k in first:
            out["attempts_found"][0] += any(holds_half(text, k) for text in stored)
            out["attempts_found"][1] += 1
    return out


def run(
    rows: list, labels: str = LABELS, table: dict = JUDGED, matches: list = MATCHES, seen: tuple = STRATUM_SEEN
) -> None:
    """Print each corpus's judged figures, those on the items whose stratum was hidden, and the scored ones."""
    drawn = {}
    for corpus, file, _stratum, _commit in rows:
        drawn.setdefault(corpus, set()).add(file)
    for corpus in ("postmortems", "conversations"):
        if corpus not in drawn:
            continue
        r = compare(corpus, labels, table, matches, only=drawn[corpus])
        report(corpus, r)
        hidden = {f for f in drawn[corpus] if not f.startswith(seen)}
        h = compare(corpus, labels, table, matches, only=hidden)
        if not h["incidents"]:
            print("  stratum hidden: none (every drawn item's stratum was seen before the draw)")
        else:
            pa = positive_agreement(h["both"], h["only_first"], h["only_second"])
            print(
                f"  stratum hidden ({h['incidents']} incidents): list {h['list']}/{h['incidents']}, "
                f"kappa {kappa(h['report_level']):.2f}, attempts {h['both']} / {h['only_first']} / {h['only_second']}, "
                f"positive agreement {pa:.0%}"
            )
        sc = scored(corpus, drawn[corpus], labels)
        print("  scored by scoring.py's rule:", ", ".join(f"{k} {a}/{b}" for k, (a, b) in sc.items()))


if __name__ == "__main__":
    run(recorded())
