"""`incident-memory demo`: the product end to end on the embedded defaults, no Slack, no API key."""

from __future__ import annotations

import json
from importlib import resources

from bot.config import Settings
from bot.memory.database import open_store
from bot.memory.files import draft_from_json
from bot.models import RecallQuery

DEMO_TEAM = "T0DEMO"


def seed_drafts(team_id: str = DEMO_TEAM):  # noqa: ANN201
    raw = json.loads(resources.files("bot").joinpath("data/seed_memories.json").read_text(encoding="utf-8"))
    return [draft_from_json(item, team_id=team_id) for item in raw]


async def run_demo(settings: Settings, *, keep: bool = False) -> int:
    async with open_store(settings) as store:
        print("Seeding past incidents:")
        for draft in seed_drafts():
            outcome = await store.retain(draft)
            print(f"  {outcome.status.value:<9} {draft.incident_id}  {draft.title}")
        title = "Checkout errors return with database timeouts during peak traffic"
        print(f"\nNew incident in #inc-checkout-timeouts: {title}\n")
        matches = await store.recall(RecallQuery(team_id=DEMO_TEAM, title=title, service="payments", limit=3))
        for rank, match in enumerate(matches, start=1):
            m = match.memory
            print(f"{rank}. {m.title}  [{m.truth_state.value}]  score {match.score:.2f}")
            for reason in match.reasons:
                print(f"     · {reason}")
    return 0
