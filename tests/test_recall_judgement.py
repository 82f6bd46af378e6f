"""The recall judgement: fitted coefficients load, leave the ranking alone, and a weak match
reads as one line with a button to open each of the closest memories."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import UTC, datetime

from bot.models import MemoryRecord, RecallMatch
from bot.recall.judgement import (
    BELOW,
    FEATURES,
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


def test_a_team_can_fit_the_same_alert_the_shipped_model_does_not_read() -> None:

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


def test_two_copies_of_one_incident_stand_out_of_an_empty_bank_as_far_as_one_alone() -> None:
    from bot.recall.judgement import features_of
    from bot.recall.signals import Signals

    # a copy holds the query's rarest words: three said by two memories (the copies), as a bank of one counts it
    copy = Signals(lexical=1.0, coverage=0.6, title_overlap=0.6, title_echo=0.5, signature=0.0, concepts=0.0,
                   same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.5, body_rarity=3 * _held_by(2))  # fmt: skip
    opening = frozenset({"payments", "api", "5xx", "database", "pool", "exhausted", "checkout", "timeouts"})
    other = frozenset({"search", "index", "stale", "after", "reindex", "job", "failed"})
    [alone] = features_of([copy], [1.0], [opening])
    seed, twin = features_of([copy, copy], [1.0, 1.0], [opening, opening | {"evening"}])
    rival, _ = features_of([copy, copy], [1.0, 1.0], [opening, other])
    assert seed["score_z"] == twin["score_z"] == alone["score_z"]  # the copy is not a rival it must stand out of
    assert seed["head_standout"] == alone["head_standout"]
    assert rival["score_z"] < alone["score_z"]  # two different incidents alike: neither stands out as far
    judgement = load_judgement()  # as a bank of one, the copies post the thread
    assert judgement.probability(seed) == judgement.probability(alone) >= judgement.strong_from


def test_standing_out_of_an_empty_bank_counts_only_once_the_opening_shares_two_words() -> None:
    from bot.recall.judgement import features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=1.0, coverage=0.3, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5)  # fmt: skip
    # alone in a bank, each stands out as far as anything can (score_z at the cap); body_rarity: the query's words
    # it holds anywhere, each said by one memory (itself), the rarest three counted
    [lone] = features_of([replace(plain, head=0.17, lone_word=True, body_rarity=_held_by(1))], [1.0])  # "office"
    [body] = features_of([replace(plain, head=0.0, body_rarity=2 * _held_by(1))], [1.0])  # words only in its fix
    [shared] = features_of([replace(plain, head=0.5, body_rarity=3 * _held_by(1))], [1.0])  # half in its opening
    assert lone["score_z"] == body["score_z"] == shared["score_z"] > 0
    assert lone["score_standout"] == body["score_standout"] == 0.0 < shared["score_standout"]
    judgement = load_judgement()
    assert judgement.probability(lone) < judgement.weak_from and judgement.probability(body) < judgement.weak_from
    assert judgement.probability(shared) >= judgement.strong_from
    # three of the query's words in its body alone post nothing either: no thread, and the weak line's model
    # (which reads no body_rare) keeps it off the line
    [deep] = features_of([replace(plain, head=0.0, body_rarity=3 * _held_by(1))], [1.0])
    p, weak = judgement.probability(deep), judgement.weak.probability(deep)
    assert judgement.tiers([p], [0.3], weak=[weak]) == ["below"]


def _held_by(memories: int) -> float:
    """A query term's idf, in terms no memory holds, when `memories` of a small bank hold it (Signals.body_rarity)."""
    from bot.recall.candidates import JUDGED_BANK_SIZE, bm25_idf

    return bm25_idf(JUDGED_BANK_SIZE, memories) / bm25_idf(JUDGED_BANK_SIZE, 0)


