"""The postmortem importer's stored failed attempts by the reading path that stored them, and which paths hold on
organisations they were not chosen on (issue 23, pmatt): fold A one organisation out, as bench/fields_by_org.py does.

    nice -n 10 .venv/bin/python bench/attempts_by_path.py --dump /tmp/paths.json          # ~4 min (proxy included)
    .venv/bin/python bench/attempts_by_path.py --load /tmp/paths.json [--lines PATH] [--gate 0.5]
    .venv/bin/python bench/attempts_by_path.py --load /tmp/paths.json --since 9a8cc383 --gate  # rules' later documents

Every line the importer stores for fold A's postmortems (read as `import` reads them) and for fold A's conversations
rendered as postmortems (bench/attempts_pm_on_threads.py's proxy, both renderings, bench/held_out.tsv's threads left
out) is tagged with the path that stored it:

- where: a timeline entry, the timeline's prose, the text under the title, a resolution or diagnosis section, a summary
  or unnamed section, an explicit attempts section;
- how: within one entry or paragraph — `one sentence` (narrative._attempt: the step and its failure told together),
  `next sentence` (a clause that refers back), `named again` (_failed_later), `its consequence` (_made_it_worse) —
  or across timeline entries — `next entry` (the following entry's opening, or one a few observing entries later),
  `named later` (_named_later);
- why stored (told_as_failed's branch, the first that holds): `try` (an explicit try), `we-but` (a responder's step
  against a contrast, or a why opening on the step), `outcome` (a step-outcome word in the failure).

Each line is real by the labels (scoring.attempt_is_real) and, for fold A's postmortems, by c16-second's blind read
where it read the same line (eval/second-annotation/fold-a-attempt-lines.jsonl, matched on file and action). A path
"holds" when most of its lines are real. The one-out gate: for each organisation X, the paths (how × why stored)
whose lines among the OTHER organisations' (both sources) are below `--gate` real, with wrong lines in >= 2
organisations, are gated; X's lines on a gated path are dropped. Pooled over X: what gating paths chosen elsewhere
does to an organisation no choice was made on. Fold A only: fold B is never read here. Measured, not shipped
(docs/BENCHMARKS.md, pmatt): no path is below half real in both views, and the gate removes real lines first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.importer.markdown as markdown  # noqa: E402
import bot.reader.narrative as narrative  # noqa: E402
import bot.reader.narrative_timeline as narrative_timeline  # noqa: E402
from bench.attempts_pm_on_threads import CONVERSATIONS, RENDERINGS, render  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bench.reading_eval_conversations import left_out  # noqa: E402
from bot.importer.drafts import NotAnIncident  # noqa: E402
from bot.importer.scoring import attempt_is_real, attempt_text, load_truth  # noqa: E402
from bot.reader.attempt_bound import BOUND  # noqa: E402
from bot.reader.cues_attempts import (  # noqa: E402
    CONTRAST,
    EXPLICIT_TRY,
    NOT_THE_ACTOR,
    OPENS_ON_THE_STEP,
    WE_TRIED,
)

POSTMORTEMS = ROOT / "eval" / "postmortems"
BLIND = ROOT / "eval" / "second-annotation" / "fold-a-attempt-lines.jsonl"
_PATH = "_bench_path"  # the key the instrumented readers set on an attempt (never read by the bot)
MIN_ORGS = 2


def _key(action: str) -> str:
    return " ".join(action.lower().split())[:120]


def why_stored(attempt: dict[str, str]) -> str:
    """told_as_failed's branch that holds, the first in its order: an explicit try, a responder's step against a
    contrast (or a why that opens on the step), else a step-outcome word."""
    action, why = attempt["action"], attempt["why_it_failed"]
    said = attempt.get("told") or f"{action} {why}"
    if EXPLICIT_TRY.search(said):
        return "try"
    if WE_TRIED.search(NOT_THE_ACTOR.sub(" ", action)) and (CONTRAST.search(said) or OPENS_ON_THE_STEP.match(why)):
        return "we-but"
    return "outcome"


def _within(attempt: dict[str, str]) -> str:
    if "told" in attempt:
        return "one sentence"
    return {"named again": "named again", "its consequence": "its consequence"}.get(
        attempt.get(BOUND, ""), "next sentence"
    )


@contextlib.contextmanager
def instrumented() -> Iterator[list[dict]]:
    """The importer with its attempt readers tagged: every attempt `kept` is asked about is recorded with its path
    and the answer (the bot's behaviour is unchanged: the readers are wrapped, never altered)."""
    asked: list[dict] = []
    where = ["?"]
    saved = {
        (narrative, "kept"): narrative.kept,
        (narrative_timeline, "kept"): narrative_timeline.kept,
        (narrative_timeline, "_attempts"): narrative_timeline._attempts,
        (markdown, "failed_in_timeline"): markdown.failed_in_timeline,
        (markdown, "failed_in_text"): markdown.failed_in_text,
        (markdown, "failed_in_prose"): markdown.failed_in_prose,
        (markdown, "_failed_attempts"): markdown._failed_attempts,
    }
    real_kept = narrative.kept

    def kept(attempt: dict[str, str]) -> bool:
        answer = real_kept(attempt)
        how = attempt.get(_PATH) or (
            "named later" if attempt.get(BOUND) == "named again" else "next entry"
        )  # across entries: failed_in_timeline's own lines carry no tag
        asked.append(
            {"action": attempt["action"], "why": attempt["why_it_failed"], "how": how, "kept": answer,
             "why_stored": why_stored(attempt), "where": where[0]}
        )  # fmt: skip
        return answer

    def tagged_attempts(text: str, **kw) -> list[dict[str, str]]:
        out = saved[(narrative_timeline, "_attempts")](text, **kw)
        for a in out:
            a[_PATH] = _within(a)
        return out

    def text_attempts(text: str, **kw) -> list[dict[str, str]]:
        out = real_attempts(text, **kw)
        for a in out:
            a.setdefault(_PATH, _within(a))
        return out

    real_attempts = narrative._attempts

    def at(name: str, label: str):
        inner = saved[(markdown, name)]

        def wrapped(*args, **kw):
            where[0] = label
            try:
                return inner(*args, **kw)
            finally:
                where[0] = "?"

        return wrapped

    def failed_attempts(doc, *args, **kw):
        kept_lines, origins = saved[(markdown, "_failed_attempts")](doc, *args, **kw)
        kinds = {s.label: s.kind for s in doc.sections}  # a section's kind as the importer read it
        placed.extend(zip((a["action"] for a in kept_lines), ((o, kinds.get(o, "-")) for o in origins), strict=True))
        return kept_lines, origins

    placed: list[tuple[str, str]] = []
    asked.append({"placed": placed})
    markdown._failed_attempts = failed_attempts
    narrative.kept = kept
    narrative_timeline.kept = kept
    narrative_timeline._attempts = tagged_attempts
    narrative._attempts = text_attempts
    markdown.failed_in_timeline = at("failed_in_timeline", "timeline")
    markdown.failed_in_text = at("failed_in_text", "what was done")
    markdown.failed_in_prose = at("failed_in_prose", "prose")
    try:
        yield asked
    finally:
        for (module, name), value in saved.items():
            setattr(module, name, value)
        narrative._attempts = real_attempts


def _tag(stored: list[tuple[str, str]], asked: list[dict]) -> list[dict]:
    """The stored lines, each with the path of the kept attempt it came from (the first asked with its action) and
    the part of the document the importer read it in (markdown._failed_attempts' origin)."""
    placed = dict(asked[0]["placed"])
    asked = asked[1:]
    out = []
    for action, why in stored:
        hit = next((a for a in asked if a["kept"] and _key(a["action"]) == _key(action)), None)
        origin, kind = placed.get(action, ("?", "-"))
        if hit:
            hit = {**hit, "where": _place(origin), "kind": str(kind)}
        out.append(
            {"action": action, "why": why, **({k: hit[k] for k in ("how", "why_stored", "where", "kind")} if hit else
             {"how": "attempts section", "why_stored": "-", "where": "attempts section", "kind": str(kind)})}
        )  # fmt: skip
    return out


def _place(origin: str) -> str:
    if origin.startswith("timeline entry"):
        return "timeline entry"
    return origin.lower()[:30]


def blind_reads() -> dict[tuple[str, str], bool]:
    """(file, action key) -> c16-second's blind decision on that postmortem line (real or not)."""
    out = {}
    for line in BLIND.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["corpus"] == "postmortems":
            out[(row["file"], _key(row["action"]))] = row["decision"] == "real"
    return out


def postmortem_rows() -> list[dict]:
    truths = fold_truths("A", incidents_only=True)
    blind = blind_reads()
    rows = []
    for t in truths:
        with instrumented() as asked:
            drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file})
        draft = drafts.get(t.file)
        stored = [(a.action, a.why_it_failed) for a in draft.failed_attempts] if draft else []
        for line in _tag(stored, asked):
            text = attempt_text(line["action"], line["why"])
            rows.append(
                {**line, "source": "pm", "file": t.file, "org": t.org or t.file,
                 "real": attempt_is_real(text, t.failed_attempts), "blind": blind.get((t.file, _key(line["action"])))}
            )  # fmt: skip
    return rows


