"""A postmortem's shape: front matter, title and sections, from Markdown or a plain-text export.

    +++ / --- front matter (TOML or YAML, python-frontmatter)  → `meta`
    the first heading that is not a section name (any level), else the first line → `title`
    ## Root cause of the outage? / "ROOT CAUSE" / "**Fix**" alone on a line → a section of a kind
    ### What went well   (under "## Lessons")   → stays inside its parent section

Headings come from markdown-it-py (so `#` inside code fences and setext `===` headings are read
as Markdown reads them); a file without any heading gets its sections from line shape, as a
Google Docs or Confluence "download as text" export has them. HTML tags and entities are cleaned.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import frontmatter
from markdown_it import MarkdownIt

from bot.importer.dates import MONTH
from bot.importer.status_updates import front_matter_updates
from bot.importer.vocabulary import judges_the_response, normalize_heading, section_kind
from bot.reader.text import plain
from bot.text_limits import HEADING_LINES

# kinds whose subsections are always part of them: "What went well" under "Lessons" is a lesson
_SWALLOWING = frozenset({"lesson", "action_items", "failed_attempts", "timeline", "metadata"})
# "<h2 class="x">Impact</h2>" on a line of its own (its attributes and text bounded, as every member's text is)
_HTML_HEADING = re.compile(r"^\s{0,40}<h([1-6])[^>]{0,2000}>(.{0,2000}?)</h\1>\s{0,40}$", re.I)
_BR = re.compile(r"<br\s{0,40}/?>", re.I)
_IMG = re.compile(r"<img\b[^<>]*>", re.I)  # [^<>]: an unclosed "<img" stops at the next tag, not the end
_TAG = re.compile(
    r"</?(?:a|b|i|u|s|p|em|strong|span|div|font|center|small|big|sup|sub|del|ins|mark|kbd|code|pre|blockquote|"
    r"details|summary|ul|ol|li|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|h[1-6]|hr|section|article|figure|"
    r"figcaption|picture|source|video|iframe|br)\b[^<>]*/?>",
    re.I,
)
_LIST_ITEM = re.compile(r"^\s{0,40}(?:[-*+]|\d{1,12}[.)])\s{1,40}")
# a line Markdown may read as (part of) a heading: `#` after list or quote markers, or an underline
_MAYBE_HEADING = re.compile(r"[ \t>*+\-.)0-9]*#|[ \t>]*(?:=+|-+)[ \t]*$")
_BOLD_LINE = re.compile(r"^\s{0,40}(?:\*\*|__)(.+?)(?:\*\*|__)\s{0,40}:?\s{0,40}$")
# Only headings are read, and a heading's raw text comes from the block parser: the inline pass
# (emphasis, links, HTML in every paragraph) is not run (24,000 `<img` took 40 ms in it).
_MARKDOWN = MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])


@dataclass(slots=True)
class Section:
    heading: str  # as written, cleaned of emphasis
    kind: str | None  # None: a section no memory field uses (kept for timelines, inline labels)
    level: int
    line: int  # 1-based line of the heading in the file (front matter included)
    lines: list[str] = field(default_factory=list)
    # its lines as one text, joined once when first asked (section_text.section_text): every field, check and
    # date reads it, and joining a 40,000-line section again for each took most of a parse
    joined: str | None = field(default=None, repr=False, compare=False)
    # a status page's updates read from the front matter (status_updates.py): one sentence a line, a blank line
    # between updates, so the timeline reader knows which sentences one update told together
    status_updates: bool = False

    @property
    def label(self) -> str:
        return f"section {self.heading!r}"


@dataclass(slots=True)
class Document:
    meta: dict[str, Any]
    title: str | None
    title_from: str  # "front matter", "heading", "first line"
    preamble: list[str]  # text between the title and the first section
    sections: list[Section]
    plain_text: bool  # sections were found from line shape, not Markdown headings

    def of_kind(self, kind: str) -> list[Section]:
        return [s for s in self.sections if s.kind == kind]


def without_comments(text: str) -> str:
    """`<!-- … -->` removed, in one pass: an unclosed comment is left as written. (The pattern
    `<!--.*?-->` rescanned the rest of the text from every `<!--`: 11 s on 100 KB of them.)"""
    out: list[str] = []
    position = 0
    while (start := text.find("<!--", position)) != -1:
        end = text.find("-->", start + 4)
        if end == -1:
            break  # no comment closes after here
        out.append(text[position:start])
        position = end + 3
    out.append(text[position:])
    return "".join(out)


def fence_after(line: str, fence: str) -> str:
    """The code fence open after `line` ("" outside code), given `fence`, the one open before it.
    Three or more backticks or tildes open one; only a run of the same character at least as long,
    with nothing after it, closes it (CommonMark: "```bash" inside a fenced block is code, not its
    end; a "```" then "```bash" pair read as open-close left the rest of a timeline as code).
    A changed value means the line is a fence, not text."""
    stripped = line.strip()
    if not stripped.startswith(("```", "~~~")):
        return fence
    mark = stripped[0]
    run = len(stripped) - len(stripped.lstrip(mark))
    if not fence:
        return "" if mark == "`" and "`" in stripped[run:] else stripped[:run]  # "```x```": inline code
    return "" if mark == fence[0] and run >= len(fence) and not stripped[run:].strip() else fence


def clean_html(text: str) -> str:
    """`<br>` → a line break (in a table cell: '; '), tags and `<img>` dropped, `&amp;` → `&`;
    code fences are left as written."""
    out = []
    fence = ""
    for line in without_comments(text).split("\n"):
        opened, fence = fence, fence_after(line, fence)
        if opened or fence or not ("<" in line or "&" in line):
            out.append(line)
            continue
        heading = _HTML_HEADING.match(line)
        if heading:
            line = "#" * int(heading.group(1)) + " " + heading.group(2)
        line = _IMG.sub("", line)
        line = _BR.sub("; " if line.lstrip().startswith("|") else "\n", line)
        out.append(html.unescape(_TAG.sub("", line)))
    return "\n".join(out)


def outside_code(lines: list[str]) -> list[str]:
    """The lines that are not fenced code: a `Started: Mon, 01 Jan 0001` a command printed is
    not the postmortem's metadata."""
    out: list[str] = []
    fence = ""
    for line in lines:
        before, fence = fence, fence_after(line, fence)
        if not before and not fence:
            out.append(line)
    return out