def test_an_opening_holding_more_of_the_querys_rare_words_is_likelier_the_same_failure() -> None:
    from bot.recall.judgement import HEAD_RARE_CAP, features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=1.0, coverage=0.5, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.5)  # fmt: skip
    scores = [1.0, 0.4, 0.3]  # the first stands out of two others alike in each list
    # half of a two-line report in the opening either way: two common words, or three rare ones
    # (what its opening holds it holds anywhere: body_rarity at least as much, in the same unit)
    [common, *_] = features_of([replace(plain, head_rarity=0.6, body_rarity=0.6), plain, plain], scores)
    [rare, *_] = features_of([replace(plain, head_rarity=2.4, body_rarity=2.4), plain, plain], scores)
    [pasted, *_] = features_of([replace(plain, head_rarity=40.0), plain, plain], scores)  # a ticket pasted whole
    [lone, *_] = features_of([replace(plain, head_rarity=1.0, lone_word=True), plain, plain], scores)
    assert common["head"] == rare["head"] and common["score_z"] == rare["score_z"]
    assert (common["head_rare"], rare["head_rare"], pasted["head_rare"]) == (0.6, 2.4, HEAD_RARE_CAP)
    assert lone["head_rare"] == 0.0  # one shared word says little however rare it is
    judgement = load_judgement()
    assert judgement.probability(rare) > judgement.probability(common)


def test_a_memory_found_by_meaning_alone_is_strong_when_it_leads_in_meaning_clearly() -> None:
    from bot.recall.judgement import features_of
    from bot.recall.signals import Signals

    # no word of the query in the memory's opening (head 0): only its closeness in meaning speaks
    plain = Signals(lexical=0.0, coverage=0.0, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.0)  # fmt: skip

    def meaning(whole: float, opening: float) -> Signals:  # the whole text's cosine, the opening's
        return replace(plain, similarity=whole, opening_similarity=opening)

    others = [meaning(0.15, 0.15), meaning(0.1, 0.1)]  # unrelated, as cosines go
    [paraphrase, *_] = features_of([meaning(0.9, 0.9), *others], [0.9, 0.15, 0.1])
    [related, *_] = features_of([meaning(0.35, 0.35), *others], [0.35, 0.15, 0.1])
    assert paraphrase["head_standout"] == paraphrase["score_standout"] == 0.0 < paraphrase["meaning_lead"]
    judgement = load_judgement()
    semantic = judgement.for_query(True, math.inf)
    assert semantic.probability(paraphrase) >= semantic.strong_from  # issue 27: strong by meaning alone
    assert semantic.probability(related) < semantic.weak_from  # a loose likeness is not
    assert judgement.probability(paraphrase) < judgement.weak_from  # the lexical model cannot see it
    # the opening says it (a first report's symptoms are a postmortem's opening), not the body alone
    [body_only, *_] = features_of([meaning(0.9, 0.15), *others], [0.9, 0.15, 0.1])
    assert semantic.probability(body_only) < semantic.strong_from


def test_a_short_query_saying_the_memorys_words_together_is_likelier_than_one_saying_them_apart() -> None:
    from bot.recall.judgement import Judgement, features_of
    from bot.recall.signals import Signals

    judgement = load_judgement()
    short, until = judgement.short, judgement.short_until
    assert short is not None and until is not None and "phrase_share" in short.coefficients
    assert "phrase_share" not in judgement.coefficients  # a pasted ticket shares phrases with every neighbour
    # a first report is judged by the short model, a ticket pasted whole by the other, meaning by its own
    assert judgement.for_query(False, until) is short and judgement.for_query(False, until + 0.1) is judgement
    assert judgement.for_query(True, 0.0) is judgement.semantic
    assert Judgement.from_json(judgement.as_json()) == judgement
    assert judgement.with_floor(0.4).for_query(False, 0.0).floor == 0.4
    plain = Signals(lexical=1.0, coverage=0.5, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.4, head_rarity=1.2,
                    body_rarity=1.2, query_phrases=2.0)  # fmt: skip
    scores = [1.0, 0.8, 0.7]
    # "cluster launches disrupted" said in a status entry, or its words scattered over a neighbour's
    [together, *_] = features_of([replace(plain, phrase_share=0.6), plain, plain], scores)
    [apart, *_] = features_of([plain, plain, plain], scores)
    model = judgement.for_query(False, together["query_phrases"])
    assert model is short and model.probability(together) > model.probability(apart)
    # said together: the thread; the same words said apart: one line naming it (the responder decides)
    assert short.tiers([model.probability(together)], [0.2]) == [STRONG]
    assert short.tiers([model.probability(apart)], [0.2]) == [WEAK]


