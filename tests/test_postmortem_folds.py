"""The held-out postmortems (bench/held_out_postmortems.tsv, the next postmortem judge) reach no tuning bench (review
F35): bench/import_postmortems.py's `fold_truths` and `fold_statements` leave them out unless a judge asks, and no
bench under bench/ reads eval/postmortems' labels but through them, or through a read named below with its reason."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import bench.import_postmortems as import_postmortems
from bench.import_postmortems import fold_statements, fold_truths, held_out_postmortems

BENCH = Path(__file__).resolve().parent.parent / "bench"
LABELS = ("truth.jsonl", "statements.jsonl")

# (bench, the expression that reads a truth.jsonl or statements.jsonl) → why it need not leave the held-out files out
ALLOWED = {
    ("import_postmortems.py", '(folder or POSTMORTEMS) / "truth.jsonl"'): "the loader itself",
    ("import_postmortems.py", 'folder / "statements.jsonl"'): "the loader itself",
    ("import_postmortems.py", 'folder / "truth.jsonl"'): "read_corpus: every file read as `import` does, no label",
    ("import_postmortems.py", 'args.folder / "truth.jsonl"'): "totals of both folds; its misses come from fold_truths",
    ("alert_replay.py", 'eval_dir / "postmortems" / "truth.jsonl"'): "the memory bank: every report a memory, no label",
    ("recurrences.py", 'eval_dir / corpus / "truth.jsonl"'): "the memory bank of every document (recall), no label",
    ("recall_new_organisations.py", "postmortems/truth.jsonl"): "organisations at an earlier commit: counts only",
    ("attempts_blind.py", "eval/postmortems/truth.jsonl"): "git history: the commit adding each organisation",
    ("attempts_by_org.py", "eval/postmortems/truth.jsonl"): "git history: the organisations at a commit",
    (
        "outcome_head.py",
        'EVAL / corpus / "truth.jsonl"',
    ): "file → organisation only; its rows come from fold_statements",
    ("reader_sentences_provenance.py", 'postmortems / "truth.jsonl"'): "a fit's digest, an earlier fit's own files",
    ("scoring_leading_words.py", 'ROOT / "eval" / corpus / "truth.jsonl"'): "the second annotations' pairs alone",
    ("import_formats.py", 'folder / "truth.jsonl"'): "one report in two formats: no label is scored",
    ("import_formats.py", 'args.folder / "truth.jsonl"'): "one report in two formats: no label is scored",
    ("devset_metadata.py", 'folder / "truth.jsonl"'): "the devset's own labels; eval/postmortems --fold A: fold_truths",
    ("devset_metadata.py", 'HERE / "truth.jsonl"'): "the devset's own labels (bench/devset-metadata)",
    ("fit_reader.py", 'folder / "truth.jsonl"'): "eval/conversations (bench/held_out.tsv's own filter)",
    ("reading_eval_conversations.py", 'folder / "truth.jsonl"'): "eval/conversations (bench/held_out.tsv's)",
    ("conversation_statements.py", 'STATEMENTS.parent / "truth.jsonl"'): "eval/conversations' sentence labels",
}
# the benches that may ask for the held-out files: judges, totals only
JUDGES = {
    "attempts_heldout.py": "the postmortem judge: reads the files collected after --base, held-out ones too",
    "reading_eval.py": "--include-held-out: the held-out files' totals as a column of their own, never their misses",
}


def _reads(path: Path) -> list[str]:
    """The expressions of `path` that name a labels file of eval/ (`X / "truth.jsonl"`, "…/truth.jsonl")."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant):
            if node.right.value in LABELS and "conversations" not in ast.get_source_segment(source, node.left).lower():
                found.append(ast.get_source_segment(source, node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" not in node.value:
            if "/" in node.value and node.value.endswith(LABELS) and "conversations" not in node.value:
                found.append(node.value)
    return found


def _asks_for_held_out(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.keyword)
        and node.arg == "include_held_out"
        and not (isinstance(node.value, ast.Constant) and node.value.value is False)
        for node in ast.walk(tree)
    )


def test_no_bench_reads_the_postmortem_labels_but_through_the_loader() -> None:
    unnamed = [
        f"{p.name}: {read}" for p in sorted(BENCH.glob("*.py")) for read in _reads(p) if (p.name, read) not in ALLOWED
    ]
    assert not unnamed, "read eval/postmortems' labels with bench/import_postmortems.py's fold_truths / fold_statements"
    assert all(reason for reason in ALLOWED.values())


def test_only_a_judge_asks_for_the_held_out_postmortems() -> None:
    asking = {p.name for p in BENCH.glob("*.py") if p.name != "import_postmortems.py" and _asks_for_held_out(p)}
    assert asking <= set(JUDGES), f"a tuning bench reads the held-out postmortems: {sorted(asking - set(JUDGES))}"


def _corpus(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "postmortems"
    folder.mkdir()
    truths = [("judge.md", "A"), ("tuned.md", "A"), ("report.md", "B"), ("notice.md", "A")]
    lines = [
        {"file": f, "fold": fold, "date": None, "service": None, "root_cause_keywords": [], "fix_keywords": [],
         "failed_attempts": [], "not_an_incident": f == "notice.md"}
        for f, fold in truths
    ]  # fmt: skip
    (folder / "truth.jsonl").write_text("\n".join(map(json.dumps, lines)) + "\n", encoding="utf-8")
    said = [{"file": f, "fold": fold, "statements": [{"quote": f, "kind": "observation"}]} for f, fold in truths]
    (folder / "statements.jsonl").write_text("\n".join(map(json.dumps, said)) + "\n", encoding="utf-8")
    held = tmp_path / "held.tsv"
    held.write_text("# the judge\nA\tjudge.md\n", encoding="utf-8")
    monkeypatch.setattr(import_postmortems, "HELD_OUT", held)
    return folder


def test_a_fold_is_read_without_the_held_out_files_unless_a_judge_asks(tmp_path, monkeypatch) -> None:
    folder = _corpus(tmp_path, monkeypatch)
    assert [t.file for t in fold_truths("A", folder=folder)] == ["tuned.md", "notice.md"]
    assert [t.file for t in fold_truths("A", folder=folder, incidents_only=True)] == ["tuned.md"]
    judged = fold_truths("A", folder=folder, include_held_out=True)
    assert [t.file for t in judged] == ["judge.md", "tuned.md", "notice.md"]
    assert [t.file for t in fold_truths(None, folder=folder)] == ["tuned.md", "report.md", "notice.md"]
    assert set(fold_statements("A", folder=folder)) == {"tuned.md", "notice.md"}
    assert set(fold_statements("A", folder=folder, include_held_out=True)) == {"judge.md", "tuned.md", "notice.md"}
    assert set(fold_statements("B", folder=folder)) == {"report.md"}


def test_the_shipped_corpus_keeps_its_held_out_postmortems_from_fold_a(tmp_path: Path, monkeypatch) -> None:
    held = held_out_postmortems()
    if not held:  # between two judges the list is empty: two labelled fold-A reports stand in for a judge
        held = frozenset(sorted(fold_statements("A"))[:2])
        listing = tmp_path / "held_out_postmortems.tsv"
        listing.write_text("".join(f"A\t{name}\n" for name in sorted(held)), encoding="utf-8")
        monkeypatch.setattr(import_postmortems, "HELD_OUT", listing)
    assert held == held_out_postmortems()
    tuned = {t.file for t in fold_truths("A")}
    judged = {t.file for t in fold_truths("A", include_held_out=True)}
    assert not tuned & held
    assert judged - tuned == held
    assert not set(fold_statements("A")) & held
    assert held <= set(fold_statements("A", include_held_out=True))
