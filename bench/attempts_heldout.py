"""Failed attempts on fold A's held-out postmortems: the files collected after a commit, read by that commit's reader
("before") and by today's ("after"), totals only.

    nice -n 10 .venv/bin/python bench/attempts_heldout.py --base 864e579 [--reader <commit>]   # ~1 min: a git worktree
                                                                                               # for the old reader
    nice -n 10 .venv/bin/python bench/attempts_heldout.py --base a5bbd123 --collection pm25   # one judge's files alone
    nice -n 10 .venv/bin/python bench/attempts_heldout.py --fields --reader main --collection pm25 [--json]  # the judge

`--fields`: the root cause, the fix and metadata stored as fix or cause on bench/held_out_postmortems.tsv's fold-A
files (the postmortem judge, issue 23), read by `--reader`'s importer ("before") and by this checkout's ("after"):
right / labelled, stored wrong, metadata leaks, totals only, the same scorer (this checkout's) for both;
`--collection NAME` reads one block of the list (its "# NAME, ..." line), so a later collection stays unread; a comma
list (`--collection pm31,pm32`) pools blocks.

A change to the reader is tuned on fold A as it stood at `--base`; the fold-A postmortems collected since (new
organisations, labelled blind by the collectors) were read by no rule of it. Scoring them once, after the change is
final, before against after, is fold A's own out-of-sample check (the rule to ship is written before, in the author's
notes). Totals only: no file, line or organisation is printed, so the held-out set stays held out for the next change
that has not read it either. Fold A only: fold B is never read here (`bench/reading_eval.py --quick` gives its totals).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_old_readers import run_old_reader  # noqa: E402
from bench.import_postmortems import HELD_OUT, fold_truths, held_out_postmortems, read_corpus  # noqa: E402
from bot.importer.scoring import Truth, attempt_found, attempt_is_real, attempt_text, holds_half, score  # noqa: E402
from bot.models import MemoryDraft  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"


def held_out(base: str) -> list[Truth]:
    """Fold A's incident reports whose file was not in eval/postmortems at `base`."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{base}:eval/postmortems"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    # a judge: bench/held_out_postmortems.tsv's files are what it reads
    return [t for t in fold_truths("A", include_held_out=True, incidents_only=True) if t.file not in set(listed)]


def totals(truths: list[Truth], lines: dict[str, list[list[str]]]) -> dict[str, int]:
    """Stored lines, the real ones among them, the ones that hold a labelled non-attempt, labelled attempts found."""
    out = dict.fromkeys(("stored", "real", "non_attempt", "found", "labelled"), 0)
    for t in truths:
        texts = [attempt_text(action, why) for action, why in lines.get(t.file) or []]
        for text in texts:
            real = attempt_is_real(text, t.failed_attempts)
            out["stored"] += 1
            out["real"] += real
            out["non_attempt"] += not real and any(holds_half(text, keys) for keys, _ in t.not_attempts)
        out["found"] += sum(attempt_found(k, texts) for k in t.failed_attempts)
        out["labelled"] += len(t.failed_attempts)
    return out


def today(truths: list[Truth]) -> dict[str, list[list[str]]]:
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {f: [[a.action, a.why_it_failed] for a in d.failed_attempts] if d else [] for f, d in drafts.items()}


def collection(name: str, path: Path | None = None) -> frozenset[str]:
    """The files of bench/held_out_postmortems.tsv's block `name` (the lines after its "# NAME, ..." comment); a comma
    list ("pm31,pm32") pools those blocks, each of which must hold a file, so a judge pooled while the next collection
    is being listed never reads that one (`--every-collection` would)."""
    names = {part.strip() for part in name.split(",") if part.strip()}
    by_block: dict[str, set[str]] = {block: set() for block in names}
    current = None
    for line in (path or HELD_OUT).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            opened = re.match(r"#\s*([\w-]+),", line)
            current = opened.group(1) if opened else current
        elif line.strip() and current in by_block:
            by_block[current].add(line.split("\t")[-1].strip())
    if len(names) > 1 and not all(by_block.values()):
        return frozenset()  # a named block with no file: the caller's "no held-out report" error, never a smaller pool
    return frozenset(file for files in by_block.values() for file in files)


def judged(name: str | None = None) -> list[Truth]:
    """Fold A's incident reports that bench/held_out_postmortems.tsv lists (the postmortem judge; `name`: one
    collection's block alone)."""
    held = held_out_postmortems() if name is None else collection(name) & held_out_postmortems()
    return [
        t for t in fold_truths("A", include_held_out=True, incidents_only=True, folder=POSTMORTEMS) if t.file in held
    ]


# run inside `--reader`'s worktree: its importer's drafts of the files named, as JSON (scored here, by today's scorer)
_FIELDS_DUMP = """
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from bench.import_postmortems import read_corpus
drafts, _, _ = read_corpus(Path(sys.argv[1]), only=set(json.loads(sys.argv[2])))
print(json.dumps({f: d.model_dump(mode="json") if d else None for f, d in drafts.items()}))
"""


