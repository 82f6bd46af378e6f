"""How far a candidate reader rule reaches: the threads of dev fold A whose drafted fields it changes, and how big a
judge must be to see it fire.

    .venv/bin/python bench/rule_reach.py CANDIDATE [--base main] [--files path/to/dev-files.txt] [--corpus-at 75285b3]
    .venv/bin/python bench/rule_reach.py 51d1c14 --base 51d1c14^ --corpus-at 75285b3    # one commit against its parent
    .venv/bin/python bench/rule_reach.py r23-fix --judge-size 72 --json                   # a branch against main

The offline drafter (the sandbox's drafter, without Slack or a database; bench/fit_reader.draft's way, shipped heads)
drafts every thread of the list twice, once with the base's `bot/` and once with the candidate's. Each code is
`git archive`d into a cache folder named by its `bot/` tree (/tmp/rule_reach/, `--cache`) and drafted in a child
process that imports only that copy, so the two codes never share a module; the drafts are cached by the tree and the
corpus, so the base is drafted once for many candidates.

It prints, per field (fix, cause, found = how it was found, attempts), the threads whose drafted value differs and
how each change reads against the labels (eval/README.md's rule, bot/importer/scoring.py): `wrong → right` (a verdict
improves: a right field gained, a wrong one made right or left empty, a wrong attempt gone, a real one drafted or
found), `right → wrong` (the reverse) or `other` (the text moved, the verdict did not, or attempts moved both ways).
Then the reach r = changed threads / threads, for a judge of n threads (`--judge-size`, default 72: c22 fold A) the
expected changes n·r and P(at least one change) = 1 - (1 - r)^n, and the judge size needed for P ≥ `--power` (0.8).
"scored" reach counts only the threads whose verdict moved: what a stamped rule's count can see.

Tuning material only: the list's fold A (`--fold B` is refused; a fold-B line of the list is never read) minus
bench/held_out.tsv's threads and any `--held-out` list: those are never drafted, so no line of theirs can be printed.
The threads' names and verdicts are dev fold A's; they are in-sample by construction (the rules were written from them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tarfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path("/tmp/rule_reach")
TEXT_FIELDS = (("fix", "resolution", "fix_keywords"), ("cause", "root_cause", "root_cause_keywords"),
               ("found", "diagnosis", "found_keywords"))  # fmt: skip
FIELDS = ("fix", "cause", "found", "attempts")
RANK = {"right": 2, "empty": 2, "missed": 1, "wrong": 0}  # empty where none is labelled is right: precision first


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True).stdout


def extracted(commit: str, path: str, folder: Path) -> Path:
    """`path` of `commit` under `folder` (once: an extracted copy is reused)."""
    if not (folder / path).is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = folder / "archive.tar"
        archive.write_bytes(git("archive", "--format=tar", commit, path))
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        archive.unlink()
    return folder / path


def code_tree(commit: str, cache: Path) -> Path:
    """The commit's `bot/` in a folder of its own, named by the tree: one copy per distinct code."""
    tree = git("rev-parse", f"{commit}:bot").decode().strip()
    return extracted(commit, "bot", cache / "code" / tree).parent


def corpus_at(commit: str, cache: Path) -> Path:
    """eval/conversations as the commit holds it (the session's frozen corpus)."""
    tree = git("rev-parse", f"{commit}:eval/conversations").decode().strip()
    return extracted(commit, "eval/conversations", cache / "corpus" / tree)


def listed_fold_a(lines: Iterable[str]) -> list[str]:
    """The list's fold-A names ("FOLD<TAB>file", "#" comments); a fold-B line is skipped unread, a line without a
    fold is taken (its label's fold is checked by `select`)."""
    files = []
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) == 1 or parts[0] == "A":
            files.append(parts[-1])
    return files


def select(files: Sequence[str], labels: dict[str, dict[str, Any]], held_out: frozenset[str]) -> list[str]:
    """The threads to draft: listed, labelled fold A, not held out. A listed name labelled fold B (or not labelled)
    is a clear error, never silently read."""
    chosen = []
    for name in files:
        label = labels.get(name)
        if label is None:
            raise SystemExit(f"{name}: no label in the corpus (a list written for another eval/?)")
        if label["fold"] != "A":
            raise SystemExit(f"{name}: labelled fold {label['fold']}: this bench reads fold A only")
        if name not in held_out:
            chosen.append(name)
    return chosen


def field_verdict(text: str, keywords: list[str]) -> str:
    """right / wrong / missed where the label names the field, empty / wrong where it does not (eval/README.md)."""
    from bot.importer.scoring import holds_half

    if keywords:
        return "right" if holds_half(text, keywords) else ("wrong" if text else "missed")
    return "wrong" if text else "empty"


