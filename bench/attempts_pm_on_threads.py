"""The postmortem importer's failed attempts on writing its rules were not read from: fold A's incident conversations,
each thread rendered as a postmortem and imported as `import` reads a file.

    H="--held-out path/to/c20-files.txt"
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py $H                     # counts per half (~4 min)
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py $H --show write        # the write half's lines, read
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py $H --misses write      # its labelled attempts missed
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py $H --dump /tmp/before.json   # on the code before
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py $H --against /tmp/before.json # after: lines gone / added
    nice -n 10 .venv/bin/python bench/attempts_pm_on_threads.py --judge FILE          # the held-out judge (counts only)

Why: the postmortem paths (bot/reader/narrative.py, narrative_timeline.py, cues_attempts.told_as_failed) were
written reading fold A's postmortems, so fold A's postmortems read in-sample (and "one organisation out" is the same
figure: nothing is fitted). The conversations of fold A are other organisations' writing, labelled with the same
scheme (`failed_attempts`, `not_attempts`), that those paths were not tuned on: a proxy for what fold B's stored
lines meet. Two renderings of a thread: every message a timeline entry (`## Timeline`, "- HH:MM text": a status
page's updates, a chat log quoted in a report), or every message a paragraph of prose (`## What happened`).
The rendered title is the opening message's first line (the organisation's words, as a postmortem's title), never the
file name: its slug is the collector's summary and may name the fix (r23-pmatt, 2026-12-07; main's lines unchanged).
The organisations are cut by `bench.fit_reader.halves` (a rule is written from the write half's lines, judged on the
measure half's counts). The halves are cut by parity in the sorted list of the organisations present, so they are
the recorded ones only on eval/ of 3ecd9c8 with c20's threads held out: run without `--held-out`, or on a later eval/
(c21's fold A joins), about half the measure half's organisations move to the write half, whose lines `--show` prints
(hence `--held-out` is required). bench/held_out.tsv's threads (the newest collection: no reader written from it)
are left out of the halves always (bench/reading_eval_conversations.py `left_out`), besides `--held-out`'s. `--judge`
names a file of conversation files (tab-separated fold and file, as /work/c20-files.txt) read once as a held-out judge:
counts only, fold A's rows only. Fold B is never read here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_blind import kinds  # noqa: E402
from bench.fit_reader import halves  # noqa: E402
from bench.reading_eval_conversations import held_out_files, left_out  # noqa: E402
from bot.importer.drafts import NotAnIncident  # noqa: E402
from bot.importer.markdown import parse_markdown  # noqa: E402
from bot.importer.scoring import (  # noqa: E402
    attempt_found,
    attempt_is_real,
    attempt_text,
    holds_half,
    keyword_in,
    load_truth,
)

CONVERSATIONS = ROOT / "eval" / "conversations"
RENDERINGS = ("timeline", "prose")
_CLOCK = re.compile(r"T(\d\d:\d\d)")
TITLE_CHARS = 200


def render(thread: dict, how: str) -> str:
    """A thread as a postmortem: one timeline entry per message ("- 14:05 text", the day when no time is given),
    or one paragraph per message under a narrative heading. A message's lines are joined: one entry, one paragraph."""
    # the title is the opening message's first line (a GitHub issue's title, a chat's first words): the
    # organisation's words, as a postmortem's title is, never the file's name (the collector's summary of the thread)
    opening = thread["messages"][0]["text"].strip().splitlines() if thread["messages"] else []
    out = [f"# {' '.join(opening[0].split())[:TITLE_CHARS] if opening else thread['id']}", ""]
    out += ["## Timeline", ""] if how == "timeline" else ["## What happened", ""]
    for message in thread["messages"]:
        text = " ".join(message["text"].split())
        if how == "timeline":
            ts = message.get("ts") or ""
            clock = _CLOCK.search(ts)
            out.append(f"- {clock.group(1) if clock else ts[:10]} {text}")
        else:
            out += [text, ""]
    return "\n".join(out)


