"""The recall judgement: fitted coefficients load, leave the ranking alone, and a weak match
reads as one line with a button to open each of the closest memories."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallMatch
from bot.recall.judgement import BELOW, FEATURES, JUDGEMENT_PATH, STRONG, WEAK, load_judgement
from bot.slack import ids, messages


def test_the_fitted_judgement_loads_names_known_features_and_ranks_probabilities_by_evidence() -> None:
    judgement = load_judgement()
    data = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    assert set(judgement.coefficients) <= set(FEATURES) and data["fitted_on"]["cases"] > 0
    assert 0 < judgement.weak_from <= judgement.strong_from <= 1
    # with meaning, the semantic model judges (it reads the lead in meaning), under the same floors
    semantic = judgement.for_meaning(True)
    assert semantic is not judgement and "meaning_lead" in semantic.coefficients
    assert (semantic.floor, semantic.sure_from) == (judgement.floor, judgement.sure_from)
    assert judgement.for_meaning(False) is judgement
    assert judgement.with_floor(0.4).for_meaning(True).floor == 0.4


def test_the_judgement_posts_a_thread_and_the_floor_fills_it_else_a_weak_line_names_the_closest() -> None:
    judgement = load_judgement()
    sure, floor = judgement.sure_from, judgement.floor
    assert sure is not None and floor < sure
    strong, weak, nothing = judgement.strong_from, judgement.weak_from, judgement.weak_from / 2
    # a thread: what reaches strong_from, and what else carries the floor's relevance (not a weak line)
    assert judgement.tiers([strong, weak, nothing], [0.0, floor, 0.0]) == [STRONG, STRONG, BELOW]
    # the floor alone posts nothing; half the query's evidence does
    assert judgement.tiers([weak, nothing], [floor, 0.0]) == [WEAK, BELOW]
    assert judgement.tiers([nothing, nothing], [sure, floor]) == [STRONG, STRONG]
    # a weak line names the first three at most; a thread holds five at most
    assert judgement.tiers([weak] * 4, [0.0] * 4) == [WEAK, WEAK, WEAK, BELOW]
    assert judgement.tiers([strong] * 6, [0.0] * 6) == [STRONG] * 5 + [BELOW]


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


def test_a_team_can_fit_the_same_alert_the_shipped_model_does_not_read() -> None:
    from dataclasses import replace

    from bot.recall.judgement import Context, Judgement
    from bot.recall.signals import Signals

    plain = Signals(lexical=0.5, coverage=0.2, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.0)  # fmt: skip
    context = Context(plain, 0.2, 0.2, 0.1, 0.1, 0.0, 0.0, 0.0, 0.0, None)
    alerted = replace(context, signals=replace(plain, same_alert=1.0))
    assert FEATURES["same_alert"](context) == 0.0 and FEATURES["same_alert"](alerted) == 1.0
    assert "same_alert" not in load_judgement().coefficients  # not fitted on the public corpora (BENCHMARKS)
    fitted = Judgement({"same_alert": 4.0}, -3.0, 0.5, 0.2)
    assert fitted.probability({"same_alert": 1.0}) > fitted.strong_from > fitted.probability({"same_alert": 0.0})
