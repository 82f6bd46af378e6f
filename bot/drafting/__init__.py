"""Drafting the resolution from the incident's own channel: the offline rules (always there) or
the model (with ANTHROPIC_API_KEY), behind one port (`port.Drafter`); `build.build_drafter`
chooses. Every drafted field quotes the messages it came from (`models`); a person confirms by
submitting, and the memory records what they accepted or changed (`origins`)."""
