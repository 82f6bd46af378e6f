"""The recall judgement's features (bot/recall/features.py): each read against the query's whole candidate list,
and each moving the shipped model's probability the way its evidence says."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime

from bot.models import MemoryRecord
from bot.recall.features import FEATURES, HEAD_RARE_CAP, MAX_STRONG, STANDOUT_CAP, TWINS_READ, Context, features_of
from bot.recall.judgement import STRONG, WEAK, Judgement, load_judgement
from bot.recall.signals import Signals


def test_a_team_can_fit_the_same_alert_the_shipped_model_does_not_read() -> None:
    plain = Signals(lexical=0.5, coverage=0.2, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.0)  # fmt: skip
    context = Context(plain, 0.2, 0.2, 0.1, 0.1, 0.0, 0.0, 0.0, 0.0, None)
    alerted = replace(context, signals=replace(plain, same_alert=1.0))
    assert FEATURES["same_alert"](context) == 0.0 and FEATURES["same_alert"](alerted) == 1.0
    assert "same_alert" not in load_judgement().coefficients  # not fitted on the public corpora (BENCHMARKS)
    fitted = Judgement({"same_alert": 4.0}, -3.0, 0.5, 0.2)
    assert fitted.probability({"same_alert": 1.0}) > fitted.strong_from > fitted.probability({"same_alert": 0.0})


def test_two_copies_of_one_incident_stand_out_of_an_empty_bank_as_far_as_one_alone() -> None:
    copy = Signals(lexical=1.0, coverage=0.6, title_overlap=0.6, title_echo=0.5, signature=0.0, concepts=0.0,
                   same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.5)  # fmt: skip
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
    plain = Signals(lexical=1.0, coverage=0.3, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5)  # fmt: skip
    # alone in a bank, each stands out as far as anything can (score_z at the cap)
    [lone] = features_of([replace(plain, head=0.17, lone_word=True)], [1.0])  # "office" in a VPN incident
    [body] = features_of([replace(plain, head=0.0)], [1.0])  # the query's words only in its resolution
    [shared] = features_of([replace(plain, head=0.5)], [1.0])  # half the query in its title and symptoms
    assert lone["score_z"] == body["score_z"] == shared["score_z"] > 0
    assert lone["score_standout"] == body["score_standout"] == 0.0 < shared["score_standout"]
    judgement = load_judgement()
    assert judgement.probability(lone) < judgement.weak_from and judgement.probability(body) < judgement.weak_from
    assert judgement.probability(shared) >= judgement.strong_from


def test_an_opening_holding_more_of_the_querys_rare_words_is_likelier_the_same_failure() -> None:
    plain = Signals(lexical=1.0, coverage=0.5, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.5)  # fmt: skip
    scores = [1.0, 0.4, 0.3]  # the first stands out of two others alike in each list
    # half of a two-line report in the opening either way: two common words, or three rare ones
    [common, *_] = features_of([replace(plain, head_rarity=0.6), plain, plain], scores)
    [rare, *_] = features_of([replace(plain, head_rarity=2.4), plain, plain], scores)
    [pasted, *_] = features_of([replace(plain, head_rarity=40.0), plain, plain], scores)  # a ticket pasted whole
    [lone, *_] = features_of([replace(plain, head_rarity=1.0, lone_word=True), plain, plain], scores)
    assert common["head"] == rare["head"] and common["score_z"] == rare["score_z"]
    assert (common["head_rare"], rare["head_rare"], pasted["head_rare"]) == (0.6, 2.4, HEAD_RARE_CAP)
    assert lone["head_rare"] == 0.0  # one shared word says little however rare it is
    judgement = load_judgement()
    assert judgement.probability(rare) > judgement.probability(common)


def test_a_memory_found_by_meaning_alone_is_strong_when_it_leads_in_meaning_clearly() -> None:
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
                    query_phrases=2.0)  # fmt: skip
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
    plain = Signals(lexical=0.0, coverage=0.0, title_overlap=0.0, title_echo=0.0, signature=0.0, concepts=0.0,
                    same_service=0.0, truth=1.0, recency=1.0, feedback=0.5, head=0.0)  # fmt: skip
    # the best-scoring ten sit close in meaning; forty lexical candidates behind them are unrelated
    cosines = [0.7, *[0.6] * (TWINS_READ - 1), *[0.05] * 40]
    scores = [1.0, *[0.9] * (TWINS_READ - 1), *[0.1] * 40]
    [first, *_] = features_of([replace(plain, similarity=c) for c in cosines], scores)
    # against all fifty the unrelated tail widens the spread (2.4); against the ten shown, 3 deviations
    assert 2.3 < first["meaning_z"] < 2.5 and first["meaning_z_top"] == 3.0


def test_opening_exclusive_weighs_the_querys_words_only_this_memorys_opening_holds() -> None:
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
