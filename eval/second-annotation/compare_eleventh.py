"""Agreement between truth.jsonl and eleventh-collection.jsonl, field by field (README.md, "The eleventh collection").

A field agrees when both sides hold the same phrases, or when JUDGED (decided by reading both against the document,
generous on wording, strict on meaning) says so; a differing pair missing from JUDGED is an error. Attempts are paired
by MATCHES (truth phrase, second phrase: the same step). Fields are counted on items both call incidents.

    python3 eval/second-annotation/compare_eleventh.py
"""

import json
from pathlib import Path

from compare import kappa, positive_agreement

HERE = Path(__file__).parent
FIELDS = ("date", "root_cause_keywords", "fix_keywords", "found_keywords")
# Items whose attempts the collectors' commit messages named before the draw.
NOT_BLIND_ATTEMPTS = ("riseproject-dev-riscv-runner-48",)
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED = {
    ("cdevroe-unmark-117", "root_cause_keywords"): True,
    ("fabricio20-lewdwiki-152", "root_cause_keywords"): True,  # second adds the trigger beside the same fault
    ("mbutterick-quad-15", "root_cause_keywords"): True,
    ("mikeckennedy-python-for-entrepreneurs-course-demos-25", "root_cause_keywords"): True,
    ("brickimedia-474", "root_cause_keywords"): True,
    ("cosi-lab-go-mirror-15", "root_cause_keywords"): True,
    ("cosi-lab-go-mirror-15", "fix_keywords"): True,
    ("mirego-accent-129", "root_cause_keywords"): True,
    ("riseproject-dev-riscv-runner-48", "date"): False,  # null / "maybe yesterday"
    ("yewtudotbe-invidious-custom-90", "root_cause_keywords"): True,
    ("yewtudotbe-invidious-custom-90", "found_keywords"): False,  # [] / "immediately notified"
    ("portaudio-1137", "root_cause_keywords"): True,
    ("h2o-2134", "fix_keywords"): True,
    ("ksassnowski-utgars-chronicles-app-57", "root_cause_keywords"): True,
    ("bdovaz-unitynuget-108", "root_cause_keywords"): True,
    ("chisel-2-329", "date"): False,  # null / "4 days and 15 hours" before the report
    ("chisel-2-329", "fix_keywords"): True,
    ("fineuploader-fine-uploader-1444", "root_cause_keywords"): True,
    ("openaustralia-infrastructure-146", "root_cause_keywords"): True,
    ("openaustralia-infrastructure-146", "found_keywords"): True,  # second adds the people's alerts beside the log
    ("yajra-laravel-datatables-1403", "root_cause_keywords"): True,
    ("restsql-71", "root_cause_keywords"): False,  # the rogue files / how they got there (hedged)
    ("restsql-71", "fix_keywords"): True,
    ("restsql-71", "found_keywords"): False,  # the Google referrer / []
    # postmortems (c11-pm)
    ("appwrite-2024-08-14", "fix_keywords"): True,  # second adds the re-run billing calculations (recovery)
    ("appwrite-2024-08-14", "found_keywords"): False,  # [] / "noticed the billing alerts emails being sent"
    ("qfieldcloud-2026-01-12", "root_cause_keywords"): True,
    ("orcfax-0003", "root_cause_keywords"): True,
    ("orcfax-0003", "fix_keywords"): True,  # "the packages directory was" / "cleared and uploads were possible"
    ("void-linux-2022-12-01", "root_cause_keywords"): True,
    ("beauflix-2022-11-13", "root_cause_keywords"): True,
    ("sr2-2026-03-25", "root_cause_keywords"): True,
    ("appwrite-2024-10-18", "root_cause_keywords"): True,
    ("appwrite-2024-10-18", "fix_keywords"): True,
    ("appwrite-2024-10-18", "found_keywords"): True,
    ("appwrite-2025-02-25", "root_cause_keywords"): True,
    ("appwrite-2025-02-25", "fix_keywords"): True,  # second adds the mitigation (audit logs disabled)
    ("appwrite-2025-02-25", "found_keywords"): False,  # [] / "users reported seeing logs from other users"
    ("qfieldcloud-2025-08-04", "fix_keywords"): True,
    ("appwrite-2024-11-14", "root_cause_keywords"): True,
    ("appwrite-2024-11-14", "found_keywords"): True,  # second adds the community report beside the bin log
    ("appwrite-2026-02-25", "root_cause_keywords"): True,
    ("appwrite-2026-02-25", "fix_keywords"): True,
    ("appwrite-2026-02-25", "found_keywords"): False,  # [] / "users reported crashes"
    ("dendra-2023-06-29", "root_cause_keywords"): True,  # second adds the MinIO bug beside the power outage
    ("dendra-2023-06-29", "fix_keywords"): True,
    ("dendra-2023-06-29", "found_keywords"): False,  # [] / "system monitoring reported api is offline"
    ("dendra-2023-08-08", "root_cause_keywords"): True,
    ("dendra-2023-08-08", "found_keywords"): False,  # [] / "system monitoring reported api is offline"
    ("raise-2024-03-06", "root_cause_keywords"): True,
}
MATCHES = [
    ("cancelled it and restarted it", "cancelled it and restarted it"),
    ("increase the load balancer capacity", "increase the load balancer capacity"),
    ("initial patch", "initial patch"),
]


