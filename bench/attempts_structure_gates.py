"""Structure, not cue words, as the bar for a stored failed attempt: candidate gates measured on what fold A
can honestly say about organisations no rule was read from (measurement only; nothing here is read by the bot).

    .venv/bin/python bench/attempts_structure_gates.py            # ~4 min: today's importer and two old readers
    .venv/bin/python bench/attempts_structure_gates.py --cache /tmp/lines.json   # reuse the lines read once

The lines judged: the failed attempts today's importer stores on fold A, and those of the old readers 9b1fd57
and cf87a0b (bench/attempts_old_readers.py) put through today's bar (`told_as_failed`): the wrong lines a
reader makes where no veto was written. Parts: bench/fit_reader.halves' write half (what a gate may be written
from), its measure half (what judges it), and the organisations collected in the seventh collection (new since
3109e1c, collected blind) and the ninth's (new since a67eda1, collected blind while this was measured). Each gate keeps a line when it returns True. Fold A only: fold B is never read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_by_org import organisations_at  # noqa: E402
from bench.attempts_old_readers import old_lines  # noqa: E402
from bench.fit_reader import halves  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import attempt_is_real, attempt_text  # noqa: E402
from bot.reader import cues_attempts as cues  # noqa: E402
from bot.reader.narrative import _objects  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
OLD_READERS = ("9b1fd57", "cf87a0b")
COLLECTED_BLIND_SINCE = ("3109e1c", "a67eda1")  # the seventh collection's organisations; the ninth's (e62f90b)

# the step as the subject of a predicate about its effect ("did not help", "no effect", "was not successful")
NO_EFFECT = re.compile(
    r"\b(?:(?:did|does|do|has|have|had) ?n[o']?t (?:seem to |appear to )?(?:yet )?(?:help|fix|resolv|solv|improv|work|"
    r"chang|make (?:a|any) difference|have (?:any|an|the intended) effect)\w*|no (?:effect|change|difference|improvement|"
    r"success|luck|joy)|not (?:having|have) the intended effect|(?:not |un)successful|without (?:any )?(?:success|effect|"
    r"luck)|(?:in)?sufficient|no-?op|in vain|to no avail|nothing (?:\w+ )?(?:help|work|chang|happen)\w*|did ?n[o']t|didnt|"
    r"never (?:connect|start|boot|recover|c[ao]me))",
    re.I,
)
# an outcome told apart that opens on the step ("It …", "This did not …", "Still …")
OPENS_ON_IT = re.compile(
    r"^\W*(?:\(?\d\d:\d\d[^)]*\)?\W*)?(?:but|however|yet|unfortunately|sadly|still|again|it|they|this|that|these|those|"
    r"which|no|nothing|neither|even|instead)\b",
    re.I,
)
# a contrast whose clause refers back to the step ("…, but it …", "but still …", "but the restart …")
BUT_BACK = re.compile(
    r"\b(?:but|however|yet|unfortunately)\b,?\s{1,4}(?:(?:it|they|this|that|these|those|which|still|again|nothing|no|did|"
    r"does|do|was|were|did ?n[o']t|could ?n[o']t|failed|would ?n[o']t|to no)\b|(?:the|this|that) (?:\w+ )?(?:attempt|fix|"
    r"step|change|restart|rollback|revert|deploy\w*|upgrade|patch|reboot)\b)",
    re.I,
)
_PAST = r"(?:ran|put|set|took|made|got|went|did|gave|sent|brought|built|rebuilt|began|found|wrote|spun|shut|cut|kept|left|tried)"
_AGENT = r"(?:we|i|the team|our team|on-?call|engineers?|ops|sres?|admins?|@[\w-]+|[A-Z][a-z]+)"
# the action told as a step someone took: an agent and a past verb, a passive past, a timeline's actor, an explicit try
STEP_TOLD = re.compile(
    rf"\b{_AGENT}\s+(?:\w+ly\s+|also\s+|then\s+|first\s+){{0,2}}(?:[a-z]+ed|{_PAST})\b|"
    rf"\b(?:was|were|is|are|been|got)\s+(?:\w+ly\s+|then\s+|also\s+){{0,2}}(?:[a-z]+ed|[a-z]+en|{_PAST}|shut down)\b|"
    rf"(?:^|[\s(])@[\w-]+\s+\w+s\b|\b(?:engineer|team|operator|admin|maintainer)s?\s+(?:\w+s|attempts?)\b|"
    rf"^\W*(?:[a-z]+ed|{_PAST}|attempt\w*)\b|\battempt\w*\b",
    re.I,
)


def linked_by_structure(action: str, why: str) -> bool:
    """G1: the outcome is linked to the step by how it is told (no-effect predicate, an outcome opening on the
    step, a contrast referring back, an explicit try, or the failing clause naming the step's object again)."""
    said = f"{action} {why}"
    if NO_EFFECT.search(said) or (why and OPENS_ON_IT.match(why)) or BUT_BACK.search(said):
        return True
    if cues.EXPLICIT_TRY.search(action):
        return True
    failing = [m for p in (cues.FAILED_OUTCOME, cues.SAYS_THE_STEP_FAILED) for m in p.finditer(said)]
    if not failing:
        return False
    before = said[: min(m.start() for m in failing)]
    clause = re.split(r"[.;,]\s|\bbut\b|\bhowever\b", before)[-1]
    return bool(_objects(clause) & _objects(action if why else before[: len(before) - len(clause)]))


def tried_or_no_effect(action: str, why: str) -> bool:
    """B1: an explicit try, or the step the subject of a no-effect predicate; nothing else."""
    said = f"{action} {why}"
    return bool(cues.EXPLICIT_TRY.search(said) or NO_EFFECT.search(said))


def tried_no_effect_or_back(action: str, why: str) -> bool:
    """B2: B1, or an outcome told apart opening on the step, or a contrast whose clause refers back."""
    said = f"{action} {why}"
    return tried_or_no_effect(action, why) or bool(why and OPENS_ON_IT.match(why)) or bool(BUT_BACK.search(said))


def step_told(action: str, why: str) -> bool:
    """T: the action is told as a step someone took (tense and agent), whatever the outcome."""
    return bool(STEP_TOLD.search(action))


GATES: dict[str, Callable[[str, str], bool]] = {
    "G1 outcome linked by structure": linked_by_structure,
    "B1 explicit try or no-effect predicate": tried_or_no_effect,
    "B2 B1, outcome opening on the step, contrast referring back": tried_no_effect_or_back,
    "T action told as a step (agent + past, passive, timeline actor)": step_told,
}


def todays_lines() -> dict[str, list[list[str]]]:
    truths = fold_truths("A", incidents_only=True)
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {
        t.file: [[a.action, a.why_it_failed] for a in d.failed_attempts] if (d := drafts.get(t.file)) else []
        for t in truths
    }


def rows(readings: dict[str, dict[str, list[list[str]]]]) -> list[dict]:
    """One row per stored line (old readers' through today's bar): reading, parts, real."""
    truths = {t.file: t for t in fold_truths("A", incidents_only=True)}
    split = halves({t.org or t.file for t in truths.values()})
    earlier = {commit: organisations_at(commit) for commit in COLLECTED_BLIND_SINCE}
    out = []
    for reading, lines in readings.items():
        for file, stored in lines.items():
            truth = truths[file]
            org = truth.org or truth.file
            parts = [name for name, members in split.items() if org in members]
            # a collection's organisations: absent at its commit, present at the next one named
            at = [org in earlier[commit] for commit in COLLECTED_BLIND_SINCE] + [True]
            parts += [f"new since {c}" for n, c in enumerate(COLLECTED_BLIND_SINCE) if not at[n] and at[n + 1]]
            for action, why in stored:
                if reading != "today" and not cues.told_as_failed({"action": action, "why_it_failed": why}):
                    continue
                real = attempt_is_real(attempt_text(action, why), truth.failed_attempts)
                out.append({"reading": reading, "parts": parts, "real": real, "action": action, "why": why})
    return out


def table(lines: list[dict], keep: Callable[[str, str], bool]) -> dict[tuple[str, str], list[int]]:
    """(reading or "pooled", part) → [real before, stored before, real kept, stored kept]."""
    cells: dict[tuple[str, str], list[int]] = {}
    for row in lines:
        kept = keep(row["action"], row["why"])
        for reading in (row["reading"], "pooled"):
            for part in row["parts"]:
                cell = cells.setdefault((reading, part), [0, 0, 0, 0])
                cell[0] += row["real"]
                cell[1] += 1
                cell[2] += row["real"] and kept
                cell[3] += kept
    return cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, help="read the lines from here if it exists, else write them there")
    args = parser.parse_args(argv)
    if args.cache and args.cache.exists():
        readings = json.loads(args.cache.read_text(encoding="utf-8"))
    else:
        readings = {"today": todays_lines()} | {commit: old_lines(commit) for commit in OLD_READERS}
        if args.cache:
            args.cache.write_text(json.dumps(readings), encoding="utf-8")
    lines = rows(readings)
    for name, keep in GATES.items():
        print(name)
        cells = table(lines, keep)
        for reading in ("today", *OLD_READERS, "pooled"):
            said = []
            for part in ("write", "measure", *(f"new since {commit}" for commit in COLLECTED_BLIND_SINCE)):
                real, stored, real_kept, kept = cells.get((reading, part), [0, 0, 0, 0])
                lost, removed = real - real_kept, (stored - real) - (kept - real_kept)
                share = f" = {real_kept / kept:.0%}" if reading == "pooled" and kept else ""
                said.append(f"{part} {real}/{stored} -> {real_kept}/{kept}{share} (-{lost} real, -{removed} wrong)")
            print(f"  {reading:<8} " + " | ".join(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
