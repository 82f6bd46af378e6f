"""Fold B's drafted failed-attempt lines read blind by a person (review F8): the lines, then the agreement.

    .venv/bin/python bench/conversation_attempts_blind_b.py lines --cache /tmp/f8-b.json          # to read (notes only)
    .venv/bin/python bench/conversation_attempts_blind_b.py agree --cache /tmp/f8-b.json          # totals only
    .venv/bin/python bench/conversation_attempts_blind_b.py readers --cache /tmp/f8-b.json        # two people

The scorer's leading-words rule (bot/importer/scoring.py `keyword_in`, 2026-12-07) changed which drafted attempt lines
of fold B count as real; no person had judged them. `lines` prints every failed attempt today's offline drafter drafts
for fold B's conversations (the fold read from each conversation file, never from truth.jsonl), as "file<TAB>action —
why": no label, score or miss. A person decides each from the conversation alone and writes the decisions down in
DECISIONS, which keeps only SHA-1s (of the file name and of the line) and the decision: fold B's misses cannot be
read from the repository without drafting fold B (a weak guard, not secrecy: review F22). bench/held_out.tsv's threads
are never drafted here. `agree` hashes today's drafts again and prints totals only: how many lines the person called
real, and how the scorer's two rules (`whole`: a phrase as labelled; `bare`: also without its leading words)
agree with the person, and what the person said of the lines the new rule grants. `readers` sets a second person's
blind decisions (SECOND, the same format, written before the first's were opened) beside the first's: totals, Cohen's
kappa, each reader against both rules, and the lines where the two split, named only by their number in `lines`' order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attempts_blind import read_once  # noqa: E402
from bench.conversation_attempts_blind import CONVERSATIONS, attempts_of, drafted_at  # noqa: E402
from bench.reading_eval_conversations import HELD_OUT, held_out_by_default  # noqa: E402
from bench.scoring_leading_words import RULES, granted  # noqa: E402
from bot.importer.scoring import labelled_attempts  # noqa: E402

sys.path.insert(0, str(ROOT / "eval" / "second-annotation"))
from compare import kappa  # noqa: E402  (the second annotations' one Cohen's kappa)

DECISIONS = ROOT / "bench" / "conversation_attempts_blind_b.tsv"
SECOND = ROOT / "bench" / "conversation_attempts_blind_b_second.tsv"
REAL, NOT_REAL = "real", "not"


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def fold_files(folder: Path, fold: str = "B", held_out: Path | None = None) -> list[str]:
    """The conversations of `fold`, by each file's own `fold` field, less bench/held_out.tsv's threads (review F22):
    `lines` prints drafts, and a judge's drafts are never printed. The 55 lines were read on 9cdda00's eval/, where
    c24 was absent and c23 not yet judged; on a later eval/ the collections held out since are left out again, so the
    same lines come back."""
    held = held_out_by_default(folder, held_out or HELD_OUT)
    return sorted(
        p.name
        for p in folder.glob("*.json")
        if p.name not in held and json.loads(p.read_text(encoding="utf-8")).get("fold") == fold
    )


def drafted_lines(drafts: dict[str, list[str] | None]) -> list[tuple[str, str]]:
    """(file, "action — why") for every drafted attempt, in file order."""
    return [(name, line) for name in sorted(drafts) for line in drafts[name] or []]


def read_decisions(path: Path = DECISIONS) -> dict[tuple[str, str], str]:
    """(SHA-1 of the file name, SHA-1 of the line) -> "real" or "not" (lines "file_sha1<TAB>line_sha1<TAB>decision")."""
    out = {}
    for number, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not row.strip() or row.startswith("#"):
            continue
        parts = row.split("\t")
        if len(parts) != 3 or parts[2] not in (REAL, NOT_REAL):
            raise SystemExit(f"{path}:{number}: want file_sha1<TAB>line_sha1<TAB>real|not, got {row!r}")
        out[(parts[0], parts[1])] = parts[2]
    return out


def rule_calls(name: str, line: str, labels: dict[str, dict]) -> dict[str, bool]:
    """Per scorer rule (`whole`, `bare`): does it count this drafted line as real against the thread's label."""
    real = labelled_attempts(labels.get(name, {}))
    return {rule: granted(check, {"text": line, "labels": real}) for rule, check in RULES.items()}


