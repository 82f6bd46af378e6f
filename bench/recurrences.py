"""Recurrences (eval/first-reports/recurrences.jsonl) as replay corpora: each case is a later incident's first
report, its one true match the memory of the earlier incident of the same failure. A measurement of the shipped
recall and judgement (issue 27); nothing is tuned on it.

    .venv/bin/python bench/recurrences.py eval --out /tmp/recurrences [--json]
    .venv/bin/python bench/recurrences.py eval --out /tmp/recurrences --build-only   # then replay each bank-*
    .venv/bin/python bench/recurrences.py eval --out /tmp/fr --reports   # the context: reports.jsonl, same figures
    .venv/bin/python bench/recurrences.py eval --out /tmp/rs --judgement A=/tmp/fit_B.json --judgement B=/tmp/fit_A.json

Memories: every incident document of eval/ (a `truth.jsonl` line of postmortems/ or conversations/ whose
`not_an_incident` is not true), each read as bench/first_reports.py's default bank reads a target (a postmortem
file as import reads it, a conversation as its channel transcript) but whole: no case was copied from the earlier
item, so nothing is taken out of it. Minus, for each case, the later incident's own item (`later_in_corpus`: else
recall finds the later incident itself); minus nothing else. One bank per distinct exclusion (the cases without a
later item share one), each replayed by `incident-memory replay`'s own code (lexical unless EMBEDDINGS_URL is set,
defaults, `--target-absent`: the earlier item removed as well, for the false-alarm figures). Cases carry no
`occurred_at`, as first_reports.py's: nothing but the later item is left out.

Figures, for all pairs, by the target's organisation fold and by `links_earlier` (the later thread names the
earlier incident, or states its cause or fix again): Recall@1/@5, MRR@10; the right memory shown anywhere (the
shipped judgement's tiers: strong, or weak among the first three); where it ranks first, shown and strong; with it
removed, strong and anything shown. `--reports`: the same figures, by fold, on reports.jsonl's first reports
against bench/first_reports.py's default bank (each report's own words taken out of its target), for context.
`--judgement FOLD=FILE` (once per fold): the cases whose target is in FOLD judged by the model in FILE (a judgement
file, or the "model" of a line bench/fit_recall_judgement.py prints: the swap's model fitted on the other fold)
instead of the shipped one, on the matches the replay kept; a fold given no file is left out.
Removed, per case (results.json): the memories posted strong and weak, in rank order, and whether the first strong
one is the pair's own organisation's (truth.jsonl `org`); the figure `absent_strong_same_org`: cases whose first
removed strong memory is the same organisation's (an incident of the same failure the labels do not know is one
kind of it: reading tells which). `--reports --targets FILE`: only the first reports whose target FILE lists (the
benches' one list format: a document's file name a line, optionally after its fold and a tab, as /work/c21-files.txt;
a name eval/ has no document of is an error), against the whole bank, with the calibration error (ECE).
Held out: bench/held_out.tsv's threads (the collections no rule was written from) are no memory, and no pair or first
report that targets one (or whose later item is one) is a case; their count is printed (bench/first_reports.py
`held_out_targets`). `--include-held-out` reads them: a judge's `--targets` run and the frozen corpus's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import first_reports  # noqa: E402
from bench.first_reports import case_line, imported, memory_line, target_document  # noqa: E402
from bench.judgement_figures import ece, tiers_of  # noqa: E402
from bench.reading_eval_conversations import named_files  # noqa: E402
from bot.recall.judgement import Judgement, load_judgement  # noqa: E402
from bot.replay_report import CaseResult  # noqa: E402

PAIR_FIELDS = ("id", "org", "fold", "text", "ts", "target", "source", "sameness", "links_earlier")
CORPORA = ("postmortems", "conversations")


def load_pairs(path: Path) -> list[dict[str, Any]]:
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        pair = json.loads(line)
        missing = [f for f in PAIR_FIELDS if f not in pair]
        if missing or pair["fold"] not in ("A", "B") or not str(pair["target"]).startswith(CORPORA):
            raise ValueError(f"{path}:{number}: bad recurrence (missing {missing or 'nothing'}, fold, or target)")
        pairs.append(pair)
    return pairs


def organisations(eval_dir: Path) -> dict[str, str]:
    """Each incident document of eval/ (`postmortems/<file>` or `conversations/<file>`) and its organisation."""
    orgs = {}
    for corpus in CORPORA:
        for line in (eval_dir / corpus / "truth.jsonl").read_text(encoding="utf-8").splitlines():
            label = json.loads(line)
            if not label.get("not_an_incident"):
                orgs[f"{corpus}/{label['file']}"] = str(label.get("org"))
    return orgs


def incident_documents(eval_dir: Path) -> list[str]:
    """Every incident document of eval/, as `postmortems/<file>` or `conversations/<file>`."""
    return sorted(organisations(eval_dir))


def recurrence_case(pair: dict[str, Any], pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """first_reports' case line (the later report as the query, no occurred_at) with the pair's own keys, and
    `same_failure`: the target and the later items of the other pairs of the same target that stay in this
    case's bank (another incident of the same failure, by the pairs' own words; not a true match of the case)."""
    later = pair.get("later_in_corpus")
    siblings = {p.get("later_in_corpus") for p in pairs if p["target"] == pair["target"]} - {None, later}
    return case_line(pair) | {"links_earlier": bool(pair["links_earlier"]), "later": later,
                              "same_failure": [pair["target"], *sorted(siblings)]}  # fmt: skip


def build(
    eval_dir: Path, out: Path, documents: list[str] | None = None, leave_out: frozenset[str] = frozenset()
) -> tuple[list[Path], list[str]]:
    """Write one replay folder per distinct exclusion (out/bank-NN: memories.jsonl, cases.jsonl); (folders,
    documents import kept nothing of). A pair whose target or later item is no incident document of eval/ is a
    clear error. A target import keeps nothing of stays a case, never found: the product would not hold it.
    `leave_out` (`held_out_targets`): documents that are no memory, and a pair targeting one (or later) no case."""
    pairs = [
        pair
        for pair in load_pairs(eval_dir / "first-reports" / "recurrences.jsonl")
        if not {pair["target"], pair.get("later_in_corpus")} & leave_out
    ]
    documents = incident_documents(eval_dir) if documents is None else documents
    documents = [document for document in documents if document not in leave_out]
    known = set(documents)
    for pair in pairs:
        for key in ("target", "later_in_corpus"):
            if pair.get(key) is not None and pair[key] not in known:
                raise ValueError(f"{pair['id']}: its {key} {pair[key]} is not an incident document of {eval_dir}")
        if pair.get("later_in_corpus") == pair["target"]:
            raise ValueError(f"{pair['id']}: the later item is the target itself")
    memories: dict[str, dict[str, Any]] = {}
    lost = []
    for document in documents:
        draft = imported(*target_document(eval_dir, document, set()))
        if draft is None:
            lost.append(document)
        else:
            memories[document] = memory_line(document, draft)
    groups: dict[str, list[dict[str, Any]]] = {}
    for pair in pairs:
        groups.setdefault(pair.get("later_in_corpus") or "", []).append(pair)
    folders = []
    for number, (later, members) in enumerate(sorted(groups.items())):
        folder = out / f"bank-{number:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        rows = {
            "memories.jsonl": [m for document, m in memories.items() if document != later],
            "cases.jsonl": [recurrence_case(p, pairs) for p in members],
        }
        for name, lines in rows.items():
            with (folder / name).open("w", encoding="utf-8") as f:
                f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in lines)
        folders.append(folder)
    return folders, lost


async def replay_banks(folders: list[Path], keep_matches: bool = False) -> list[CaseResult]:
    """Each bank replayed as `incident-memory replay DIR --target-absent` replays it (throwaway database);
    `keep_matches`: the matches kept, for another judgement to judge (rejudged)."""
    from bot.config import Settings
    from bot.replay import run_replay

    results: list[CaseResult] = []
    for folder in folders:
        report = await run_replay(folder, Settings(), progress=False, target_absent=True, keep_matches=keep_matches)
        results += report.results
        print(f"{folder.name}: {len(report.results)} cases replayed", file=sys.stderr, flush=True)
    return results


def rejudged(results: list[CaseResult], judgements: dict[str, Judgement]) -> list[CaseResult]:
    """The cases whose target's fold has a judgement here, their tiers (the target present, and removed) as that
    judgement gives them to the matches the replay kept (bench/judgement_figures.py's tiers_of, as the fits are
    scored); the cases of another fold left out."""
    kept = []
    for r in results:
        if (model := judgements.get(str(r.case.flags.get("fold")))) is None:
            continue
        if r.ranked and not r.matches:
            raise ValueError(f"{r.case.id}: the replay kept no matches to judge (replay_banks(keep_matches=True))")
        kept.append(replace(r, tiers=tuple(tiers_of(model, r.matches)),
                            absent_tiers=tuple(tiers_of(model, r.absent_matches))))  # fmt: skip
    return kept


def listed_targets(eval_dir: Path, listing: Path) -> frozenset[str]:
    """The documents a list names, as first reports target them (`conversations/<file>`, `postmortems/<file>`). The
    list is in the one format of the benches' lists (bench/reading_eval_conversations.py `named_files`: one file a line,
    its name last, a fold and a tab may come first, "#" a comment: /work/c21-files.txt's form); each name a labelled
    document of eval_dir. A name of none (misspelt, a path, written for another eval/) is a clear error: never a set of
    first reports silently smaller."""
    documents = {
        corpus: {
            json.loads(line)["file"] for line in (eval_dir / corpus / "truth.jsonl").read_text("utf-8").splitlines()
        }
        for corpus in CORPORA
    }
    names = named_files(listing)
    unknown = sorted(n for n in names if not any(n in files for files in documents.values()))
    if unknown:
        raise ValueError(
            f"{listing}: {len(unknown)} name(s) no document of {eval_dir} has ({', '.join(unknown[:5])}): one file "
            "name a line, optionally after its fold and a tab"
        )
    both = sorted(n for n in names if all(n in files for files in documents.values()))
    if both:
        raise ValueError(f"{listing}: {', '.join(both[:5])} name(s) a postmortem and a conversation alike")
    return frozenset(f"{corpus}/{n}" for n in names for corpus in CORPORA if n in documents[corpus])


def only_targets(folder: Path, listing: Path, eval_dir: Path) -> tuple[int, int]:
    """Keep the cases of a replay folder whose target `listing` names (`listed_targets`); the memories stay whole.
    (first reports kept, listed documents no first report targets); none kept is a clear error."""
    wanted = listed_targets(eval_dir, listing)
    cases = (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in cases if set(json.loads(line)["relevant"]) & wanted]
    if not kept:
        raise ValueError(f"no first report of {folder} targets a document {listing} lists")
    targeted = {t for line in kept for t in json.loads(line)["relevant"]}
    (folder / "cases.jsonl").write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return len(kept), len(wanted - targeted)


def judgement_of(value: str) -> tuple[str, Judgement]:
    """--judgement FOLD=FILE: a judgement file, or a line of bench/fit_recall_judgement.py with its "model"."""
    fold, _, path = value.partition("=")
    if fold not in ("A", "B") or not path:
        raise argparse.ArgumentTypeError(f"--judgement takes A=FILE or B=FILE, not {value!r}")
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return fold, Judgement.from_json(data.get("model", data))


def removed_posted(r: CaseResult) -> dict[str, list[str]]:
    """With the target removed: the memories posted strong, and weak, in rank order (the matches kept)."""
    if r.absent_tiers and not r.absent_matches:
        raise ValueError(f"{r.case.id}: the replay kept no removed matches (replay_banks(keep_matches=True))")
    posted = list(zip((m.memory.incident_id for m in r.absent_matches), r.absent_tiers, strict=True))
    return {tier: [memory for memory, t in posted if t == tier] for tier in ("strong", "weak")}


def removed_strong_org(r: CaseResult, org_of: dict[str, str]) -> str | None:
    """ "same" when the first memory posted strong with the target removed is the case's own organisation's,
    "other" when another's, None when nothing is strong."""
    strong = removed_posted(r)["strong"]
    if not strong:
        return None
    return "same" if org_of.get(strong[0]) == r.case.flags.get("org") else "other"