def proxy_rows() -> list[dict]:
    out = left_out(lists=[])
    truths = [
        t
        for t in load_truth(CONVERSATIONS / "truth.jsonl")
        if t.fold == "A" and not t.not_an_incident and t.file not in out
    ]
    rows = []
    for t in truths:
        thread = json.loads((CONVERSATIONS / t.file).read_text(encoding="utf-8"))
        for how in RENDERINGS:
            with instrumented() as asked:
                try:
                    draft = markdown.parse_markdown(
                        render(thread, how), team_id="bench", incident_id=t.file, name=t.file[: -len(".json")]
                    )
                except NotAnIncident:
                    continue
            stored = [(a.action, a.why_it_failed) for a in draft.failed_attempts]
            for line in _tag(stored, asked):
                text = attempt_text(line["action"], line["why"])
                rows.append(
                    {**line, "source": f"proxy-{how}", "file": t.file, "org": t.org or t.file,
                     "real": attempt_is_real(text, t.failed_attempts), "blind": None}
                )  # fmt: skip
    return rows


def path_of(row: dict) -> str:
    return f"{row['how']} / {row['why_stored']}"


def table(rows: list[dict]) -> dict[str, dict]:
    """Path -> real / wrong per source, and blind real / not on the postmortem lines c16-second read."""
    out: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        for path in (path_of(r), f"how: {r['how']}", f"why stored: {r['why_stored']}", f"where: {r['where']}"):
            src = "pm" if r["source"] == "pm" else "proxy"
            out[path][f"{src} real" if r["real"] else f"{src} wrong"] += 1
            if r["blind"] is not None:
                out[path]["blind real" if r["blind"] else "blind not"] += 1
    return out


