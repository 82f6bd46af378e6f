"""A person's App Home tab, rendered from a template and checked against Slack's limits for a
Home view (100 blocks; the lists are short, so it fits with room to spare)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.recall.reasons import humanize_age
from bot.services.review import HomeContent
from bot.slack import ids
from bot.slack.limits import check_home
from bot.slack.messages import truth_line
from bot.slack.templating import render


def home_view(content: HomeContent, now: datetime) -> dict[str, Any]:
    memories = [*content.recent, *content.to_review, *(m.memory for m in content.found)]
    return check_home(
        render(
            "home.json.j2",
            ids=ids,
            awaiting=content.awaiting,
            ages={i.incident_id: humanize_age(i.started_at, now) for i in content.awaiting},
            to_review=content.to_review,
            to_review_more=content.to_review_more,
            recent=content.recent,
            query=content.query,
            found=content.found,
            found_weak=content.found_weak,
            recurring=content.recurring,
            truth_lines={m.incident_id: truth_line(m, now) for m in memories},
        )
    )
