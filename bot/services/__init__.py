"""Services: what the Slack handlers (and the demo) ask for. They speak the domain, hold no SQL
and never build Block Kit."""