def test_meaning_z_says_how_far_a_cosine_stands_out_of_the_candidates_cosines() -> None:
    from statistics import fmean, pstdev

    from bot.recall.judgement import STANDOUT_CAP, features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=0.0, coverage=0.0, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.0)  # fmt: skip
    cosines = [0.8, 0.3, 0.25, 0.2]
    found = features_of([replace(plain, similarity=c) for c in cosines], [1.0, 0.5, 0.4, 0.3])
    expected = [(c - fmean(cosines)) / pstdev(cosines) for c in cosines]
    assert [f["meaning_z"] for f in found] == [round(min(STANDOUT_CAP, e), 4) for e in expected]
    # one far ahead of a crowd stands out more than the same lead over one runner-up
    crowd = [0.8, *[0.3] * 9]
    [ahead, *_] = features_of([replace(plain, similarity=c) for c in crowd], [1.0] + [0.5] * 9)
    assert ahead["meaning_z"] > found[0]["meaning_z"] and ahead["meaning_lead"] == found[0]["meaning_lead"]
    # without meaning (semantic recall off), or a lone cosine: nothing to stand out of
    assert [f["meaning_z"] for f in features_of([plain, plain], [1.0, 0.5])] == [0.0, 0.0]
    assert features_of([replace(plain, similarity=0.9), plain], [1.0, 0.5])[0]["meaning_z"] == 0.0


def test_meaning_z_top_reads_a_cosine_against_the_shown_candidates_not_the_long_tail() -> None:
    from bot.recall.judgement import TWINS_READ, features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=0.0, coverage=0.0, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.0)  # fmt: skip
    # the best-scoring ten sit close in meaning; forty lexical candidates behind them are unrelated
    cosines = [0.7, *[0.6] * (TWINS_READ - 1), *[0.05] * 40]
    scores = [1.0, *[0.9] * (TWINS_READ - 1), *[0.1] * 40]
    [first, *_] = features_of([replace(plain, similarity=c) for c in cosines], scores)
    # against all fifty the unrelated tail widens the spread (2.4); against the ten shown, 3 deviations
    assert 2.3 < first["meaning_z"] < 2.5 and first["meaning_z_top"] == 3.0


def test_opening_exclusive_weighs_the_querys_words_only_this_memorys_opening_holds() -> None:
    from bot.recall.judgement import HEAD_RARE_CAP, features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=1.0, coverage=0.5, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.5)  # fmt: skip
    # "checkout 5xx after the kafka consumer lag": every neighbour says checkout and 5xx, one says kafka and lag
    right = replace(plain, head_found=(("5xx", 0.3), ("checkout", 0.2), ("kafka", 1.0), ("lag", 0.8)))
    near = replace(plain, head_found=(("5xx", 0.3), ("checkout", 0.2)))
    scores = [1.0, 0.8, 0.7]
    openings = [frozenset({"checkout", "5xx", "kafka", "lag"}), frozenset({"checkout", "5xx"}), frozenset({"5xx"})]
    found = features_of([right, near, replace(near, head_found=(("5xx", 0.3),))], scores, openings)
    assert [f["opening_exclusive"] for f in found] == [1.8, 0.0, 0.0]
    # a second copy of the same incident (a re-import) is no neighbour: the two read as the one alone
    [alone] = features_of([right], [1.0], openings[:1])
    [first, copy] = features_of([right, right], [1.0, 1.0], [openings[0], openings[0] | {"evening"}])
    assert first["opening_exclusive"] == copy["opening_exclusive"] == alone["opening_exclusive"] == 2.3
    # a pasted ticket's dozens of rare words count no more than head_rare does; one shared word says little
    many = replace(right, head_found=tuple((f"t{i}", 1.0) for i in range(20)))
    assert features_of([many, near], [1.0, 0.5])[0]["opening_exclusive"] == HEAD_RARE_CAP
    assert features_of([replace(right, lone_word=True), near], [1.0, 0.5])[0]["opening_exclusive"] == 0.0


