"""A Markdown postmortem rendered as the other formats teams keep them in, for the import's
format-equivalence figures (tests/test_import_formats.py, bench/import_formats.py):

    as_html   markdown-it-py's HTML, the front matter as <title> and <meta name=…> in the head
    as_docx   a Word file written with python-docx: headings by style ("Title", "Heading n"),
              lists as "List Bullet"/"List Number" paragraphs, tables as Word tables, links as
              hyperlinks, inline code as Courier New runs, the front matter's title and date as
              the document's title and "created" properties; only the styles the document
              uses (as Google Docs' export writes them), or with template_styles=True all of
              python-docx's Word template (350 KB of styles.xml: mammoth's parse of it was most of
              the time of reading such a file, ~0.35 s a file against ~0.02 s)

Nothing here reads: the readers under test are bot/importer/html.py and docx.py.
"""

from __future__ import annotations

import html
import io
from datetime import UTC, date, datetime
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


def _inline_text(token: Token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak",):
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
    return "".join(parts)


def _runs(paragraph: Any, token: Token) -> None:
    """The inline's text as runs, bold where Markdown was strong (the reader keeps it as `**`), a
    link as Word's hyperlink (to its address, or to a bookmark for "#anchor")."""
    bold = False
    link: list[tuple[str, bool]] | None = None  # the text of the link being written, code or not
    href = ""
    for child in token.children or []:
        if child.type == "strong_open":
            bold = True
        elif child.type == "strong_close":
            bold = False
        elif child.type == "link_open":
            link, href = [], str(child.attrs.get("href") or "")
        elif child.type == "link_close" and link is not None:
            _hyperlink(paragraph, href, link)
            link = None
        elif child.type in ("text", "code_inline", "html_inline", "softbreak", "hardbreak"):
            text = {"softbreak": " ", "hardbreak": "\n"}.get(child.type, child.content)
            if link is not None:
                link.append((text, child.type == "code_inline"))
                continue
            run = paragraph.add_run(text)
            run.bold = bold or None
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
    if isinstance(moment, date):
        doc.core_properties.created = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
    else:
        for element in list(doc.core_properties._element):
            if element.tag.endswith("}created"):
                doc.core_properties._element.remove(element)
    tokens = _MARKDOWN.parse(body)
    lists: list[str] = []  # "bullet" / "ordered", innermost last
    in_item = 0
    quoted = 0  # inside a blockquote: Word's "Quote" style
    table: list[list[str]] | None = None
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
            table[-1].append(_inline_text(token))
        elif kind == "table_close" and table:
            grid = doc.add_table(rows=len(table), cols=max(len(r) for r in table))
            for r, row in enumerate(table):
                for c, cell in enumerate(row):
                    grid.cell(r, c).text = cell
            table = None
        elif kind == "inline":
            text = _inline_text(token)
            if lists and in_item:
                style = "List Bullet" if lists[-1] == "bullet" else "List Number"
                _runs(doc.add_paragraph(style=style if len(lists) == 1 else f"{style} 2"), token)
                in_item = 0
            elif text.strip():
                _runs(doc.add_paragraph(style="Quote" if quoted else None), token)
        elif kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                doc.add_paragraph(line, style="macro")  # Word's "Macro Text": its style for code
        i += 1
    if not template_styles:
        _keep_used_styles(doc)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
