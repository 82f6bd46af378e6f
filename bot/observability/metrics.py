"""Prometheus metrics, one registry per app (tests run several apps in one process).

Names (all prefixed `incident_memory_`):

| metric | type | labels | what |
|---|---|---|---|
| events_received_total | counter | type, event | signed requests on /slack/events: envelope type (event_callback, slash_command, block_actions, view_submission, …) and event type or command |
| gate_refused_total | counter | reason | requests on /slack/events the gate stopped before Bolt: stale, unsigned, too_large, forged, malformed, replayed |
| events_deduplicated_total | counter | | message events the incident store had already seen (Slack retries, repeats) and dropped |
| ack_latency_seconds | histogram | type | time to compute the response to Slack's request (Slack allows 3 s) |
| recall_latency_seconds | histogram | kind | recall for an incident or for free text |
| investigation_latency_seconds | histogram | investigator | an investigation, by who answered (anthropic, offline) |
| investigation_fallbacks_total | counter | reason | the model was configured but the offline investigator answered |
| model_tokens_total | counter | model, direction | tokens the model read (input) and wrote (output) |
| guard_tokens_total | counter | model, direction | tokens the guard's second opinion (a small model) read and wrote |
| guard_second_opinions_total | counter | outcome | investigations whose guard asked a second opinion: ok, or unavailable (the rules decided alone) |
| slack_api_errors_total | counter | method, error | Web API answers with ok=false (other than 429), and failed connections |
| slack_api_rate_limited_total | counter | method | HTTP 429 answers, the ones retried included |
| store_errors_total | counter | store, operation | database failures (not conflicts or not-found, which are answers) |
| embeddings_latency_seconds | histogram | use | calls to the embeddings endpoint: a recall's query, or memories being embedded |
| recall_semantic_fallbacks_total | counter | reason | semantic recall on, but this recall was lexical only (down, timeout, refused, bad_answer, cooling_down) |
| memories_embedded_total | counter | | memories whose vectors were computed (after retain, at start, by `embed`) |

`serve` runs work in other processes (its job workers; process pools): `metrics_across_processes`
puts every process's series in one folder (prometheus_client's multiprocess mode) and serve's
/metrics reads them all. A Gauge added here must name its `multiprocess_mode` (e.g. "livesum").
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Histogram, Metric, multiprocess, values
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's own setting; children inherit it

PREFIX = "incident_memory"
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
WORK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

_LABEL_VALUE = re.compile(r"^[A-Za-z0-9_./:-]{1,64}$")


def label(value: object, *, default: str = "") -> str:
    """A label value from outside (a request, an API answer): short and plain, else "other"."""
    if value is None or value == "":
        return default
    text = str(value)
    return text if _LABEL_VALUE.match(text) else "other"


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry(auto_describe=True)
        r = self.registry
        self.events_received = Counter(
            f"{PREFIX}_events_received", "Signed requests received on /slack/events", ["type", "event"], registry=r
        )
        self.gate_refused = Counter(
            f"{PREFIX}_gate_refused",
            "Requests on /slack/events the gate stopped before Bolt, by reason",
            ["reason"],
            registry=r,
        )
        self.events_deduplicated = Counter(
            f"{PREFIX}_events_deduplicated", "Message events already seen (Slack retries, repeats), dropped", registry=r
        )
        self.ack_latency = Histogram(
            f"{PREFIX}_ack_latency_seconds", "Time to compute the response to a Slack request", ["type"],
            buckets=ACK_BUCKETS, registry=r,
        )  # fmt: skip
        self.recall_latency = Histogram(
            f"{PREFIX}_recall_latency_seconds", "Recall latency", ["kind"], buckets=WORK_BUCKETS, registry=r
        )
        self.investigation_latency = Histogram(
            f"{PREFIX}_investigation_latency_seconds", "Investigation latency, by who answered", ["investigator"],
            buckets=WORK_BUCKETS, registry=r,
        )  # fmt: skip
        self.investigation_fallbacks = Counter(
            f"{PREFIX}_investigation_fallbacks", "Model investigations answered offline instead", ["reason"], registry=r
        )
        self.model_tokens = Counter(f"{PREFIX}_model_tokens", "Model tokens used", ["model", "direction"], registry=r)
        self.guard_tokens = Counter(
            f"{PREFIX}_guard_tokens", "Tokens of the guard's second opinion", ["model", "direction"], registry=r
        )
        self.guard_second_opinions = Counter(
            f"{PREFIX}_guard_second_opinions",
            "Second opinions the guard asked for, by outcome",
            ["outcome"],
            registry=r,
        )
        self.slack_api_errors = Counter(
            f"{PREFIX}_slack_api_errors", "Slack Web API errors (ok=false other than 429; connection failures)",
            ["method", "error"], registry=r,
        )  # fmt: skip
        self.slack_api_rate_limited = Counter(
            f"{PREFIX}_slack_api_rate_limited", "Slack Web API HTTP 429 answers, retried ones included", ["method"],
            registry=r,
        )  # fmt: skip
        self.store_errors = Counter(
            f"{PREFIX}_store_errors", "Database failures at the store boundary", ["store", "operation"], registry=r
        )
        self.jobs = Counter(
            f"{PREFIX}_jobs", "Job attempts by outcome (done, retried, gave_up, requeued, dropped)", ["kind", "outcome"],
            registry=r,
        )  # fmt: skip
        self.requests_refused = Counter(
            f"{PREFIX}_requests_refused", "Slack requests answered with an error so that Slack sends them again",
            ["reason"], registry=r,
        )  # fmt: skip

        self.embeddings_latency = Histogram(
            f"{PREFIX}_embeddings_latency_seconds",
            "Embeddings endpoint calls",
            ["use"],
            buckets=ACK_BUCKETS,
            registry=r,
        )
        self.recall_semantic_fallbacks = Counter(
            f"{PREFIX}_recall_semantic_fallbacks", "Recalls answered lexically although semantic recall is on",
            ["reason"], registry=r,
        )  # fmt: skip
        self.memories_embedded = Counter(
            f"{PREFIX}_memories_embedded", "Memories whose vectors were computed", registry=r
        )
        self.alerts_received = Counter(
            f"{PREFIX}_alerts_received", "Alert webhook requests by source and answer (stored, repeat, ignored, "
            "unauthorized, too_large, malformed, not_stored)", ["source", "outcome"], registry=r,
        )  # fmt: skip
        self.alerts_handled = Counter(
            f"{PREFIX}_alerts_handled", "Stored alert deliveries by what came of them (opened, joined, unrouted, …)",
            ["source", "outcome"], registry=r,
        )  # fmt: skip

    @contextmanager
    def timed(self, histogram: Histogram, **labels: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            histogram.labels(**labels).observe(time.perf_counter() - start)

    def exposition(self) -> tuple[bytes, str]:
        """The registry in Prometheus' text format, and its content type; across processes, the
        series of every process that wrote to the shared folder (this one included)."""
        folder = os.environ.get(MULTIPROCESS_DIR)
        if not folder:
            return generate_latest(self.registry), CONTENT_TYPE_LATEST
        merged = CollectorRegistry()
        merged.register(_EveryProcess(folder, self.registry))
        return generate_latest(merged), CONTENT_TYPE_LATEST


class _EveryProcess:
    """The series every process wrote to the folder, and this app's metrics that none has a value
    for yet, listed empty (as a single process lists them)."""

    def __init__(self, folder: str, own: CollectorRegistry) -> None:
        self._written = multiprocess.MultiProcessCollector(None, path=folder)
        self._own = own

    def collect(self) -> Iterator[Metric]:
        written = list(self._written.collect())
        yield from written
        seen = {family.name for family in written}
        for family in self._own.collect():
            if family.name not in seen:
                family.samples = []
                yield family


@contextmanager
def metrics_across_processes() -> Iterator[None]:
    """Every process started inside the block (and this one) writes its series into one folder
    that /metrics reads: a fresh temporary one, removed at the end, unless the operator set
    PROMETHEUS_MULTIPROC_DIR. Enter it before the first Metrics() and the first child process."""
    given = os.environ.get(MULTIPROCESS_DIR)
    folder = given or tempfile.mkdtemp(prefix="incident-memory-metrics-")
    os.environ[MULTIPROCESS_DIR] = folder
    # prometheus_client picks how a value is kept when it is imported, which was before this:
    # pick again (metrics made from now on live in the folder)
    values.ValueClass = values.get_value_class()
    try:
        yield
    finally:
        if not given:
            os.environ.pop(MULTIPROCESS_DIR, None)
            values.ValueClass = values.get_value_class()
            shutil.rmtree(folder, ignore_errors=True)


def process_exited(pid: int) -> None:
    """A child process that wrote metrics has exited: its live gauges stop counting (its
    counters and histograms stay in the totals)."""
    if folder := os.environ.get(MULTIPROCESS_DIR):
        multiprocess.mark_process_dead(pid, folder)
