"""Text as the reader sees it: inline Markdown taken off, statements cut to their caps.

Pure: no settings, no I/O.
"""

from __future__ import annotations

import re

# where a statement's sentences break: after an end mark and its spaces, or at line breaks (read.py's
# sections, notice.py's opening sentences). Each side is one repeat at a pattern's end: no backtracking.
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")


def plain(text: str) -> str:
    """Without emphasis markers, surrounding quotes and a trailing colon."""
    text = text.replace("**", "").replace("__", "").strip().strip("`").strip()
    return text.rstrip(":").strip().strip("'\"").strip()
