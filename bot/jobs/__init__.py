"""Durable work: what a Slack request starts after its acknowledgement runs as a job.

A listener validates, enqueues (within Slack's ack budget) and acknowledges; a worker runs the
job with retries and backoff until it succeeds, its deadline passes or its attempts run out —
then the job's `give_up` tells the person what could not be done. Nothing acknowledged lives
only in memory: a restart, a burst or a database blip delays work, it does not drop it.
"""

from bot.jobs.kinds import JobContext, JobKind, Permanent, job

__all__ = ["JobContext", "JobKind", "Permanent", "job"]
