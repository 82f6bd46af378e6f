"""bench/reading_eval.py prints every field for both folds, in-sample beside out-of-sample, and a
second reader (the drafter on conversations) plugs in as a function of the fold."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import reading_eval
from bench.reading_eval import FIELDS, FOLDS, ONE_OUT, importer_scores, main, run, table
from bot.config import PROJECT_ROOT
from bot.importer.scoring import Ratio, load_truth

CORPUS = PROJECT_ROOT / "eval" / "postmortems"


@pytest.fixture
def small_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """eval/postmortems cut to its first three incident reports and first non-incident of each
    fold: the scoring is what is checked here, and reading all 460 reports took ~20 s (their
    figures are the bench's, docs/BENCHMARKS.md)."""
    lines = (CORPUS / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    kept, taken = [], {}
    for line in lines:
        label = json.loads(line)
        kind = (label.get("fold") or "A", bool(label.get("not_an_incident")))
        if taken.get(kind, 0) < (1 if kind[1] else 3):
            taken[kind] = taken.get(kind, 0) + 1
            kept.append(line)
            (tmp_path / label["file"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(CORPUS / label["file"], tmp_path / label["file"])
    (tmp_path / "truth.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    monkeypatch.setattr(reading_eval, "POSTMORTEMS", tmp_path)
    reading_eval._importer_drafts.cache_clear()  # drafts of the whole corpus, or of another test's copy
    yield tmp_path
    reading_eval._importer_drafts.cache_clear()


def test_the_importer_is_scored_on_every_field_for_both_folds(small_corpus: Path, capsys) -> None:
    assert main(["--json", "--quick"]) == 0  # without fold A one organisation out (minutes)
    figures = json.loads(capsys.readouterr().out)["importer (eval/postmortems)"]
    assert set(figures) == set(FOLDS)
    truths = load_truth(small_corpus / "truth.jsonl")
    assert {(t.fold, t.not_an_incident) for t in truths} == {(f, n) for f in FOLDS for n in (False, True)}
    for fold in FOLDS:
        assert set(FIELDS) <= set(figures[fold])
        incidents = [t for t in truths if t.fold == fold and not t.not_an_incident]
        assert figures[fold]["imported"]["total"] == len(incidents)  # the fold's own items only
        assert figures[fold]["fix"]["total"] == sum(bool(t.fix_keywords) for t in incidents)


def test_a_second_reader_plugs_in_as_a_function_of_the_fold(small_corpus: Path) -> None:
    def drafter(fold: str) -> dict[str, Ratio]:
        return {"fix": Ratio(right=1, total=2 if fold == "A" else 4), "invented_attempts": Ratio(right=3, total=3)}

    results = run({"importer": importer_scores, "drafter (eval/conversations)": drafter})
    lines = table(results)
    drafter_rows = lines[lines.index("drafter (eval/conversations)") :]
    assert any(row.startswith("fix") and "1/2 = 50%" in row and "1/4 = 25%" in row for row in drafter_rows)
    assert any(row.startswith("invented_attempts") for row in drafter_rows)
    assert any("fold A (in-sample)" in row and "fold B (out-of-sample)" in row for row in lines)


def test_fold_a_one_organisation_out_is_printed_between_the_folds() -> None:
    by_fold = {
        "A": {"root_cause": Ratio(right=7, total=10)},
        ONE_OUT: {"root_cause": Ratio(right=6, total=10)},
        "B": {"root_cause": Ratio(right=5, total=10)},
    }
    lines = table({"importer": by_fold})
    header = next(row for row in lines if row.startswith("field"))
    assert header.index("in-sample") < header.index("one org. out") < header.index("fold B")
    row = next(row for row in lines if row.startswith("root cause"))
    assert row.index("7/10 = 70%") < row.index("6/10 = 60%") < row.index("5/10 = 50%")
