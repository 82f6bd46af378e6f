"""Templates → Block Kit: every payload is rendered from `bot/templates/*.json.j2`, then parsed.

Templates write JSON (trailing commas allowed, so optional blocks need no comma bookkeeping).
Every `{{ … }}` must go through one of these filters, or rendering fails, so no user text can
reach a payload unencoded:

- `|mrkdwn`  escape `&`, `<`, `>` and encode for inside a JSON string (user text in mrkdwn)
- `|plain`   encode for inside a JSON string, unescaped (plain_text, input initial values)
- `|json`    a whole JSON value: ids, numbers, booleans, lists
- `|clip(n)` shorten raw text to n characters with "…" before one of the above

API: `render(template_name, **context) -> dict`; `TemplateOutputError` when a template's
output is not JSON (a bug in the template, named with line and column).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from bot.slack.commands import in_use
from bot.slack.escape import cut, escape_mrkdwn, single_line


class TemplateOutputError(ValueError):
    """A template produced something that is not a JSON object."""


class JsonFragment(Markup):
    """Text already encoded for JSON. Markup, so jinja's autoescape leaves it alone."""


def _string_content(text: str) -> JsonFragment:
    return JsonFragment(json.dumps(text, ensure_ascii=False)[1:-1])


def _mrkdwn(value: object) -> JsonFragment:
    return _string_content(escape_mrkdwn(str(value)))


def _plain(value: object) -> JsonFragment:
    return _string_content(str(value))


def _json(value: object) -> JsonFragment:
    return JsonFragment(json.dumps(value, ensure_ascii=False, default=str))


def _clip(value: object, limit: int) -> str:
    return cut(str(value), limit)


def _require_encoded(value: object) -> object:
    # jinja calls this on every {{ }} result; macros return Markup, which is already checked
    if isinstance(value, Markup):
        return value
    raise TypeError(f"unencoded value {str(value)[:40]!r} in a template: use |mrkdwn, |plain or |json")


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("bot", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_require_encoded,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update(mrkdwn=_mrkdwn, plain=_plain, json=_json, clip=_clip, one_line=single_line)
    return env


def _drop_trailing_commas(text: str) -> str:
    """`[1, 2,]` → `[1, 2]`, outside strings only."""
    out: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "]}":
            i = len(out) - 1
            while i >= 0 and out[i].isspace():
                i -= 1
            if i >= 0 and out[i] == ",":
                del out[i]
        out.append(ch)
    return "".join(out)


def _command_names() -> dict[str, JsonFragment]:
    names = in_use()
    return {
        "incident": _mrkdwn(names.incident),
        "recall": _mrkdwn(names.recall),
        "investigate": _mrkdwn(names.investigate),
    }


def render(template_name: str, **context: Any) -> dict[str, Any]:
    # `commands`: the slash command names in use, for text that tells a person what to type
    text = environment().get_template(template_name).render(commands=_command_names(), **context)
    try:
        payload = json.loads(_drop_trailing_commas(text))
    except json.JSONDecodeError as exc:
        lines = text.splitlines()
        line = lines[exc.lineno - 1] if 0 < exc.lineno <= len(lines) else ""
        raise TemplateOutputError(
            f"{template_name} rendered invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}: {line.strip()[:120]!r}"
        ) from exc
    if not isinstance(payload, dict):
        raise TemplateOutputError(f"{template_name} must render a JSON object, not {type(payload).__name__}")
    return payload