def judged(file: str, field: str, table: dict = JUDGED) -> bool:
    keys = [k for k in table if file.startswith((k[0] + "-", k[0] + ".")) and k[1] == field]
    if len(keys) != 1:
        raise KeyError(f"{file} {field}: differs and is not judged (or judged twice)")
    return table[keys[0]]


def compare(
    corpus: str, labels: str = "eleventh-collection.jsonl", table: dict = JUDGED, matches: list = MATCHES, only=None
) -> dict:
    """Field by field over the items of `labels` (a second annotation) in <corpus>/truth.jsonl (and in `only`, if given)."""
    truth = {}
    for line in (HERE.parent / corpus / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        t = json.loads(line)
        truth[t["file"]] = t
    second = [json.loads(line) for line in (HERE / labels).read_text(encoding="utf-8").splitlines()]
    second = [s for s in second if s["file"] in truth and (HERE.parent / corpus / s["file"]).exists()]
    second = [s for s in second if only is None or s["file"] in only]
    out = {"files": len(second), "not_an_incident": 0, "incidents": 0, "both": 0, "only_first": 0}
    out |= {"only_second": 0, "list": 0, "report_level": [], "differs": []}
    out |= {f: 0 for f in FIELDS}
    for s in second:
        t = truth[s["file"]]
        out["not_an_incident"] += bool(t.get("not_an_incident")) == bool(s["not_an_incident"])
        if t.get("not_an_incident") or s["not_an_incident"]:
            continue
        out["incidents"] += 1
        for f in FIELDS:
            same = t[f] == s[f] or judged(s["file"], f, table)
            out[f] += same
            if not same:
                out["differs"].append((s["file"], f, t[f], s[f]))
        first = [a["action_keywords"] for a in t["failed_attempts"]]
        quotes = [q for a in s["failed_attempts"] for q in a["action_keywords"][:1]]
        both = sum(any((p, q) in matches for p in a for q in quotes) for a in first)
        paired = {q for p, q in matches if any(p in a for a in first)}
        only_second = sum(q not in paired for q in quotes)
        out["both"] += both
        out["only_first"] += len(first) - both
        out["only_second"] += only_second
        out["list"] += len(first) == both and not only_second
        out["report_level"].append((bool(first), bool(quotes)))
        if len(first) != both or only_second:
            out["differs"].append((s["file"], "failed_attempts", first, quotes))
    return out


def report(corpus: str, r: dict) -> None:
    """Print one corpus's figures and its differing pairs."""
    n = r["incidents"]
    both, o1, o2 = r["both"], r["only_first"], r["only_second"]
    pa = positive_agreement(both, o1, o2)
    print(f"{corpus}: {r['files']} files, not-an-incident {r['not_an_incident']}/{r['files']}, {n} incidents")
    for f in FIELDS:
        print(f"  {f}: {r[f]}/{n}")
    print(f"  failed-attempt list: {r['list']}/{n}, kappa (report level) {kappa(r['report_level']):.2f}")
    print(f"  attempts one by one: both {both}, only truth.jsonl {o1}, only second {o2}, positive agreement {pa:.0%}")
    for d in r["differs"]:
        print("   ", *d)


if __name__ == "__main__":
    for corpus in ("conversations", "postmortems"):
        r = compare(corpus)
        if r["files"]:
            report(corpus, r)