def figures(results: list[CaseResult], org_of: dict[str, str] | None = None) -> dict[str, Any]:
    """The figures of some cases: ranking, and the shipped judgement's tiers as the replay judged them; with
    `org_of` (each memory's organisation), the cases whose first removed strong memory is their own org's."""
    n = len(results)
    first = [r for r in results if r.rank == 1]
    right = [r.right_tier() for r in results]
    absent = [r.absent_shown() for r in results]

    def share(count: int, of: int) -> float | None:
        return round(count / of, 3) if of else None

    return {
        "cases": n,
        "recall_at_1": share(len(first), n),
        "recall_at_5": share(sum(r.rank is not None and r.rank <= 5 for r in results), n),
        "mrr_at_10": round(sum(1.0 / r.rank for r in results if r.rank is not None) / n, 3) if n else None,
        "right_shown": share(sum(t != "below" for t in right), n),
        "right_strong": share(right.count("strong"), n),
        "same_failure_at_1": share(sum(_same_failure_rank(r) == 1 for r in results), n),
        "same_failure_at_5": share(sum((_same_failure_rank(r) or 99) <= 5 for r in results), n),
        "first": len(first),
        "first_shown": share(sum(r.right_tier() != "below" for r in first), len(first)),
        "first_strong": share(sum(r.right_tier() == "strong" for r in first), len(first)),
        "absent_strong": share(absent.count("strong"), n),
        "absent_shown": share(sum(t != "below" for t in absent), n),
    } | ({"absent_strong_same_org": share(sum(removed_strong_org(r, org_of) == "same" for r in results), n)}
         if org_of is not None else {})  # fmt: skip


