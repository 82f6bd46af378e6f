"""The guard against reworded claims: refused-or-repaired rate and legitimate-survival rate.

Plays eval/guard/adversarial.jsonl (tuned on) and eval/guard/heldout.jsonl (written before the
rules, never tuned on) end to end: a stand-in model answers through the tool schema over real
HTTP (tests/fakes/anthropic_api.py) to the real AsyncAnthropic client, and the guard decides what
would be posted (tests/guard_play.py says how a case is played and scored).

The second opinion is configured but its stand-in never flags anything, so the figures are the
rules' alone: a real small model can only add refusals. Written by us, so this is a behaviour
check, not a measure on real material.

    .venv/bin/python bench/guard_adversarial.py
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time

from bot.config import PROJECT_ROOT

sys.path.insert(0, str(PROJECT_ROOT))  # tests/ holds the fake Messages API and the player

from tests.guard_play import EVAL, load_cases, play  # noqa: E402


async def main() -> None:
    logging.basicConfig(level=logging.ERROR)  # each refusal's fallback is logged as a warning: expected here
    for name in ("adversarial.jsonl", "heldout.jsonl"):
        cases = load_cases(EVAL / name)
        start = time.perf_counter()
        outcome = await play(cases)
        seconds = time.perf_counter() - start
        print(f"{name}: {outcome.claims} claims, {sum(c.kind == 'legit' for c in cases)} legitimate sentences")
        print(
            f"  refused or repaired: {outcome.claims_stopped}/{outcome.claims} = {outcome.stopped_rate:.1%}"
            f" (refused {outcome.refused}, repaired {outcome.repaired})"
        )
        print(f"  legitimate survival: {outcome.legit_survived}/{outcome.legit} = {outcome.survival_rate:.1%}")
        print(f"  claims that stood: {', '.join(outcome.misses) or 'none'}")
        lost = sorted({x.split(" ")[0] for x in outcome.lost})
        print(f"  legitimate sentences lost: {', '.join(lost) or 'none'} ({len(outcome.lost)} times)")
        print(
            f"  {outcome.claims * 2 + 1} investigations, {outcome.classifications} second-opinion calls, {seconds:.1f} s"
        )


if __name__ == "__main__":
    asyncio.run(main())
