"""Word files (.docx, and Google Docs' "download as Word") → the HTML reader → the Markdown path.

mammoth turns the document into plain semantic HTML: paragraphs by style ("Heading 1" → <h1>,
"Title" → <h1>), Word's numbered and bulleted lists as nested <ul>/<ol>, tables as <table>. It
is pure Python and ignores what a postmortem does not need (fonts, colours, images), so one HTML
reader (html.py) serves web pages and Word files alike.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import mammoth

from bot.importer.drafts import Rejected
from bot.importer.html import Page, kept_meta, read_page

MAX_UNPACKED_BYTES = 200 * 1024 * 1024  # a .docx is a zip: its parts are bounded before reading
STYLE_MAP = """
p[style-name='Title'] => h1:fresh
p[style-name='Subtitle'] => p:fresh
p[style-name='Quote'] => blockquote > p:fresh
p[style-name='Intense Quote'] => blockquote > p:fresh
p[style-name='List Bullet'] => ul > li:fresh
p[style-name='List Bullet 2'] => ul|ol > li > ul > li:fresh
p[style-name='List Number'] => ol > li:fresh
p[style-name='List Number 2'] => ul|ol > li > ol > li:fresh
p[style-name='Code'] => pre:separator('\\n')
p[style-name='macro'] => pre:separator('\\n')
p[style-name='Macro Text'] => pre:separator('\\n')
p[style-name='Source Code'] => pre:separator('\\n')
p[style-name='HTML Preformatted'] => pre:separator('\\n')
r[style-name='HTML Code'] => code
r[style-name='Source Code Char'] => code
"""
# Inline code in Word is mostly a run in a fixed-width font (Google Docs' export, a pasted
# snippet) rather than a character style: read as <code> like a web page's, so the Markdown path
# sees the same `marks` (the reader never picks a sentence quoting code as a cause or fix)
MONOSPACE_FONTS = frozenset(
    ("courier", "courier new", "consolas", "menlo", "monaco", "lucida console", "roboto mono",
     "source code pro", "fira code", "fira mono", "dejavu sans mono", "inconsolata", "jetbrains mono")
)  # fmt: skip


def _monospace_as_code(run: mammoth.documents.Run) -> mammoth.documents.Run:
    if run.style_name is None and (run.font or "").strip().lower() in MONOSPACE_FONTS:
        return run.copy(style_name="HTML Code")
    return run


def read_docx(data: bytes) -> Page:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if "word/document.xml" not in archive.namelist():
                raise Rejected("not a Word document (no word/document.xml inside)")
            properties = _document_properties(archive)
    except zipfile.BadZipFile as exc:
        raise Rejected("not a Word .docx file (not a zip archive; an old .doc must be saved as .docx)") from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise Rejected(f"unpacks to {unpacked:,} bytes (at most {MAX_UNPACKED_BYTES:,})")
    try:
        result = mammoth.convert_to_html(
            io.BytesIO(data), style_map=STYLE_MAP, transform_document=mammoth.transforms.run(_monospace_as_code)
        )
    except Exception as exc:  # noqa: BLE001 - a damaged part: the file is refused, never the run
        raise Rejected(f"the Word document could not be read ({type(exc).__name__}: {exc})") from exc
    page = read_page(result.value)
    page.kind = "Word document"
    page.meta = {**properties, **page.meta}
    return page


# "created" is when the document was written: read as a blog post's date (metadata.read_dates:
# used only when the text names no earlier day in the two years before it)
_CORE = {"{http://purl.org/dc/elements/1.1/}title": "title", "{http://purl.org/dc/terms/}created": "date"}
_CUSTOM = "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}property"
MAX_PROPERTIES_BYTES = 1024 * 1024


def _part(archive: zipfile.ZipFile, name: str) -> ElementTree.Element | None:
    try:
        info = archive.getinfo(name)
        if info.file_size > MAX_PROPERTIES_BYTES:
            return None
        return ElementTree.fromstring(archive.read(info))
    except (KeyError, ElementTree.ParseError):
        return None


def _document_properties(archive: zipfile.ZipFile) -> dict[str, str]:
    """The document's title and when it was created, then the custom properties a page's <meta>
    tags would say (severity, service…: pandoc writes a Markdown file's other front matter there,
    Word users set them under File > Properties > Custom)."""
    found = {}
    core, custom = _part(archive, "docProps/core.xml"), _part(archive, "docProps/custom.xml")
    for element in core if core is not None else ():
        name = _CORE.get(element.tag)
        if name and (element.text or "").strip():
            found[name] = element.text.strip()
    properties = custom.iter(_CUSTOM) if custom is not None else ()
    pairs = ((p.get("name") or "", "".join(p.itertext())) for p in properties)
    return {**kept_meta(pairs), **found}
