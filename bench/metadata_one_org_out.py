"""How well the reader's metadata check recognises fold A's labelled metadata statements one organisation out (issue 23,
pmmeta): the honest estimate of what an organisation never seen leaks, where the in-sample figure is 0.

Each labelled "metadata" statement of fold A (eval/postmortems/statements.jsonl) is found in its postmortem's line; it is
recognised when `without_metadata` cuts the quote from that line. One organisation out: every metadata pattern of the
reader (bot/reader/cues_metadata*.py) is split into its alternatives, and an alternative that recognises labelled
metadata of this organisation alone (no other fold-A organisation's) is taken out while that organisation is scored —
the part of the check written on it. Alternatives that fire on no labelled statement stay (written on unlabelled lines).

    python bench/metadata_one_org_out.py [--eval DIR] [--misses]   (fold A only; --misses prints the one-out misses)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.cues_metadata as cm  # noqa: E402
import bot.reader.cues_metadata_field as cmf
import bot.reader.cues_metadata_shape as cms
import bot.reader.cues_metadata_state as cmst
from bench.import_postmortems import fold_statements, fold_truths, read_corpus
from bot.importer.scoring import Ratio, holds_half, score
from bot.reader.metadata_kind import metadata_kind
from bot.reader.read import sentences, without_metadata

MODULES = (cm, cmf, cms, cmst)
LONG_BRANCH = 80  # characters of regex


def _groups_and_branches(pattern: str) -> tuple[list[int], list[tuple[int, int]]]:
    """The top-level '|' positions of `pattern` and its depth-0 groups (start, end) — escapes and classes skipped."""
    bars, groups, depth, start, i, in_class = [], [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]" or pattern[i - 1] == "["
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]" or pattern[i + 1 : i + 3] == "^]":
                i += 1 + (pattern[i + 1] == "^")
        elif ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                groups.append((start, i))
        elif ch == "|" and depth == 0:
            bars.append(i)
        i += 1
    return bars, groups


def alternatives(pattern: str, level: int = 0) -> list[str]:
    """`pattern` as its alternatives: its top-level branches, or (one branch) those of its first group of several."""
    bars, groups = _groups_and_branches(pattern)
    if bars:
        cuts = [-1, *bars, len(pattern)]
        branches = [pattern[a + 1 : b] for a, b in zip(cuts, cuts[1:], strict=False)]
        # a long branch is a shape of its own: its alternatives too (a word list's words are not)
        return [a for b in branches for a in (alternatives(b, level + 1) if len(b) > LONG_BRANCH else [b])]
    if level > 2:
        return [pattern]
    for start, end in groups:
        head = re.match(r"\((?:\?(?::|i:|P<\w+>))?", pattern[start:])
        if head is None or pattern[start + 1 : start + 3] in ("?=", "?!", "?<"):
            continue
        inner = pattern[start + len(head.group(0)) : end]
        parts = alternatives(inner, level + 1)
        if len(parts) > 1:
            return [pattern[:start] + "(?:" + p + ")" + pattern[end + 1 :] for p in parts]
    return [pattern]


def metadata_patterns() -> dict[str, re.Pattern]:
    return {
        f"{m.__name__.rsplit('.', 1)[-1]}.{name}": value
        for m in MODULES
        for name, value in vars(m).items()
        if isinstance(value, re.Pattern) and not name.startswith("__")
    }


def line_of(text: str, quote: str) -> str | None:
    wanted = " ".join(quote.lower().split())
    for line in text.split("\n"):
        if wanted in " ".join(line.lower().split()):
            return line
    return None


def recognised(line: str, quote: str) -> bool:
    return " ".join(quote.lower().split()) not in " ".join(without_metadata(line).lower().split())


def patched(replace: dict[str, re.Pattern]):
    """Every module under bot that holds one of the patterns gets its replacement (names imported elsewhere too)."""
    originals = metadata_patterns()
    swaps = {id(originals[k]): v for k, v in replace.items()}
    undo = []
    for mod in list(sys.modules.values()):
        if mod is None or not getattr(mod, "__name__", "").startswith("bot."):
            continue
        for name, value in list(vars(mod).items()):
            if isinstance(value, re.Pattern) and id(value) in swaps:
                undo.append((mod, name, value))
                setattr(mod, name, swaps[id(value)])
    return undo


def _leak_said(truth, draft) -> str:
    """A one-out leak, fold A: the file and each stored field's sentence holding a labelled metadata line."""
    said = [truth.file]
    for name, text in (("cause", draft.root_cause), ("fix", draft.resolution)):
        for keywords in truth.metadata_keywords:
            held = [s for s in sentences(text or "") if holds_half(s, keywords)]
            if held:
                said.append(f"  {name} [{metadata_kind(held[0])}]: {held[0][:200]}")
    return "\n".join(said)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--eval", default="eval")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--leaks", action="store_true", help="read each organisation's reports one out: metadata stored")
    args = ap.parse_args()
    root = Path(args.eval) / "postmortems"
    # fold A through the one loader: bench/held_out_postmortems.tsv's files (a live judge) are never read (review F85)
    fold_a = fold_truths("A", folder=root)
    org_of = {t.file: t.org for t in fold_a}
    items = []  # (org, file, line, quote)
    unfound = 0
    for file, statements in fold_statements("A", folder=root).items():
        text = (root / file).read_text(encoding="utf-8", errors="replace")
        for s in statements:
            if s["kind"] != "metadata":
                continue
            line = line_of(text, s["quote"])
            if line is None:
                unfound += 1
                continue
            items.append((org_of[file], file, line, s["quote"]))
    # the lines truth.jsonl's metadata phrases stand on (the score's labels: `metadata_keywords`), for --leaks
    keyword_lines = []  # (org, line)
    files_of: dict[str, list[str]] = defaultdict(list)
    for truth in fold_a:
        if not truth.metadata_keywords:
            continue
        files_of[truth.org].append(truth.file)
        text = (root / truth.file).read_text(encoding="utf-8", errors="replace")
        for keywords in truth.metadata_keywords:
            keyword_lines += [(truth.org, line) for line in text.split("\n") if holds_half(line, keywords)][:3]
    pats = metadata_patterns()
    alts = {}
    for name, pat in pats.items():
        parts = alternatives(pat.pattern)
        compiled = []
        for p in parts:
            try:
                compiled.append(re.compile(p, pat.flags))
            except re.error:
                compiled = [pat]
                break
        alts[name] = compiled
    # which organisations' labelled metadata lines each alternative fires on
    fires: dict[tuple[str, int], set[str]] = defaultdict(set)
    for org, line in [(it[0], it[2]) for it in items] + (keyword_lines if args.leaks else []):
        for name, parts in alts.items():
            for k, p in enumerate(parts):
                if p.search(line):
                    fires[(name, k)].add(org)
    in_sample = [recognised(line, q) for _, _, line, q in items]
    orgs = sorted({it[0] for it in items} | (set(files_of) if args.leaks else set()))
    one_out = {}
    leaks = Ratio()
    truths = {t.file: t for t in fold_a}
    for org in orgs:
        replace = {}
        for name, parts in alts.items():
            kept = [p for k, p in enumerate(parts) if not (fires.get((name, k)) and fires[(name, k)] <= {org})]
            if len(kept) < len(parts):
                src = "|".join(f"(?:{p.pattern})" for p in kept) or r"(?!x)x"
                replace[name] = re.compile(src, pats[name].flags)
        undo = patched(replace)
        try:
            for i, it in enumerate(items):
                if it[0] == org:
                    one_out[i] = recognised(it[2], it[3])
            if args.leaks and files_of.get(org):
                drafts, _, _ = read_corpus(root, only=set(files_of[org]))
                found = score([truths[f] for f in files_of[org]], drafts).metadata_as_fix_or_cause
                leaks.right, leaks.total = leaks.right + found.right, leaks.total + found.total
                leaks.misses += [_leak_said(truths[f], drafts[f]) for f in found.misses]
        finally:
            for mod, name, value in undo:
                setattr(mod, name, value)
    n = len(items)
    print(
        json.dumps(
            {
                "fold_A_metadata_statements": n + unfound,
                "found_in_text": n,
                "organisations": len(orgs),
                "recognised_in_sample": sum(in_sample),
                "recognised_one_org_out": sum(one_out.values()),
                "alternatives": sum(len(v) for v in alts.values()),
                "alternatives_of_one_org": sum(1 for v in fires.values() if len(v) == 1),
                **({"leaks_one_org_out": f"{leaks.total - leaks.right} of {leaks.total}"} if args.leaks else {}),
            }
        )
    )
    if args.misses and args.leaks:
        print("\n".join(leaks.misses))
    if args.misses:
        for i, it in enumerate(items):
            if not one_out[i]:
                print(f"{'in' if in_sample[i] else 'both'}\t{it[0]}\t{it[3]}\t{it[2][:160]}")


if __name__ == "__main__":
    main()
