"""Incidents that start from alerts: Alertmanager, Grafana, PagerDuty and Opsgenie webhooks.

One module per receiver reads its vendor's payload into the one shape the rest uses
(`model.AlertBatch`); `routes.py` reads ALERT_ROUTES and picks the channel; `web.py` is the HTTP
side beside /slack/events (authenticate, bound, parse, store before the 2xx). What happens in
Slack afterwards (open or join the incident, post, recall, nudge) is a durable job:
bot/handlers/work_alerts.py. Vendor text is data: capped here, escaped in Slack, fenced in prompts.
"""
