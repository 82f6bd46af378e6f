"""Postmortems kept as web pages and Word files (issue 30): Confluence (page export, storage
format, space export folder or zip), Google Docs (web page, .docx), any saved page. Each is read
into the Markdown reader's document model, so it gives what its Markdown would give.

The figure the issue asks for is over eval/postmortems (real documents): bench/import_formats.py
prints it per field; here it is asserted. The fixtures under tests/fixtures/formats/ are written
by us in the vendors' documented shapes: behaviour checks, not a quality measure.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path, PurePath

import pytest

from bench.import_formats import compare, recorded_sample
from bench.import_postmortems import held_out_postmortems
from bot.config import PROJECT_ROOT
from bot.importer.formats import FoundFile, parse_file
from bot.importer.scoring import load_truth
from bot.memory.postgres import PostgresMemoryStore
from tests.render_formats import as_docx, as_html
from tests.test_import import POSTMORTEM, cli, statuses  # noqa: F401 - the `cli` fixture, shared

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
CORPUS = PROJECT_ROOT / "eval" / "postmortems"
SPACE = FIXTURES / "confluence-space"


def read(path: Path, relative: str | None = None):  # noqa: ANN201 - ParsedFile
    return parse_file(FoundFile(path, PurePath(relative or path.name)), team_id="T")


@pytest.mark.skipif(not (CORPUS / "truth.jsonl").is_file(), reason="eval/postmortems is not in this checkout")
def test_real_postmortems_read_the_same_as_html_and_as_word_files() -> None:
    # a recorded sample of ~30 reports (bench/import_formats_sample.txt, its rule in its header: one in 34 at
    # 331bcb2), so the corpus growing does not move it (review F36); the whole corpus, per field, is
    # bench/import_formats.py's figure (docs/BENCHMARKS.md). bench/held_out_postmortems.tsv's files (the next
    # postmortem judge) are never in it: a failure here prints the files and fields that differ, and a judge's
    # documents are not printed.
    held = held_out_postmortems()
    reports = {t.file for t in load_truth(CORPUS / "truth.jsonl") if not t.not_an_incident}
    sample = recorded_sample()
    assert len(sample) >= 20 and set(sample) <= reports and not set(sample) & held
    for suffix, tally in compare(CORPUS, only=sample, leave_out=held).items():
        same, total = len(tally["same"]), len(tally["same"]) + len(tally["differ"])
        assert total == 4 * len(sample)
        assert same / total >= 0.95, (suffix, tally["differ"])  # the target


def test_a_confluence_page_export_gives_its_title_id_fields_and_timeline() -> None:
    parsed = read(SPACE / "OPS" / "Checkout-outage-2024-03-02_65541.html", "OPS/Checkout-outage-2024-03-02_65541.html")
    assert parsed.format == "Confluence page"
    [draft] = parsed.drafts
    assert draft.incident_id == "confluence-65541"  # the page id: a renamed page stays the same memory
    assert draft.title == "Checkout outage 2024-03-02"  # without the space's name
    assert draft.occurred_at.date().isoformat() == "2024-03-02"
    assert draft.service == "checkout" and draft.severity == "SEV2"
    assert "pool was capped at 20" in draft.root_cause
    assert draft.provenance.fields["root_cause"] == "section 'Root cause'"
    assert "Raised the orders database pool size back to 100" in draft.resolution
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Restarted the checkout pods"]
    assert "Attachments" not in (draft.symptoms or "") and "Summary" not in (draft.symptoms or "")[:8]


def test_the_storage_format_unwraps_panels_info_expand_and_reads_time_and_status() -> None:
    parsed = read(FIXTURES / "storage-format.html")
    assert parsed.format == "Confluence storage format"
    [draft] = parsed.drafts
    assert draft.title == "Storage format"  # the storage format has no title: the file's name
    assert draft.occurred_at.date().isoformat() == "2024-03-02"  # <time datetime="2024-03-02" />
    assert draft.service == "payments-api"
    assert "502 for every charge" in draft.symptoms  # inside a panel macro
    assert "certificate of the card processor" in draft.root_cause  # inside an info macro
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Restarted the payments pods"]  # in an expand
    assert "Add more details" not in parsed.text and "maxLevel" not in parsed.text  # placeholder, toc dropped
    assert "RESOLVED" in parsed.text  # the status macro's word


def test_a_google_docs_web_page_reads_its_title_style_bold_labels_and_flat_lists() -> None:
    parsed = read(FIXTURES / "google-docs-web-page.html")
    assert parsed.format == "Google Docs web page"
    [draft] = parsed.drafts
    assert draft.title == "Search outage: Elasticsearch heap exhausted"
    assert draft.occurred_at.date().isoformat() == "2024-02-11" and draft.severity == "SEV2"
    assert draft.root_cause.startswith("A new autocomplete feature")  # a bold paragraph is a heading
    assert [a.action.split(",")[0] for a in draft.failed_attempts] == ["Restarted the data nodes"]
    assert "the restart only bought five minutes" in parsed.text.split("09:37")[0]  # one list, nested


def test_a_word_file_reads_headings_by_style_lists_and_tables(tmp_path: Path) -> None:
    path = tmp_path / "search-outage.docx"
    path.write_bytes(as_docx(POSTMORTEM, template_styles=True))  # all of Word's styles, as Word saves them
    parsed = read(path)
    assert parsed.format == "Word document"
    [draft] = parsed.drafts
    assert draft.title == "Search API timeouts: Elasticsearch heap exhausted by a wildcard query"
    assert draft.service == "search" and draft.occurred_at.date().isoformat() == "2025-03-02"
    assert draft.root_cause.startswith("A new autocomplete feature")
    assert len(draft.failed_attempts) == 2


def test_a_broken_word_file_is_rejected_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "old.docx").write_bytes(b"\xd0\xcf\x11\xe0 an old binary .doc renamed")
    parsed = read(tmp_path / "old.docx")
    assert parsed.error and "not a Word .docx file" in parsed.error and not parsed.skipped


async def test_a_space_export_zip_imports_its_incident_page_and_skips_the_rest_with_reasons(
    cli,
    store: PostgresMemoryStore,
    tmp_path: Path,  # noqa: F811
) -> None:
    archive = tmp_path / "OPS-export.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(SPACE.rglob("*")):
            if path.is_file():
                out.write(path, path.relative_to(SPACE).as_posix())
    code, out, err = await cli("import", "--dry-run", str(archive))
    assert code == 0, err
    assert "_65541.html  confluence-65541\n           found: title, occurred_at" in out
    assert "read as: Confluence page" in out
    assert "Postmortems_65540.html: a navigation page: 2 links" in out
    assert "index.html: the space export's index page" in out
    assert "65600.txt: an attachment of Confluence page 65541" in out
    assert (await store.list("local")).total == 0

    code, out, err = await cli("import", str(archive))
    assert code == 0, err
    assert statuses(out)["Checkout-outage-2024-03-02_65541.html"] == "imported"
    memory = await store.get("local", "confluence-65541")
    assert memory is not None and memory.provenance.file == "OPS/Checkout-outage-2024-03-02_65541.html"

    # the same export unpacked is the same memory; an edited page is a new revision with --update
    unpacked = tmp_path / "unpacked"
    shutil.copytree(SPACE, unpacked)
    assert statuses((await cli("import", str(unpacked)))[1])["Checkout-outage-2024-03-02_65541.html"] == "unchanged"
    page = unpacked / "OPS" / "Checkout-outage-2024-03-02_65541.html"
    page.write_text(page.read_text().replace("capped at 20", "capped at 10"))
    code, out, _ = await cli("import", str(unpacked))
    assert code != 0 and "differs from the stored memory in root_cause" in out
    code, out, _ = await cli("import", "--update", str(unpacked))
    assert code == 0 and "supersedes confluence-65541" in out


async def test_html_rendered_from_markdown_and_the_markdown_are_one_memory(cli, store, tmp_path: Path) -> None:  # noqa: F811
    (tmp_path / "md").mkdir()
    (tmp_path / "html").mkdir()
    (tmp_path / "md" / "search-outage.md").write_text(POSTMORTEM)
    (tmp_path / "html" / "search-outage.html").write_text(as_html(POSTMORTEM))
    assert (await cli("import", str(tmp_path / "md")))[0] == 0
    code, out, _ = await cli("import", str(tmp_path / "html"))
    assert code == 0 and statuses(out)["search-outage.html"] == "unchanged", out


STATUS_POST = """---
title: "Slow checkout"
---
At 19:24 we were told that checkout was slow.

