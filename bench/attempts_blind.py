"""Failed attempts on fold A read blind: each organisation read by the reader of the commit that added it to the
corpus (a reader that had never read it), and which kind of evidence each stored line rests on.

    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json    # ~3 min the first time (one
                                                                                   # git worktree per arrival commit)
    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json --lines   # every line, with its kinds
    ... --at 8a55c66 --vetoes        # fold A as at a commit only; which vetoes fire on blind lines, written from whom

Fold A's cue words were written reading fold A, so today's reader on fold A is in-sample, and "one organisation
out" prints the same figure (nothing is fitted). The blind view is fold A's honest out-of-sample figure for the
hand-written cues: organisation X is read by the reader as it stood when X was collected (`git log` of
eval/postmortems/truth.jsonl), so no cue had been written from X yet. Pooled over organisations it says what the
way the cues are written gives on organisations nobody has read.

Each stored line gets its evidence kinds, read with today's cue patterns on action + why: `try:<word>` (an explicit
try, EXPLICIT_TRY), `outcome:<stem>` (a word of STEP_OUTCOME inside a failure cue: "did not help", "still failing"),
`we-but` (a responder's step against a contrast: told_as_failed's branch), or `none`. A kind "held out of sample"
when it is on real blind lines of several organisations. `--bar` measures the precision bar that keeps a line only
when one of its kinds held (>= MIN_ORGS organisations, >= `--share` of its blind lines real), chosen one
organisation out on the blind lines and applied to them and to today's reader. Fold A only: fold B is never read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_by_org import organisations_at  # noqa: E402
from bench.attempts_old_readers import run_old_reader  # noqa: E402
from bench.import_postmortems import fold_truths, read_corpus  # noqa: E402
from bot.importer.scoring import attempt_found, attempt_is_real, attempt_text  # noqa: E402
from bot.reader import cues_attempts  # noqa: E402
from bot.reader.cues_attempts import (  # noqa: E402
    CONTRAST,
    EXPLICIT_TRY,
    OPENS_ON_THE_STEP,
    STEP_OUTCOME,
    WE_TRIED,
    failure_cues,
    told_as_failed,
)
from bot.reader.narrative import _one_attempt  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
TRUTH = "eval/postmortems/truth.jsonl"
MIN_ORGS = 2


def arrivals(truth: str = TRUTH) -> dict[str, str]:
    """Fold A organisation -> the first commit whose truth.jsonl (`truth`, a path in the repository) holds it."""
    log = subprocess.run(
        ["git", "log", "--format=%h", "--reverse", "--", truth], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    first: dict[str, str] = {}
    for commit in log:
        said = subprocess.run(["git", "show", f"{commit}:{truth}"], cwd=ROOT, capture_output=True, text=True).stdout
        for line in said.splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if row.get("fold") == "A":
                first.setdefault(row.get("org") or row["file"], commit)
    return first


def _day(commit: str) -> str:
    return subprocess.run(
        ["git", "show", "-s", "--format=%cd", "--date=format:%Y-%m-%d", commit],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()


# the organisations read (`--at`): fold A as it was at a commit, so organisations collected since (held out for
# someone else) are neither read nor printed
ONLY: set[str] | None = None


def read_once(cache: Path | None, read: Callable[[], dict]) -> dict:
    """What `read` gives (the blind and today's lines: minutes of old readers), kept in `cache` and read from it after."""
    if cache and cache.exists():
        return json.loads(cache.read_text(encoding="utf-8"))
    said = read()
    if cache:
        cache.write_text(json.dumps(said, ensure_ascii=False), encoding="utf-8")
    return said


def truths_a() -> list:
    return [t for t in fold_truths("A", incidents_only=True) if ONLY is None or (t.org or t.file) in ONLY]


def blind_lines() -> dict[str, list[list[str]] | None]:
    """File -> [action, why] as the reader of its organisation's arrival commit stores them (None: that reader
    does not run on today's harness)."""
    truths, first = truths_a(), arrivals()
    batches: dict[str, list[str]] = defaultdict(list)
    for t in truths:
        batches[first.get(t.org or t.file, "HEAD")].append(t.file)
    out: dict[str, list[list[str]] | None] = {}
    for commit, files in batches.items():
        run = run_old_reader(commit, files)
        said = json.loads(run.stdout) if run.returncode == 0 else {}
        print(f"  {commit}: {len(files)} files, {'read' if run.returncode == 0 else 'does not run'}", file=sys.stderr)
        out.update({f: said.get(f) for f in files})
    return out


def today_lines() -> dict[str, list[list[str]]]:
    truths = truths_a()
    drafts, _, _ = read_corpus(POSTMORTEMS, only={t.file for t in truths})
    return {f: [[a.action, a.why_it_failed] for a in d.failed_attempts] if d else [] for f, d in drafts.items()}


def _try_word(word: str) -> str:
    word = word.lower()
    return "attempt" if word.startswith("attempt") else "tried" if word.startswith("tr") else word.split()[0]


def kinds(action: str, why: str) -> set[str]:
    """The evidence a line rests on, read with today's cue patterns."""
    said = f"{action} {why}"
    out = {f"try:{_try_word(m.group())}" for m in EXPLICIT_TRY.finditer(said)}
    if WE_TRIED.search(action) and (CONTRAST.search(said) or OPENS_ON_THE_STEP.match(why)):
        out.add("we-but")
    for cue in failure_cues(said):
        out |= {f"outcome:{w.group().lower()}" for w in STEP_OUTCOME.finditer(cue.group())}
    return out or {"none"}


def judged(lines: dict[str, list[list[str]] | None]) -> list[dict]:
    """One row per stored line: file, organisation, real, kinds."""
    rows = []
    for t in truths_a():
        for action, why in lines.get(t.file) or []:
            real = attempt_is_real(attempt_text(action, why), t.failed_attempts)
            attempt = {"action": action, "why_it_failed": why}
            rows.append(
                {
                    "file": t.file,
                    "org": t.org or t.file,
                    "real": real,
                    "kinds": sorted(kinds(action, why)),
                    "today_keeps": told_as_failed(attempt) and _one_attempt(attempt),
                    "line": f"{action} | {why}"[:160],
                    "said": attempt_text(action, why),
                }
            )
    return rows


def found(lines: dict[str, list[list[str]] | None], orgs: set[str] | None = None) -> tuple[int, int]:
    """Labelled failed attempts found by the stored lines, and labelled (files of `orgs` only, when given)."""
    hit = total = 0
    for t in truths_a():
        if lines.get(t.file) is None or (orgs is not None and (t.org or t.file) not in orgs):
            continue
        texts = [attempt_text(a, w) for a, w in lines[t.file]]
        hit += sum(attempt_found(k, texts) for k in t.failed_attempts)
        total += len(t.failed_attempts)
    return hit, total


def by_day(rows: list[dict], first: dict[str, str]) -> dict[str, list[int]]:
    """Arrival day of the organisation -> [real, stored]."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        out[first[row["org"]]][0] += row["real"]
        out[first[row["org"]]][1] += 1
    return out


# the vetoes a stored line must pass (cues_attempts), each with the commit that wrote it and the organisations its
# commit message names: a veto "generalises" when it fires on wrong blind lines of organisations it was not written from
VETOES = (
    "LOOKED_FOR_IT",
    "FIGURING_OUT",
    "AFTER_IT_WAS_OVER",
    "TRIGGERED_IT",
    "BEFORE_THE_INCIDENT",
    "USED_THE_SERVICE",
    "SYSTEM_ACTED",
    "ALERT_SAID",
    "LOG_LINE",
    "STEP_WORKED",
    "NOT_TAKEN",
    "PARTLY_WORKED",
    "PAST_PERFECT",
    "CONCEDED",
    "NOTHING_NAMED",
    "AUTOMATIC",
    "IF_IT_FAILS",
    "QUALIFIES",
    "ADDRESSED",
)
_NOT_A_NAME = frozenset(
    "Foundation Software Service Services Technologies Technology Team Open Food Facts Python Network Ethereum Central "
    "Feedback Digital Canadian College London Imperial Scientist homelab operator validator makers number Labs status "
    "Environmental Data Governance Initiative Testing Kubernetes Learning Equality team".split()
)


def org_words(org: str) -> set[str]:
    """Words that name an organisation in a commit message ("DataHub", "cheqd", "TorBox")."""
    words = {w.strip("()&,.") for w in org.replace("/", " ").split()}
    return {w for w in words if len(w) >= 4 and w not in _NOT_A_NAME and not w.islower() or w in {"cheqd", "drand"}}


def written_from(name: str, orgs: list[str]) -> tuple[str, set[str]]:
    """The commit that added `name = ` to the reader's code, and the fold-A organisations named in the messages of
    every commit that added it or names it."""
    log = subprocess.run(
        ["git", "log", "--reverse", "--format=%h", "-S", f"{name} = re.compile", "--", "bot/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    named = subprocess.run(
        ["git", "log", "--format=%h%x00%B%x01", "--", "bot/reader/", "bot/importer/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    messages = [m.split("\0", 1) for m in named.split("\1") if "\0" in m]
    said = " ".join(body for commit, body in messages if commit.strip() in log[:1] or name in body)
    return (log[0] if log else "?"), {org for org in orgs if any(w in said for w in org_words(org))}


def veto_table(blind: list[dict], lines: dict[str, list[list[str]] | None]) -> None:
    orgs = sorted({t.org or t.file for t in truths_a()})
    said = {}
    for t in truths_a():
        for action, why in lines.get(t.file) or []:
            said[(t.file, f"{action} | {why}"[:160])] = f"{action} {why}"
    print(f"{'veto':<20} {'commit':<8} {'blind real/wrong hit':>21}  wrong-hit orgs not named / named in its commits")
    for name in VETOES:
        pattern = getattr(cues_attempts, name)
        hit = [r for r in blind if pattern.search(said[(r["file"], r["line"])])]
        commit, named = written_from(name, orgs)
        wrong_orgs = {r["org"] for r in hit if not r["real"]}
        real = sum(r["real"] for r in hit)
        print(
            f"{name:<20} {commit:<8} {real:>10}/{len(hit) - real:<10}  {len(wrong_orgs - named)} / {len(wrong_orgs & named)}"
            f"  {sorted(o[:14] for o in wrong_orgs & named)}"
        )


def kind_table(rows: list[dict], leave_out: str | None = None) -> dict[str, dict]:
    """Kind -> real and wrong lines, and the organisations with a real line, leaving one organisation out."""
    table: dict[str, dict] = defaultdict(lambda: {"real": 0, "wrong": 0, "orgs": set()})
    for row in rows:
        if row["org"] == leave_out:
            continue
        for kind in row["kinds"]:
            cell = table[kind]
            cell["real" if row["real"] else "wrong"] += 1
            if row["real"]:
                cell["orgs"].add(row["org"])
    return table


def held(table: dict[str, dict], share: float) -> set[str]:
    return {k for k, c in table.items() if len(c["orgs"]) >= MIN_ORGS and c["real"] >= share * (c["real"] + c["wrong"])}


def bar(rows: list[dict], blind: list[dict], share: float, one_out: bool) -> tuple[int, int]:
    """Real and stored lines of `rows` kept by the bar, its kinds chosen on `blind` (without the line's own
    organisation when `one_out`)."""
    cache: dict[str | None, set[str]] = {}
    real = stored = 0
    for row in rows:
        key = row["org"] if one_out else None
        if key not in cache:
            cache[key] = held(kind_table(blind, key), share)
        if cache[key] & set(row["kinds"]):
            real += row["real"]
            stored += 1
    return real, stored


def _pct(real: int, stored: int) -> str:
    return f"{real}/{stored} = {100 * real / stored:.0f} %" if stored else "0/0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, help="the blind and today's lines, read once and kept here")
    parser.add_argument("--lines", action="store_true", help="print every line with its kinds (fold A only)")
    parser.add_argument(
        "--vetoes", action="store_true", help="which vetoes fire on blind lines, and who they came from"
    )
    parser.add_argument("--share", type=float, nargs="+", default=[2 / 3, 0.8], help="the bar's share of real lines")
    parser.add_argument("--at", help="only fold A's organisations at this commit (e.g. 8a55c66: none collected since)")
    args = parser.parse_args(argv)
    global ONLY
    ONLY = organisations_at(args.at) if args.at else None
    if args.cache and args.cache.exists():
        cached = json.loads(args.cache.read_text(encoding="utf-8"))
    else:
        cached = {"blind": blind_lines(), "today": today_lines()}
        first = arrivals()
        cached["days"] = {org: _day(commit) for org, commit in first.items()}
        if args.cache:
            args.cache.write_text(json.dumps(cached, ensure_ascii=False), encoding="utf-8")
    unread = sorted(
        {t.org or t.file for t in truths_a() if cached["blind"].get(t.file) is None and t.file in cached["blind"]}
    )
    blind = judged({f: v for f, v in cached["blind"].items() if v is not None})
    today = judged(cached["today"])
    print(f"organisations whose arrival reader does not run: {len(unread)} {unread}")
    for name, rows in (("blind", blind), ("today", today)):
        real = sum(r["real"] for r in rows)
        print(f"{name}: stored real {_pct(real, len(rows))} on {len({r['org'] for r in rows})} organisations")
        if args.lines:
            for r in sorted(rows, key=lambda r: (r["org"], r["real"])):
                print(
                    f"   {'REAL ' if r['real'] else 'WRONG'} {r['org'][:24]:<24} {','.join(r['kinds']):<40} {r['line']}"
                )
    print(f"{'kind':<22} {'blind real/wrong (orgs)':>26} {'today real/wrong (orgs)':>26}")
    tb, tt = kind_table(blind), kind_table(today)
    for kind in sorted(set(tb) | set(tt), key=lambda k: -(tb[k]["real"] + tb[k]["wrong"])):
        b, t = tb[kind], tt[kind]
        print(
            f"{kind:<22} {b['real']:>12}/{b['wrong']:<3} ({len(b['orgs'])}) {t['real']:>15}/{t['wrong']:<3} ({len(t['orgs'])})"
        )
    for share in args.share:
        print(
            f"bar, kinds held on >= {MIN_ORGS} organisations' blind lines, >= {share:.2f} real: {sorted(held(tb, share))}"
        )
        for name, rows in (("blind", blind), ("today", today)):
            for one_out in (False, True):
                real, stored = bar(rows, blind, share, one_out)
                base = sum(r["real"] for r in rows)
                print(
                    f"  {name:<6} {'one out ' if one_out else 'in-sample'}: {_pct(base, len(rows))} -> {_pct(real, stored)}"
                    f" (real -{base - real}, wrong -{len(rows) - base - (stored - real)})"
                )
    days = cached.get("days") or {}
    print("by the day each organisation was collected (blind | today's reader; found blind | today):")
    orgs_of: dict[str, set[str]] = defaultdict(set)
    for org, day in days.items():
        orgs_of[day].add(org)
    bd, td = by_day(blind, days), by_day(today, days)
    for day in sorted(orgs_of):
        fb, ft = found(cached["blind"], orgs_of[day]), found(cached["today"], orgs_of[day])
        print(
            f"  {day} ({len(orgs_of[day])} orgs): {_pct(*bd[day])} | {_pct(*td[day])};"
            f" found {fb[0]}/{fb[1]} | {ft[0]}/{ft[1]}"
        )
    fb, ft = found(cached["blind"]), found(cached["today"])
    print(f"found, all fold A: blind {fb[0]}/{fb[1]}, today {ft[0]}/{ft[1]}")
    kept = [r for r in blind if r["today_keeps"]]
    dropped = [r for r in blind if not r["today_keeps"]]
    print(
        f"blind lines today's bar and vetoes would keep: {_pct(sum(r['real'] for r in kept), len(kept))};"
        f" drop: real {sum(r['real'] for r in dropped)}, wrong {len(dropped) - sum(r['real'] for r in dropped)}"
        f" (wrong dropped on {len({r['org'] for r in dropped if not r['real']})} organisations)"
    )
    if args.vetoes:
        veto_table(blind, cached["blind"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