_NEW_BLOCK = re.compile(r"^\s{0,40}(?:[-*+]\s|\d{1,12}[.)]\s|#{1,6}\s|>|\||```|~~~)")


def logical_lines(lines: list[str]) -> list[str]:
    """Lines as Markdown reads a list or a quote: an item's wrapped, indented lines joined onto it
    ("- 2024-06-21:" with its text on the next line is one item, as a web page or Word file has
    it), a quoted paragraph's "> " lines joined into one; a blank line, a new item or block, code
    and everything else stay as written."""
    out: list[str] = []
    in_item = in_quote = False
    fence = ""
    for line in lines:
        stripped = line.strip()
        quoted = stripped[1:].strip() if stripped.startswith(">") else ""
        before, fence = fence, fence_after(line, fence)
        in_fence = bool(before or fence)
        if fence != before:
            in_item, in_quote = False, False
        elif not in_fence and in_item and stripped and line[:1] in (" ", "\t") and not _NEW_BLOCK.match(line):
            out[-1] = f"{out[-1].rstrip()} {stripped}"
            continue
        elif not in_fence and in_quote and quoted and not _NEW_BLOCK.match(quoted):
            out[-1] = f"{out[-1].rstrip()} {quoted}"  # "> a" then "> b": one quoted paragraph
            continue
        else:
            in_item = not in_fence and bool(_LIST_ITEM.match(line)) and bool(stripped)
        in_quote = not in_fence and bool(quoted)
        out.append(line)
    return out


