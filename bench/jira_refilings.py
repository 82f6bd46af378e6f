"""Long queries for the recall judgement: Apache Jira bug reports closed as a Duplicate of an
earlier report, filed from 2014 on, as a replay corpus with organisation folds.

    git clone https://github.com/SPEAR-SE/LogInBugReportsEmpirical_Data /tmp/spear   # or any checkout
    .venv/bin/python bench/jira_refilings.py /tmp/spear /tmp/jira-refilings
    incident-memory replay /tmp/jira-refilings --target-absent
    .venv/bin/python bench/fit_recall_judgement.py --corpus /tmp/jira-refilings   # folds A / B

A responder who pastes a ticket writes ~700 characters, not two lines: the first reports the
judgement is fitted on (bench/first_reports.py) hold few such queries. jira-dev (shared/eval, the
developers' regression corpus) takes the same source's reports of Hadoop Common, HDFS, MapReduce,
YARN, ZooKeeper, Storm and ActiveMQ filed before 2014 and Hive's of every year; the cases here are
those projects' reports filed from 2014 on (never Hive's), so no case is one of jira-dev's. The
fields are mapped as jira-dev maps them (summary → title, description with its environment and
components → symptoms, exception and log lines → error_message, Jira priority → severity); a case
is dropped when its own text names another report of its cluster. Its true match is the earliest
report of its cluster of Duplicate links; the bank also holds every other report of these
projects filed from 2013 on. Folds by project: A YARN, ZooKeeper, Storm, ActiveMQ; B HDFS, Hadoop
Common, MapReduce (each case's `org` is its project). The text stays where it is written (the
source has no licence file): commit figures, never the corpus.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

PROJECTS = {"ActiveMQ": "ActiveMQ", "HDFS": "HDFS", "Hadoop": "Hadoop Common", "MAPREDUCE": "MapReduce",
            "Storm": "Storm", "YARN": "YARN", "Zookeeper": "ZooKeeper", "Hive": "Hive"}  # fmt: skip
FOLD = {
    "YARN": "A",
    "ZooKeeper": "A",
    "Storm": "A",
    "ActiveMQ": "A",
    "HDFS": "B",
    "Hadoop Common": "B",
    "MapReduce": "B",
}
CASES_FROM = "2014-01-01"
BANK_FROM = "2013-01-01"
ERROR_LINE = re.compile(r"(Exception|Error|^\s*at [\w$.]+\(|^\s*Caused by|^\d{4}-\d\d-\d\d[ T]\d\d:\d\d)", re.M)


def read_reports(checkout: Path) -> dict[str, dict[str, Any]]:
    """Every Bug report of the projects, by key: its fields and the keys it has Duplicate links to."""
    listing = subprocess.run(["git", "-C", str(checkout), "ls-tree", "-r", "--name-only", "HEAD", "bug_reports/"],
                             capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    names = [n for n in listing if n.count("/") == 2 and n.endswith(".json") and n.split("/")[1] in PROJECTS]
    reader = subprocess.Popen(["git", "-C", str(checkout), "cat-file", "--batch"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)  # fmt: skip
    assert reader.stdin is not None and reader.stdout is not None
    reports = {}
    for name in names:
        reader.stdin.write(f"HEAD:{name}\n".encode())
        reader.stdin.flush()
        size = int(reader.stdout.readline().split()[2])
        body = reader.stdout.read(size)
        reader.stdout.read(1)
        try:
            issue = json.loads(body)
        except ValueError:
            continue
        fields = issue["fields"]
        if (fields.get("issuetype") or {}).get("name") != "Bug":
            continue
        links = [(link.get("inwardIssue") or link.get("outwardIssue") or {}).get("key")
                 for link in fields.get("issuelinks") or [] if (link.get("type") or {}).get("name") == "Duplicate"]  # fmt: skip
        reports[issue["key"]] = {
            "project": PROJECTS[name.split("/")[1]],
            "fields": fields,
            "links": [k for k in links if k],
        }
    reader.stdin.close()
    reader.wait()
    return reports


def clusters(reports: dict[str, dict[str, Any]]) -> list[list[str]]:
    parent = {k: k for k in reports}

    def find(k: str) -> str:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for key, report in reports.items():
        for other in report["links"]:
            if other in reports:
                parent[find(key)] = find(other)
    grouped: dict[str, list[str]] = defaultdict(list)
    for key in reports:
        grouped[find(key)].append(key)
    return [sorted(g, key=lambda k: reports[k]["fields"]["created"]) for g in grouped.values() if len(g) > 1]


def created(fields: dict[str, Any]) -> str:
    return fields["created"].replace(".000+0000", "Z")


def incident(key: str, report: dict[str, Any]) -> dict[str, Any]:
    fields = report["fields"]
    description = (fields.get("description") or "")[:2000]
    parts = [description]
    if fields.get("environment"):
        parts.append("Environment: " + fields["environment"][:500])
    components = [c["name"] for c in fields.get("components") or []]
    if components:
        parts.append("Component: " + ", ".join(components))
    errors = "\n".join(line for line in description.splitlines() if ERROR_LINE.search(line))[:500]
    return {"title": fields.get("summary") or key, "service": report["project"],
            "severity": (fields.get("priority") or {}).get("name"), "symptoms": "\n\n".join(p for p in parts if p) or None,
            "error_message": errors or None, "tags": components}  # fmt: skip


def resolution(fields: dict[str, Any]) -> str:
    name = (fields.get("resolution") or {}).get("name") or "Unresolved"
    versions = [v["name"] for v in fields.get("fixVersions") or []]
    if name == "Fixed" and versions:
        return "Fixed in " + ", ".join(versions)
    return name + (f" (fix versions: {', '.join(versions)})" if versions else "")


def names_a_sibling(key: str, fields: dict[str, Any], members: list[str]) -> bool:
    text = " ".join(str(fields.get(f) or "") for f in ("summary", "description", "environment"))
    return any(re.search(rf"\b{re.escape(k)}\b", text) for k in members if k != key)


def build(checkout: Path, out: Path) -> dict[str, int]:
    reports = read_reports(checkout)
    cases: list[tuple[str, str]] = []
    for members in clusters(reports):
        for key in members[1:]:
            report = reports[key]
            if report["project"] in FOLD and created(report["fields"]) >= CASES_FROM \
                    and not names_a_sibling(key, report["fields"], members):  # fmt: skip
                cases.append((key, members[0]))
    asked = {k for k, _ in cases}
    bank = {m for _, m in cases} | {k for k, r in reports.items() if k not in asked and r["project"] in FOLD
                                    and created(r["fields"]) >= BANK_FROM}  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    with (out / "memories.jsonl").open("w", encoding="utf-8") as memories:
        for key in sorted(bank):
            fields = reports[key]["fields"]
            memories.write(json.dumps({"id": key, **incident(key, reports[key]), "resolution": resolution(fields),
                                       "truth_state": "human_confirmed", "occurred_at": created(fields)}) + "\n")  # fmt: skip
    with (out / "cases.jsonl").open("w", encoding="utf-8") as lines:
        for key, first in sorted(cases):
            report = reports[key]
            case = incident(key, report)
            case.pop("tags")
            lines.write(json.dumps({"id": f"q-{key}", "occurred_at": created(report["fields"]), "incident": case,
                                    "relevant": [first], "fold": FOLD[report["project"]],
                                    "org": report["project"]}) + "\n")  # fmt: skip
    by_fold = {f: sum(FOLD[reports[k]["project"]] == f for k, _ in cases) for f in "AB"}
    return {"cases": len(cases), "memories": len(bank), **by_fold}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of SPEAR-SE/LogInBugReportsEmpirical_Data")
    parser.add_argument("out", type=Path, help="the replay folder to write")
    args = parser.parse_args()
    print(json.dumps(build(args.checkout, args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
