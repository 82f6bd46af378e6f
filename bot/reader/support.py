"""The one check that a drafted or extracted field is backed by its quotes.

A model (the resolution drafter, `import --with-model`) proposes a field with the quotes it came
from. That each quote is really in the message or document it names is checked by the caller;
this module judges whether the quotes *support* the field:

- each quote has at least MIN_QUOTE_CHARS characters ("ok" supports nothing);
- together they hold at least MIN_COVERAGE of the field's content words (stemmed, stop words
  out, as recall reads them), so a field cannot say much more than its quotes;
- every command or URL the field names is in one of the quotes, word for word: a model can
  paraphrase a cause, never invent `curl … | sh` or a link.

Pure (the domain's tokenizer only): the narrative reader owns it (bot.reader re-exports it).

- `support(text, quotes) -> Support`        `.ok`, and `.why` when not
- `commands_and_urls(text) -> list[str]`    what must be quoted word for word
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.recall.tokens import tokenize

MIN_QUOTE_CHARS = 15
MIN_COVERAGE = 0.6
MAX_CHECKED_CHARS = 20_000  # a field is a few sentences; anything longer is judged on its start

_URL = r"(?:\b(?:https?|ftp|file)://|\bwww\.)[^\s<>\"'`|]+"
_CODE_SPAN = r"`[^`\n]{1,500}`"
_PIPE_TO_SHELL = r"\|\s{0,8}(?:sudo\s{1,8})?(?:ba|z|da|k)?sh\b|\|\s{0,8}(?:python\d?|perl|ruby|node)\b"
_SUBSHELL = r"\$\([^)\n]{0,200}\)"
_COMMAND = (
    r"\b(?:curl|wget|kubectl|helm|docker|systemctl|psql|terraform|iptables|mkfs|eval|sudo|chmod|chown)\b"
    r"(?:[ \t]{1,8}[^\s]{1,200})?|\brm\s{1,8}-\w{1,30}"
)
_RISKY = re.compile("|".join((_URL, _CODE_SPAN, _PIPE_TO_SHELL, _SUBSHELL, _COMMAND)), re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_TRAILING = ".,;:!?)]}\"'"


@dataclass(frozen=True, slots=True)
class Support:
    ok: bool
    why: str | None = None  # for the person: why the field was left out


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def commands_and_urls(text: str) -> list[str]:
    """The commands, code and URLs in `text`, each as it must appear in a quote."""
    found = []
    for match in _RISKY.finditer(text[:MAX_CHECKED_CHARS]):
        piece = _squash(match.group().strip("`")).rstrip(_TRAILING)
        if piece:
            found.append(piece)
    return found


def coverage(text: str, quotes: Sequence[str]) -> float:
    """The share of `text`'s content words found in the quotes, together."""
    words = set(tokenize(text[:MAX_CHECKED_CHARS]))
    if not words:
        return 0.0
    quoted: set[str] = set()
    for quote in quotes:
        quoted.update(tokenize(quote[:MAX_CHECKED_CHARS]))
    return len(words & quoted) / len(words)


def support(text: str, quotes: Sequence[str]) -> Support:
    """Whether `quotes` back `text` (see the module's rules)."""
    if not quotes:
        return Support(False, "it quotes nothing")
    if short := [q for q in quotes if len(q.strip()) < MIN_QUOTE_CHARS]:
        return Support(False, f"a quote is shorter than {MIN_QUOTE_CHARS} characters ({short[0].strip()!r})")
    squashed = [_squash(q) for q in quotes]
    for piece in commands_and_urls(text):
        if not any(piece in q for q in squashed):
            # the why never repeats it: what the model made up is not shown to anyone
            return Support(False, "it names a command or URL which no quote contains")
    share = coverage(text, quotes)
    if share < MIN_COVERAGE:
        return Support(False, f"its quotes hold {share:.0%} of its words (at least {MIN_COVERAGE:.0%} needed)")
    return Support(True)
