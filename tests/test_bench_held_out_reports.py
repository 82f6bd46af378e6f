"""The issue-27 benches' held-out guard (bench/first_reports.py `held_out_targets`): on a tiny eval/ that holds a
collection of bench/held_out.tsv, a first report whose target is one of its threads is no case of the judgement
benches (bench/fit_recall_judgement.py, bench/recurrences.py, bench/judgement_by_org.py) and its thread no memory,
unless --include-held-out; a judge's --targets that lists a held-out thread without the flag, or names no document,
is a clear error."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot.config import PROJECT_ROOT

HELD_OUT = PROJECT_ROOT / "bench" / "held_out.tsv"


def bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, PROJECT_ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def first_collection() -> list[str]:
    """bench/held_out.tsv's first collection: its block of names (the list is read a whole collection at a time)."""
    names: list[str] = []
    for line in HELD_OUT.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and names:
            return names
        if line.strip() and not line.startswith("#"):
            names.append(line.split()[-1])
    return names


def conversation(stem: str, opening: str, fix: str) -> dict:
    texts = [opening, fix]
    messages = [{"ts": f"2024-0{n + 1}-01T10:00:00+00:00", "author": f"u{n}", "text": t} for n, t in enumerate(texts)]
    return {"id": stem, "org": stem.split("-")[0], "fold": "A", "messages": messages}


