"""The recall judgement: fitted coefficients load, leave the ranking alone, and a weak match
reads as one line with a button to open each of the closest memories."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallMatch
from bot.recall.judgement import FEATURES, JUDGEMENT_PATH, STRONG, WEAK, load_judgement, settle
from bot.slack import ids, messages


def test_the_fitted_judgement_loads_names_known_features_and_ranks_probabilities_by_evidence() -> None:
    judgement = load_judgement()
    data = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    assert set(judgement.coefficients) <= set(FEATURES) and data["fitted_on"]["cases"] > 0
    assert 0 < judgement.weak_from <= judgement.strong_from <= 1
    # a memory over the relevance floor stays strong: nothing the floor posted is hidden
    assert judgement.tier(0.0, 0, relevance=judgement.floor) == STRONG
    assert judgement.tier(0.0, 5, relevance=1.0) != STRONG  # a thread posts five at most


def test_a_weak_line_is_dropped_when_something_is_strong() -> None:
    assert settle([WEAK, STRONG, WEAK]) == ["below", STRONG, "below"]
    assert settle([WEAK, "below"]) == [WEAK, "below"]


def test_a_weak_match_renders_as_one_line_with_a_button_to_open_each() -> None:
    memory = MemoryRecord.model_validate(
        {
            "incident_id": "INC-9",
            "team_id": "T1",
            "title": "Checkout 502s",
            "occurred_at": "2024-01-01T00:00:00Z",
            "truth_state": "human_confirmed",
            "source": "seed",
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": "2024-01-01T00:00:00Z",
        }  # fmt: skip
    )
    match = RecallMatch(memory=memory, score=0.4, score_components={}, reasons=["same error signature"],
                        relevance=0.1, probability=0.3, tier="weak", evidence={"lead": 0.2})  # fmt: skip
    message = messages.recall_weak([match], datetime(2026, 1, 1, tzinfo=UTC))
    sections = [b for b in message["blocks"] if b["type"] == "section"]
    assert len(sections) == 1 and "INC-9" in sections[0]["text"]["text"]
    assert "same error signature" in sections[0]["text"]["text"] and "\n" not in sections[0]["text"]["text"]
    buttons = [e for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert [b["action_id"] for b in buttons] == [ids.MEMORY_WHY] and "INC-9" in buttons[0]["text"]["text"]
    assert "probability 0.30" in json.loads(buttons[0]["value"])["numbers"]
