"""Wrong "did not work" lines that no veto was written for: an older reader's stored attempts on today's
fold A, put through today's bar (`bot.reader.cues_attempts.told_as_failed`).

    .venv/bin/python bench/attempts_old_readers.py                       # the readers of 9b1fd57 and cf87a0b
    .venv/bin/python bench/attempts_old_readers.py --commits 9b1fd57 --guard mymodule:drop   # a candidate guard too

Fold A's vetoes were written reading fold A, so on fold A today's reader stores few wrong lines and a
new guard cannot show what it does on organisations it was not read from. An older reader (9b1fd57,
the first one reader; cf87a0b, before the precision passes) lacks those vetoes: its lines that pass
today's bar are the kinds of wrong line a reader makes where nobody read the text. A guard is judged
on them, on the measure half of `bench/fit_reader.halves` when it was written from the write half.
Each commit is checked out in a temporary git worktree (removed after) and its importer is run there
in a subprocess on this tree's eval/postmortems. Fold A only: fold B is never read.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fit_reader import halves  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.importer.scoring import attempt_is_real, attempt_text  # noqa: E402
from bot.reader.cues_attempts import told_as_failed  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
# run inside the old worktree: its own bot package first on the path, today's corpus read (fold A's incident reports,
# or the files named in the second argument)
_DUMP = """
import json, sys
from pathlib import Path, PurePath
sys.path.insert(0, ".")
from bot.importer.formats import FoundFile, parse_file
folder, out = Path(sys.argv[1]), {}
if len(sys.argv) > 2:
    files = json.loads(sys.argv[2])
else:
    rows = [json.loads(line) for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    files = [row["file"] for row in rows if row["fold"] == "A" and not row.get("not_an_incident")]
for name in files:
    parsed = parse_file(FoundFile(folder / name, PurePath(name)), team_id="bench")
    draft = parsed.drafts[0] if parsed.drafts else None
    out[name] = [[a.action, a.why_it_failed] for a in draft.failed_attempts] if draft else []
print(json.dumps(out))
"""


def run_old_reader(
    commit: str, files: list[str] | None = None, *, script: str | None = None, folder: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The importer of `commit`, checked out in a temporary git worktree (removed after), run on today's
    eval/postmortems: fold A's incident reports, or `files`; its stdout is the JSON of `old_lines`. `script` and
    `folder`: another reader's dump run the same way on another folder of today's corpus (its first argument)."""
    with tempfile.TemporaryDirectory(prefix="old-reader-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True, capture_output=True
        )
        try:
            argv = [sys.executable, "-c", script or _DUMP, str(folder or POSTMORTEMS)]
            argv += [json.dumps(files)] if files is not None else []
            return subprocess.run(argv, cwd=tree, capture_output=True, text=True)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False, capture_output=True
            )


def old_lines(commit: str) -> dict[str, list[list[str]]]:
    """File → [action, why] as the reader of `commit` stores them, fold A of today's corpus."""
    run = run_old_reader(commit, [t.file for t in fold_truths("A", incidents_only=True)])
    run.check_returncode()
    return json.loads(run.stdout)


def figures(lines: dict[str, list[list[str]]], keep: Callable[[str, str], bool]) -> dict[str, list[int]]:
    """Part (all, write, measure) → [real, stored] of the lines `keep` lets through."""
    truths = [t for t in fold_truths(None) if t.file in lines]
    split = halves({t.org or t.file for t in truths})
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for truth in truths:
        parts = ["all", *(name for name, members in split.items() if (truth.org or truth.file) in members)]
        for action, why in lines[truth.file]:
            if not keep(action, why):
                continue
            real = attempt_is_real(attempt_text(action, why), truth.failed_attempts)
            for part in parts:
                out[part][0] += real
                out[part][1] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commits", nargs="+", default=["9b1fd57", "cf87a0b"])
    parser.add_argument(
        "--guard", help="module:function(action, why) -> True to drop the line, measured beside the bar"
    )
    args = parser.parse_args(argv)
    guard = None
    if args.guard:
        module, name = args.guard.split(":")
        guard = getattr(importlib.import_module(module), name)

    def bar(action: str, why: str) -> bool:
        return told_as_failed({"action": action, "why_it_failed": why})

    readings = {"stored": lambda a, w: True, "today's bar": bar}
    if guard is not None:
        readings["bar and guard"] = lambda a, w: bar(a, w) and not guard(a, w)
    for commit in args.commits:
        lines = old_lines(commit)
        for label, keep in readings.items():
            cells = "  ".join(f"{part} {r[0]}/{r[1]}" for part, r in sorted(figures(lines, keep).items()))
            print(f"{commit} {label:<14} real/stored: {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
