"""A Markdown section's text as a reader sees it: hard-wrapped paragraphs joined, list items, table
rows and code on lines of their own (`join_lines`), joined once per parse (`section_text`), and cut
into sentences with a list kept with the sentence that introduces it (`units`)."""

from __future__ import annotations

import re

from bot.importer.document import Section, fence_after

_SENTENCE = re.compile(r"(?<=[.!?])\s{1,80}(?=[A-Z(\"'])")
LIST_ITEM = re.compile(r"^(\s{0,40})(?:[-*+]|\d{1,12}[.)])\s{1,40}(.*)$")
_OWN_LINE = re.compile(r"^(?:\||>|#{1,6}(?:\s|$))")  # a table row, a quote, a heading ("#. step" is text)
_OTHER_BULLET = re.compile(r"^[*+]\s+")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")


def join_lines(lines: list[str]) -> str:
    """A section's text with hard-wrapped paragraphs joined (Markdown reads a single newline as a
    space), list items (each with a "-", as a web page's list is written), table rows and code on
    their own lines, fences and thematic breaks dropped; a line ending in a backslash (Markdown's
    hard break) ends its line, as <br> does."""
    out: list[str] = []
    joinable = False
    fence = ""
    for line in lines:
        stripped = line.strip()
        if not stripped:  # a blank line ends a paragraph, in code as out of it
            out.append("")
            joinable = False
            continue
        before, fence = fence, fence_after(line, fence)
        if fence != before:
            joinable = False
            continue
        in_fence = bool(fence)
        first = stripped[0]  # each pattern below starts with one of a few characters: asked only then
        if not in_fence and first in "-*_" and _THEMATIC_BREAK.match(line):
            joinable = False
            continue
        hard_break = not in_fence and stripped.endswith("\\") and not stripped.endswith("\\\\")
        if hard_break:
            line = line.rstrip()[:-1]
            stripped = stripped[:-1].rstrip()
        code = in_fence or (line.startswith(("    ", "\t")) and not joinable and not LIST_ITEM.match(line))
        if stripped.startswith("![") and stripped.endswith(")"):
            continue  # an image: nothing to read
        if code:
            out.append(line.rstrip())
        elif (
            stripped
            and joinable
            and not (first in "-*+0123456789" and LIST_ITEM.match(line))
            and not (first in "|>#" and _OWN_LINE.match(stripped))
        ):
            out[-1] += " " + stripped
        else:
            bullet = first in "*+"  # "*", "+" and "-" are one bullet
            out.append(_OTHER_BULLET.sub("- ", stripped, count=1) if bullet else stripped)
        joinable = bool(stripped) and not code and not stripped.startswith("|") and not hard_break
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def section_text(section: Section) -> str:
    """A section's text (`join_lines` of its lines), joined once per parse."""
    if section.joined is None:
        section.joined = join_lines(section.lines)
    return section.joined


def sections_text(sections: list[Section]) -> tuple[str, str]:
    text = "\n\n".join(t for t in (section_text(s) for s in sections) if t)
    return text, " + ".join(s.label for s in sections)


def units(text: str) -> list[str]:
    """Sentences of a section, a sentence ending in ':' together with the list that follows it
    ("This was resolved by: 1. Giving core pods more resource guarantees 2. ...")."""
    return [" ".join(parts) for parts in unit_parts(text)]


def unit_parts(text: str) -> list[list[str]]:
    """`units`, each as its parts: a sentence alone, or a sentence ending in ':' and the list items it
    introduces, one part each (so that each item can be judged alone: "- Scheduled: 96 hours = 4.0 days")."""
    found: list[list[str]] = []
    open_colon = False
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if open_colon and LIST_ITEM.match(line):
            found[-1].append(stripped)
            continue
        open_colon = False
        one = " ".join(stripped.split())
        # a sentence ends only after ".", "!" or "?": a line without one is one unit, unsplit
        said = [s for s in _SENTENCE.split(one) if s] if ("." in one or "!" in one or "?" in one) else [one]
        found += [[s] for s in said]
        open_colon = stripped.endswith(":")
    return found
