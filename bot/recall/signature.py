"""Error signatures: the same failure seen again with other ids, hosts, paths or times.

An error text is normalised (timestamps, UUIDs, IPs, hex ids, paths, URLs and numbers stripped,
lowercased, whitespace collapsed) and its most telling line (the first that names an
exception or error) becomes the signature. Two incidents with equal signatures failed the same
way; the ids that differ between them say nothing about the failure.
"""

from __future__ import annotations

import re

MAX_SIGNATURE_CHARS = 200
MIN_SIGNATURE_CHARS = 8

# order matters: whole timestamps before their numbers, URLs before paths, UUIDs before hex
_STRIP = [
    re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
    re.compile(r"\b\d{4}[-/]\d{2}[-/]\d{2}\b"),
    re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"),
    re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE),
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE),
    re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"),
    re.compile(r"\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b", re.IGNORECASE),  # IPv6
    re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@%+~-]+){2,}[\\/]?"),  # /var/lib/x, C:\tmp\x
    re.compile(r"\b0x[0-9a-f]+\b", re.IGNORECASE),
    re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b", re.IGNORECASE),
    re.compile(r"(?<![a-z])\d+(?:[.,]\d+)*", re.IGNORECASE),
]
_SPACE = re.compile(r"\s+")
_PUNCT_RUN = re.compile(r"([^\w\s])(?:\s*\1)+")
_TELLING = re.compile(r"(exception|error|fatal|panic|fail|refused|denied|timed? ?out|killed|unable|cannot|can't)", re.I)


def normalize_error(text: str | None) -> str:
    """The error text with everything that varies between sightings stripped."""
    if not text:
        return ""
    out = text
    for pattern in _STRIP:
        out = pattern.sub(" ", out)
    out = _PUNCT_RUN.sub(r"\1", out.lower())
    return _SPACE.sub(" ", out).strip(" :;,-=[]()")


def error_signature(text: str | None) -> str | None:
    """The normalised first telling line of an error text, or None if nothing is left."""
    if not text:
        return None
    lines = [line for line in text.splitlines() if line.strip()]
    telling = [line for line in lines if _TELLING.search(line)]
    for line in telling + lines:
        signature = normalize_error(line)[:MAX_SIGNATURE_CHARS]
        if len(signature) >= MIN_SIGNATURE_CHARS:
            return signature
    return None
