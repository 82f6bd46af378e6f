"""bench/devset_metadata.py scores its own development set by writing the devset's labels beside the texts; a
folder that holds a fold's own labels (eval/postmortems) is refused, its truth.jsonl left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import devset_metadata


def test_scoring_a_folds_corpus_without_fold_refuses_and_keeps_its_labels(tmp_path: Path) -> None:
    labels = json.dumps({"file": "a.md", "org": "acme", "fold": "A", "root_cause_keywords": ["disk full"]}) + "\n"
    (tmp_path / "truth.jsonl").write_text(labels, encoding="utf-8")
    with pytest.raises(SystemExit, match="--fold A"):
        devset_metadata.main(["score", str(tmp_path)])
    assert (tmp_path / "truth.jsonl").read_text(encoding="utf-8") == labels
