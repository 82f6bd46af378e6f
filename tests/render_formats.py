"""A Markdown postmortem rendered as the other formats teams keep them in, for the import's
format-equivalence figures (tests/test_import_formats.py, bench/import_formats.py):

    as_html   markdown-it-py's HTML, the front matter as <title> and <meta name=…> in the head
    as_docx   a Word file written with python-docx: headings by style ("Title", "Heading n"),
              lists as "List Bullet"/"List Number" paragraphs, tables as Word tables, links as
              hyperlinks, inline code as Courier New runs, the front matter's title and date as
              the document's title and "created" properties and its other fields (severity,
              service, resolved…) as custom properties, as pandoc writes a Markdown file's
              metadata (docProps/custom.xml, File > Properties > Custom in Word); only the styles the document
              uses (as Google Docs' export writes them), or with template_styles=True all of
              python-docx's Word template (350 KB of styles.xml: mammoth's parse of it was most of
              the time of reading such a file, ~0.35 s a file against ~0.02 s)

Nothing here reads: the readers under test are bot/importer/html.py and docx.py.
"""

from __future__ import annotations

import html
import io
import re
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.importer.dates import parse_date
from bot.importer.document import _front_matter

_MARKDOWN = MarkdownIt("commonmark").enable("table")


def _scalar(value: Any) -> str | None:
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(str(v) for v in value)
    return str(value) if isinstance(value, str | int | float | date) else None


def as_html(markdown: str) -> str:
    meta, body, _ = _front_matter(markdown.replace("\r\n", "\n"))
    head = [f"<title>{html.escape(str(meta['title']))}</title>"] if isinstance(meta.get("title"), str) else []
    for key, value in meta.items():
        text = _scalar(value)
        if text is not None:
            head.append(f'<meta name="{html.escape(key)}" content="{html.escape(text)}">')
    return f"<!DOCTYPE html>\n<html><head>{''.join(head)}</head>\n<body>\n{_MARKDOWN.render(body)}</body></html>\n"


# Markdown's inline HTML is markup, not words: a <br> is the line break a Word user types
# (Shift+Enter), any other tag (<span class="timestamp">, <sub>) is gone and its text kept
_BREAK_TAG = re.compile(r"<br\s*/?>", re.I)


def _inline_words(child: Token) -> str:
    if child.type == "html_inline":
        return "\n" if _BREAK_TAG.fullmatch(child.content.strip()) else ""
    return {"softbreak": " ", "hardbreak": "\n"}.get(child.type, child.content)


def _inline_text(token: Token) -> str:
    kinds = ("text", "code_inline", "html_inline", "softbreak", "hardbreak")
    return "".join(_inline_words(child) for child in token.children or [] if child.type in kinds)


def _runs(paragraph: Any, token: Token) -> None:
    """The inline's text as runs, bold where Markdown was strong and italic where emphasised (the
    reader keeps them as `**` and `*`), a link as Word's hyperlink (to its address, or to a bookmark
    for "#anchor")."""
    bold = italic = False
    link: list[tuple[str, bool]] | None = None  # the text of the link being written, code or not
    href = ""
    for child in token.children or []:
        if child.type == "strong_open":
            bold = True
        elif child.type == "strong_close":
            bold = False
        elif child.type in ("em_open", "em_close"):
            italic = child.type == "em_open"
        elif child.type == "link_open":
            link, href = [], str(child.attrs.get("href") or "")
        elif child.type == "link_close" and link is not None:
            _hyperlink(paragraph, href, link)
            link = None
        elif child.type in ("text", "code_inline", "html_inline", "softbreak", "hardbreak"):
            text = _inline_words(child)
            if not text:
                continue
            if link is not None:
                link.append((text, child.type == "code_inline"))
                continue
            run = paragraph.add_run(text)
            run.bold = bold or None
            run.italic = italic or None
            if child.type == "code_inline":
                run.font.name = "Courier New"  # inline code as Word users and Google Docs keep it


def _hyperlink(paragraph: Any, href: str, parts: list[tuple[str, bool]]) -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    element = OxmlElement("w:hyperlink")
    if href.startswith("#"):
        element.set(qn("w:anchor"), href[1:])
    else:
        element.set(qn("r:id"), paragraph.part.relate_to(href, RELATIONSHIP_TYPE.HYPERLINK, is_external=True))
    for text, code in parts:
        run, words = OxmlElement("w:r"), OxmlElement("w:t")
        if code:
            properties, fonts = OxmlElement("w:rPr"), OxmlElement("w:rFonts")
            fonts.set(qn("w:ascii"), "Courier New")
            fonts.set(qn("w:hAnsi"), "Courier New")
            properties.append(fonts)
            run.append(properties)
        words.text = text
        words.set(qn("xml:space"), "preserve")
        run.append(words)
        element.append(run)
    paragraph._p.append(element)


def _keep_used_styles(doc: Any) -> None:
    """Drop the styles the body never names (nor those it names are based on, linked to or
    followed by, nor the defaults) and the latent-style list: the document reads the same."""
    from docx.oxml.ns import qn

    styles = doc.styles.element
    by_id = {s.get(qn("w:styleId")): s for s in styles.iter(qn("w:style"))}
    named = [
        e.get(qn("w:val")) for tag in ("w:pStyle", "w:rStyle", "w:tblStyle") for e in doc.element.body.iter(qn(tag))
    ]
    todo = named + [i for i, s in by_id.items() if s.get(qn("w:default")) in ("1", "true")]
    kept: set[str] = set()
    while todo:
        style_id = todo.pop()
        if style_id in kept or style_id not in by_id:
            continue
        kept.add(style_id)
        for tag in ("w:basedOn", "w:link", "w:next"):
            ref = by_id[style_id].find(qn(tag))
            if ref is not None:
                todo.append(ref.get(qn("w:val")))
    for style_id, style in by_id.items():
        if style_id not in kept:
            styles.remove(style)
    for latent in styles.findall(qn("w:latentStyles")):
        styles.remove(latent)


