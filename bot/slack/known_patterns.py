"""An approved rule that fires on an incident, as the first reply of its recall thread.

- `known_pattern_reply(rule) -> dict`   for chat.postMessage(channel=…, thread_ts=…, **payload)
"""

from __future__ import annotations

from typing import Any

from bot.rules.model import Rule
from bot.slack.limits import check_message
from bot.slack.templating import render

ITEMS_SHOWN = 5
ITEM_CHARS = 300


def replay_line(rule: Rule) -> str:
    r = rule.replay
    if r is None:
        return f"version {rule.version}, not replayed"
    return (
        f"version {rule.version} · replayed {r.ran_at:%Y-%m-%d} on past incidents: fired correctly {len(r.hits)}×, "
        f"on another cause {len(r.false_fires)}×, missed {len(r.misses)}×"
    )


def known_pattern_reply(rule: Rule) -> dict[str, Any]:
    return check_message(
        render(
            "recall_known_pattern.json.j2",
            rule=rule,
            headline=rule.known_pattern_line(),
            checks=rule.checks[:ITEMS_SHOWN],
            checks_more=max(0, len(rule.checks) - ITEMS_SHOWN),
            dead_ends=rule.dead_ends[:ITEMS_SHOWN],
            dead_ends_more=max(0, len(rule.dead_ends) - ITEMS_SHOWN),
            replay_line=replay_line(rule),
            item_chars=ITEM_CHARS,
        )
    )