def _same_failure_rank(r: CaseResult) -> int | None:
    """1-based rank of the target or another incident of the same failure (`same_failure`) in the top 10."""
    same = set(r.case.flags.get("same_failure") or ()) | r.case.relevant
    return next((i for i, m in enumerate(r.ranked[:10], start=1) if m in same), None)


def by_subset(
    results: list[CaseResult], links: bool = True, org_of: dict[str, str] | None = None
) -> dict[str, dict[str, Any]]:
    return {name: figures(subset, org_of) for name, subset in subsets_of(results, links).items()}


def subsets_of(results: list[CaseResult], links: bool = True) -> dict[str, list[CaseResult]]:
    """All cases, by the target's fold, and (`links`) by whether the later thread names the earlier incident."""
    subsets = {
        "all": results,
        "fold A": [r for r in results if r.case.flags.get("fold") == "A"],
        "fold B": [r for r in results if r.case.flags.get("fold") == "B"],
    }
    if links:
        subsets["links earlier"] = [r for r in results if r.case.flags.get("links_earlier")]
        subsets["same cause, fix or 'again'"] = [r for r in results if not r.case.flags.get("links_earlier")]
    return subsets


def table(subsets: dict[str, dict[str, Any]]) -> list[str]:
    def cell(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    lines = ["| cases | n | R@1 | R@5 | MRR@10 | right shown / strong | first: shown / strong (of n) | removed: strong / "
             "anything | same failure @1 / @5 | removed strong, own org |", "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, f in subsets.items():
        lines.append(f"| {name} | {f['cases']} | {cell(f['recall_at_1'])} | {cell(f['recall_at_5'])} | "
                     f"{cell(f['mrr_at_10'])} | {cell(f['right_shown'])} / {cell(f['right_strong'])} | "
                     f"{cell(f['first_shown'])} / {cell(f['first_strong'])} ({f['first']}) | "
                     f"{cell(f['absent_strong'])} / {cell(f['absent_shown'])} | "
                     f"{cell(f.get('same_failure_at_1'))} / {cell(f.get('same_failure_at_5'))} | "
                     f"{cell(f.get('absent_strong_same_org'))} |")  # fmt: skip
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="the eval/ folder (first-reports/, postmortems/, conversations/)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the banks (bank-NN/) and results.json")
    parser.add_argument("--build-only", action="store_true", help="write the banks, replay nothing")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--reports", action="store_true", help="the context: reports.jsonl's first reports against "
                        "bench/first_reports.py's default bank, the same figures by fold")  # fmt: skip
    parser.add_argument("--judgement", type=judgement_of, action="append", metavar="FOLD=FILE",
                        help="the cases whose target is in FOLD judged by FILE's model (rejudged), once per fold")  # fmt: skip
    parser.add_argument("--targets", type=Path, help="with --reports: only the first reports whose target this file "
                        "lists (FOLD<TAB>file a line, as /work/c21-files.txt); the bank stays whole")  # fmt: skip
    parser.add_argument("--include-held-out", action="store_true",
                        help="bench/held_out.tsv's threads too (left out by default): to judge, totals only")  # fmt: skip
    args = parser.parse_args()
    if args.targets and not args.reports:
        parser.error("--targets goes with --reports")
    held = first_reports.held_out_targets(args.eval_dir, args.include_held_out, say=args.reports)
    if args.reports:
        try:
            listed = listed_targets(args.eval_dir, args.targets) if args.targets else frozenset()
        except ValueError as error:
            parser.error(str(error))
        if listed & held:
            parser.error(f"--targets lists {len(listed & held)} held-out thread(s): a judge passes --include-held-out")
        first_reports.build(args.eval_dir, args.out, leave_out=held)
        if args.targets:
            kept, unreported = only_targets(args.out, args.targets, args.eval_dir)
            print(f"{kept} first reports kept ({unreported} listed documents have none)", file=sys.stderr)
        groups = subsets_of(asyncio.run(replay_banks([args.out], keep_matches=True)), links=False)
        shipped = load_judgement()
        subsets = {name: figures(group) | {"ece": round(ece([(r, shipped) for r in group]), 3) if group else None}
                   for name, group in groups.items()}  # fmt: skip
        print(json.dumps(subsets) if args.json else "\n".join(table(subsets)))
        return 0
    folders, lost = build(args.eval_dir, args.out, leave_out=held)
    pairs = load_pairs(args.eval_dir / "first-reports" / "recurrences.jsonl")
    dropped = sum(bool({p["target"], p.get("later_in_corpus")} & held) for p in pairs)
    print(f"{len(folders)} banks in {args.out} ({dropped} of {len(pairs)} pairs held out)", file=sys.stderr)
    for document in lost:
        print(
            f"import kept nothing of {document} (not in the banks; a case targeting it is never found)", file=sys.stderr
        )
    if args.build_only:
        return 0
    results = asyncio.run(replay_banks(folders, keep_matches=True))
    if args.judgement:
        results = rejudged(results, dict(args.judgement))
    org_of = organisations(args.eval_dir)
    subsets = by_subset(results, org_of=org_of)
    per_case = [{"id": r.case.id, "rank": r.rank, "same_failure_rank": _same_failure_rank(r), "right": r.right_tier(),
                 "absent": r.absent_shown(), "ranked": list(r.ranked[:5]),
                 "fold": r.case.flags.get("fold"), "links_earlier": r.case.flags.get("links_earlier"),
                 "removed": removed_posted(r), "removed_strong_org": removed_strong_org(r, org_of)}
                for r in results]  # fmt: skip
    (args.out / "results.json").write_text(json.dumps({"figures": subsets, "cases": per_case}, indent=1) + "\n")
    print(json.dumps(subsets) if args.json else "\n".join(table(subsets)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
