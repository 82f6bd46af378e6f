"""bench/fix_head.py (issue 23, r23-fixhead): the held-out list is read as written, each organisation is drafted by a
fix head fitted without it, and the `offset` reading changes the shipped fix head only by the two groups' weights."""

from __future__ import annotations

from pathlib import Path

import pytest

import bench.fix_head as bench
from bench.fit_reader import conversations
from bench.reading_eval_conversations import held_out_files
from bot.importer.scoring import Ratio
from bot.reader.conversation import shipped_models


def test_the_held_out_list_is_read_with_or_without_its_fold_and_a_name_with_no_label_is_refused(tmp_path: Path) -> None:
    """A list that names a file eval/ has no label for would hold out nothing and put the judge's threads in DEV."""
    one, two, three = (label["file"] for label, _ in conversations("A")[:3])
    listed = tmp_path / "held.txt"
    listed.write_text(f"A\t{one}\nB\t{two}\n\n{three}\n", encoding="utf-8")
    assert held_out_files(listed) == {one, two, three}
    listed.write_text(f"A\t{one}\nA\tno-such-thread.json\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no-such-thread.json"):
        bench.main(["--held", str(listed), "--skip-dev", "--readings", ""])


def test_the_offset_head_keeps_every_shipped_coefficient_and_weighs_only_the_two_groups() -> None:
    step, plain = frozenset({"opening_past", "late", "responder"}), frozenset({"late", "responder"})
    rows = {
        "a.json": [(step, True)] * 6 + [(plain, False)] * 30,
        "b.json": [(frozenset({"passive_past", "responder"}), True)] * 3 + [(frozenset({"question"}), False)] * 20,
    }
    shipped = shipped_models().heads["fix"]
    head = bench.offset_fitted(rows, list(rows), "test").heads["fix"]
    assert head.bias == shipped.bias and head.threshold == shipped.threshold
    assert {k: v for k, v in head.weights.items() if k not in bench.NEW} == shipped.weights
    assert head.weights["opening_past"] > 0 and head.weights["passive_past"] > 0  # both hold the fix here
    assert head.probability(plain) == pytest.approx(shipped.probability(plain))  # without them, as shipped
    assert head.probability(step) > shipped.probability(step)


def test_the_offset_reading_with_no_sentence_holding_the_fix_is_a_clear_error() -> None:
    """Nothing to weigh the groups by (review F4: it died on a ZeroDivisionError): said, never a head."""
    rows = {"a.json": [(frozenset({"opening_past", "late"}), False)] * 5}
    with pytest.raises(SystemExit, match="cannot be fitted on 1 conversations: .*0 of 5 rows positive"):
        bench.offset_fitted(rows, list(rows), "test")


def test_each_organisation_is_drafted_by_a_head_fitted_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    data = [
        ({"file": f"{org}-{i}.json", "org": org, "fix_keywords": []}, {"messages": []})
        for org in ("alpha", "beta", "gamma")
        for i in range(2)
    ]
    fitted_on: dict[str, set[str]] = {}

    def model_for(reading: str, rows: bench.Rows, files: list[str], said: str) -> tuple[str, set[str]]:
        return said, set(files)

    def drafted(part: bench.Data, models: tuple[str, set[str]], weighed: bool) -> dict[str, Ratio]:
        for label, _ in part:
            fitted_on[label["file"]] = models[1]
        return {"fix": Ratio()}

    monkeypatch.setattr(bench, "model_for", model_for)
    monkeypatch.setattr(bench, "drafted", drafted)
    bench.one_out(data, {}, "offset")
    assert set(fitted_on) == {label["file"] for label, _ in data}  # every thread drafted once
    for file, files in fitted_on.items():
        org = file.split("-")[0]
        assert files == {label["file"] for label, _ in data if label["org"] != org}  # the others, all of them