def _front_matter(text: str) -> tuple[dict[str, Any], str, int]:
    """(front matter, the rest, how many lines the front matter took)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    if first not in ("---", "+++"):
        return {}, text, 0
    try:
        post = frontmatter.loads(text)
    except Exception:  # noqa: BLE001 - broken YAML/TOML: read it as flat `key: value` lines instead
        return _flat_front_matter(text, first)
    if not post.metadata and post.content == text:
        return {}, text, 0
    skipped = text.count("\n") - post.content.count("\n")
    return {str(k).lower(): v for k, v in post.metadata.items()}, post.content, max(skipped, 0)


def _flat_front_matter(text: str, fence: str) -> tuple[dict[str, Any], str, int]:
    lines = text.split("\n")
    for end in range(1, len(lines)):
        if lines[end].strip() == fence:
            break
    else:
        return {}, text, 0  # never closed: not front matter after all
    meta: dict[str, Any] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition("=" if fence == "+++" else ":")
        if sep and key.strip() and not line.startswith((" ", "\t", "#")):
            meta[key.strip().lower()] = value.strip().strip("'\"")
    return meta, "\n".join(lines[end + 1 :]), end + 1


def _markdown_headings(text: str) -> list[tuple[int, int, int, str]]:
    """(first line, line after, level, text) of every Markdown heading, 0-based lines.

    The parser's work grows with lines, so it is handed only what can change a heading: the
    blocks (`_blocks`) that hold a line that could be one (`#…` or an `===`/`---` underline,
    inside a list or quote too), nothing after the last such line (Markdown decides a heading
    from the lines before it), a run of blank lines as one, and at most `HEADING_LINES` lines:
    past them the rest of the document is its last section's text."""
    lines = text.split("\n")
    # the lines that could be a heading, in order (a blank line never is: 40,000 of them are not asked)
    maybe = [i for i, line in enumerate(lines) if line and _MAYBE_HEADING.match(line)]
    if not maybe:
        return []
    could = set(maybe)
    kept: list[str] = []
    where: list[int] = []  # the original line of each kept one
    for start, end in _blocks(lines):
        first = bisect_left(maybe, start)
        if first == len(maybe) or maybe[first] >= end:
            continue  # no line of the block could be a heading
        if kept and kept[-1].strip(" \t"):
            kept.append("")  # blocks are read apart: a blank line between them changes no heading
            where.append(where[-1])
        blank_before = False
        for number in range(start, end):
            blank = not lines[number].strip(" \t")  # as Markdown reads a blank line
            if not (blank and blank_before):
                kept.append(lines[number])
                where.append(number)
            blank_before = blank
        if len(kept) >= HEADING_LINES:
            break
    last = len(where) - 1
    while where[last] not in could:
        last -= 1  # nothing after the last line that could be a heading changes one
    del kept[min(last + 1, HEADING_LINES) :], where[min(last + 1, HEADING_LINES) :]
    tokens = _MARKDOWN.parse("\n".join(kept))
    found = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            if token.markup == "-" and _reads_as_prose(tokens[i + 1].content):
                continue  # a status page's update, then a `---` rule between updates: a paragraph, no heading
            start, end = token.map
            found.append((where[start], where[end - 1] + 1, int(token.tag[1]), tokens[i + 1].content))
    return found


# a question is no sentence end here: headings ask ("Why did the primary database stop accepting writes?")
_SENTENCE_END = re.compile(r"[.!][*_)\"']{0,3}\s*$")


def _reads_as_prose(text: str) -> bool:
    """True when a `---`-underlined "heading" is a paragraph: five words or more over two lines or more, or
    ending as a statement does ("Network instabilities are causing some clusters to fall into not ready state.")."""
    return len(text.split()) >= 5 and ("\n" in text.strip() or _SENTENCE_END.search(text[-40:]) is not None)


# Where a document can be cut into blocks that Markdown reads alike apart or together: before a
# line at column 0 after a blank line, and before and after a `#` heading at column 0, unless a
# fenced code block or an HTML block is open there. A fence of the document (at column 0, or
# indented 1-3 spaces with no list item open) is followed to its close; from an HTML block that
# can hold blank lines (`<!--`, `<pre`…), a fence that may be in a list item or in an HTML block,
# the rest is one block.
_ATX = re.compile(r"#{1,6}(?:[ \t]|$)")
_FENCE_OPEN = re.compile(r"( {0,3})(`{3,}(?!.*`)|~{3,})")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*$")
_HTML_START = re.compile(r" {0,3}<")
_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")  # a list item begins (or a `- - -` rule)
_HTML_LONG = re.compile(r" {0,3}<(?:(?:script|pre|style|textarea)(?:[ \t>]|$)|!|\?)", re.I)