def lines_of(files: list[str], how: str) -> dict[str, list[list[str]]]:
    """File -> [action, why] of every failed attempt the importer stores for the rendered thread."""
    out = {}
    for name in files:
        thread = json.loads((CONVERSATIONS / name).read_text(encoding="utf-8"))
        try:
            draft = parse_markdown(render(thread, how), team_id="bench", incident_id=name, name=name[: -len(".json")])
        except NotAnIncident:  # `import` refuses the file (a thread too short to hold a timeline): nothing stored
            out[name] = []
            continue
        out[name] = [[a.action, a.why_it_failed] for a in draft.failed_attempts]
    return out


def held_out(path: Path) -> set[str]:
    """The list's files (reading_eval_conversations' one reader of such a list: a name with no label is an error)."""
    return set(held_out_files(path))


def left_out_of_halves(lists: list[Path]) -> set[str]:
    """bench/held_out.tsv's threads and those of `lists` (`left_out`): none of them joins the halves."""
    return set(left_out(lists=lists))


def truths(judge: set[str], judged: bool) -> list:
    """Fold A's labelled threads: those of the held-out judge (`judged`), or every other one."""
    return [
        t
        for t in load_truth(CONVERSATIONS / "truth.jsonl")
        if t.fold == "A" and not t.not_an_incident and (t.file in judge) == judged
    ]


def rows_of(items: list, lines: dict[str, dict[str, list[list[str]]]]) -> list[dict]:
    """One row per stored line: rendering, file, organisation, real, a labelled non-attempt it holds, the line."""
    rows = []
    for t in items:
        for how, said in lines.items():
            for action, why in said.get(t.file, []):
                text = attempt_text(action, why)
                real = attempt_is_real(text, t.failed_attempts)
                kind = next((k for words, k in t.not_attempts if holds_half(text, words)), "") if not real else ""
                rows.append(
                    {
                        "how": how,
                        "file": t.file,
                        "org": t.org or t.file,
                        "real": real,
                        "kind": kind,
                        "line": [action, why],
                    }
                )
    return rows


def counts(items: list, lines: dict[str, dict[str, list[list[str]]]], orgs: frozenset[str] | None) -> dict:
    """Stored real / stored, and labelled attempts found, per rendering (organisations `orgs` only, when given)."""
    out = {}
    for how, said in lines.items():
        real = stored = hit = total = 0
        for t in items:
            if orgs is not None and (t.org or t.file) not in orgs:
                continue
            texts = [attempt_text(a, w) for a, w in said.get(t.file, [])]
            real += sum(attempt_is_real(x, t.failed_attempts) for x in texts)
            stored += len(texts)
            hit += sum(attempt_found(k, texts) for k in t.failed_attempts)
            total += len(t.failed_attempts)
        out[how] = {"real": real, "stored": stored, "found": hit, "labelled": total}
    return out


def against(before: list[dict], after: list[dict]) -> dict[str, dict[str, int]]:
    """Per half: real and wrong lines gone, real and wrong lines added, and the organisations lines went from."""
    key = lambda r: (r["how"], r["file"], tuple(r["line"]))  # noqa: E731
    old, new = {key(r): r for r in before}, {key(r): r for r in after}
    out: dict[str, dict] = defaultdict(lambda: {"real_gone": 0, "wrong_gone": 0, "real_added": 0, "wrong_added": 0})
    gone_orgs: dict[str, set[str]] = defaultdict(set)
    for k in old.keys() - new.keys():
        row = old[k]
        out[row["half"]]["real_gone" if row["real"] else "wrong_gone"] += 1
        if not row["real"]:
            gone_orgs[row["half"]].add(row["org"])
    for k in new.keys() - old.keys():
        row = new[k]
        out[row["half"]]["real_added" if row["real"] else "wrong_added"] += 1
    for half, orgs in gone_orgs.items():
        out[half]["wrong_gone_orgs"] = len(orgs)
    return dict(out)