def gated_paths(rows: list[dict], share: float, judge: str) -> set[str]:
    """Paths whose lines (real by `judge`: "labels", or "blind" where read, labels elsewhere) are below `share`
    real, with wrong lines in >= MIN_ORGS organisations."""
    real: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    wrong_orgs: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        ok = r["blind"] if judge == "blind" and r["blind"] is not None else r["real"]
        total[path_of(r)] += 1
        real[path_of(r)] += ok
        if not ok:
            wrong_orgs[path_of(r)].add(r["org"])
    return {p for p in total if real[p] < share * total[p] and len(wrong_orgs[p]) >= MIN_ORGS}


def one_out(rows: list[dict], share: float, judge: str) -> dict:
    """Each organisation's lines gated by the paths chosen on every other organisation's: kept real / kept, per
    source, and the paths chosen for how many organisations."""
    orgs = sorted({r["org"] for r in rows})
    chosen: dict[str, int] = defaultdict(int)
    kept: list[dict] = []
    for org in orgs:
        gate = gated_paths([r for r in rows if r["org"] != org], share, judge)
        for p in gate:
            chosen[p] += 1
        kept += [r for r in rows if r["org"] == org and path_of(r) not in gate]
    return {"chosen": dict(chosen), "before": counts(rows), "after": counts(kept)}


