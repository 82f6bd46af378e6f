"""The guard holds however a claim is worded: the adversarial set (eval/guard/adversarial.jsonl),
played end to end through the fake Messages API and the real AsyncAnthropic client."""

from __future__ import annotations

import re

from bot.investigation.claims import FIELD_GROUPS
from tests.guard_play import EVAL, load_cases, load_scenario, play

CASES = load_cases(EVAL / "adversarial.jsonl")
CLAIMS = [c for c in CASES if c.kind == "claim"]
LEGIT = [c for c in CASES if c.kind == "legit"]


def test_the_set_is_reworded_claims_in_every_field_mixed_with_legitimate_sentences() -> None:
    assert len(CLAIMS) >= 30 and len(LEGIT) >= 20
    fields = set(FIELD_GROUPS) - {"current_summary"} | {"hypotheses.current_evidence"}
    assert {c.field for c in CLAIMS} == fields and {c.field for c in LEGIT} == fields
    ids = [m.memory.incident_id for m in load_scenario().memories]
    for claim in CLAIMS:
        assert not re.search(r"\b[A-Z]{2,}-\d{3,}", claim.text), claim.id  # no incident ids: the claim is in the words
        assert not any(i in claim.text for i in ids), claim.id
    # the past cause appears both verbatim and paraphrased
    cause = load_scenario().memories[0].memory.root_cause or ""
    assert any(c.text.split(".")[0] in cause for c in CLAIMS)


async def test_every_claim_is_refused_or_repaired_and_the_legitimate_sentences_survive() -> None:
    outcome = await play(CASES)
    assert outcome.misses == [], f"claims that reached the answer: {outcome.misses}"
    assert outcome.lost == [], f"legitimate sentences lost: {outcome.lost}"
    assert outcome.claims == len(CLAIMS) and outcome.refused > 0 and outcome.repaired > 0
    assert outcome.classifications > 0  # the second opinion was asked along the way
