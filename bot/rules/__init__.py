"""From verified pattern to reviewed rule.

Confirmed episodes that recur by mechanism and remediation become rule proposals (patterns.py);
a rule is a YAML file the team keeps in git (files.py, schema in model.py), replayed against
history (matching.py) and used by the bot only once a person has reviewed and approved it at
its current version. A rule is context for what to check, never a verdict.
"""
