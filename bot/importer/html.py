"""Postmortems saved as web pages → the Markdown the postmortem reader reads (one document model).

    a Confluence page export (div#main-content, "Space : Title", "Created by …, last modified on …")
    the Confluence storage format (<ac:structured-macro>: status, panel, info, expand… unwrapped)
    a Google Docs "web page" download (p.title, flat lists nested by class, bold by CSS class)
    any saved page (<main>/<article>/<body>), and .docx once mammoth has made it HTML (docx.py)

Headings become `#` headings, lists `-` items, tables `|` rows, `<time datetime>` its machine
date, `<meta name="date">` and the page's own metadata front matter; the result goes through
`parse_markdown`, so dates, provenance, the timeline's reading and `--update` are the Markdown
path's. BeautifulSoup with the standard library's parser reads the HTML (lenient with the broken
markup saved pages have, no compiled dependency); this module only says what each element means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import yaml
from bs4 import BeautifulSoup, CData, Comment, NavigableString, Tag

_DROP = {
    "script", "style", "noscript", "template", "svg", "canvas", "button", "input", "select", "textarea", "nav",
    "iframe", "object", "embed", "img", "head", "title", "meta", "link", "form",
    "ac:parameter", "ac:placeholder", "ac:image", "ac:emoticon", "ri:attachment", "ri:url",
}  # fmt: skip
_MACROS_DROPPED = {"toc", "children", "pagetree", "attachments", "recently-updated", "contentbylabel", "anchor"}
_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "aside", "figure", "figcaption", "center",
    "details", "summary", "body", "html", "address", "dl", "dd", "dt", "fieldset", "caption",
}  # fmt: skip
_LIST_LEVEL = re.compile(r"lst-kix_\w{1,100}-(\d{1,9})")  # Google Docs: nesting is a class, not an element
_LIST_BLOCK = re.compile(r"^\s{0,200}(?:-|\d{1,12}\.)\s")
# a style sheet's bold classes (".c3{…font-weight:700…}"): a rule's body holds no brace, so a crafted run of
# ".c1{" with none closed is tried once per rule, not to the sheet's end from each (1.1 s for 40k characters)
_BOLD_CLASS = re.compile(r"\.(c\d{1,12})\{[^{}]{0,1000}font-weight:\s{0,40}(?:700|bold)")
_SPACE_PREFIX = re.compile(r"^[^:]{1,80} : (?=\S)")  # "Ops Space : Outage 2024-03-02" → the page title
# a Confluence page's "Created by Alice, last modified by Bob on Mar 02, 2024", read in its first CREATED_CHARS
# (a crafted line of spaces after "Created by a" took 0.1 s for 4,000 characters, growing with the square)
_CREATED = re.compile(
    r"Created by\s{1,40}(?P<author>.{1,300}?)(?:,\s{0,40}last modified(?: by .{1,300}?)?)?\s{1,40}on\s{1,40}"
    r"(?P<date>.{1,300}?)\s{0,40}$",
    re.S,
)
CREATED_CHARS = 1_000
_META_KEYS = {"date", "title", "author", "authors", "tags", "keywords", "service", "severity", "incident id"}
_GOOGLE_REDIRECT = ("https://www.google.com/url?", "http://www.google.com/url?")
_PERSON_LINKS = {"confluence-userlink", "user-mention"}  # Confluence: a mention links to a profile
_AUTOLINK = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*$")  # CommonMark's absolute URI; mailto: included
_META_DATES = {"article:published_time": "date", "dc.date": "date", "dcterms.created": "date"}


@dataclass(slots=True)
class Page:
    """What a page says about itself besides its body: front matter for the Markdown reader."""

    kind: str  # "Confluence page", "Confluence storage format", "Google Docs web page", "web page"
    markdown: str
    meta: dict[str, Any] = field(default_factory=dict)
    links: int = 0  # how many links the body holds, and how much text is outside them
    text_outside_links: int = 0

    def with_front_matter(self) -> str:
        if not self.meta:
            return self.markdown
        return f"---\n{yaml.safe_dump(self.meta, allow_unicode=True, sort_keys=False)}---\n\n{self.markdown}"


def _escape(text: str) -> str:
    # the Markdown reader cleans tags and entities from its input: text that reads "<b>" stays text
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link(text: str, node: Tag) -> str:
    """A link as Markdown writes it, so the page reads as its Markdown would: `[text](href)`, or
    `<href>` when the text is the address itself (an autolink). A Google Docs link's redirect
    (google.com/url?q=…) is its target; a mention of a person, javascript: and empty links stay
    text."""
    href = str(node.get("href") or "").strip()
    classes = set(node.get("class") or [])
    if href.startswith(_GOOGLE_REDIRECT):
        href = parse_qs(urlsplit(href).query).get("q", [href])[0]
    label = text.strip()
    if not label or not href or href.lower().startswith("javascript:") or classes & _PERSON_LINKS or "\n" in label:
        return text
    lead, trail = " " * (text[:1].isspace()), " " * (text[-1:].isspace())
    href = _escape(href.replace(" ", "%20"))  # the Markdown reader unescapes: "&copy=1" stays itself
    if href.count("(") != href.count(")"):  # Markdown allows balanced parentheses in an address only
        href = href.replace("(", "%28").replace(")", "%29")
    # `<…>` is an autolink only for an absolute address (CommonMark: a scheme) or an e-mail address; a relative
    # one ("runbook.md") in angle brackets would read as an HTML tag and vanish: it stays `[text](href)`
    if label in (href, href.removeprefix("mailto:")) and "&lt;" not in href and _AUTOLINK.match(href):
        return f"{lead}<{label}>{trail}"
    return f"{lead}[{label}]({href}){trail}"


class _Writer:
    """Blocks of Markdown from an element tree; inline text collects until a block ends it."""

    def __init__(self, bold_classes: set[str]) -> None:
        self.blocks: list[str] = []
        self.line: list[str] = []
        self.bold_classes = bold_classes
        self.links = 0
        self.outside = 0
        self.keep_links = True  # a heading's links and emphasis are its text only: a title is not a link

    def flush(self) -> None:
        text = "".join(self.line).strip()
        self.line = []
        if text:
            self.blocks.append("\n".join(" ".join(part.split()) for part in text.split("\n")))

    def inline(self, node: Any, in_link: bool = False) -> str:
        if isinstance(node, Comment):
            return ""
        if isinstance(node, CData):
            return _escape(str(node))
        if isinstance(node, NavigableString):
            text = re.sub(r"\s+", " ", str(node))
            if not in_link:
                self.outside += len(text.strip())
            return _escape(text)
        if not isinstance(node, Tag) or node.name in _DROP:
            return ""
        name = node.name
        if name == "br":
            return "\n"
        if name == "time":
            return _escape(node.get("datetime") or node.get_text(" ", strip=True))
        if name == "ac:structured-macro":
            return self._inline_macro(node)
        if name in ("a", "ac:link"):
            self.links += 1
            text = "".join(self.inline(c, True) for c in node.children)
            if not text.strip() and name == "ac:link":
                page = node.find("ri:page")
                text = _escape(page.get("ri:content-title", "")) if isinstance(page, Tag) else ""
            return _link(text, node) if self.keep_links else text
        text = "".join(self.inline(c, in_link) for c in node.children)
        if name in ("strong", "b") or (name == "span" and set(node.get("class") or []) & self.bold_classes):
            lead, trail = " " * (text[:1].isspace()), " " * (text[-1:].isspace())
            return f"{lead}**{text.strip()}**{trail}" if text.strip() else text
        if name in ("em", "i") and self.keep_links and text.strip() and "*" not in text:  # a heading's stays plain
            lead, trail = " " * (text[:1].isspace()), " " * (text[-1:].isspace())
            return f"{lead}*{text.strip()}*{trail}"
        if name == "code" and text.strip() and "`" not in text:
            return f"`{text.strip()}`"
        return text

    def _inline_macro(self, node: Tag) -> str:
        macro = node.get("ac:name", "")
        if macro == "status":
            title = node.find("ac:parameter", attrs={"ac:name": "title"})
            return f" {_escape(title.get_text(strip=True))} " if isinstance(title, Tag) else ""
        if macro in _MACROS_DROPPED:
            return ""
        body = node.find(["ac:rich-text-body", "ac:plain-text-body"])
        return self.inline(body) if isinstance(body, Tag) else ""

    def block(self, node: Tag, depth: int = 0) -> None:
        for child in node.children:
            if not isinstance(child, Tag) or child.name in ("a", "span", "strong", "b", "em", "i", "code", "time"):
                self.line.append(self.inline(child))
                continue
            self.element(child, depth)
        self.flush()

    def element(self, node: Tag, depth: int) -> None:
        name = node.name
        if name in _DROP:
            return
        if re.fullmatch(r"h[1-6]", name):
            self.flush()
            self.keep_links = False
            text = " ".join(self.inline(node).split())
            self.keep_links = True
            if text:
                self.blocks.append(f"{'#' * int(name[1])} {text.replace('**', '')}")
        elif name in ("ul", "ol", "ac:task-list"):
            self.flush()
            lines = "\n".join(self.list_lines(node, depth))
            if self.blocks and _LIST_BLOCK.match(self.blocks[-1]) and _LIST_LEVEL.search(str(node.get("class"))):
                self.blocks[-1] += "\n" + lines  # Google Docs: one list written as a run of flat lists
            else:
                self.blocks.append(lines)
        elif name == "table":
            self.flush()
            self.blocks.append(self.table(node))
        elif name == "pre":
            self.flush()
            self.blocks.append(f"```\n{node.get_text().strip(chr(10))}\n```")
        elif name == "blockquote":
            self.flush()
            inner = _Writer(self.bold_classes)
            inner.block(node)
            self.blocks += ["\n".join(f"> {line}" for line in b.split("\n")) for b in inner.blocks]
        elif name == "ac:structured-macro":
            self.macro(node, depth)
        elif name in ("ac:link", "ri:page"):
            self.line.append(self.inline(node))
        elif name == "p" and "title" in (node.get("class") or []):  # Google Docs: the Title style
            self.flush()
            self.blocks.append(f"# {' '.join(self.inline(node).replace('**', '').split())}")
        elif name in _BLOCKS or name.startswith(("ac:", "ri:")) or name in ("li", "tr", "td", "th"):
            self.flush()
            self.block(node, depth)
        else:
            self.line.append(self.inline(node))

    def macro(self, node: Tag, depth: int) -> None:
        """Storage-format macros: panels, info boxes and expands unwrapped (an expand's title as
        its first line), code as a fence, status as its word, navigation macros dropped."""
        macro = node.get("ac:name", "")
        if macro in _MACROS_DROPPED:
            return
        if macro == "status":
            self.line.append(self._inline_macro(node))
            return
        self.flush()
        plain_body = node.find("ac:plain-text-body")
        if macro in ("code", "noformat") and isinstance(plain_body, Tag):
            self.blocks.append(f"```\n{plain_body.get_text().strip(chr(10))}\n```")
            return
        title = node.find("ac:parameter", attrs={"ac:name": "title"})
        if isinstance(title, Tag) and title.get_text(strip=True):
            self.blocks.append(f"**{_escape(title.get_text(strip=True))}**")
        body = node.find("ac:rich-text-body")
        if isinstance(body, Tag):
            self.block(body, depth)

    def list_lines(self, node: Tag, depth: int) -> list[str]:
        level = depth
        found = _LIST_LEVEL.search(" ".join(node.get("class") or []))
        if found:
            level = int(found.group(1))
        lines = []
        items = node.find_all(["li", "ac:task"], recursive=False)
        start = str(node.get("start") or "1").strip()  # <ol start="2">: a list its Markdown numbered from 2
        for number, item in enumerate(items, int(start) if start.isdigit() and len(start) <= 9 else 1):
            nested = [c for c in item.children if isinstance(c, Tag) and c.name in ("ul", "ol", "ac:task-list")]
            inner = _Writer(self.bold_classes)
            for child in item.children:
                if child in nested:
                    continue
                if isinstance(child, Tag) and child.name not in ("a", "span", "strong", "b", "em", "i", "code"):
                    inner.element(child, level + 1)
                else:
                    inner.line.append(inner.inline(child))
            inner.flush()
            self.links += inner.links
            self.outside += inner.outside
            marker = f"{'  ' * level}{number}. " if node.name == "ol" else f"{'  ' * level}- "
            lines += _item_lines(marker, [b for b in inner.blocks if b.strip()])
            for sub in nested:
                lines += self.list_lines(sub, level + 1)
        return lines

    def table(self, node: Tag) -> str:
        rows = []
        for row in node.find_all("tr"):
            if row.find_parent("table") is not node:
                continue  # a table inside a cell is read as the cell's text
            cells = []
            for cell in row.find_all(["td", "th"], recursive=False):
                inner = _Writer(self.bold_classes)
                inner.block(cell)
                self.links += inner.links
                self.outside += inner.outside
                text = "; ".join(" ".join(b.split()) for b in inner.blocks)
                cells.append(text.replace("|", "\\|").replace("\n", "; "))
            if any(cells):
                rows.append(cells)
        if not rows:
            return ""
        width = max(len(r) for r in rows)
        lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
        lines.insert(1, "|" + " --- |" * width)
        return "\n".join(lines)


def _item_lines(marker: str, blocks: list[str]) -> list[str]:
    """A list item as Markdown writes it: its first block after the marker, the others (a second
    paragraph, a quote, code, a table) each after a blank line, indented under the item's text."""
    indent = " " * len(marker)
    lines: list[str] = []
    for number, block in enumerate(blocks):
        if number:
            lines.append("")
        for row, line in enumerate(block.split("\n")):
            lines.append(f"{marker}{line}" if number == row == 0 else f"{indent}{line}" if line else "")
    return lines


