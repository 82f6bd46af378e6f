"""Redaction: tokens, the signing secret and database passwords are masked anywhere in a log
line, and the redaction filter masks messages, arguments, extras and tracebacks."""

from __future__ import annotations

import io
import logging

import pytest

from bot.observability import redact
from bot.observability.logs import JsonFormatter, RedactingFilter, TextFormatter, register_secrets

TOKENS = {
    "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx": "xoxb-[redacted]",
    "xoxp-1234567890-0987654321-1122334455-abcdef0123456789": "xoxp-[redacted]",
    "xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef": "xapp-[redacted]",
    "sk-ant-api03-AbC_dEf-123456789": "sk-ant-[redacted]",
}


@pytest.mark.parametrize("token", TOKENS)
def test_redact_masks_tokens_anywhere_in_a_line(token: str) -> None:
    assert redact(f"calling Slack with {token}, then done") == f"calling Slack with {TOKENS[token]}, then done"
    assert token not in redact(f'{{"headers": {{"Authorization": "Bearer {token}"}}}}')


def test_redact_masks_the_signing_secret_and_database_passwords() -> None:
    register_secrets(["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "short"])
    assert redact("secret=0f1e2d3c4b5a69788796a5b4c3d2e1f0!") == "secret=[redacted]!"
    assert redact("a short word") == "a short word"  # too short to be a registered secret
    assert (
        redact("postgresql://app:hunter2hunter2@db.internal:5432/app")
        == "postgresql://app:[redacted]@db.internal:5432/app"
    )


@pytest.mark.parametrize("formatter", [JsonFormatter(), TextFormatter()], ids=["json", "text"])
def test_the_redaction_filter_masks_messages_arguments_extras_and_tracebacks(formatter: logging.Formatter) -> None:
    token = "xoxb-1111111111-2222222222-SeCrEtSeCrEtSeCrEt"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter())
    handler.setFormatter(formatter)
    logger = logging.getLogger("bot.test.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        logger.info("token %s in args", token)
        logger.info(f"token {token} in the message")
        logger.info("token in an extra", extra={"auth": f"Bearer {token}"})
        try:
            raise RuntimeError(f"invalid_auth for {token}")
        except RuntimeError:
            logger.exception("a traceback")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    out = stream.getvalue()
    assert token not in out and "SeCrEt" not in out
    assert out.count("xoxb-[redacted]") == 4
