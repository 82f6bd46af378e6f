"""Does a postmortem read the same whatever format it was kept in? The real postmortems of
eval/postmortems imported as Markdown, as HTML rendered from that Markdown (markdown-it-py) and as
.docx written from it (python-docx): the share of (file, field) pairs whose title, date, root
cause and fix are the same as the Markdown reading's.

    .venv/bin/python bench/import_formats.py eval/postmortems [--misses]

"The same": equal once the Markdown-only marks a rendering cannot keep are taken away (emphasis
and code marks, a link's URL beside its text, an autolink's brackets, escapes, whitespace); dates
equal to the day. Offline: no database, no model. The renderers are tests/render_formats.py.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Collection
from pathlib import Path, PurePath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ holds the renderers

from bench.import_postmortems import held_out_postmortems, withheld  # noqa: E402
from bot.importer.documents import read_written  # noqa: E402
from bot.importer.drafts import NotAnIncident, Rejected  # noqa: E402
from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.importer.identity import derived_incident_id, identity_name  # noqa: E402
from bot.importer.markdown import parse_markdown  # noqa: E402
from bot.importer.scoring import load_truth  # noqa: E402
from bot.models import MemoryDraft  # noqa: E402
from tests.render_formats import as_docx, as_html  # noqa: E402

FIELDS = ("title", "occurred_at", "root_cause", "resolution")
_LINK = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?")
_AUTOLINK = re.compile(r"<(?:mailto:)?([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")  # its text
_MARKS = re.compile(r"\*\*|__|`|\\(?=[^\w\s])|<[^>]+>|^[ \t]*#+\s*|^\s*(?:[-*+]|\d+[.)])\s+", re.M)


def normalized(draft: MemoryDraft | None, name: str) -> str | None:
    value = getattr(draft, name) if draft is not None else None
    if value is None:
        return None
    if name == "occurred_at":
        return value.date().isoformat()
    text = _MARKS.sub("", _LINK.sub(r"\1", _AUTOLINK.sub(r"\1", str(value))))
    return " ".join(re.sub(r"[*_\[\]]", "", text).split())  # a link's brackets ("[[1]](#refs)") too


def rendered(suffix: str, markdown: str, file: str) -> MemoryDraft | None:
    data = as_html(markdown).encode() if suffix == ".html" else as_docx(markdown)
    name = str(PurePath(file).with_suffix(suffix))
    try:
        page = read_written(suffix, data)
        return parse_markdown(
            page.with_front_matter(), team_id="bench", name=name,
            incident_id=derived_incident_id(identity_name(Path(name))),
        )  # fmt: skip
    except (NotAnIncident, Rejected):
        return None


SAMPLE = Path(__file__).resolve().parent / "import_formats_sample.txt"


def recorded_sample(path: Path = SAMPLE) -> list[str]:
    """The formats test's fixed sample of reports (one file a line; "#" lines say the rule that chose them)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def compare(
    folder: Path, every: int = 1, leave_out: frozenset[str] = frozenset(), only: Collection[str] | None = None
) -> dict[str, dict[str, list[str]]]:
    """{format: {"same": [...], "differ": [...]}} over (file, field) pairs of the incident reports
    (`every`: one report in that many, for a quicker check; `leave_out`: files not read, e.g. a held-out judge;
    `only`: just these files, e.g. the recorded sample)."""
    out: dict[str, dict[str, list[str]]] = {".html": {"same": [], "differ": []}, ".docx": {"same": [], "differ": []}}
    reports = [t for t in load_truth(folder / "truth.jsonl") if not t.not_an_incident and t.file not in leave_out]
    if only is not None:
        wanted = set(only)
        reports = [t for t in reports if t.file in wanted]
    for truth in reports[::every]:
        parsed = parse_file(FoundFile(folder / truth.file, PurePath(truth.file)), team_id="bench")
        markdown_draft = parsed.drafts[0] if parsed.drafts else None
        text = (folder / truth.file).read_text(encoding="utf-8-sig")
        for suffix, tally in out.items():
            other = rendered(suffix, text, truth.file)
            for name in FIELDS:
                same = normalized(markdown_draft, name) == normalized(other, name)
                tally["same" if same else "differ"].append(f"{truth.file} {name}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--misses", action="store_true", help="list the (file, field) pairs that differ")
    args = parser.parse_args()
    results = compare(args.folder)
    held = held_out_postmortems()  # counted in the totals, never named among the misses (a judge's documents)
    files = sum(1 for t in load_truth(args.folder / "truth.jsonl") if not t.not_an_incident)
    print(f"{files} incident reports x {len(FIELDS)} fields ({', '.join(FIELDS)}) vs their Markdown reading")
    for suffix, tally in results.items():
        total = len(tally["same"]) + len(tally["differ"])
        print(f"{suffix:<6} same {len(tally['same'])}/{total} = {len(tally['same']) / total:.1%}")
        if args.misses:
            for miss in withheld(tally["differ"], held):
                print(f"         differs: {miss}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
