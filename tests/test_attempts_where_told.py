"""bench/attempts_where_told.py (issue 23): a stored line is placed in the document part today's importer reads it
from, and a gate on places or lines per document is chosen without the organisation it is applied to."""

from __future__ import annotations

from bench import attempts_where_told as where

REPORT = """# Outage of the API

We restarted the api pods, but the errors did not stop.

## Timeline

- 10:00 Alert fired for API errors
- 10:05 The proxy pod is restarted. This does not resolve the issue.
- 10:30 Rolled back the release; errors stopped.

## Lessons learned

Paging earlier would have helped.
"""


def test_a_line_is_placed_in_the_part_of_the_document_it_comes_from(tmp_path, monkeypatch) -> None:
    (tmp_path / "org-outage.md").write_text(REPORT, encoding="utf-8")
    monkeypatch.setattr(where, "POSTMORTEMS", tmp_path)
    parts = where._structure("org-outage.md")
    assert parts is not None
    assert where.place_of("The proxy pod is restarted", parts) == "timeline entry"
    assert where.place_of("We restarted the api pods", parts) == "under the title"
    assert where.place_of("Paging earlier would have helped", parts) == "elsewhere"
    assert where.place_of("words the document does not hold at all", parts) == "not found"


def _row(org: str, place: str, real: bool, in_doc: int = 1) -> dict:
    return {"org": org, "file": f"{org}.md", "place": place, "real": real, "in_doc": in_doc, "families": []}


def test_a_place_is_kept_for_an_organisation_only_on_the_others_lines() -> None:
    blind = [_row("a", "timeline entry", True), _row("b", "timeline entry", True), _row("c", "timeline entry", True)]
    blind += [_row("c", "free prose", True), _row("c", "free prose", True)]  # held by one organisation alone
    blind += [_row("a", "resolution", True), _row("b", "resolution", True)]
    assert where.places_held(blind, None) == {"timeline entry", "resolution"}
    assert where.places_held(blind, "a") == {"timeline entry"}  # without a, resolution's real lines are b's alone
    lines = [_row("a", "free prose", True), _row("a", "resolution", True), _row("a", "timeline entry", True)]
    assert [r["place"] for r in where.gate(lines, blind, "O")] == ["timeline entry"]
    assert [r["place"] for r in where.gate(lines, blind, "O", one_out=False)] == ["resolution", "timeline entry"]


def test_the_flood_limit_is_chosen_without_the_organisation_it_judges() -> None:
    blind = [_row("x", "timeline entry", False, in_doc=5) for _ in range(5)]  # a flood of wrong lines, one organisation
    blind += [_row("y", "timeline entry", True, in_doc=5) for _ in range(5)]  # a flood of real ones, another
    assert where.k_chosen(blind, "y") == 4  # x's wrong flood, seen from y: documents of more than 4 lines go
    assert where.k_chosen(blind, "x") == max(where.KS)  # y's real flood, seen from x: nothing goes
    assert where.gate(blind, blind, "C") == [r for r in blind if r["org"] == "x"]
