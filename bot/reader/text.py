"""Text as the reader sees it: inline Markdown taken off, statements cut to their caps.

Pure: no settings, no I/O.
"""

from __future__ import annotations


def plain(text: str) -> str:
    """Without emphasis markers, surrounding quotes and a trailing colon."""
    text = text.replace("**", "").replace("__", "").strip().strip("`").strip()
    return text.rstrip(":").strip().strip("'\"").strip()
