"""`report` and `replay --html` write pages a browser shows as they are: rendered here by a
headless Chromium, which must log no console error, fetch nothing, and draw every plot.

IM_WRITE_SCREENSHOTS=1 also writes the screenshots in docs/ from the same pages."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import PROJECT_ROOT
from bot.models import MemoryDraft
from bot.replay import load_memories

CORPUS = PROJECT_ROOT / "eval" / "incidents"  # the project's own (fictional) replay corpus
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TEAM = "T0REPORT"

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason="no chromium here (.ci/run installs it)"
)


def render(page: Path, *, screenshot: Path | None = None) -> tuple[str, list[str]]:
    """The page's DOM after it loaded, and every console message Chromium logged."""
    assert CHROMIUM, "chromium is not installed (.ci/run installs it: apt-get install chromium)"
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--log-level=0",
             "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + str(page.parent / "chromium-profile")]  # fmt: skip
    done = subprocess.run([*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    if screenshot is not None:
        shot = [*flags, "--hide-scrollbars", "--window-size=1200,1700", f"--screenshot={screenshot}", page.as_uri()]
        subprocess.run(shot, capture_output=True, timeout=120, check=True)
    return done.stdout, console


def self_contained(html: str) -> None:
    """Nothing to fetch: no script, no stylesheet or image from elsewhere."""
    assert "<script" not in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert not re.search(r"url\(\s*['\"]?(https?:|//)", html) and "@import" not in html


def screenshot_to(name: str) -> Path | None:
    return PROJECT_ROOT / "docs" / name if os.environ.get("IM_WRITE_SCREENSHOTS") else None


@needs_chromium
def test_the_browser_check_catches_a_console_error(tmp_path: Path) -> None:
    """The check below can fail: a page that logs an error is caught."""
    page = tmp_path / "broken.html"
    page.write_text("<!doctype html><title>x</title><svg></svg><script>console.error('boom'); nope();</script>")
    _, console = render(page)
    assert any("boom" in line for line in console) and any("nope is not defined" in line for line in console)


@pytest.fixture
async def bank(database_url: str, store, monkeypatch: pytest.MonkeyPatch) -> str:  # noqa: ANN001
    """The replay corpus as a team's memory, with the failed attempts teams keep repeating."""
    repeated = {
        "payments": [{"action": "Restarted the pods", "why_it_failed": "the pool filled again within minutes"}],
        "checkout": [{"action": "restarted the pods.", "why_it_failed": "freed connections for 20 minutes"},
                     {"action": "Raised the pool size", "why_it_failed": "the database ran out of connections"}],
        "orders": [{"action": "Raised the pool size", "why_it_failed": "more waiting, same leak"}],
    }  # fmt: skip
    for draft in load_memories(CORPUS, team_id=TEAM):
        attempts = repeated.get(draft.service or "", [])
        data = draft.model_dump() | {"failed_attempts": [*draft.model_dump()["failed_attempts"], *attempts]}
        await store.retain(MemoryDraft.model_validate(data))
    monkeypatch.setenv("DATABASE_URL", database_url)
    return database_url


@needs_chromium
async def test_report_shows_the_memory_and_renders_without_console_errors(bank: str, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    import asyncio

    page = tmp_path / "report.html"
    assert await asyncio.to_thread(main, ["report", "--team", TEAM, "-o", str(page), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    html = page.read_text()
    self_contained(html)
    dom, console = render(page, screenshot=screenshot_to("report.png"))
    assert console == [], console
    assert dom.count("<svg") == 3  # incidents per service and month, truth states, recurring attempts
    assert figures["memories"] == len(load_memories(CORPUS)) and figures["truth_states"]["rejected"] == 1
    # "Restarted the pods" and "restarted the pods." are one attempt, tried in every payments and checkout incident
    top = figures["recurring_failed_attempts"][0]
    assert top["action"].lower().startswith("restarted the pods") and set(top["services"]) == {"payments", "checkout"}
    assert "Restarted the pods" in dom and "Raised the pool size" in dom
    awaiting = [m["incident_id"] for m in figures["awaiting_review"]]
    assert "m25" in awaiting and all(f"<code>{i}</code>" in dom for i in awaiting)
    assert "payments" in dom and "Incidents per service and month" in dom


async def test_report_of_an_empty_team_says_so(database_url: str, tmp_path: Path, monkeypatch, capsys) -> None:  # noqa: ANN001
    import asyncio

    monkeypatch.setenv("DATABASE_URL", database_url)
    page = tmp_path / "empty.html"
    assert await asyncio.to_thread(main, ["report", "-o", str(page)]) == 0
    assert "0 memories" in capsys.readouterr().out
    assert "This team has no memories yet" in page.read_text()


@needs_chromium
async def test_replay_html_draws_the_recall_curve_beside_the_baseline(
    database_url: str, tmp_path: Path, capsys
) -> None:  # noqa: ANN001
    import asyncio

    from bot.memory.database import with_database  # noqa: F401 - the replay makes its own database

    baseline = tmp_path / "baseline.json"
    curve = [0.5, 0.6, 0.65, 0.7, 0.72, 0.74, 0.75, 0.76, 0.77, 0.78]
    baseline.write_text(json.dumps({"cases": 46, "recall_at_k": {"baseline": curve, "ours": curve}}))
    page = tmp_path / "replay.html"
    os.environ["DATABASE_URL"] = database_url
    try:
        argv = ["replay", str(CORPUS), "--no-progress", "--html", str(page), "--baseline", str(baseline), "--json"]
        assert await asyncio.to_thread(main, argv) == 0
    finally:
        del os.environ["DATABASE_URL"]
    summary = json.loads(capsys.readouterr().out)
    html = page.read_text()
    self_contained(html)
    dom, console = render(page)
    assert console == [], console
    assert dom.count("<polyline") == 2 and "BM25 baseline" in dom
    assert f"{summary['recall_at_1']:.3f}" in dom  # k = 1 of our curve is the replay's Recall@1
    assert "0.500" in dom and "0.780" in dom  # the baseline's points, as given


def test_a_baseline_of_another_shape_is_refused_by_naming_the_shape(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"subsets": {}}))
    code = main(["replay", str(CORPUS), "--html", str(tmp_path / "r.html"), "--baseline", str(baseline)])
    err = capsys.readouterr().err
    assert code == 1 and '"recall_at_k": {"baseline": [ten numbers in 0…1]}' in err
