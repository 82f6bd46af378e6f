"""`incident-memory demo`, the first command a new user runs, end to end on a throwaway database."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.demo import run_demo


async def test_the_demo_shows_only_related_memories_and_flags_only_different_mechanisms(
    admin_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_demo(Settings(database_url=admin_dsn)) == 0
    out = capsys.readouterr().out
    first = out.split("2. /incident declare", 1)[1].split("3. People talk", 1)[0]
    assert "2 past incidents look like this one" in first
    # the TLS expiry and the Elasticsearch disk incident share only generic words: not shown
    assert "INC-2025-0815" not in first and "INC-2025-0603" not in first
    assert "score" not in first and "lexical" not in first  # the card speaks in words
    follow_up = out.split(". A week later", 1)[1]
    # the new memory and INC-2025-0412 are one explanation; INC-2025-0921 is another mechanism
    assert "and INC-2025-0412 vs INC-2025-0921" in " ".join(follow_up.split())
    # "all clear" brings the nudge; its button opens the resolution modal drafted from the channel
    saving = out.split("Save what we learned: the modal opens at once", 1)[1].split(". A week later", 1)[0]
    assert "Draft by rules from the channel" in saving
    assert "Attempt 1: what was tried: Restarted the checkout pods" in saving
    assert "Attempt 1: why it failed: Pool filled again after 20 minutes" in saving
    assert "failed_attempts[1] drafted" in " ".join(saving.split())