def counts(rows: list[dict]) -> dict[str, str]:
    out = {}
    for src in ("pm", "proxy-timeline", "proxy-prose"):
        mine = [r for r in rows if r["source"] == src]
        out[src] = f"{sum(r['real'] for r in mine)}/{len(mine)}"
        if src == "pm":
            read = [r for r in mine if r["blind"] is not None]
            out["pm blind"] = f"{sum(r['blind'] for r in read)}/{len(read)}"
    return out


def files_at(commit: str) -> set[str]:
    """eval/postmortems' file names at `commit` (git ls-tree): the documents present then; the others were added since."""
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", f"{commit}:eval/postmortems"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(listed.split())


def since(rows: list[dict], present: set[str]) -> dict[str, dict[str, str]]:
    """Fold A's postmortem lines by path, split by whether their document was in eval/ at a commit (`present`) or
    added since: a rule written before the commit read none of the later documents, so their figure is that rule's
    figure out of sample inside fold A (docs/BENCHMARKS.md, pmatt, sixteenth session)."""
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"before": [0, 0], "since": [0, 0]})
    for r in rows:
        if r["source"] != "pm":
            continue
        side = "before" if r["file"] in present else "since"
        # the section's kind ("None": a heading the vocabulary cannot name; "-": no section) and whether the line
        # has a why of its own or the step and its failure were not told apart (pmatt, seventeenth session)
        told = "none" if not r["why"].strip() else "told"
        more = (f"section kind: {r.get('kind', '?')}", f"why given: {told}")
        for path in ("all", path_of(r), f"how: {r['how']}", f"why stored: {r['why_stored']}", *more):
            out[path][side][0] += r["real"]
            out[path][side][1] += 1
    return {p: {side: f"{real}/{n}" for side, (real, n) in c.items()} for p, c in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dump", type=Path, help="read fold A (postmortems and proxy) and keep the rows here")
    parser.add_argument("--load", type=Path, help="the rows of an earlier --dump")
    parser.add_argument("--no-proxy", action="store_true", help="fold A's postmortems only")
    parser.add_argument("--lines", help="print the lines of one path (as the table names it), fold A only")
    parser.add_argument(
        "--gate", type=float, nargs="*", default=[0.5], help="one-out gate: share below which a path goes"
    )
    parser.add_argument("--since", help="fold A's postmortem lines by path: documents at this commit / added since")
    args = parser.parse_args(argv)
    if args.load:
        rows = json.loads(args.load.read_text(encoding="utf-8"))
    else:
        rows = postmortem_rows() + ([] if args.no_proxy else proxy_rows())
        if args.dump:
            args.dump.write_text(json.dumps(rows), encoding="utf-8")
    for path, c in sorted(table(rows).items()):
        print(f"{path:<40} " + "  ".join(f"{k} {v}" for k, v in sorted(c.items())))
    if args.lines:
        for r in rows:
            if args.lines in (path_of(r), f"how: {r['how']}", f"why stored: {r['why_stored']}", f"where: {r['where']}"):
                mark = "real" if r["real"] else "WRONG"
                print(f"[{r['source']} {mark} blind={r['blind']}] {r['file']}: {r['action'][:200]} | {r['why'][:160]}")
    if args.since:
        for path, c in sorted(since(rows, files_at(args.since)).items()):
            print(f"since {args.since}: {path:<40} present then {c['before']:>7}  added since {c['since']:>7}")
    for share in args.gate:
        for judge in ("labels", "blind"):
            res = one_out(rows, share, judge)
            print(f"one out, gate < {share} ({judge}): {res['before']} -> {res['after']}; chosen {res['chosen']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
