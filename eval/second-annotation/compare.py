"""Agreement between truth.jsonl's failed attempts and the second annotation (README.md beside this file).

MATCHES pairs an attempt of truth.jsonl (one of its action phrases) with the second annotator's quote
for the same action, decided by reading both (same step at the same time). Run after annotating:

    python3 eval/second-annotation/compare.py [path/to/truth.jsonl]
"""

import json
import sys
from pathlib import Path

from sample import NAMED

HERE = Path(__file__).parent
# Reports whose attempts ../postmortems/README.md discusses (read before the draw): not blind.
NOT_BLIND = (
    "python-discord-2021-07-11", "mezo-2026-07-02", "cheqd-v.4x-testnet-retrial", "artsy-2019-11-14",
    "artsy-2014-11-19", "cumulo-2026-07-23", "chia-2021-05-26", "yearn-2021-02-18", "travis-ci-2013-04-26",
    "torbox-2026-27-April", "kubernetes-test-infra-2019-02-05",
    # fold B's extension
    "decentraland-2022-09-08", "posthog-2025-10-21", "decentraland-2023-04-13", "posthog-2026-01-17",
    "dddice-2023-01-20", "dddice-2023-02-15",
)  # fmt: skip
# (truth phrase, second annotator's quote): the same action.
MATCHES = [
    ("dropping the backed up queue", "dropping the backed up queue of waiting requests"),
    ("failed over to use it as the primary database", "failed over to use it as the primary database"),
    ("it's recycled", "so it's recycled and a new one is to be added to the pool"),
    ("trying to manually resolve this through the linode web ui", "trying to manually resolve this through the Linode Web UI"),
    ("spinning up more heroku dynos", "spinning up more Heroku Dynos"),
    ("increasing concurrency on the individual dynos", "increasing concurrency on the individual Dynos"),
    ("restarting redis and postgresql stores", "restarting Redis and PostgreSQL stores"),
    ("we added new postgresql indexes to speed up queries", "added new PostgreSQL indexes"),
    ("rollback attempted", "rollback attempted"),
    ("leveldb.recoverfile", "leveldb.RecoverFile"),
    ("restart attempts", "restart attempts failed until the entire server was rebooted"),
    ("increase our sidekiq threads from 25 to 30", "increase our sidekiq threads from 25 to 30"),
    ("`peer-ec1` is restarted", "`peer-ec1` is restarted to validate if works as a mitigation"),
    ("deleted the epp-server pod", "deleted the epp-server pod"),
    ("attempted to re-raise asklepian", "sw attempted to re-raise asklepian"),
    ("repoints `latest` to `20220104`", "repoints `latest` to `20220104`"),
    ("increasing the timeout", "increasing the timeout"),
    ("rolling back to v22.0.0 with a resync from snapshot", "rolling back to v22.0.0 with a resync from snapshot"),
    ("rollback attempt to the previous binary fails", "a rollback attempt to the previous binary fails"),
    ("forward fixed these two applications", "we forward fixed these two applications"),
    ("configuration to work around this", "updated our Galaxy configuration to work around this"),
    ("revert pr", "creating a revert PR for the original deployment PR"),
    ("i rebooted the server", "I rebooted the server"),
    ("restart validator a and make validator b active", "make Validator B active"),
    ("revert site repo changes", "operations engineers revert site repo changes"),
    ("restart the stalled ci with several small commits", "attempted to restart the stalled ci with several small commits"),
    ("reverse the changes", "reverse the changes"),
    ("restore the nodes with foundation and zenchainlab's snapshot", "tried to restore the nodes with foundation and zenchainlab's snapshot and wasm directory"),
    ("attempt to recover rewards", "an unsuccessful attempt to recover rewards was made"),
    ("upgrade binary in place", "naive test to see if the nodes would catch up"),
    ("temporary hook at launch to override the faulty state", "temporary hook at launch to override the faulty state"),
    ("rollback command was executed", "the rollback command was executed on all testnet nodes"),
    ("block all subnets", "we block all subnets we have seen illegitimate traffic from"),
    ("reducing the number of concurrent vms created", "reducing the number of concurrent VMs created"),
    ("create vms on an ipv6-only network", "create VMs on an IPv6-only network"),
    ("we increased the parallel processing handling these particular messages", "increased the parallel processing"),
    ("took down a portion of our build processors", "took down a portion of our build processors to reduce the impact"),
    ("multiple resolution paths were considered, tested, and ruled out", "multiple resolution paths were considered, tested, and ruled out"),
    ("redis instance is resized", "redis instance is resized to avoid connection pool exhaustion"),
    ("we manually added even more instances", "we manually added even more instances"),
    ("we restarted our nodes", "we restarted our nodes"),
    ("abort the dkg and retry", "we decided to abort the dkg and retry"),
    # fold B's extension
    ("to fix the p2p communications on firefox", "a [patch](https://github.com/decentraland/comms3-transports/commit/622c7bf6fded83a746a309f33007d520a5c79b89) to fix the p2p communications on firefox was pushed"),
    ("try to restart apache", "try to restart apache"),
    ("planetscale plan is upgraded", "planetscale plan is upgraded"),
    ("`maxusers` of **peer-ap1** was set to", "the `maxusers` of **peer-ap1** was set to ``0``"),
    ("for the db changes was added and tested", "a [fix](https://github.com/decentraland/catalyst/commit/3f12deb2536bf6dab39ae7bcdfdfcacb1e71f803) for the db changes was added and tested on **peer-ap1**"),
    ("rollback of **all the catalyst db** changes", "a catalyst tag version with a rollback of **all the catalyst db** changes was created and tested on **peer-ap1**"),
    ("immediate rollback initiated", "immediate rollback initiated and completed"),
    ("attempted the same remediation approach from october 21", "we initially attempted the same remediation approach from october 21"),
    ("application memory increased", "application memory increased in attempt to alleviate oom errors"),
    ("redis cache cleared", "redis cache cleared in attempt to free memory"),
    ("restarted queue worker", "restarted queue worker"),
    ("stop the migration", "stop the migration but the service doesn't recover"),
    ("restart apache", "restart apache"),
    ("attempted fix", "a new version (1.323.0) of the posthog sdk was released with an [attempted fix]"),
    ("amended fix", "a new version (1.325.0) of the posthog sdk was released with an [amended fix]"),
    ("new version (1.327.0)", "a new version (1.327.0) of the posthog sdk was released"),
    ("new version (1.328.0)", "a new version (1.328.0) of the posthog sdk was released"),
]  # fmt: skip