def field_totals(truths: list[Truth], drafts: dict[str, MemoryDraft | None]) -> dict[str, int]:
    """Cause and fix: right of labelled, stored wrong where labelled, stored where none is; reports whose fix or cause
    holds a labelled metadata line (of those with one labelled)."""
    scores = score(truths, drafts)
    out = {"cause": scores.root_cause.right, "cause_labelled": scores.root_cause.total}
    out |= {"fix": scores.fix.right, "fix_labelled": scores.fix.total}
    for name, attr, keys in (("cause", "root_cause", "root_cause_keywords"), ("fix", "resolution", "fix_keywords")):
        said = {t.file: (getattr(drafts[t.file], attr) or "") if drafts.get(t.file) else "" for t in truths}
        stored = [t for t in truths if said[t.file]]
        out[f"{name}_wrong"] = sum(
            bool(getattr(t, keys)) and not holds_half(said[t.file], getattr(t, keys)) for t in stored
        )
        out[f"{name}_where_none"] = sum(not getattr(t, keys) for t in stored)
    leaks = scores.metadata_as_fix_or_cause
    return out | {"metadata": leaks.total - leaks.right, "metadata_labelled": leaks.total}


def fields_judge(reader: str, name: str | None = None) -> dict:
    """`field_totals` on the judge's files (`name`: one collection's), `reader`'s importer before, this checkout's after."""
    truths = judged(name)
    if not truths:
        raise SystemExit(f"no held-out fold-A report listed{f' in collection {name}' if name else ''}")
    files = [t.file for t in truths]
    run = run_old_reader(reader, files, script=_FIELDS_DUMP)
    run.check_returncode()
    before = {f: MemoryDraft.model_validate(d) if d else None for f, d in json.loads(run.stdout).items()}
    after, _, _ = read_corpus(POSTMORTEMS, only=set(files))
    orgs = len({t.org or t.file for t in truths})
    return {
        "reports": len(truths),
        "organisations": orgs,
        "before": field_totals(truths, before),
        "after": field_totals(truths, after),
    }


def _fields_line(name: str, t: dict[str, int]) -> str:
    return (
        f"{name:<7} cause {t['cause']}/{t['cause_labelled']} (wrong {t['cause_wrong']}, where none {t['cause_where_none']}),"
        f" fix {t['fix']}/{t['fix_labelled']} (wrong {t['fix_wrong']}, where none {t['fix_where_none']}),"
        f" metadata as fix or cause {t['metadata']} of {t['metadata_labelled']}"
    )


def _line(name: str, t: dict[str, int]) -> str:
    share = f" = {100 * t['real'] / t['stored']:.0f} %" if t["stored"] else ""
    return (
        f"{name:<7} stored real {t['real']}/{t['stored']}{share}, found {t['found']}/{t['labelled']},"
        f" non-attempts stored {t['non_attempt']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="the commit the change was tuned at: its files are not held out")
    parser.add_argument("--reader", help="the commit whose reader is 'before' (default: --base)")
    parser.add_argument("--fields", action="store_true", help="cause, fix, metadata on the held-out list's files")
    parser.add_argument("--collection", help="one block of the list (e.g. pm25) alone, or a comma list (pm31,pm32)")
    parser.add_argument("--every-collection", action="store_true", help="--fields on every block (said on purpose)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.fields:
        if not args.reader:
            parser.error("--fields needs --reader (the importer read 'before')")
        if not args.collection and not args.every_collection:  # a judge not yet due stays unread (review F48)
            parser.error("--fields reads one judge: name it (--collection NAME) or say --every-collection")
        judge = fields_judge(args.reader, args.collection)
        if args.json:
            print(json.dumps(judge))
            return 0
        print(
            f"held out (bench/held_out_postmortems.tsv, {args.collection or 'every collection'}, fold A): {judge['reports']} reports, {judge['organisations']} organisations"
        )
        print(_fields_line("before", judge["before"]))
        print(_fields_line("after", judge["after"]))
        return 0
    if not args.base:
        parser.error("--base is needed (or --fields)")
    truths = held_out(args.base)
    if args.collection:  # a later collection (every fold-A file since --base) stays unread: review F48
        truths = [t for t in truths if t.file in collection(args.collection)]
        if not truths:
            parser.error(f"no fold-A report new since {args.base} in collection {args.collection}")
    run = run_old_reader(args.reader or args.base, [t.file for t in truths])
    run.check_returncode()
    before, after = totals(truths, json.loads(run.stdout)), totals(truths, today(truths))
    orgs = len({t.org or t.file for t in truths})
    if args.json:
        print(json.dumps({"reports": len(truths), "organisations": orgs, "before": before, "after": after}))
        return 0
    block = f", collection {args.collection}" if args.collection else ""
    print(f"fold A held out (files new since {args.base}{block}): {len(truths)} reports, {orgs} organisations")
    # which importer "before" is: --reader defaults to --base, which may be older than the rule's parent (review F65)
    print(f"before = the importer of {args.reader or args.base}; after = this checkout's")
    print(_line("before", before))
    print(_line("after", after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
