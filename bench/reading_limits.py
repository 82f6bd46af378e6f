"""The worst case of each reader of members' text on crafted 40,000-character input (issue 25).

    .venv/bin/python bench/reading_limits.py [--repeat 7] [--json]

For each reader — the "is it over?" check, the offline drafter, the guard, the importer's
`parse_file` — every crafted input below is read `--repeat` times through the reader's public
entry point, in this process (no pool: the reading itself is what is timed). A row gives the
median and the worst of the repeats; the reader's worst case is its slowest input's median. The
target is ≤ 50 ms median per reader for a 40k message. The issue's own heavier cases (the guard
over 50 such messages with 5 unsupported statements, an importer file of 100 KB of `<!--`) are
printed below the table for reference. The importer also reads crafted saved pages and tables (`PAGES`: .html,
what a Google Docs, Confluence or Word export becomes, and a .csv history), one row each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from itertools import product
from pathlib import Path, PurePath
from string import ascii_lowercase

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.drafting.rules import OfflineDrafter  # noqa: E402
from bot.importer.formats import FoundFile, parse_file  # noqa: E402
from bot.investigation.guard import guard  # noqa: E402
from bot.investigation.models import ModelAnswer, NowStatement  # noqa: E402
from bot.investigation.prompt import render_prompt  # noqa: E402
from bot.models import Incident, TimelineEntry  # noqa: E402
from bot.reader.over import says_it_is_over  # noqa: E402

SIZE = 40_000
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def fill(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


# Inputs that broke a reader once, or could: long runs, a keyword every few characters, no
# sentence end, an unclosed construct.
CRAFTED = {
    "not resolved ×": fill("not resolved "),
    "resolved ×": fill("resolved "),
    "spaces": "restarted payments pods" + " " * (SIZE - 40) + "errors back",
    "newlines": fill("\n") + "all clear",
    "for 5 min … ×": fill("restarted the pods, for 5 min "),
    "attempt + failure ×": fill("bumped the pool, still timing out. "),
    "commas ×": fill("restarted,"),
    "words, no punctuation": fill("payments gateway timeout retries "),
    "<!-- ×": fill("<!--"),
    "<img ×": fill("<img "),
    "root cause ×": fill("root cause was "),
    # no word twice (each distinct word is tokenised once per text: this is the tokeniser's worst)
    "distinct words": " ".join("".join(w) for w in product(ascii_lowercase, repeat=4))[:SIZE],
    # many short lines or sentences: the per-line and per-sentence work of each reader
    "short lines ×": fill("restarted the pods\n"),
    "list items ×": fill("- x\n"),
    "quoted lines ×": fill("> x\n"),
    "headings ×": fill("# h\n"),
    # a run of figures: each digit was once a place a number could start (18 s for 10,000 characters)
    "1,1,1 …": fill("1,"),
    "figures, spaced ×": fill("1 "),
    "amounts ×": fill("$1"),
    # a timeline's lines (the text goes under a "## Timeline" heading): times without a colon, a time then
    # a run of spaces, fences that open and never close
    "timeline: 1436 - ×": "## Timeline\n" + fill("1436 - restarted\n", SIZE - 12),
    "timeline: time, spaces": "## Timeline\n10:02" + fill(" ", SIZE - 18) + "x",
    "timeline: ``` ×": "## Timeline\n" + fill("```\n10:02 x\n", SIZE - 12),
    # a time, a run of spaces, a dash, a run of spaces and no text: each run of spaces the entry's
    # separator, zone and range could take
    "timeline: time, spaces, -, spaces": "## Timeline\n10:02" + " " * (SIZE // 2 - 20) + "-" + " " * (SIZE // 2),
    # a template's placeholder, opened and never closed (each was read to the line's end: 0.8 s)
    "[todo ×": fill("[todo "),
    # a timeline of dated entries, no two alike: each date with a time of day went to dateparser, every one of them
    # (review F71: 2.1 s CPU at 40k; a status page's front matter repeating one update by alias, minutes)
    "timeline: dated entries": "## Timeline\n"
    + "".join(
        f"- 2024-03-{1 + i % 28:02d} {i // 60 % 24:02d}:{i % 60:02d} UTC: restarted\n" for i in range(SIZE // 30)
    )[: SIZE - 12],
}
# Saved pages (.html, the importer only): a Google Docs style sheet of rules opened and never closed (each was
# read to the sheet's end: 1.1 s), a Confluence page whose metadata line is "Created by a", spaces, "x" (growing
# with the square: 0.1 s at 4,000 characters)
_PAGE = "<html><head><style>{style}</style></head><body><p>Checkout outage</p></body></html>"
_CONFLUENCE = (
    '<html><head><title>Ops : Checkout outage</title></head><body><div class="page-metadata">{meta}</div>'
    '<div id="main-content"><p>Checkout outage</p></div></body></html>'
)
# a CSV history whose failed-attempts cell holds a run of spaces (a leading \s* of its separator was tried from
# every space: 27 s)
_CSV = (
    'title,root_cause,resolution,failed_attempts\nCheckout outage,A leaked connection,Rolled back,"restarted{cell}x"\n'
)
PAGES = {  # name: (the file's suffix, its text)
    "page: .c1{ × in its style sheet": ("html", _PAGE.format(style=fill(".c1{"))),
    "Confluence page: Created by a, spaces": ("html", _CONFLUENCE.format(meta="Created by a" + " " * SIZE + "x")),
    "CSV: an attempts cell of spaces": ("csv", _CSV.format(cell=" " * SIZE)),
}


def entry(text: str, minute: int = 0) -> TimelineEntry:
    return TimelineEntry(author="maya", text=text, at=T0 + timedelta(minutes=minute), message_ts=f"17724{minute:05d}.1")


def statements(n: int = 5) -> ModelAnswer:
    return ModelAnswer(happening_now=[NowStatement(statement=f"kafka broker {i} ran out of disk") for i in range(n)])


def page(text: str, folder: Path, name: str, suffix: str = "html") -> FoundFile:
    path = folder / f"{name}.{suffix}"
    path.write_text(text, encoding="utf-8")
    return FoundFile(path, PurePath(path.name))


def document(text: str, folder: Path, name: str) -> FoundFile:
    path = folder / f"{name}.md"
    path.write_text("# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Notes\n" + text, encoding="utf-8")
    return FoundFile(path, PurePath(path.name))


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median, worst) wall-clock ms, and the median CPU ms of this process: on a shared, loaded
    machine the wall clock includes waiting for a core, the CPU time is the reading's own work."""
    runs, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        runs.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(runs), max(runs), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    drafter = OfflineDrafter()
    incident = Incident(title="Payments timeouts")
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        files = {name: document(text, Path(folder), f"f{i}") for i, (name, text) in enumerate(CRAFTED.items())}
        readers: dict[str, Callable[[str, str], Callable[[], object]]] = {
            '"is it over?" check': lambda name, text: lambda: says_it_is_over(text),
            "offline drafter": lambda name, text: lambda: drafter.answer([entry(text)], []),
            "guard (5 statements)": lambda name, text: lambda: guard(statements(), incident, [entry(text)], []),
            "importer parse_file": lambda name, text: lambda: parse_file(files[name], team_id="T1"),
        }
        for reader, make in readers.items():
            for name, text in CRAFTED.items():
                median, worst, cpu = timed(make(name, text), args.repeat)
                rows.append(
                    {
                        "reader": reader, "input": name, "median_ms": round(median, 2), "max_ms": round(worst, 2),
                        "cpu_median_ms": round(cpu, 2),
                    }
                )  # fmt: skip
        for i, (name, (suffix, text)) in enumerate(PAGES.items()):
            found = page(text, Path(folder), f"p{i}", suffix)
            median, worst, cpu = timed(lambda found=found: parse_file(found, team_id="T1"), args.repeat)
            rows.append(
                {
                    "reader": "importer parse_file, saved pages and tables", "input": name, "median_ms": round(median, 2),
                    "max_ms": round(worst, 2), "cpu_median_ms": round(cpu, 2),
                }
            )  # fmt: skip
        heavy_timeline = [entry(CRAFTED["words, no punctuation"], i) for i in range(50)]
        guard_50 = timed(lambda: guard(statements(), incident, heavy_timeline, []), max(3, args.repeat // 2))
        # as an investigation calls it: only the messages its prompt (60k budget) showed are read
        omitted = render_prompt(incident, heavy_timeline, [], now=T0, tool_name="record").omitted_timeline
        shown = heavy_timeline[omitted:]
        guard_shown = timed(
            lambda: guard(statements(), incident, shown, [], omitted_timeline=omitted), max(3, args.repeat // 2)
        )
        # the model's statement at its 3,000-character cap: a word, spaces, a word (its clauses were split with
        # a leading \s* tried from every space: 1.3 s)
        spaced = ModelAnswer(happening_now=[NowStatement(statement="a" + " " * 2990 + "x")])
        guard_spaced = timed(
            lambda: guard(spaced, incident, [entry("payments timeouts")], []), max(3, args.repeat // 2)
        )
        # a reply that pastes an error and then 40k of sentences: the drafter's pasted-error path (how it was found) reads
        # every message after the opening, so the opening alone (the rows above) never reaches it
        pasted = "The cause is the parser.\n```\nERROR boom\n```\n" + fill("Word here. ", SIZE - 60)
        drafter_pasted = timed(lambda: drafter.answer([entry("Uploads fail"), entry(pasted, 1)], []), args.repeat)
        comments = document("<!--" * 25_000, Path(folder), "comments-100k")
        import_100k = timed(lambda: parse_file(comments, team_id="T1"), max(3, args.repeat // 2))
    worst = {}
    for row in rows:
        best = worst.get(row["reader"])
        if best is None or row["median_ms"] > best["median_ms"]:
            worst[row["reader"]] = row
    heavy = {
        "guard: 50 messages of 40k, 5 statements (median ms, CPU ms)": (round(guard_50[0], 1), round(guard_50[2], 1)),
        "guard: the same as an investigation hands it over (what its prompt showed; median ms, CPU ms)": (
            round(guard_shown[0], 1),
            round(guard_shown[2], 1),
        ),
        "guard: one statement of 'a', 2,990 spaces, 'x' (median ms, CPU ms)": (
            round(guard_spaced[0], 1),
            round(guard_spaced[2], 1),
        ),
        "importer: 100 KB of <!-- (median ms, CPU ms)": (round(import_100k[0], 1), round(import_100k[2], 1)),
        "offline drafter: the opening, then a pasted error and 40k of sentences (median ms, CPU ms)": (
            round(drafter_pasted[0], 1),
            round(drafter_pasted[2], 1),
        ),
    }
    if args.json:
        print(json.dumps({"rows": rows, "worst": list(worst.values()), "heavy": heavy}, indent=2))
        return
    print("| reader | worst crafted 40k input | median ms | max ms | CPU median ms |")
    print("|---|---|---:|---:|---:|")
    for row in worst.values():
        print(
            f"| {row['reader']} | {row['input']} | {row['median_ms']:.1f} | {row['max_ms']:.1f} "
            f"| {row['cpu_median_ms']:.1f} |"
        )
    print()
    for label, value in heavy.items():
        print(f"- {label}: {value}")


if __name__ == "__main__":
    main()