@pytest.fixture
def eval_dir(tmp_path: Path) -> Path:
    """eval/ with the held-out collection labelled (one of its threads written, with a first report) and one thread
    of an earlier collection (with a first report and a recurrence pair)."""
    held = first_collection()[0]
    folder = tmp_path / "eval"
    for corpus in ("conversations", "postmortems", "first-reports"):
        (folder / corpus).mkdir(parents=True)
    threads = {
        held: conversation(held, "Website down: 500 errors on every page", "The disk was full: cleaned the logs."),
        "acme-1-queue.json": conversation("acme-1-queue", "Queue stalled: jobs pile up", "Restarted the workers."),
    }
    for name, thread in threads.items():
        (folder / "conversations" / name).write_text(json.dumps(thread), encoding="utf-8")
    # the collection's other threads labelled only (no incident: no document to read), as the list must be held whole
    labels = [{"file": name, "org": name.split("-")[0], "fold": "A", "not_an_incident": name not in threads}
              for name in [*first_collection(), "acme-1-queue.json"]]  # fmt: skip
    (folder / "conversations" / "truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in labels))
    (folder / "postmortems" / "truth.jsonl").write_text("")
    reports = [
        {"id": f"fr-{n}", "org": name.split("-")[0], "fold": "A", "text": thread["messages"][0]["text"],
         "ts": "2024-01-01", "target": f"conversations/{name}", "source": "https://example.org"}
        for n, (name, thread) in enumerate(threads.items())
    ]  # fmt: skip
    (folder / "first-reports" / "reports.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reports))
    pairs = [r | {"id": f"rec-{n}", "sameness": "again", "links_earlier": False} for n, r in enumerate(reports)]
    (folder / "first-reports" / "recurrences.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs))
    return folder


def targets(folder: Path) -> set[str]:
    lines = (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return {target for line in lines for target in json.loads(line)["relevant"]}


def memories(folder: Path) -> set[str]:
    return {json.loads(line)["id"] for line in (folder / "memories.jsonl").read_text(encoding="utf-8").splitlines()}


def test_a_held_out_threads_first_report_is_no_case_unless_included(
    eval_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first_reports = bench("first_reports")
    held = f"conversations/{first_collection()[0]}"
    kept = "conversations/acme-1-queue.json"
    first_reports.build(eval_dir, tmp_path / "screen", leave_out=first_reports.held_out_targets(eval_dir))
    assert "1 of 2 first reports held out" in capsys.readouterr().err
    assert targets(tmp_path / "screen") == {kept} and memories(tmp_path / "screen") == {kept}
    included = first_reports.held_out_targets(eval_dir, include_held_out=True)
    first_reports.build(eval_dir, tmp_path / "judge", leave_out=included)
    assert targets(tmp_path / "judge") == {held, kept} and memories(tmp_path / "judge") == {held, kept}


def test_recurrences_leave_a_held_out_threads_pair_out_unless_included(eval_dir: Path, tmp_path: Path) -> None:
    recurrences = bench("recurrences")
    held = recurrences.first_reports.held_out_targets(eval_dir, say=False)
    held_thread = f"conversations/{first_collection()[0]}"
    assert held_thread in held
    folders, _ = recurrences.build(eval_dir, tmp_path / "screen", leave_out=held)
    assert set().union(*(targets(f) for f in folders)) == {"conversations/acme-1-queue.json"}
    assert not set().union(*(memories(f) for f in folders)) & held
    folders, _ = recurrences.build(eval_dir, tmp_path / "judge")
    assert set().union(*(targets(f) for f in folders)) == {"conversations/acme-1-queue.json", held_thread}
    assert held_thread in set().union(*(memories(f) for f in folders))


@pytest.mark.parametrize("name", ["recurrences", "judgement_by_org"])
def test_a_judge_list_of_held_out_threads_needs_the_flag_and_known_names(
    name: str, eval_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = bench(name)
    listing = tmp_path / "judge.txt"
    listing.write_text(f"A\t{first_collection()[0]}\n", encoding="utf-8")
    mode = ["--reports", "--out", str(tmp_path / "out")] if name == "recurrences" else ["--swap", "--variant", "B=head"]
    monkeypatch.setattr(sys, "argv", [name, str(eval_dir), *mode, "--targets", str(listing)])
    with pytest.raises(SystemExit):
        module.main()
    assert "--include-held-out" in capsys.readouterr().err
    listing.write_text("A\tconversations/acme-1-queue.json\n", encoding="utf-8")  # a path, not a file name
    monkeypatch.setattr(sys, "argv", [name, str(eval_dir), *mode, "--targets", str(listing), "--include-held-out"])
    with pytest.raises(SystemExit):
        module.main()
    assert "1 name(s) no document of" in capsys.readouterr().err


def test_a_refit_written_from_eval_refuses_to_leave_the_held_out_reports_out() -> None:
    # the shipped file is fitted on every report: --write without --include-held-out would fit on fewer, silently
    done = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "bench" / "fit_recall_judgement.py"), "eval", "--write"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and "--include-held-out" in done.stderr, done.stderr


def test_a_held_out_postmortems_first_report_is_no_case_unless_judging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review F41: bench/held_out_postmortems.tsv's files (the postmortem judge) are read by no recall tuner either:
    their first reports are no case and their documents no memory of a screen; a judge reads every one."""
    first_reports = bench("first_reports")
    import_postmortems = bench("import_postmortems")
    # the list as it stands, or (between two judges, when it is empty) two postmortems a first report leads to
    held = import_postmortems.held_out_postmortems()
    if not held:
        reports = (PROJECT_ROOT / "eval" / "first-reports" / "reports.jsonl").read_text(encoding="utf-8")
        targets = sorted({json.loads(line)["target"] for line in reports.splitlines() if line.strip()})
        held = frozenset([t.removeprefix("postmortems/") for t in targets if t.startswith("postmortems/")][:2])
        listing = tmp_path / "held_out_postmortems.tsv"
        listing.write_text("".join(f"A\t{name}\n" for name in sorted(held)), encoding="utf-8")
        import bench.import_postmortems as the_list  # the module first_reports asks for the list

        monkeypatch.setattr(the_list, "HELD_OUT", listing)
    assert held, "bench/held_out_postmortems.tsv lists the postmortem judge"
    screen = first_reports.held_out_targets(PROJECT_ROOT / "eval", say=False)
    assert {f"postmortems/{name}" for name in held} <= screen
    judge = first_reports.held_out_targets(PROJECT_ROOT / "eval", include_held_out=True, say=False)
    assert not any(target.startswith("postmortems/") for target in judge)


def test_the_first_reports_command_leaves_a_held_out_thread_out_unless_included(
    eval_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review F77: `bench/first_reports.py eval --out DIR`, then `incident-memory replay DIR`, is the documented way to
    read the first reports as recall queries; its command line built every first report, the held-out judges' too."""
    first_reports = bench("first_reports")
    held = f"conversations/{first_collection()[0]}"
    kept = "conversations/acme-1-queue.json"
    assert first_reports.main([str(eval_dir), "--out", str(tmp_path / "tuning")]) == 0
    assert targets(tmp_path / "tuning") == {kept} and memories(tmp_path / "tuning") == {kept}
    assert "1 of 2 first reports held out" in capsys.readouterr().err
    assert first_reports.main([str(eval_dir), "--out", str(tmp_path / "judge"), "--include-held-out"]) == 0
    assert targets(tmp_path / "judge") == {held, kept} and memories(tmp_path / "judge") == {held, kept}
