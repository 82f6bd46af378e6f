"""Text as the reader sees it: inline Markdown taken off, statements cut to their caps.

Pure: no settings, no I/O.
"""

from __future__ import annotations

import re

# where a statement's sentences break: after an end mark and its spaces, or at line breaks (read.py's
# sections, notice.py's opening sentences). Each side is one repeat at a pattern's end: no backtracking.
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
# where a line's sentences break when a field is judged sentence by sentence (bot/reader/fix.py's fixes and causes,
# read.py's metadata and unknown causes): an end mark, its spaces, and what opens the next sentence (a capital, a
# bracket, a quote, emphasis, code, a link or a handle); a lower-case "e.g. the" or "v1.2 and" stays whole
SENTENCE_OPENS = r"[A-Z(\"'*`\[@]"
LINE_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s{1,80}(?=" + SENTENCE_OPENS + r")")
# a status site's markup, not its writer's words: Statusfy's "::: update Resolved | 2020-11-14T16:09:32Z" … ":::"
# around an update (UPDATE_MARKUP), a Hugo shortcode (`{{< track "2025-05-27 11:47:00" >}}`). It ends a sentence, and a
# sentence is judged without it (fix.py: "::: update Resolved | <time> This incident has been resolved. :::" is the
# state said, no step). A stored fix or cause is kept without the update's markup (read.without_metadata: its state
# and time are metadata); a shortcode stays there, as measured: taken off too, it let a step glued behind it ("… until
# the issue is resolved. {{< track … >}} We have removed SpamCop from our list …") be read as the cause (fold A)
UPDATE_MARKUP = re.compile(
    r":{3}(?:[ \t]{0,4}update[ \t]{1,4}[A-Za-z]{1,20}[ \t]{0,4}\|[ \t]{0,4}[\dT:.+Z-]{4,40})?", re.I
)
SHORTCODE = r"\{\{[<%][^{}]{0,200}[>%]\}\}"
SITE_MARKUP = re.compile(UPDATE_MARKUP.pattern + r"|" + SHORTCODE, re.I)
# a shortcode closing a sentence (`*Resolved* - The behavior is no longer exhibiting. {{< track "…" >}}`): the sentence is
# judged without it (read.without_metadata); it stays in the stored text
TRAILING_SHORTCODE = re.compile(r"\s{0,80}" + SHORTCODE + r"\s{0,80}$")
# a shortcode that closes a sentence and the next sentence after it ("… further problems.{{</alert>}} The root cause …"):
# where a stored field's line breaks when its metadata sentences are cut (read.without_metadata; the shortcode stays with
# the sentence it closes). Not a break where fixes and causes are chosen (LINE_SENTENCE_BREAK): see UPDATE_MARKUP above
SHORTCODE_CLOSING = re.compile(r"(?<=[.!?])(\s{0,80}" + SHORTCODE + r")\s{1,80}(?=" + SENTENCE_OPENS + r")")


def split_after_shortcodes(sentence: str) -> list[str]:
    """`sentence` cut after each shortcode that closes a sentence, the shortcode kept with the sentence before it."""
    pieces, start = [], 0
    for closing in SHORTCODE_CLOSING.finditer(sentence):
        pieces.append(sentence[start : closing.end(1)])
        start = closing.end()
    return [*pieces, sentence[start:]]


def plain(text: str) -> str:
    """Without emphasis markers, surrounding quotes and a trailing colon."""
    text = text.replace("**", "").replace("__", "").strip().strip("`").strip()
    return text.rstrip(":").strip().strip("'\"").strip()