def agreement(lines: list[tuple[str, str]], decided: dict[tuple[str, str], str], labels: dict[str, dict]) -> dict:
    """Totals only: the person's real count; per rule, lines it grants and lines where it agrees with the person;
    the lines the bare rule grants and the whole rule does not, and how many of them the person called real."""
    out = {"lines": len(lines), "undecided": 0, "people_real": 0, "new_grants": 0, "new_grants_people_real": 0}
    out.update({f"{rule}_{key}": 0 for rule in RULES for key in ("real", "agree")})
    for name, line in lines:
        person = decided.get((sha1(name), sha1(line)))
        if person is None:
            out["undecided"] += 1
            continue
        said = rule_calls(name, line, labels)
        out["people_real"] += person == REAL
        for rule, grant in said.items():
            out[f"{rule}_real"] += grant
            out[f"{rule}_agree"] += grant == (person == REAL)
        if said["bare"] and not said["whole"]:
            out["new_grants"] += 1
            out["new_grants_people_real"] += person == REAL
    return out


def readers(
    lines: list[tuple[str, str]],
    first: dict[tuple[str, str], str],
    second: dict[tuple[str, str], str],
    labels: dict[str, dict],
) -> dict:
    """Two people's blind decisions on the same lines: totals and line numbers only (1 = the first line `lines` prints).
    Agreement and Cohen's kappa between them; each against both rules; on the lines where they agree, how often each rule
    agrees, and how many of the lines both call real (and both call not) it grants."""
    both = []  # (line number, first says real, second says real, {rule: grants})
    for number, (name, line) in enumerate(lines, 1):
        keys = (sha1(name), sha1(line))
        if keys in first and keys in second:
            both.append((number, first[keys] == REAL, second[keys] == REAL, rule_calls(name, line, labels)))
    out = {"lines": len(lines), "undecided": len(lines) - len(both)}
    if not both:
        return out
    pairs = [(a, b) for _, a, b, _ in both]
    out.update(
        first_real=sum(a for a, _ in pairs),
        second_real=sum(b for _, b in pairs),
        agree=sum(a == b for a, b in pairs),
        kappa=round(kappa(pairs), 2),
        both_real=sum(a and b for a, b in pairs),
        first_only=sum(a and not b for a, b in pairs),
        second_only=sum(b and not a for a, b in pairs),
        both_not=sum(not a and not b for a, b in pairs),
        split=[number for number, a, b, _ in both if a != b],
    )
    agreed = [(a, said) for _, a, b, said in both if a == b]
    for rule in RULES:
        out[f"{rule}_real"] = sum(said[rule] for *_, said in both)
        for who, index in (("first", 1), ("second", 2)):
            calls = [(row[index], row[3][rule]) for row in both]
            out[f"{rule}_agree_{who}"] = sum(p == r for p, r in calls)
            out[f"{rule}_kappa_{who}"] = round(kappa(calls), 2)
        out[f"{rule}_agree_where_readers_agree"] = sum(a == said[rule] for a, said in agreed)
        out[f"{rule}_grants_both_real"] = sum(said[rule] for a, said in agreed if a)
        out[f"{rule}_grants_both_not"] = sum(said[rule] for a, said in agreed if not a)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("lines", "agree", "readers"))
    parser.add_argument("--cache", type=Path, help="fold B's drafts, drafted once and kept here (outside the repo)")
    parser.add_argument("--decisions", type=Path, default=DECISIONS)
    parser.add_argument("--second", type=Path, default=SECOND, help="the second person's decisions (readers)")
    args = parser.parse_args(argv)
    files = fold_files(CONVERSATIONS)
    drafts = attempts_of(read_once(args.cache, lambda: drafted_at(None, files)))
    if any(drafts.get(name, "") is None for name in files):
        raise SystemExit("the drafter failed on a thread: no figure")
    lines = drafted_lines({name: drafts.get(name) for name in files})
    if args.what == "lines":
        for name, line in lines:
            print(f"{name}\t{line}")
        return 0
    rows = [json.loads(x) for x in (CONVERSATIONS / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    labels = {r["file"]: r for r in rows}
    if args.what == "readers":
        print(json.dumps(readers(lines, read_decisions(args.decisions), read_decisions(args.second), labels)))
    else:
        print(json.dumps(agreement(lines, read_decisions(args.decisions), labels)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