def drawn() -> dict[str, tuple[str, str]]:
    """File → (fold, which draw: "first" or "extension"), as sample.py drew them (drawn.tsv)."""
    rows = (line.split("\t") for line in (HERE / "drawn.tsv").read_text(encoding="utf-8").splitlines())
    return {file: (fold, group) for file, fold, _stratum, group in rows}


def kappa(pairs: list[tuple[bool, bool]]) -> float:
    """Cohen's kappa of two readers' yes/no calls (here: the report holds a failed attempt)."""
    n = len(pairs)
    po = sum(a == b for a, b in pairs) / n
    p1, p2 = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    pe = p1 * p2 + (1 - p1) * (1 - p2)
    return (po - pe) / (1 - pe) if pe < 1 else 1.0


def positive_agreement(both: int, only_first: int, only_second: int) -> float:
    """How often an attempt one reader names the other names too (1.0 when neither names any)."""
    return 2 * both / (2 * both + only_first + only_second) if both + only_first + only_second else 1.0


def compare(truth_path: Path) -> dict:
    truth = {t["file"]: t for t in map(json.loads, truth_path.read_text(encoding="utf-8").splitlines())}
    second = {d["file"]: d for d in map(json.loads, (HERE / "attempts.jsonl").read_text().splitlines())}
    sample = drawn()
    rows = {}
    for file, d in second.items():
        first = truth[file]["failed_attempts"]
        quotes = [a["quote"] for a in d["attempts"]]
        paired = {q for p, q in MATCHES if any(p == k for a in first for k in a["action_keywords"])}
        both = sum(any((p, q) in MATCHES for p in a["action_keywords"] for q in quotes) for a in first)
        group = "named" if file.startswith(NAMED) else "B+" if sample[file][1] == "extension" else sample[file][0]
        rows[file] = {
            "group": group,
            "blind": not file.startswith(NOT_BLIND + NAMED),
            "both": both,
            "only_first": len(first) - both,
            "only_second": sum(q not in paired for q in quotes),
            "first_has": bool(first),
            "second_has": bool(quotes),
        }
    return rows


def summary(rows: list[dict]) -> str:
    both, o1, o2 = (sum(r[k] for r in rows) for k in ("both", "only_first", "only_second"))
    n = len(rows)
    agree = sum(r["first_has"] == r["second_has"] for r in rows)
    pa = positive_agreement(both, o1, o2)
    k = kappa([(r["first_has"], r["second_has"]) for r in rows])
    return (
        f"{n} reports: attempts both {both}, only truth.jsonl {o1}, only second {o2}, positive agreement {pa:.1%}; "
        f"report level (>= 1 attempt) {agree}/{n}, kappa {k:.2f}"
    )


if __name__ == "__main__":
    rows = compare(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "postmortems" / "truth.jsonl")
    groups = {"B": ("B",), "B extension": ("B+",), "B, all 51": ("B", "B+"), "A": ("A",), "named calls": ("named",)}
    for name, members in groups.items():
        for label, keep in (("all", lambda r: True), ("blind only", lambda r: r["blind"])):
            sel = [r for r in rows.values() if r["group"] in members and keep(r)]
            if sel and not (name == "named calls" and label != "all"):
                print(f"{name} ({label}): {summary(sel)}")
    for file, r in rows.items():
        if r["only_first"] or r["only_second"]:
            print(f"  {file}: only truth.jsonl {r['only_first']}, only second {r['only_second']}")
