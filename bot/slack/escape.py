"""Escaping user text for Slack, and cutting escaped text without breaking it.

Slack parses `<…>` in mrkdwn (and in a message's top-level `text`) as mentions and links:
`<!channel>`, `<@U123>`, `<https://x|y>`. Stored text is shown again months later, so every
piece of user text is escaped (`&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`) before it goes into
mrkdwn. Slack decodes only these three entities, so nothing else is touched.

Slack also turns bare URLs into links; in user and model text they are shown as code instead
(`code_urls`), so a URL someone pasted or a model wrote is never one click away.

plain_text objects are never parsed for mentions; user text there only needs to fit on one line
where Slack wants one (option labels, titles), see `single_line`.

- `escape_mrkdwn(text) -> str`
- `code_urls(text) -> str`         bare URLs as `code` (escape_mrkdwn does it too)
- `unescape_mrkdwn(text) -> str`   for showing rendered text in a terminal
- `single_line(text) -> str`
- `cut(text, limit, marker="…") -> str`   shorten to `limit` characters, marker included,
  never inside an entity like `&amp;`, preferring a word boundary
"""

from __future__ import annotations

import re

ELLIPSIS = "…"
# an entity Slack decodes, or the start of one cut short
_ENTITY_TAIL = re.compile(r"&[a-z]{0,4}$")
# how far back a cut may move to land on a word boundary instead of mid-word
_WORD_SLACK = 40
# code spans (fenced first), kept whole by re.split thanks to the group
_CODE = re.compile(r"(```.*?```|`[^`\n]+`)", re.S)
# a URL ends at a space, a backtick, a pipe or an escaped `<` / `>`
_BARE_URL = re.compile(r"(?<![\w/])(?:(?:https?|ftp|file)://|www\.)(?:(?!&lt;|&gt;)[^\s`|])+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}'\""


def escape_mrkdwn(text: str) -> str:
    # `&` first, so the entities made for `<` and `>` are not escaped again
    return code_urls(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def code_urls(text: str) -> str:
    """Bare URLs shown as code, not links: stored or model-written text never becomes a link a
    responder clicks by habit. URLs already inside code are left as they are."""
    if "://" not in text and "www." not in text:
        return text
    return "".join(
        piece if _CODE.fullmatch(piece) else _BARE_URL.sub(_as_code, piece) for piece in _CODE.split(text) if piece
    )


def _as_code(match: re.Match[str]) -> str:
    url = match.group()
    kept = url.rstrip(_URL_TRAILING)
    return f"`{kept}`{url[len(kept) :]}"


def unescape_mrkdwn(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def single_line(text: str) -> str:
    return " ".join(text.split())


def cut(text: str, limit: int, marker: str = ELLIPSIS) -> str:
    """`text` shortened to at most `limit` characters, ending with `marker`, if it is longer.

    The cut never lands inside an escape entity (`&amp;` would become a stray `&am`), and
    prefers the last space within a few words so a reader sees whole words.
    """
    if len(text) <= limit:
        return text
    if len(marker) > limit:
        raise ValueError(f"marker of {len(marker)} characters cannot fit in {limit}")
    head = text[: limit - len(marker)]
    entity = _ENTITY_TAIL.search(head)
    if entity is not None:
        head = head[: entity.start()]
    space = head.rfind(" ", max(0, len(head) - _WORD_SLACK))
    if space > 0:
        head = head[:space]
    return head.rstrip() + marker
