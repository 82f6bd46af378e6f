"""bench/reader_sentences_provenance.py's `_ROWS_THERE` runs inside a tree of ANOTHER commit (`rows_at`, used by
`--stamp`): it must import only what that commit has — a commit before the held-out loader (review F35) has no
`fold_truths`, one after it no `load_truth` in bench/fit_reader_sentences.py (review F43). Fast: stub trees, no fit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.reader_sentences_provenance import _ROWS_THERE

FITTING = """
from pathlib import Path
POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"
HEADS = ("cause",)
def documents(truths):
    return [(t, {"cause": [([1.0], type("C", (), {"text": t.file})())]}) for t in truths]
def label(t, head, text):
    return text
"""
LOADER = """
from bot.importer.scoring import load_truth
def fold_truths(fold, folder):
    return [t for t in load_truth(folder / "truth.jsonl") if t.fold == fold and t.file != "held.md"]
"""


def _tree(root: Path, loader: bool) -> Path:
    (root / "bench").mkdir(parents=True)
    (root / "bench" / "__init__.py").write_text("", encoding="utf-8")
    (root / "bench" / "fit_reader_sentences.py").write_text(FITTING, encoding="utf-8")
    (root / "bench" / "import_postmortems.py").write_text(LOADER if loader else "", encoding="utf-8")
    folder = root / "eval" / "postmortems"
    folder.mkdir(parents=True)
    rows = [{"file": f, "fold": fold, "root_cause_keywords": [], "fix_keywords": []} for f, fold in
            (("a.md", "A"), ("held.md", "A"), ("b.md", "B"))]  # fmt: skip
    (folder / "truth.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (root / "rows_there.py").write_text(_ROWS_THERE, encoding="utf-8")
    return root


@pytest.mark.parametrize("loader", [False, True], ids=["a commit before the loader", "a commit with it"])
def test_the_rows_script_runs_in_a_tree_with_or_without_the_loader(tmp_path: Path, loader: bool) -> None:
    root = _tree(tmp_path, loader)
    done = subprocess.run(
        [sys.executable, str(root / "rows_there.py"), str(root), "A"], capture_output=True, text=True, cwd=root
    )
    assert done.returncode == 0, done.stderr
    digests = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(digests) == {"cause"}
    # the loader's tree leaves its held-out file out, as that commit's fit did; the older tree reads fold A whole
    other = _tree(tmp_path / "other", not loader)
    again = subprocess.run(
        [sys.executable, str(other / "rows_there.py"), str(other), "A"], capture_output=True, text=True, cwd=other
    )
    assert json.loads(again.stdout.strip().splitlines()[-1]) != digests