def test_views_first_counts_the_views_of_the_candidate_list_that_agree_on_a_memory() -> None:
    from bot.recall.judgement import features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=1.0, coverage=0.5, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5)  # fmt: skip
    agreed = replace(plain, head=0.6, head_rarity=2.0, phrase_share=0.5)  # first on its opening, rare words, phrases
    phrases = replace(plain, head=0.3, head_rarity=1.0, phrase_share=0.5)  # says the same phrases, little else
    nothing = replace(plain, head=0.1, head_rarity=0.2)
    assert [f["views_first"] for f in features_of([agreed, phrases, nothing], [1.0, 0.9, 0.5])] == [1.0, 0.3333, 0.0]
    assert features_of([replace(agreed, lone_word=True), nothing], [1.0, 0.5])[0]["views_first"] == 0.0
    # measured, not shipped (docs/BENCHMARKS.md): no model reads them, so no tier moves
    judgement = load_judgement()
    for model in (judgement, judgement.short, judgement.semantic):
        assert model is not None and not {"opening_exclusive", "views_first"} & set(model.coefficients)


def test_meaning_head_lead_reads_the_openings_cosine_against_the_best_other_of_the_shown_five() -> None:
    from bot.recall.judgement import MAX_STRONG, features_of
    from bot.recall.signals import Signals

    plain = Signals(lexical=0.0, coverage=0.0, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.0, similarity=0.3)  # fmt: skip
    # the first report's symptoms are the first memory's opening; a low-scoring tail says them too
    openings = [0.8, 0.5, *[0.4] * (MAX_STRONG - 2), 0.9]
    scores = [1.0, 0.9, *[0.8] * (MAX_STRONG - 2), 0.1]
    found = features_of([replace(plain, opening_similarity=o) for o in openings], scores)
    assert [f["meaning_head"] for f in found[:2]] == [0.8, 0.5]
    # read against the shown five, not the tail: 0.8 - 0.5, and the others against 0.8
    assert found[0]["meaning_head_lead"] == 0.3 and found[1]["meaning_head_lead"] == -0.3
    assert found[-1]["meaning_head_lead"] == 0.1
    # alone, its lead is its cosine (as meaning_lead's); semantic recall off or no opening yet: 0
    assert features_of([replace(plain, opening_similarity=0.7)], [1.0])[0]["meaning_head_lead"] == 0.7
    assert [f["meaning_head_lead"] for f in features_of([plain, plain], [1.0, 0.5])] == [0.0, 0.0]


def test_matched_rare_is_the_rarest_of_the_querys_words_a_memory_holds_wherever_it_says_it() -> None:
    from bot.models import RecallQuery
    from bot.recall.candidates import Candidate
    from bot.recall.judgement import features_of
    from bot.recall.signals import measure
    from bot.recall.tokens import tokenize

    at = datetime(2026, 1, 1, tzinfo=UTC)

    def memory(incident_id: str, **fields: str) -> MemoryRecord:
        return MemoryRecord(incident_id=incident_id, team_id="T1", created_at=at, updated_at=at, **fields)

    # "Radiation" is a code-name one write-up says, in its body; "email" and "slow" every neighbour says
    query = RecallQuery(team_id="T1", text="Radiation email responses slow")
    radiation, email, slow = (tokenize(word)[0] for word in ("Radiation", "email", "slow"))
    idf = {radiation: 4.6, email: 1.5, slow: 1.0, tokenize("responses")[0]: 2.0}  # 4.6: a term no memory holds

    def candidate(record: MemoryRecord, lexical: float, *matched: str) -> Candidate:
        return Candidate(record, lexical, matched, query_idf=idf, rarest_idf=4.6)

    named = memory("INC-1", title="Diagnosing our problems", symptoms="Email was slow.",
                   root_cause="The Radiation service ran out of workers.")  # fmt: skip
    neighbour = memory("INC-2", title="Slow email delivery", symptoms="Email responses were slow.")
    found = measure(query, [candidate(named, 1.0, radiation, email, slow), candidate(neighbour, 0.9, email, slow)], at)
    assert [s.matched_rarity for s in found] == [1.0, 1.5 / 4.6]
    # the opening alone would not tell them apart: the name is in the first one's root cause only
    assert radiation not in {t for t, _ in found[0].head_found}
    features = features_of(found, [1.0, 0.9])
    assert [f["matched_rare"] for f in features] == [1.0, round(1.5 / 4.6, 4)]
    assert measure(query, [candidate(neighbour, 0.9)], at)[0].matched_rarity == 0.0  # nothing matched