def _blocks(lines: list[str]) -> Iterator[tuple[int, int]]:
    """(start, end) line ranges that together are the document (see above), as they are found:
    the reader stops asking past its cap."""
    start = 0
    fence = ""  # the open fence's marker
    in_html = False  # an HTML block that ends at a blank line may be open
    in_list = False  # a list item may be open (a fence indented 1-3 spaces may be in it)
    for number, line in enumerate(lines):
        if not line:  # a blank line closes no fence and any HTML block that ends at one
            in_html = False
            continue
        if fence:
            close = _FENCE_CLOSE.match(line)
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence):
                fence = ""
            continue
        first = line[:1]
        if first in ("", " ", "\t"):  # blank or indented: never a cut
            if not line.strip(" \t"):
                in_html = False
                continue
            opened = _FENCE_OPEN.match(line)
            if (opened and (in_list or in_html)) or _HTML_LONG.match(line):
                break  # the rest is one block
            if opened:
                fence = opened.group(2)  # no list item is open: the fence is the document's
            elif _HTML_START.match(line):
                in_html = True
            in_list = in_list or bool(_ITEM.match(line))
            continue
        opened = _FENCE_OPEN.match(line) if first in "`~" else None
        if (opened and in_html) or (first == "<" and _HTML_LONG.match(line)):
            break
        if not in_html:
            heading = first == "#" and bool(_ATX.match(line))
            if number and (heading or not lines[number - 1].strip(" \t")) and start != number:
                yield start, number
                start, in_list = number, False  # every list item is closed here
            if heading:
                yield start, number + 1
                start = number + 1
        in_list = in_list or bool(_ITEM.match(line))
        if opened:
            fence = opened.group(2)
        elif first == "<":
            in_html = True
    if start < len(lines):
        yield start, len(lines)


def _shaped_headings(lines: list[str], bold_only: bool = False) -> list[tuple[int, int, int, str]]:
    """Headings by line shape: a short line alone that names a section ('Root cause:', 'ROOT
    CAUSE', '**Fix**'), after a blank line or at the start; `bold_only`: only '**Fix**' ones."""
    found = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if bold_only and not stripped.startswith(("**", "__")):
            continue  # as _BOLD_LINE reads a line
        if not stripped or len(stripped) > 80 or (i > 0 and lines[i - 1].strip()) or _LIST_ITEM.match(line):
            continue
        bold = _BOLD_LINE.match(line)
        text = bold.group(1) if bold else stripped
        words = normalize_heading(text).split()
        if not words or len(words) > 8 or text.rstrip().endswith((".", ",", ";")):
            continue
        shouted = text.isupper() and sum(c.isalpha() for c in text) >= 3
        colon_alone = stripped.endswith(":") or bold is not None
        if section_kind(text) is not None and (shouted or colon_alone or len(words) <= 5 or text.endswith("?")):
            found.append((i, i + 1, 6 if bold else 2, text))
    return found


def parse_document(text: str) -> Document:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    meta, body, offset = _front_matter(text)
    body = clean_html(body)
    lines = body.split("\n")
    headings = _markdown_headings(body)
    plain_text = not headings
    if plain_text:
        headings = _shaped_headings(lines)
    else:  # a bold line alone that names a section is a heading too ("**Root cause**")
        taken = {h[0] for h in headings}
        headings = sorted(
            headings + [h for h in _shaped_headings(lines, True) if h[0] not in taken and _BOLD_LINE.match(lines[h[0]])]
        )

    title = _meta_title(meta)
    title_from = "front matter" if title else ""
    sections: list[Section] = []
    preamble: list[str] = []
    first_body = headings[0][0] if headings else len(lines)
    preamble = lines[:first_body]
    open_section: Section | None = None
    known: Section | None = None  # the last section of a kind (a timeline takes "## 20:15" headings)
    h1s = sum(1 for h in headings if h[2] == 1)  # counted once: per heading, 10,000 headings took seconds
    for index, (start, end, level, raw) in enumerate(headings):
        heading = plain(raw)
        following = headings[index + 1][0] if index + 1 < len(headings) else len(lines)
        body_lines = lines[end:following]
        kind = section_kind(heading)
        if kind == "failed_attempts" and _beside_what_worked(headings, index):
            kind = "lesson"
        lone_h1 = level == 1 and h1s == 1
        if (
            title is None
            and not sections
            and not _has_text(preamble)
            and (kind is None or lone_h1 or _title_like(level, heading))
        ):
            title, title_from = heading, "heading"
            preamble = body_lines
            continue
        if kind is None and known is not None and known.kind == "timeline" and _time_heading(heading):
            known.lines += ["", f"{heading}:", *body_lines]  # "## May 12", "### 20:15" after "## Timeline"
            open_section = known
            continue
        if (
            open_section is not None
            and open_section.kind is not None
            and level > open_section.level
            and (open_section.kind in _SWALLOWING or kind is None or kind == open_section.kind)
        ):
            open_section.lines += ["", f"{heading}:", *body_lines]  # a subsection stays in its parent
            continue
        open_section = Section(heading, kind, level, start + 1 + offset, list(body_lines))
        sections.append(open_section)
        known = open_section if kind is not None else known
    if title is None:
        title, title_from, preamble = _first_line_title(preamble)
    _add_front_matter_updates(meta, text, offset, preamble, sections)
    return Document(meta, title, title_from, preamble, sections, plain_text)