***Investigating*** {{< track "2024-06-21T19:52:00+01:00" >}}
Checkout was slow because the payments proxy was exhausted; see
[the provider's advisory](https://status.example.com/incidents/42) and <ops@example.com>.

***Resolved*** {{< track "2024-06-21T21:49:00+01:00" >}}
All systems are back to normal now.

## Timeline

- 2024-06-21:
    the proxy pool is exhausted
    and checkout slows down
- 2024-06-22 09:10:
    we restarted the proxy and service is restored
"""


def test_a_page_keeps_its_links_and_reads_shortcodes_and_wrapped_items_as_its_markdown_does(tmp_path: Path) -> None:
    (tmp_path / "slow-checkout.md").write_text(STATUS_POST)
    (tmp_path / "slow-checkout.html").write_text(as_html(STATUS_POST))
    [markdown] = read(tmp_path / "slow-checkout.md").drafts
    [page] = read(tmp_path / "slow-checkout.html").drafts  # a Hugo shortcode is not a template's blank
    for draft in (markdown, page):
        assert draft.title == "Slow checkout"
        assert draft.occurred_at.date().isoformat() == "2024-06-21"  # the item's date, its text on the next line
        assert "[the provider's advisory](https://status.example.com/incidents/42)" in draft.root_cause
        assert "<ops@example.com>" in draft.root_cause  # an address that is its own text: an autolink
        assert "we restarted the proxy and service is restored" in draft.resolution
    assert page.root_cause.replace("*", "") == markdown.root_cause.replace("*", "")  # emphasis is not kept


WRAPPED_TIMELINE = """# Phishing domain taken down

## Timeline

- 12:38 the project owner confirms the removal of 0.5.15
- 12:54 the project owner confirms the removal of 0.5.16

    > The first release is gone.
    > The second one too.

After the registrar placed the domain on hold,
the project was back to normal for every user.
"""


def test_a_wrapped_paragraph_after_the_timeline_stays_prose_as_its_web_page_has_it(tmp_path: Path) -> None:
    (tmp_path / "phishing.md").write_text(WRAPPED_TIMELINE)
    (tmp_path / "phishing.html").write_text(as_html(WRAPPED_TIMELINE))
    [markdown] = read(tmp_path / "phishing.md").drafts
    [page] = read(tmp_path / "phishing.html").drafts
    # the paragraph's second line is not the 12:54 entry's: that entry did not resolve anything
    assert "12:54" not in (markdown.resolution or "")
    assert (markdown.resolution, markdown.root_cause) == (page.resolution, page.root_cause)


def test_a_google_docs_link_is_its_target_and_a_confluence_mention_is_the_persons_name(tmp_path: Path) -> None:
    page = tmp_path / "gdoc.html"
    page.write_text(
        '<html><head><style>.c1{font-weight:700}</style></head><body class="doc-content">'
        '<p class="title"><span>Login outage</span></p><h2>Root cause</h2><p><span>The token cache expired, see '
        '<a href="https://www.google.com/url?q=https://status.example.com/42&amp;sa=D&amp;ust=1">the status page</a>'
        ' and ask <a class="confluence-userlink user-mention" href="/display/~jdoe">Jane Doe</a>.</span></p></body></html>'
    )
    [draft] = read(page).drafts
    assert "[the status page](https://status.example.com/42)" in draft.root_cause  # not Google's redirect
    assert "ask Jane Doe." in draft.root_cause  # a mention links to a profile: only the name is kept


CODE_IN_PROSE = """# Share price drop in the GUSD vault

## Root cause
Each `earn()` call on the crvGUSD vault changed the share price of the GUSD vault.

## Resolution
We deployed a new strategy and revoked the old one.
"""


def test_inline_code_in_a_word_file_stays_code_as_in_its_markdown(tmp_path: Path) -> None:
    from docx import Document

    (tmp_path / "vault.md").write_text(CODE_IN_PROSE)
    (tmp_path / "vault.docx").write_bytes(as_docx(CODE_IN_PROSE))  # `earn()` as a Courier New run
    [markdown] = read(tmp_path / "vault.md").drafts
    [word] = read(tmp_path / "vault.docx").drafts
    assert "`earn()`" in word.root_cause  # the reader never takes a sentence quoting code as a fix
    assert (word.root_cause, word.resolution) == (markdown.root_cause, markdown.resolution)
    doc = Document()  # a snippet typed in Consolas, as Word users keep it
    doc.add_heading("Disk full on the database host", level=1)
    doc.add_heading("Root cause", level=2)
    paragraph = doc.add_paragraph("The log rotation job ")
    paragraph.add_run("logrotate -f").font.name = "Consolas"
    paragraph.add_run(" was disabled during the migration.")
    doc.save(tmp_path / "disk.docx")
    [typed] = read(tmp_path / "disk.docx").drafts
    assert typed.root_cause == "The log rotation job `logrotate -f` was disabled during the migration."


STATUS_ENTRY = """---
title: Website issues
date: 2024-11-14 09:15:00
resolved: true
severity: disrupted
affected:
  - Website
---
09:30 UTC

We are seeing improvement in the reachability of the site and are monitoring the situation.

2024-11-12 09:15 UTC

We are aware of timeouts reaching the website and are investigating.
"""


def test_a_word_files_custom_properties_say_what_its_web_pages_meta_tags_say(tmp_path: Path) -> None:
    # pandoc writes a Markdown file's other front matter as custom properties (docProps/custom.xml)
    (tmp_path / "entry.md").write_text(STATUS_ENTRY)
    (tmp_path / "entry.docx").write_bytes(as_docx(STATUS_ENTRY))
    (tmp_path / "entry.html").write_text(as_html(STATUS_ENTRY))
    [markdown] = read(tmp_path / "entry.md").drafts
    [word] = read(tmp_path / "entry.docx").drafts  # without its severity, no word of an incident: not imported
    [page] = read(tmp_path / "entry.html").drafts
    for draft in (word, page):
        assert draft.severity == markdown.severity == "disrupted"
        assert draft.occurred_at.date() == markdown.occurred_at.date()  # an entry's date, not a post's


def test_a_word_files_custom_properties_are_read_only_for_what_a_postmortem_says(tmp_path: Path) -> None:
    from docx import Document

    doc = Document()
    doc.add_heading("Checkout outage", level=1)
    doc.add_heading("Root cause", level=2)
    doc.add_paragraph("The orders database pool was capped at 20 connections.")
    path = tmp_path / "checkout.docx"
    doc.save(path)
    with zipfile.ZipFile(path) as packed:
        parts = {name: packed.read(name) for name in packed.namelist()}
    parts["docProps/custom.xml"] = (
        b'<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
        b'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        b'<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Service"><vt:lpwstr>checkout'
        b'</vt:lpwstr></property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="Approver">'
        b"<vt:lpwstr>Jane</vt:lpwstr></property></Properties>"
    )  # as Word saves File > Properties > Custom
    with zipfile.ZipFile(path, "w") as packed:
        for name, data in parts.items():
            packed.writestr(name, data)
    parsed = read(path)
    [draft] = parsed.drafts
    assert draft.service == "checkout"
    assert "Approver" not in parsed.text and "Jane" not in parsed.text


RAW_HTML = """# Cache eviction closed live clients

## Root cause
PR #21717 overrode the eviction hook to close clients:

<details>
<summary>Problematic code added in PR #21717</summary>

```python
def remove_key(self, key): client.close()
```
</details>

## Resolution
The override was removed and the release rebuilt.<br>
<span class="timestamp">Sept 13, 09:50 PT</span>
"""


def test_raw_html_in_a_postmortem_reads_the_same_from_its_word_file(tmp_path: Path) -> None:
    (tmp_path / "cache.md").write_text(RAW_HTML)
    (tmp_path / "cache.docx").write_bytes(as_docx(RAW_HTML))  # a <br> a line break, a summary its words
    [markdown] = read(tmp_path / "cache.md").drafts
    [word] = read(tmp_path / "cache.docx").drafts
    assert "Problematic code added in PR #21717" in word.root_cause
    assert "<span" not in word.resolution and "&lt;" not in word.resolution
    for field in ("root_cause", "resolution"):  # a line break is a space in a memory's field
        assert " ".join(getattr(word, field).split()) == " ".join(getattr(markdown, field).split())


def test_a_link_whose_text_is_a_relative_address_keeps_its_text(tmp_path: Path) -> None:
    page = tmp_path / "lost-commits.html"
    page.write_text(
        "<html><body><h1>Commits lost after a reset</h1><h2>Resolution</h2><p>The commits were restored from the "
        'reflog, as <a href="recovery-procedures.md">recovery-procedures.md</a> says, and '
        '<a href="https://git-scm.com/docs/git-reflog">https://git-scm.com/docs/git-reflog</a> explains.</p>'
        "</body></html>"
    )
    [draft] = read(page).drafts
    # "<recovery-procedures.md>" is no autolink in Markdown (no scheme): it would read as a tag and vanish
    assert "[recovery-procedures.md](recovery-procedures.md)" in draft.resolution
    assert "<https://git-scm.com/docs/git-reflog>" in draft.resolution  # an absolute address is its own text


NUMBERED_FROM_TWO = """# Chat and taskbar issues

## Root cause

1. The chat did not render CJK characters.

- **Minor issues:**
  - the login page was slow

2. The taskbar failed for guests: a guest had no profile to load.

3. The taskbar fix was released the same day.
"""


def test_a_list_numbered_from_two_keeps_its_numbers_in_its_web_page(tmp_path: Path) -> None:
    (tmp_path / "chat.md").write_text(NUMBERED_FROM_TWO)
    (tmp_path / "chat.html").write_text(as_html(NUMBERED_FROM_TWO))  # <ol start="2">
    [markdown] = read(tmp_path / "chat.md").drafts
    [page] = read(tmp_path / "chat.html").drafts
    assert "2. The taskbar failed for guests" in read(tmp_path / "chat.html").text
    assert page.root_cause.replace("*", "") == markdown.root_cause.replace("*", "")


STATUS_UPDATES = """---
title: Service issue impacting the proton server
severity: disrupted
resolved: true
---
*Investigating* - We are investigating a potential issue that might affect the uptime of one of our services.

*Investigating -* We are continuing to mitigate issues impacting the server. Users may see 5XX errors.

*Recovery -* We are now seeing error rates return to normal now.

*Resolved -* At this time, we are marking this incident as resolved.
"""


def test_italic_status_labels_read_as_in_the_markdown_from_a_web_page_and_a_word_file(tmp_path: Path) -> None:
    (tmp_path / "proton.md").write_text(STATUS_UPDATES)
    (tmp_path / "proton.html").write_text(as_html(STATUS_UPDATES))  # <em>Recovery -</em>
    (tmp_path / "proton.docx").write_bytes(as_docx(STATUS_UPDATES))  # an italic run
    [markdown] = read(tmp_path / "proton.md").drafts
    assert markdown.resolution and "error rates return to normal" in markdown.resolution
    for rendered in ("proton.html", "proton.docx"):
        [draft] = read(tmp_path / rendered).drafts
        assert draft.resolution == markdown.resolution, rendered


TABLE_TIMELINE = """# Repos service down: no CA certificates

## Timeline

| Time (UTC) | Event |
|---|---|
| 00:18 | Earliest log entry showing the TLS failure. |
| 01:38 | PR #40 merged: `ca-certificates` added to the runtime image. Service restored. |

## Resolution

PR #40 added `apt-get install -y ca-certificates` to the runtime stage. A redeploy fixed the outage.
"""


def test_code_in_a_word_tables_cell_stays_code_as_in_its_markdown(tmp_path: Path) -> None:
    (tmp_path / "repos.md").write_text(TABLE_TIMELINE)
    (tmp_path / "repos.docx").write_bytes(as_docx(TABLE_TIMELINE))  # the cell's `ca-certificates` in Courier New
    [markdown] = read(tmp_path / "repos.md").drafts
    [word] = read(tmp_path / "repos.docx").drafts
    assert "| 01:38 | PR #40 merged: `ca-certificates` added" in read(tmp_path / "repos.docx").text
    assert word.resolution == markdown.resolution


TWO_DAY_ENTRY = """---
title: Degraded service
date: 2025-10-22 08:00:00
resolved: true
severity: disrupted
---

*Resolved*
- On October 21 and 22, we experienced intermittent service disruptions caused by high system load.
"""


def test_a_word_files_created_moment_keeps_its_time_as_its_markdowns_date(tmp_path: Path) -> None:
    (tmp_path / "degraded.md").write_text(TWO_DAY_ENTRY)
    (tmp_path / "degraded.docx").write_bytes(as_docx(TWO_DAY_ENTRY))  # "created" 2025-10-22T08:00:00Z
    [markdown] = read(tmp_path / "degraded.md").drafts
    [word] = read(tmp_path / "degraded.docx").drafts
    assert word.occurred_at.date() == markdown.occurred_at.date()
