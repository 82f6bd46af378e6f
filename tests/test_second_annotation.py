"""The second annotation's agreement figures rerun from the README's commands on today's corpus (eval/second-annotation/).

compare.py used to draw its sample again from eval/postmortems/truth.jsonl; as the corpus grew the same seed drew other
files and the command failed. The draw is now kept (drawn.tsv), so the figures stay those of the files annotated."""

from __future__ import annotations

import json
import subprocess
import sys

from bot.config import PROJECT_ROOT

HERE = PROJECT_ROOT / "eval" / "second-annotation"


def _run(script: str) -> str:
    done = subprocess.run([sys.executable, str(HERE / script)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_first_rounds_agreement_reruns_on_the_files_it_drew() -> None:
    out = _run("compare.py")
    assert "B (all): 30 reports" in out and "B extension (all): 21 reports" in out, out
    annotated = {
        json.loads(line)["file"] for line in (HERE / "attempts.jsonl").read_text(encoding="utf-8").splitlines()
    }
    drawn = {line.split("\t")[0] for line in (HERE / "drawn.tsv").read_text(encoding="utf-8").splitlines()}
    assert annotated <= drawn | {f for f in annotated if f.startswith(("allegro-", "drand-"))}, annotated - drawn


def test_the_eleventh_collections_agreement_reruns() -> None:
    out = _run("compare_eleventh.py")
    assert "conversations: 25 files" in out and "kappa (report level)" in out, out