_CUSTOM_PROPERTIES_XML = (
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">{}</Properties>'
)


def _custom_properties(doc: Any, fields: dict[str, str]) -> None:
    """The fields as Word's custom document properties (text, as pandoc writes them): a part of
    their own, related from the package."""
    from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    rows = "".join(
        f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{pid}" name="{html.escape(name)}">'
        f"<vt:lpwstr>{html.escape(value, quote=False)}</vt:lpwstr></property>"
        for pid, (name, value) in enumerate(fields.items(), 2)
    )
    package = doc.part.package
    part = Part(
        PackURI("/docProps/custom.xml"), CONTENT_TYPE.OFC_CUSTOM_PROPERTIES,
        _CUSTOM_PROPERTIES_XML.format(rows).encode(), package,
    )  # fmt: skip
    package.relate_to(part, RELATIONSHIP_TYPE.CUSTOM_PROPERTIES)


class _VisibleText(HTMLParser):
    """An HTML block's words as a browser shows them, one (style, line) per block of text: a
    <details>' summary, a figure's caption, a <div>'s paragraphs; comments, images and scripts
    show nothing."""

    _BLOCKS = frozenset(("p", "div", "details", "summary", "figure", "figcaption", "blockquote", "pre", "center",
                         "li", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "br", "hr"))  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[str | None, str]] = []
        self.open: list[str] = []
        self.hidden = 0
        self.text: list[str] = []

    def _end_line(self) -> None:
        text, self.text = "".join(self.text), []
        style = "macro" if "pre" in self.open else "Quote" if "blockquote" in self.open else None
        rows = text.split("\n") if style == "macro" else [" ".join(text.split())]
        self.lines += [(style, row) for row in rows if row.strip()]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.hidden += 1
        elif tag in self._BLOCKS:
            self._end_line()
            if tag not in ("br", "hr"):
                self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self.hidden = max(0, self.hidden - 1)
        elif tag in self._BLOCKS:
            self._end_line()
            if tag in self.open:
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)


def _html_block_lines(content: str) -> list[tuple[str | None, str]]:
    parser = _VisibleText()
    parser.feed(content)
    parser.close()
    parser._end_line()
    return parser.lines


def as_docx(markdown: str, *, template_styles: bool = False) -> bytes:
    from docx import Document  # the test extra: only the renderer writes Word files

    meta, body, _ = _front_matter(markdown.replace("\r\n", "\n"))
    doc = Document()
    if isinstance(meta.get("title"), str):
        doc.core_properties.title = meta["title"]
    # the front matter's date is when the post was written, which is what Word's "created" says;
    # without one, python-docx's template would say 2013-12-23: the property is left out instead
    moment = meta.get("date")
    moment = parse_date(moment) if isinstance(moment, str) else moment
    if isinstance(moment, datetime):  # Word keeps the moment, in UTC (a time without a zone taken as UTC)
        doc.core_properties.created = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    elif isinstance(moment, date):
        doc.core_properties.created = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
    else:
        for element in list(doc.core_properties._element):
            if element.tag.endswith("}created"):
                doc.core_properties._element.remove(element)
    custom = {str(k): _scalar(v) for k, v in meta.items() if str(k) not in ("title", "date")}
    if any(custom.values()):
        _custom_properties(doc, {k: v for k, v in custom.items() if v})
    tokens = _MARKDOWN.parse(body)
    lists: list[str] = []  # "bullet" / "ordered", innermost last
    in_item = 0
    quoted = 0  # inside a blockquote: Word's "Quote" style
    table: list[list[Token]] | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            _runs(doc.add_heading(level=int(token.tag[1])), tokens[i + 1])
            i += 2
        elif kind in ("bullet_list_open", "ordered_list_open"):
            lists.append("bullet" if kind.startswith("bullet") else "ordered")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind in ("blockquote_open", "blockquote_close"):
            quoted += 1 if kind.endswith("open") else -1
        elif kind == "list_item_open":
            in_item = 1
        elif kind == "table_open":
            table = []
        elif kind == "tr_open" and table is not None:
            table.append([])
        elif kind == "inline" and table is not None:
            table[-1].append(token)
        elif kind == "table_close" and table:
            grid = doc.add_table(rows=len(table), cols=max(len(r) for r in table))
            for r, row in enumerate(table):
                for c, cell in enumerate(row):
                    _runs(grid.cell(r, c).paragraphs[0], cell)  # a cell's bold, code and links as the text's
            table = None
        elif kind == "inline":
            text = _inline_text(token)
            if lists and in_item:
                style = "List Bullet" if lists[-1] == "bullet" else "List Number"
                _runs(doc.add_paragraph(style=style if len(lists) == 1 else f"{style} 2"), token)
                in_item = 0
            elif text.strip():
                _runs(doc.add_paragraph(style="Quote" if quoted else None), token)
        elif kind == "html_block":  # raw HTML in the Markdown: its visible words, as a reader of the page sees them
            for style, line in _html_block_lines(token.content):
                doc.add_paragraph(line, style=style)
        elif kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                doc.add_paragraph(line, style="macro")  # Word's "Macro Text": its style for code
        i += 1
    if not template_styles:
        _keep_used_styles(doc)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
