"""Block Kit for everything the bot sends: templates → parse → Slack's limits → a dict to send.

Only this package builds Block Kit; handlers call these functions and send what they return.

Messages (`bot.slack.messages`, each a dict for chat.postMessage / chat.update):
    recall_parent(incident_title, matches, conflict_services, *, incident_ref=None)
    recall_reply(match, now, conflict=())          conflict: ids of disagreeing memories
    conflicting_ids(match, conflict_services)      → the `conflict` for recall_reply
    memory_detail(memory, now=None)                /incident show ID
    help_message(channel_pattern="^inc-")
    resolution_confirmation(memory, now=None, *, by=None)
    resolution_differs(incident_id, fields=())
    investigating_placeholder(incident_title=None)
    notice(text, *, emoji="")

Investigation (`bot.slack.investigation`):
    investigation_message(investigation, incident_title=None)   replaces the placeholder

Modals (`bot.slack.modals`, each a view dict for views.open / views.update / response_action):
    declare_modal(*, context=None, values=None, error=None)
    resolution_modal(incident_title, *, context=None, values=None, error=None)
    correction_modal(incident_id, memory_title, *, context=None, values=None, error=None)
    reject_modal(incident_id, memory_title, *, context=None, values=None, error=None)
    prefilled_modal(submitted_view, error)         same modal, typed values kept, error shown
    read_metadata(view)                            the `context` given when it was opened

Submissions (`bot.slack.submissions`): DeclareSubmission, ResolutionSubmission,
    CorrectionSubmission, RejectSubmission — `.from_view_state(view["state"]["values"])`,
    `.block_errors(validation_error)` → {block_id: message} for `response_action: errors`.

Ids (`bot.slack.ids`): action_ids, callback_ids, block_ids shared by templates and handlers.
Lower layers: `escape` (mrkdwn escaping, safe cuts), `templating` (jinja2 → JSON),
`limits` (check_message, check_modal, SlackLimitError), `terminal` (the demo's view).
"""
