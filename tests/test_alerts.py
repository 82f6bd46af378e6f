"""The alert receivers' pure parts on each vendor's documented payload (tests/fixtures/alerts):
what is read, what makes two deliveries the same, what is bounded, what a routing file may say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.alerts import alertmanager, grafana, opsgenie, pagerduty
from bot.alerts.model import MAX_ALERTS, MAX_LABEL_CHARS, Malformed, Status
from bot.alerts.routes import alert_routes, load_routes
from bot.config import ConfigurationError, Settings
from bot.sandbox.alerts import pagerduty_signature

FIXTURES = Path(__file__).parent / "fixtures" / "alerts"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def test_alertmanager_reads_the_group_and_a_resend_is_the_same_delivery() -> None:
    batch = alertmanager.parse(fixture("alertmanager_firing.json"))
    assert batch.status is Status.FIRING and len(batch.alerts) == 1
    alert = batch.alerts[0]
    assert (alert.key, alert.name, alert.labels["severity"]) == ("1a30ba71cca2921f", "ProbeFailure", "critical")
    assert alert.ends_at is None and alert.starts_at is not None  # Go's zero time: not ended
    assert alertmanager.parse(fixture("alertmanager_firing.json")).dedupe_key == batch.dedupe_key
    resolved = alertmanager.parse(fixture("alertmanager_resolved.json"))
    assert resolved.dedupe_key != batch.dedupe_key and resolved.alerts[0].ends_at is not None
    grown = fixture("alertmanager_firing.json")
    grown["alerts"].append({**grown["alerts"][0], "fingerprint": "ffff0000ffff0000"})
    assert alertmanager.parse(grown).dedupe_key != batch.dedupe_key  # one more alert firing: news


def test_grafana_reads_two_alerts_and_routes_on_the_common_labels() -> None:
    batch = grafana.parse(fixture("grafana_firing.json"))
    assert [a.name for a in batch.alerts] == ["High memory usage", "High CPU usage"]
    assert batch.labels() == {"team": "blue"}
    assert batch.alerts[0].annotations["runbook_url"] == "https://myrunbook.com/runbook/1234"


def test_pagerduty_triggered_and_resolved_and_other_events_ignored() -> None:
    fired = pagerduty.parse(fixture("pagerduty_triggered.json"))
    assert fired is not None and fired.status is Status.FIRING
    assert fired.dedupe_key == "5ac64822-4adc-4fda-ade0-410becf0de4f"
    assert fired.alerts[0].labels["service"] == "API Service" and fired.alerts[0].labels["severity"] == "P1"
    resolved = pagerduty.parse(fixture("pagerduty_resolved.json"))
    assert resolved is not None and resolved.alerts[0].key == fired.alerts[0].key  # the same incident
    acknowledged = fixture("pagerduty_triggered.json")
    acknowledged["event"]["event_type"] = "incident.acknowledged"
    assert pagerduty.parse(acknowledged) is None


def test_a_pagerduty_signature_may_carry_several_v1_values_and_one_must_match() -> None:
    raw = (FIXTURES / "pagerduty_triggered.json").read_bytes()
    assert pagerduty.signed(raw, pagerduty_signature(raw, "old", "new"), "new")
    assert pagerduty.signed(raw, pagerduty_signature(raw, "new"), "new")
    assert not pagerduty.signed(raw, pagerduty_signature(raw, "old"), "new")
    assert not pagerduty.signed(raw + b"\n", pagerduty_signature(raw, "new"), "new")  # the raw body is signed
    assert not pagerduty.signed(raw, "", "new") and not pagerduty.signed(raw, pagerduty_signature(raw, ""), "")


def test_opsgenie_create_and_close_are_two_deliveries_of_one_alert() -> None:
    created, closed = opsgenie.parse(fixture("opsgenie_create.json")), opsgenie.parse(fixture("opsgenie_close.json"))
    assert created is not None and closed is not None
    assert created.alerts[0].key == closed.alerts[0].key and created.dedupe_key != closed.dedupe_key
    assert created.alerts[0].name == "test alert" and created.alerts[0].labels["tags"] == "tag1, tag2"
    assert created.alerts[0].starts_at is not None and closed.alerts[0].ends_at is not None  # ms and ns epochs
    assert opsgenie.parse({**fixture("opsgenie_create.json"), "action": "Acknowledge"}) is None


@pytest.mark.parametrize(
    ("module", "body"),
    [(alertmanager, []), (alertmanager, {"status": "firing", "alerts": []}), (alertmanager, {"status": "up"}),
     (pagerduty, {"event": {"id": "x"}}), (opsgenie, {"action": "Create"})],
)  # fmt: skip
def test_a_body_that_is_not_the_vendor_s_is_malformed_saying_what_is_missing(module, body) -> None:  # noqa: ANN001
    with pytest.raises(Malformed):
        module.parse(body)


def test_what_a_sender_sends_is_bounded() -> None:
    flood = fixture("alertmanager_firing.json")
    one = flood["alerts"][0]
    one["labels"] = {**one["labels"], **{f"l{i}": "v" * 10_000 for i in range(200)}}
    flood["alerts"] = [{**one, "fingerprint": f"{i:016x}"} for i in range(MAX_ALERTS + 50)]
    batch = alertmanager.parse(flood)
    assert len(batch.alerts) == MAX_ALERTS and batch.truncated == 50
    assert len(batch.alerts[0].labels) <= 40
    assert max(len(v) for v in batch.alerts[0].labels.values()) <= MAX_LABEL_CHARS


def test_a_routing_file_that_cannot_work_is_one_line_naming_the_setting_and_the_place(tmp_path: Path) -> None:
    routes = tmp_path / "routes.yml"
    routes.write_text("routes:\n  - match: {service: checkout}\n")
    with pytest.raises(ConfigurationError, match=r"ALERT_ROUTES=.*routes\.0: a route needs a channel"):
        load_routes(routes)
    routes.write_text("routes:\n  - channel: C0123\n    invite: [alice]\n")
    with pytest.raises(ConfigurationError, match="invite takes Slack user ids"):
        load_routes(routes)
    routes.write_text("routes: [\n")
    with pytest.raises(ConfigurationError, match="is not YAML"):
        load_routes(routes)
    with pytest.raises(ConfigurationError, match="cannot be read"):
        load_routes(tmp_path / "missing.yml")
    routes.write_text("- match: {}\n  channel: '#incidents'\n")  # a bare list is a list of routes
    loaded = load_routes(routes)
    assert loaded.routes[0].channel_name() == "incidents" and loaded.routes[0].channel_id() is None
    assert alert_routes(Settings(alert_routes=routes, pagerduty_webhook_secret="s")) == loaded
    assert alert_routes(Settings()) is None


def test_the_example_routing_file_loads() -> None:
    from bot.config import PROJECT_ROOT

    routes = load_routes(PROJECT_ROOT / "alert-routes.example.yml")
    assert len(routes.routes) == 3 and routes.creates_channels


def test_serve_with_alert_routes_and_no_secret_refuses_to_start_naming_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    routes = tmp_path / "routes.yml"
    routes.write_text("routes:\n  - channel: C0123ABCD\n")
    for name, value in {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "s", "ALERT_ROUTES": str(routes),
                        "SLACK_API_URL": "http://127.0.0.1:9/api/"}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    assert main(["serve"]) == 1
    err = capsys.readouterr().err
    assert "ALERT_ROUTES is set but neither ALERTS_TOKEN nor PAGERDUTY_WEBHOOK_SECRET" in err
