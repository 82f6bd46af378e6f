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


def plain(text: str) -> str:
    """Without emphasis markers, surrounding quotes and a trailing colon."""
    text = text.replace("**", "").replace("__", "").strip().strip("`").strip()
    return text.rstrip(":").strip().strip("'\"").strip()
