"""What `serve` does every hour: forget what only took space (Slack event ids, old effects, and
with TIMELINE_RETENTION_DAYS the channel messages of incidents resolved long ago)."""

from __future__ import annotations

import logging

from bot.services.container import Services

log = logging.getLogger(__name__)

# Slack retries an event for minutes, not days: older event ids only take space.
EVENT_IDS_KEPT_HOURS = 24.0
EFFECTS_KEPT_HOURS = 7 * 24.0


async def run_housekeeping(services: Services, every_s: float = 3600.0) -> None:
    """Hourly housekeeping: Slack event ids past Slack's retries, and — with
    TIMELINE_RETENTION_DAYS set — the channel messages of incidents resolved long ago."""
    import asyncio

    retention = services.settings.timeline_retention_days
    while True:
        try:
            pruned = await services.incidents.prune_events(EVENT_IDS_KEPT_HOURS)
            if pruned:
                log.info("forgot %d Slack event ids older than %.0f h", pruned, EVENT_IDS_KEPT_HOURS)
            # a job reruns within its deadline (hours at most): older effects only take space; kept
            # forms hold message text, so they go with the retention when it is shorter
            await services.effects.prune(min(EFFECTS_KEPT_HOURS, retention * 24.0) if retention else EFFECTS_KEPT_HOURS)
            if retention:
                messages = await services.incidents.prune_timelines(retention)  # marks and drafts too
                if messages:
                    log.info("deleted %d channel messages of incidents resolved over %g days ago", messages, retention)
        except Exception:  # noqa: BLE001 - try again next hour; nothing depends on it
            log.warning("housekeeping failed", exc_info=True)
        await asyncio.sleep(every_s)
