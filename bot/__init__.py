"""incident-memory: a Slack bot that gives incident channels a memory."""

__version__ = "0.1.0"
