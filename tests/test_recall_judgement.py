"""The recall judgement: fitted coefficients load, leave the ranking alone, and a weak match
reads as one line with a button to open each of the closest memories."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallMatch
from bot.recall.features import FEATURES
from bot.recall.judgement import (
    BELOW,
    JUDGEMENT_PATH,
    SEMANTIC_NAME,
    STRONG,
    SURE_FLOOR,
    WEAK,
    Judgement,
    load_judgement,
)
from bot.recall.judgement_rules import (
    CAUSE_CLOSE,
    CAUSE_SURE,
    ECHO_CLOSE,
    SERVICE_CLOSE,
    SIGNATURE_SURE,
    by_rule,
    rule_of,
)
from bot.slack import ids, messages


def test_the_fitted_judgement_loads_names_known_features_and_ranks_probabilities_by_evidence() -> None:
    judgement = load_judgement()
    data = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    assert set(judgement.coefficients) <= set(FEATURES) and data["fitted_on"]["cases"] > 0
    assert 0 < judgement.weak_from <= judgement.strong_from <= 1
    # with meaning, the semantic model judges (it reads the lead in meaning), under the same floors
    semantic = judgement.for_query(True, math.inf)
    assert semantic is not judgement and "meaning_lead" in semantic.coefficients
    assert (semantic.floor, semantic.sure_from) == (judgement.floor, judgement.sure_from)
    assert judgement.for_query(False, math.inf) is judgement
    assert judgement.with_floor(0.4).for_query(True, math.inf).floor == 0.4


def test_the_semantic_model_is_its_own_file_beside_the_lexical_one(tmp_path) -> None:  # noqa: ANN001
    # a refit with meaning rewrites only its own file; without that file a query recalled with
    # meaning is judged by the lexical model (and a file of the older shape still carries both)
    lexical = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    semantic = json.loads(JUDGEMENT_PATH.with_name(SEMANTIC_NAME).read_text(encoding="utf-8"))
    assert "semantic" not in lexical and "meaning_lead" in semantic["coefficients"]
    (tmp_path / "recall_judgement.json").write_text(json.dumps(lexical), encoding="utf-8")
    alone = load_judgement(tmp_path / "recall_judgement.json")
    assert alone.for_query(True, math.inf) is alone
    (tmp_path / SEMANTIC_NAME).write_text(json.dumps({**semantic, "strong_from": 0.77}), encoding="utf-8")
    both = load_judgement.__wrapped__(tmp_path / "recall_judgement.json")
    assert (
        both.for_query(True, math.inf).strong_from == 0.77
        and both.for_query(False, math.inf).coefficients == alone.coefficients
    )
    older = tmp_path / "older" / "recall_judgement.json"
    older.parent.mkdir()
    older.write_text(json.dumps({**lexical, "semantic": semantic}), encoding="utf-8")
    assert load_judgement(older).for_query(True, math.inf).coefficients == semantic["coefficients"]


def test_the_judgement_posts_a_thread_and_the_floor_fills_it_else_a_weak_line_names_the_closest() -> None:
    shipped = load_judgement()
    # the shipped model has no sure rule (a memory with half the query's words that does not stand
    # out posts nothing by itself); a team that sets one (`--sure-from`) gets a thread from it
    assert shipped.sure_from is None
    assert shipped.tiers([shipped.weak_from / 2] * 2, [0.9, 0.6]) == [BELOW, BELOW]
    judgement = replace(shipped, sure_from=SURE_FLOOR)
    sure, floor = judgement.sure_from, judgement.floor
    assert sure is not None and floor < sure
    strong, weak, nothing = judgement.strong_from, judgement.weak_from, judgement.weak_from / 2
    # a thread: what reaches strong_from, and what else carries the floor's relevance or would be weak
    assert judgement.tiers([strong, weak, nothing], [0.0, 0.0, floor]) == [STRONG, STRONG, STRONG]
    assert judgement.tiers([strong, nothing, nothing], [0.0, 0.0, floor / 2]) == [STRONG, BELOW, BELOW]
    # the floor alone posts nothing; half the query's evidence posts a thread
    assert judgement.tiers([nothing, nothing], [floor, 0.0]) == [BELOW, BELOW]
    assert judgement.tiers([nothing, nothing], [sure, floor]) == [STRONG, STRONG]
    # one close memory posts the weak line, which names the three closest (the responder decides)
    assert judgement.tiers([nothing, weak, nothing, nothing], [0.0] * 4) == [WEAK, WEAK, WEAK, BELOW]
    assert judgement.tiers([nothing, nothing, nothing, weak], [0.0] * 4) == [BELOW] * 4
    # a thread holds five at most
    assert judgement.tiers([strong] * 6, [0.0] * 6) == [STRONG] * 5 + [BELOW]
    # a model whose strong_from sits under its weak_from (a fit choosing thresholds) still posts what is strong
    assert replace(judgement, weak_from=1.0).tiers([strong, nothing], [0.0, 0.0]) == [STRONG, BELOW]


def test_a_second_model_decides_the_weak_line_only_and_the_first_keeps_every_thread() -> None:
    # Judgement.weak (bench/fit_recall_judgement.py --weak-features): its probabilities, against its weak_from
    judgement = replace(load_judgement(), weak=None)  # the first model alone, the shipped file's weak one apart
    strong, weak, nothing = judgement.strong_from, judgement.weak_from, judgement.weak_from / 2
    paired = replace(judgement, weak=replace(judgement, weak_from=0.7))
    # a thread is the first model's, whatever the second says, and holds what the first model's weak_from holds
    assert paired.tiers([strong, weak, nothing], [0.0] * 3, None, [0.0] * 3) == [STRONG, STRONG, BELOW]
    # no thread: the weak line is the second model's, read against its own weak_from
    assert paired.tiers([nothing, weak, nothing], [0.0] * 3, None, [0.1, 0.69, 0.1]) == [BELOW] * 3
    assert paired.tiers([nothing, nothing, nothing], [0.0] * 3, None, [0.1, 0.1, 0.7]) == [WEAK] * 3
    # a rule still shows its line; without the second model's probabilities the first model decides
    assert paired.tiers([nothing] * 2, [0.0] * 2, [WEAK, BELOW], [0.0] * 2) == [WEAK, WEAK]
    assert paired.tiers([nothing, weak], [0.0] * 2) == [WEAK, WEAK]
    # "Why this?" names the model that raised the line; a model file keeps each model's weak one
    assert "weak-line model's probability 0.70" in str(paired.rule_behind(WEAK, nothing, 0.0, (BELOW, None), 0.7))
    short = replace(judgement.short, weak=replace(judgement.short, weak=None, weak_from=0.6))
    kept = Judgement.from_json(replace(paired, short=short).as_json())
    assert (kept.weak.weak_from, kept.short.weak.weak_from, kept.weak.weak) == (0.7, 0.6, None)
    assert kept.for_query(False, 0.0).weak == kept.short.weak and kept.for_query(False, math.inf).weak == kept.weak


def test_the_incidents_own_service_makes_a_memory_weak_and_the_suspected_cause_weak_or_strong() -> None:
    judgement = load_judgement()
    nothing = judgement.weak_from / 2
    # SERVICE_CLOSE of the query's evidence in the incident's own service names it in the weak line,
    # no thread (on jira-dev a thread from it bought nothing a weak line did not, at 0.14 more false threads)
    assert by_rule(SERVICE_CLOSE, {"same_service": 1.0}) == WEAK
    assert by_rule(SERVICE_CLOSE, {"same_service": 0.0}) == BELOW
    assert by_rule(SERVICE_CLOSE - 0.01, {"same_service": 1.0}) == BELOW
    # the query's words found in the memory's root cause and diagnosis: the cause a responder suspects
    assert by_rule(0.1, {"cause": CAUSE_CLOSE - 0.01}) == BELOW
    assert by_rule(0.1, {"cause": CAUSE_CLOSE}) == WEAK and by_rule(0.1, {"cause": CAUSE_SURE}) == STRONG
    assert judgement.tiers([nothing, nothing], [0.0, 0.0], [WEAK, BELOW]) == [WEAK, WEAK]
    assert judgement.tiers([nothing, nothing], [0.0, 0.0], [BELOW, STRONG]) == [BELOW, STRONG]
    assert judgement.tiers([nothing, nothing], [0.0, 0.0], [BELOW, BELOW]) == [BELOW, BELOW]
    # a long query naming much of the memory's opening, standing out: weak, whatever its head
    assert by_rule(0.1, {}, {"echo_standout": ECHO_CLOSE}) == WEAK
    assert by_rule(0.1, {}, {"echo_standout": ECHO_CLOSE - 0.01}) == BELOW and by_rule(0.1, {}) == BELOW
    # only the first three are read for the weak line
    assert judgement.tiers([nothing] * 4, [0.0] * 4, [BELOW, BELOW, BELOW, WEAK]) == [BELOW] * 4


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
    # a tier a rule made, not the probability, says which rule in "Why this?"
    judgement = load_judgement()
    ruled = match.model_copy(
        update={"rule": judgement.rule_behind(WEAK, 0.0, 0.1, rule_of(0.1, {"cause": CAUSE_CLOSE}))}
    )
    numbers = json.loads(messages.why_value(ruled))["numbers"]
    assert numbers.startswith(
        f"weak (by rule: its root cause and diagnosis hold {CAUSE_CLOSE:.2f} of the query's weight"
    )
    # a line the weak-line model raised says that model's probability, and is no rule
    raised = match.model_copy(update={"rule": judgement.rule_behind(WEAK, 0.0, 0.0, (BELOW, None), 0.99)})
    said = json.loads(messages.why_value(raised))["numbers"]
    assert said.startswith("weak (the weak-line model's probability 0.99") and "rule" not in said.split(":")[0]


def test_the_weak_lines_button_fits_slacks_limit_whatever_the_memory_says() -> None:
    # a member wrote the memory: quotes and backslashes double when escaped, and the button that
    # opens its gist must still fit Slack's 2,000 characters, or the whole weak line is refused
    said = '"\\' * 200
    memory = MemoryRecord.model_validate(
        {
            "incident_id": "INC-9",
            "team_id": "T1",
            "title": said,
            "root_cause": said,
            "resolution": said,
            "verified_by": said[:100],
            "occurred_at": "2024-01-01T00:00:00Z",
            "truth_state": "human_confirmed",
            "source": "seed",
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": "2024-01-01T00:00:00Z",
        },
    )
    evidence = dict.fromkeys(FEATURES, 0.5)  # every feature read, five weighed: the numbers' longest line
    parts = {**dict.fromkeys(list(FEATURES)[:5], 0.3), "intercept": -4.4}
    match = RecallMatch(memory=memory, score=0.4, score_components={"lexical": 0.3}, reasons=[said] * 8,
                        relevance=0.1, probability=0.3, tier="weak", evidence=evidence, parts=parts)  # fmt: skip
    message = messages.recall_weak([match], datetime(2026, 1, 1, tzinfo=UTC))
    [button] = [e for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert len(button["value"]) <= messages.WHY_VALUE_CHARS
    assert json.loads(button["value"])["id"] == "INC-9"  # it still opens the memory's why


def test_what_made_a_tier_is_named_when_the_probability_did_not() -> None:
    judgement = load_judgement()
    strong, weak, nothing = judgement.strong_from, judgement.weak_from, judgement.weak_from / 2
    none = (BELOW, None)
    assert judgement.rule_behind(STRONG, strong, 0.0, none) is None  # the probability did
    assert judgement.rule_behind(WEAK, weak, 0.0, none) is None and judgement.rule_behind(BELOW, 0.0, 0.9, none) is None
    # the same alert, or the same error signature with most of the query's evidence, posts a thread
    # whatever the probability (no sure rule); a bare exception name shared by chance does not
    assert rule_of(0.1, {"same_alert": 1.0})[0] == rule_of(SIGNATURE_SURE, {"signature": 1.0})[0] == STRONG
    assert rule_of(0.1, {"same_alert": 0.0, "signature": 0.0})[0] == BELOW
    assert rule_of(SIGNATURE_SURE - 0.01, {"signature": 1.0})[0] == BELOW
    cause = rule_of(0.1, {"cause": CAUSE_SURE})
    assert cause[0] == STRONG and judgement.rule_behind(STRONG, nothing, 0.1, cause) == f"by rule: {cause[1]}"
    assert "half the query's evidence" in str(
        replace(judgement, sure_from=SURE_FLOOR).rule_behind(STRONG, nothing, SURE_FLOOR, none)
    )
    assert "over the floor" in str(judgement.rule_behind(STRONG, nothing, judgement.floor, none))
    assert "closest 3" in str(judgement.rule_behind(WEAK, nothing, 0.0, none))
    service = rule_of(SERVICE_CLOSE, {"same_service": 1.0})
    assert (
        judgement.rule_behind(WEAK, nothing, SERVICE_CLOSE, service) == f"by rule: {service[1]}"
        and "own service" in service[1]
    )
    echoed = rule_of(0.1, {}, {"echo_standout": ECHO_CLOSE})
    assert echoed[0] == WEAK and "names much of its opening" in str(echoed[1])


def test_a_memory_near_a_thread_is_named_on_the_weak_line_whatever_the_weak_model_says() -> None:
    # Judgement.near: the weak model (matched_rare, read anywhere in a memory's text) may say nothing of a memory
    # whose thread probability stops just short of a thread; the responder still sees it named
    judgement = replace(load_judgement(), weak=None)
    strong = judgement.strong_from
    paired = replace(judgement, weak=replace(judgement, weak_from=0.9), near=0.8)
    just_short, far = 0.85 * strong, 0.75 * strong
    assert paired.tiers([just_short, far], [0.0] * 2, None, [0.1, 0.1]) == [WEAK, WEAK]
    assert paired.tiers([far, far], [0.0] * 2, None, [0.1, 0.1]) == [BELOW, BELOW]
    assert replace(paired, near=None).tiers([just_short, far], [0.0] * 2, None, [0.1, 0.1]) == [BELOW, BELOW]
    # the first three only, as the weak line names them; a thread is posted as before
    assert paired.tiers([far, far, far, just_short], [0.0] * 4, None, [0.1] * 4) == [BELOW] * 4
    assert paired.tiers([strong, just_short], [0.0] * 2, None, [0.1, 0.1]) == [STRONG, STRONG]
    # "Why this?" says it was near a thread; a model file keeps `near` for the long and the short model
    said = str(paired.rule_behind(WEAK, just_short, 0.0, (BELOW, None), 0.1))
    assert "near a thread's" in said and f"{strong:.2f}" in said
    assert "closest 3" in str(paired.rule_behind(WEAK, far, 0.0, (BELOW, None), 0.1))
    short = replace(judgement.short, near=0.7)
    kept = Judgement.from_json(replace(paired, short=short).as_json())
    assert (kept.near, kept.short.near, Judgement.from_json(judgement.as_json()).near) == (0.8, 0.7, None)