def _kind_and_root(soup: BeautifulSoup) -> tuple[str, Tag]:
    main = soup.find(id="main-content")
    if isinstance(main, Tag):
        return "Confluence page", main
    if soup.find(re.compile(r"^ac:")) is not None or soup.find(re.compile(r"^ri:")) is not None:
        return "Confluence storage format", soup
    generator = soup.find("meta", attrs={"name": "generator"})
    if soup.find(class_="doc-content") is not None or "lst-kix_" in str(soup.find("style") or ""):
        root = soup.find(class_="doc-content") or soup.body or soup
        return "Google Docs web page", root if isinstance(root, Tag) else soup
    for candidate in (soup.find("main"), soup.find("article"), soup.body):
        if isinstance(candidate, Tag):
            kind = "web page" if generator is None else f"web page ({generator.get('content', '')})".replace(" ()", "")
            return kind, candidate
    return "web page", soup


def kept_meta(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The (name, value) pairs a document says about itself that the Markdown reader takes as
    front matter (a page's <meta> tags, a Word file's custom properties): the first of each name."""
    meta: dict[str, Any] = {}
    for name, content in pairs:
        key, value = name.strip().lower(), content.strip()
        key = _META_DATES.get(key, key)
        if value and key in _META_KEYS and key not in meta:
            meta[key] = value
    return meta


def _head_meta(soup: BeautifulSoup) -> dict[str, Any]:
    return kept_meta(
        (str(tag.get("name") or tag.get("property") or ""), str(tag.get("content") or ""))
        for tag in soup.find_all("meta")
    )


def _confluence_meta(soup: BeautifulSoup, meta: dict[str, Any]) -> str | None:
    """The page title without its space, and the page's creation as when it was published (the
    Markdown reader takes a published date only when the text names no earlier incident day)."""
    title_tag = soup.find(id="title-text") or soup.find("title")
    title = _SPACE_PREFIX.sub("", title_tag.get_text(" ", strip=True)) if isinstance(title_tag, Tag) else None
    info = soup.find(class_="page-metadata")
    created = _CREATED.search(info.get_text(" ", strip=True)[:CREATED_CHARS]) if isinstance(info, Tag) else None
    if created:
        meta.setdefault("published", created.group("date"))
        meta.setdefault("author", created.group("author").strip())
    return title or None


def read_page(data: bytes | str) -> Page:
    """A saved page as Markdown with its front matter; never raises for odd markup."""
    soup = BeautifulSoup(data, "html.parser")
    kind, root = _kind_and_root(soup)
    meta = _head_meta(soup)
    title = _confluence_meta(soup, meta) if kind == "Confluence page" else None
    for noise in root.select("#breadcrumb-section, .pageSection, #footer, .page-metadata, .toc-macro, .hidden"):
        noise.decompose()
    styles = " ".join(s.get_text() for s in soup.find_all("style"))
    writer = _Writer(set(_BOLD_CLASS.findall(styles.replace(" ", ""))))
    writer.block(root)
    blocks = [b for b in writer.blocks if b.strip()]
    has_h1 = any(b.startswith("# ") for b in blocks)
    if title is None and not has_h1 and "title" not in meta:
        head_title = soup.find("title")
        title = head_title.get_text(" ", strip=True) if isinstance(head_title, Tag) else None
    if title and not (blocks and blocks[0].lstrip("# ").strip() == title):
        blocks.insert(0, f"# {_escape(title)}")
    return Page(kind, "\n\n".join(blocks) + "\n", meta, writer.links, writer.outside)