def _add_front_matter_updates(
    meta: dict[str, Any], text: str, offset: int, preamble: list[str], sections: list[Section]
) -> None:
    """A status page's updates kept in the front matter (status_updates.py): the post's timeline, and when the
    post has no text of its own, its first update is what was seen (the symptoms a recall query is matched on)."""
    updates = front_matter_updates(meta, len(text))
    if updates is None:
        return
    at = next(
        (i for i, line in enumerate(text.split("\n", offset)[:offset]) if line.lower().startswith(updates.key)), 0
    )
    if not _has_text(preamble) and not sections:
        sections.append(Section(f"{updates.key} (first update)", "symptoms", 2, at + 1, [updates.first]))
    sections.append(Section(updates.key, "timeline", 2, at + 1, updates.timeline_lines(), status_updates=True))


def _beside_what_worked(headings: list[tuple[int, int, int, str]], index: int) -> bool:
    """A "What didn't work" beside a "What worked" at its level judges the response (vocabulary.judges_the_response)."""
    level = headings[index][2]
    beside = [
        plain(h[3]) for h in headings[max(index - 1, 0) : index] + headings[index + 1 : index + 2] if h[2] == level
    ]
    return judges_the_response(plain(headings[index][3]), beside)


_TIME_HEADING = re.compile(
    r"^(?:[~≈]?\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|(?:\w{1,40}day,?\s{1,40})?"
    + MONTH
    + r"\s{1,40}\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\.?\s{1,40}"
    + MONTH
    + ")",
    re.I,
)


def _time_heading(heading: str) -> bool:
    return len(heading) <= 40 and bool(_TIME_HEADING.match(heading.strip()))


def _title_like(level: int, heading: str) -> bool:
    """'# Post-mortem of the Shai-Hulud attack' is a title even though it says 'post-mortem'."""
    return level == 1 and len(normalize_heading(heading).split()) > 3


def _has_text(lines: list[str]) -> bool:
    return any(line.strip() for line in lines)


def _meta_title(meta: dict[str, Any]) -> str | None:
    value = meta.get("title") or meta.get("name")
    return plain(str(value)) if isinstance(value, str) and value.strip() else None


def _first_line_title(preamble: list[str]) -> tuple[str | None, str, list[str]]:
    """A plain-text export's first line is its title; so is a short first line without a heading."""
    for i, line in enumerate(preamble):
        stripped = plain(line.strip().lstrip("#").strip())
        if not stripped:
            continue
        if "http" in stripped or line.lstrip().startswith("|"):
            continue  # "Internal post-mortem: https://...": a link, not what happened; a table row is data
        if len(stripped) <= 150 and not stripped.endswith(".") and not _LIST_ITEM.match(line):
            return stripped, "first line", preamble[i + 1 :]
        break
    return None, "", preamble


def title_from_name(name: str) -> str:
    """'2024-02-28-decide is down.md' → 'Decide is down'."""
    stem = PurePath(name).stem
    words = re.sub(r"^\d{4}[-_.]?\d{2}[-_.]?\d{2}[-_ ]*", "", stem).replace("-", " ").replace("_", " ").strip()
    return (words or stem)[:1].upper() + (words or stem)[1:]