def attempt_tally(attempts: Sequence[str], label: dict[str, Any]) -> tuple[int, int, int]:
    """(real drafted, wrong drafted, labelled attempts found) of one thread's drafted attempts."""
    from bot.importer.scoring import attempt_found, attempt_is_real, labelled_attempts

    real = labelled_attempts(label)
    drafted_real = sum(attempt_is_real(a, real) for a in attempts)
    return drafted_real, len(attempts) - drafted_real, sum(attempt_found(k, attempts) for k in real)


def direction(before: tuple[int, int, int], after: tuple[int, int, int]) -> str:
    """An attempts change read by its tallies: better when no count moves the wrong way and one moves the right way."""
    moves = (after[0] - before[0], before[1] - after[1], after[2] - before[2])  # each > 0 is a gain
    if any(m > 0 for m in moves) and all(m >= 0 for m in moves):
        return "wrong → right"
    if any(m < 0 for m in moves) and all(m <= 0 for m in moves):
        return "right → wrong"
    return "other"


@dataclass
class Change:
    file: str
    field: str
    kind: str  # wrong → right / right → wrong / other
    said: str  # the verdicts or tallies before → after


@dataclass
class Reach:
    total: int
    changes: list[Change] = field(default_factory=list)

    def threads(self, fields: Iterable[str] = FIELDS, scored: bool = False) -> set[str]:
        wanted = set(fields)
        return {c.file for c in self.changes if c.field in wanted and (not scored or c.kind != "other")}

    def kinds(self, name: str) -> Counter[str]:
        return Counter(c.kind for c in self.changes if c.field == name)


def compare(labels: dict[str, dict[str, Any]], base: dict[str, dict], candidate: dict[str, dict]) -> Reach:
    """Every drafted field that differs between the two codes' drafts, and how it reads against the labels."""
    reach = Reach(total=len(base))
    for name in sorted(base):
        label, old, new = labels[name], base[name], candidate[name]
        for field_name, key, keywords in TEXT_FIELDS:
            if old[key] != new[key]:
                was, now = field_verdict(old[key], label[keywords]), field_verdict(new[key], label[keywords])
                kind = (
                    "other"
                    if RANK[was] == RANK[now]
                    else ("wrong → right" if RANK[now] > RANK[was] else "right → wrong")
                )
                reach.changes.append(Change(name, field_name, kind, f"{was} → {now}"))
        if old["attempts"] != new["attempts"]:
            was_t, now_t = attempt_tally(old["attempts"], label), attempt_tally(new["attempts"], label)
            said = f"real/wrong/found {'/'.join(map(str, was_t))} → {'/'.join(map(str, now_t))}"
            reach.changes.append(Change(name, "attempts", direction(was_t, now_t), said))
    return reach


def chance(r: float, n: int) -> float:
    """P(at least one of n threads changes) when each changes with probability r."""
    return 1 - (1 - r) ** n


def size_needed(r: float, power: float = 0.8) -> int | None:
    """The smallest n with chance(r, n) >= power; None when r is 0 (no judge can see it)."""
    if r <= 0:
        return None
    if r >= 1:
        return 1
    return math.ceil(math.log(1 - power) / math.log(1 - r))


def summary(reach: Reach, n: int, power: float) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for name, fields in [*((f, (f,)) for f in FIELDS), ("any", FIELDS)]:
        row: dict[str, Any] = {"changed": len(reach.threads(fields)), "scored": len(reach.threads(fields, True))}
        if name != "any":
            row.update(reach.kinds(name))
        for what in ("changed", "scored"):
            r = row[what] / reach.total if reach.total else 0.0
            row[f"r_{what}"] = r
            row[f"expected_{what}"] = n * r
            row[f"p_{what}"] = chance(r, n)
            row[f"n_needed_{what}"] = size_needed(r, power)
        rows[name] = row
    return rows


def drafts(code: Path, corpus: Path, files: Sequence[str], cache: Path) -> dict[str, dict]:
    """Every listed thread drafted by `code`'s bot/ (cached by code tree and the listed threads' text)."""
    digest = hashlib.sha256()
    for name in files:  # the threads' text, not only their names: a corpus edited in place is drafted anew
        digest.update(name.encode() + b"\0" + (corpus / name).read_bytes())
    key = digest.hexdigest()[:16]
    out = cache / "drafts" / f"{code.name}-{key}.json"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        todo = out.with_suffix(".todo.json")
        todo.write_text(json.dumps({"corpus": str(corpus), "files": list(files)}))
        subprocess.run([sys.executable, __file__, "--worker", str(code), str(todo), str(out)], check=True)
        todo.unlink()
    return json.loads(out.read_text())


