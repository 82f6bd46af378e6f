"""Agreement between conversations/truth.jsonl's found_keywords and the blind re-read (README.md, "A blind re-read of how
found in conversations (c15-second)").

Per fold, on the files drawn-found.tsv records: an item agrees when both sides hold the same phrases (both empty
included) or JUDGED (compare_eleventh.py's table method: decided by reading both against the conversation) says they
mean the same; Cohen's kappa on whether the field is filled; scored by bot/importer/scoring.py's rule (the re-read's
phrases as the stored text, right when they hold half of truth.jsonl's; denominator the items whose label is filled).

    .venv/bin/python eval/second-annotation/compare_found.py
"""

import json
from pathlib import Path

from compare import kappa
from compare_eleventh import judged
from sample_found import TSV
from sample_twelfth import recorded

from bot.importer.scoring import holds_half

HERE = Path(__file__).parent
LABELS = "found-reread.jsonl"
# Items whose how-found label ../README.md or this README named before the draw.
NOT_BLIND = ("wpdirectory-40-", "restsql-71-")
COUNTS = ("items", "agree", "blind", "blind_agree", "with", "with_agree", "without", "without_agree")
COUNTS += ("scored", "scored_of")
# (file prefix, "found_keywords") -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED = {
    ("caarlos0-starcharts-260", "found_keywords"): True,  # second adds the metric's name beside `/metrics`
    ("gomods-athens-1389", "found_keywords"): True,  # second adds the nslookup's SERVFAIL
    ("melpa-8948", "found_keywords"): True,  # the same error line, longer
    ("internet-archive-openlibrary-3036", "found_keywords"): True,  # second adds the pageview graph's drop
    ("swarmops-30", "found_keywords"): False,  # "found an apache process in that request chain" / [] (no means named)
    ("wizehive-firepoker-50", "found_keywords"): False,  # [] / the quoted FIREBASE WARNING (in the opening report)
    ("spacetelescope-jwql-751", "found_keywords"): True,  # second adds the OSError line the cron emails carried
    ("portier-broker-128", "found_keywords"): True,  # second adds the Spamhaus query beside the Mailgun logs
    ("cirrus-ci-406", "found_keywords"): True,
    ("bobby-b-bot-discord-1", "found_keywords"): True,
}


def compare(rows: list, labels: str = LABELS, table: dict = JUDGED) -> dict[str, dict]:
    """fold -> figures and differing pairs, over the drawn files (stratum from the recorded draw)."""
    truth = {}
    for line in (HERE.parent / "conversations" / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        t = json.loads(line)
        truth[t["file"]] = t
    second = {s["file"]: s for s in map(json.loads, (HERE / labels).read_text(encoding="utf-8").splitlines())}
    out: dict[str, dict] = {}
    for fold, file, stratum, _commit in rows:
        r = out.setdefault(fold, dict.fromkeys(COUNTS, 0) | {"presence": [], "differs": []})
        first, mine = truth[file]["found_keywords"], second[file]["found_keywords"]
        same = first == mine or judged(file, "found_keywords", table)
        blind = not file.startswith(NOT_BLIND)
        r["items"] += 1
        r["agree"] += same
        r["blind"] += blind
        r["blind_agree"] += blind and same
        r[stratum] += 1
        r[f"{stratum}_agree"] += same
        r["presence"].append((bool(first), bool(mine)))
        if first:
            r["scored"] += holds_half(" / ".join(mine), first)
            r["scored_of"] += 1
        if not same:
            r["differs"].append((file, stratum, first, mine))
    return out


def report(out: dict[str, dict]) -> None:
    for fold, r in out.items():
        p = r["presence"]
        print(
            f"fold {fold}: {r['items']} conversations, how found agrees {r['agree']}/{r['items']} "
            f"(label filled {r['with_agree']}/{r['with']}, label empty {r['without_agree']}/{r['without']}; "
            f"blind only {r['blind_agree']}/{r['blind']})"
        )
        print(
            f"  filled: both {sum(a and b for a, b in p)}, only truth.jsonl {sum(a and not b for a, b in p)}, "
            f"only second {sum(b and not a for a, b in p)}, neither {sum(not a and not b for a, b in p)}; "
            f"kappa {kappa(p):.2f}"
        )
        print(f"  scored by scoring.py's rule: {r['scored']}/{r['scored_of']}")
        for d in r["differs"]:
            print("   ", *d)


if __name__ == "__main__":
    report(compare(recorded(TSV)))