def missed(
    items: list, lines: dict[str, dict[str, list[list[str]]]], orgs: frozenset[str]
) -> list[tuple[str, list[str], list[str]]]:
    """The labelled attempts of organisations `orgs` that no rendering stored (file, action phrases, the thread's
    messages holding one of them): where a recall rule starts. `main` passes only the write half's organisations."""
    out = []
    for t in items:
        if (t.org or t.file) not in orgs:
            continue
        thread = None
        for keywords in t.failed_attempts:
            if any(
                attempt_found(keywords, [attempt_text(a, w) for a, w in said.get(t.file, [])])
                for said in lines.values()
            ):
                continue
            thread = thread or json.loads((CONVERSATIONS / t.file).read_text(encoding="utf-8"))
            messages = [" ".join(m["text"].split()) for m in thread["messages"]]
            out.append((t.file, keywords, [m for m in messages if any(keyword_in(k, m) for k in keywords)]))
    return out


def by_kind(rows: list[dict]) -> dict[str, dict[str, list[int]]]:
    """Half -> evidence kind (`attempts_blind.kinds`: an explicit try, a step-outcome word, a responder's step against
    a contrast) -> [real, wrong] stored lines holding it: counts only, the measure half's lines are never printed."""
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        for kind in kinds(*row["line"]):
            out[row["half"]][kind][0 if row["real"] else 1] += 1
    return {half: dict(sorted(table.items())) for half, table in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", choices=["write"], help="print the write half's stored lines (never the measure's)")
    parser.add_argument(
        "--misses",
        choices=["write"],
        help="print the write half's labelled attempts no rendering stored (never the measure's)",
    )
    parser.add_argument("--dump", type=Path, help="keep every stored line here (to compare with --against)")
    parser.add_argument("--against", type=Path, help="lines gone and added since --dump, per half (counts)")
    parser.add_argument("--judge", type=Path, help="a held-out list (fold TAB file): read it alone, counts only")
    parser.add_argument("--kinds", action="store_true", help="real / wrong lines per evidence kind and half (counts)")
    parser.add_argument(
        "--held-out", type=Path, action="append", default=[], help="a held-out list left out of the halves (c20's)"
    )
    args = parser.parse_args(argv)
    if not (args.judge or args.held_out):
        parser.error("--held-out LIST (or --judge LIST): without it the held-out judge joins the halves and they move")
    judge = held_out(args.judge) if args.judge else left_out_of_halves(args.held_out)
    items = truths(judge, judged=args.judge is not None)
    files = [t.file for t in items]
    lines = {how: lines_of(files, how) for how in RENDERINGS}
    cut = halves({t.org or t.file for t in items})
    rows = rows_of(items, lines)
    for row in rows:
        row["half"] = "judge" if args.judge else "write" if row["org"] in cut["write"] else "measure"
    said = {"threads": len(items)}
    if args.judge:
        said["judge"] = counts(items, lines, None)
    else:
        said |= {half: counts(items, lines, cut[half]) for half in ("write", "measure")}
    if args.dump:
        args.dump.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    if args.against:
        said["against"] = against(json.loads(args.against.read_text(encoding="utf-8")), rows)
    if args.kinds:
        said["kinds"] = by_kind(rows)
    if args.show == "write" and not args.judge:
        for r in sorted((r for r in rows if r["half"] == "write"), key=lambda r: (r["real"], r["org"])):
            print(
                f"{'REAL ' if r['real'] else 'wrong'} {r['kind'] or '-':<9} {r['how']:<8} {r['file'][:48]:<48} "
                f"{' | '.join(r['line'])[:300]}"
            )
    if args.misses == "write" and not args.judge:
        for file, keywords, messages in missed(items, lines, cut["write"]):
            print(f"missed {file[:60]} {keywords}")
            for message in messages:
                print(f"    {message[:600]}")
    print(json.dumps(said, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