def worker(code: str, todo: str, out: str) -> None:
    """In a child process: draft with `code`'s bot/ alone (it stands first on the path; checked)."""
    sys.path.insert(0, code)
    from datetime import UTC, datetime, timedelta

    import bot
    from bot.drafting.rules import OfflineDrafter
    from bot.models import TimelineEntry

    if not Path(bot.__file__).resolve().is_relative_to(Path(code).resolve()):
        raise SystemExit(f"bot imported from {bot.__file__}, not from {code}")
    job = json.loads(Path(todo).read_text())
    start, result = datetime(2020, 1, 1, tzinfo=UTC), {}
    for name in job["files"]:
        messages = json.loads((Path(job["corpus"]) / name).read_text(encoding="utf-8"))["messages"]
        timeline = [
            TimelineEntry(
                author=m["author"], text=m["text"][:40_000], at=start + timedelta(minutes=i), message_ts=f"{i}.0"
            )
            for i, m in enumerate(messages)
            if m["text"].strip()
        ]
        answer = OfflineDrafter().answer(timeline, [])
        row = {
            k: (getattr(answer, k).text if getattr(answer, k) else "")
            for k in ("root_cause", "diagnosis", "resolution")
        }
        row["attempts"] = [
            f"{a.action} — {a.why_it_failed}" if a.why_it_failed else a.action for a in answer.failed_attempts
        ]
        result[name] = row
    Path(out).write_text(json.dumps(result))


def report(reach: Reach, rows: dict[str, dict[str, Any]], n: int, power: float) -> None:
    for change in sorted(reach.changes, key=lambda c: (FIELDS.index(c.field), c.kind, c.file)):
        print(f"{change.field:9} {change.kind:14} {change.said:34} {change.file}")
    print(f"\n{reach.total} threads (dev fold A; in-sample). judge of n = {n}, power {power}")
    print(f"{'field':9} {'changed':>7} {'w→r':>4} {'r→w':>4} {'other':>5} {'r':>7} {'n·r':>6} {'P(≥1)':>6} {'n for P':>7}"
          f" | {'scored':>6} {'r':>7} {'P(≥1)':>6} {'n for P':>7}")  # fmt: skip
    for name, row in rows.items():
        print(
            f"{name:9} {row['changed']:>7} {row.get('wrong → right', '') or '':>4} {row.get('right → wrong', '') or '':>4}"
            f" {row.get('other', '') or '':>5} {row['r_changed']:>7.4f} {row['expected_changed']:>6.2f}"
            f" {row['p_changed']:>6.3f} {row['n_needed_changed'] or '∞':>7} | {row['scored']:>6} {row['r_scored']:>7.4f}"
            f" {row['p_scored']:>6.3f} {row['n_needed_scored'] or '∞':>7}"
        )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        worker(*argv[1:4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidate", help="commit or branch with the rule")
    parser.add_argument("--base", default="main", help="commit or branch without it (default main; C^ for one commit)")
    parser.add_argument("--files", type=Path, help="FOLD<TAB>file list (its fold-A lines); default every fold-A thread")
    parser.add_argument("--fold", default="A", help="A only: fold B is the reporting fold, never read here")
    parser.add_argument("--held-out", type=Path, action="append", default=[], help="also leave this list out")
    parser.add_argument("--corpus-at", help="read eval/conversations of this commit (default: this tree's)")
    parser.add_argument("--judge-size", type=int, default=72, help="threads of the judge (default 72: c22 fold A)")
    parser.add_argument("--power", type=float, default=0.8, help="P(at least one change) the judge size must reach")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--json", action="store_true", help="the summary as JSON (no thread lines)")
    args = parser.parse_args(argv)
    if args.fold != "A":
        parser.error("--fold B refused: fold B is the reporting fold (totals only, never read by a tuning bench)")
    sys.path.insert(0, str(ROOT))
    from bench.reading_eval_conversations import CONVERSATIONS, held_out_by_default, held_out_files, read_labels

    corpus = corpus_at(args.corpus_at, args.cache) if args.corpus_at else CONVERSATIONS
    labels = {label["file"]: label for label in read_labels(corpus)}
    held_out = held_out_by_default(corpus).union(*(held_out_files(p, corpus) for p in args.held_out))
    listed = (
        listed_fold_a(args.files.read_text(encoding="utf-8").splitlines())
        if args.files
        else [file for file, label in labels.items() if label["fold"] == "A"]
    )
    files = select(listed, labels, held_out)
    base = drafts(code_tree(args.base, args.cache), corpus, files, args.cache)
    candidate = drafts(code_tree(args.candidate, args.cache), corpus, files, args.cache)
    reach = compare(labels, base, candidate)
    rows = summary(reach, args.judge_size, args.power)
    if args.json:
        print(json.dumps({"threads": reach.total, "judge_size": args.judge_size, "fields": rows}, indent=1))
    else:
        report(reach, rows, args.judge_size, args.power)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
