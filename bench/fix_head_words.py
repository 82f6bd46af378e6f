"""The conversation's fix head with the sentence's words (issue 23, r23-fix2; docs/BENCHMARKS.md "The conversation's
fix head reads the sentence's words").

The chat fix head (bot/data/reader_chat.json) weighs cue groups only: "I pushed the wrong connection token" and "I
pushed the corrected connection token" score alike. The postmortem reader's fix head weighs crude-stemmed words and
word pairs (bot/reader/sentences.py `word_features`), which pay on organisations it never saw. Here those words are
fitted for the chat fix head as an offset: the shipped head's score is each sentence's fixed part (bot/reader/fit.py's
batch recipe, bench/fit_reader.py's L2, epochs and rate), only the words' weights are fitted, so the merged head is the
shipped bias and cue weights plus word weights (bot/reader/conversation.py scores a fix with its words).

    .venv/bin/python bench/fix_head_words.py                     # dev fold A, 10 groups of organisations out (~2 min)
    .venv/bin/python bench/fix_head_words.py --drafts            # and the chosen threshold through the offline drafter
    .venv/bin/python bench/fix_head_words.py --write             # fit on all of dev, write bot/data/reader_chat.json
    .venv/bin/python bench/fix_head_words.py --kind attempt      # the same for the failed-attempt head (r23-attwords)
    .venv/bin/python bench/fix_head_words.py --kind cause        # the same for the cause head (r23-causewords)

No head fits a word or pair with a part like the corpus's pseudonyms (u1, hello_u1: the authors' names the corpus
gives, words that mean nothing in a new team's channel; review F8, F5, fixrefit).

Dev is fold A without bench/held_out.tsv's threads (`--files`: only a list's fold-A names, /work/dev-files.txt's form
"FOLD<TAB>file"). Each group of organisations (md5 of the name, mod 10) is read with words fitted on the others. The
quick reading ("sim") picks, per thread, the best-scored sentence the cue gate opens and no veto rules out; the
threshold is the one with the most right fixes among those that draft fewer wrong fixes and fewer fixes where none is
labelled than the shipped head (the higher of equals); `--drafts` reads 0.64-0.78 through the offline drafter
(bench/fit_reader.py `evaluate`, the sandbox's scoring; ~7 min) and chooses on those figures. Fold B is never read here.

`--kind attempt` (r23-attwords) fits the failed-attempt head's words the same way, over its cue weights. An attempt is
every sentence (up to the head's `keep`) that the cue gate opens, no veto rules out, whose outcome is told
(conversation.py `how_it_went`) and that scores over the threshold, beside the attempts the rules draft (told in so
many words, a suggestion answered by a failure; in messages the told ones quote, none is scored). The sim counts each
drafted sentence right (it holds a labelled attempt, `is_kind`) or wrong; the threshold is the one with the fewest wrong
attempts among those with FEWER wrong ones and at most one real one fewer than the cue head (`choose`). Each head
keeps the others' words: writing one rewrites only its own weights and its own part of the file's record.

`--kind cause` (r23-causewords) fits the cause head's words as the fix head's (a cause is the best-scored sentence the
cue gate opens and no veto rules out; the drafter also moves a "that may be the cause" to the sentence it points at).
The threshold is the one with the fewest causes drafted wrong or where none is labelled, among those with fewer of them
and at most one right cause fewer than the cue head (`choose`; then the most right, then the higher).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.reader.fit as reader_fit  # noqa: E402
from bench.fit_reader import EPOCHS, L2, RATE, THRESHOLDS, conversations, evaluate, is_kind, messages  # noqa: E402
from bot.importer.scoring import labelled_attempts  # noqa: E402
from bot.reader import conversation  # noqa: E402
from bot.reader.conversation_features import sentences  # noqa: E402
from bot.reader.conversation_told import told_attempts  # noqa: E402
from bot.reader.sentences import Head, SentenceModel  # noqa: E402

GROUPS = 10
KINDS = ("fix", "attempt", "cause")
WORD_PREFIXES = ("w:", "b:")  # bot/reader/sentences.py `word_features`' names
MIN_SENTENCES = 3  # a word or pair fitted only when that many sentences hold it (39,445 weights -> a few thousand)
GRID = [t / 100 for t in range(50, 96)]
DRAFT_GRID = [t / 100 for t in range(64, 79)]  # read through the drafter (each ~30 s)
REAL_SPARED = (
    1  # real attempts a threshold may lose for fewer wrong ones (precision first; chosen after the first grid)
)
DRAFT_GRIDS = {
    "fix": DRAFT_GRID,
    "attempt": [t / 100 for t in range(70, 95, 3)],
    "cause": [t / 100 for t in range(62, 80, 2)],
}
OTHERS = ("root_cause", "attempts_real", "attempts_found", "invented_attempts", "found")
CAUSE_OTHERS = ("fix", "attempts_real", "attempts_found", "invented_attempts", "found")  # the cause head's: the fix's
PSEUDONYM = re.compile(r"u\d{1,3}")  # the corpus's u1, u2, ... (review F8, F5): no word of any head
RIGHT_SPARED = 1  # right causes a threshold may lose for fewer wrong ones or fewer where none (precision first)
Data = list[tuple[dict[str, Any], dict]]


def group(org: str) -> int:
    return int(hashlib.md5(org.encode()).hexdigest(), 16) % GROUPS


def logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def said(record: str, kind: str, part: str) -> str:
    """The file's record with `kind`'s words told by `part` (in place of what it said of them before, else after)."""
    mine = f"the {kind} head's words"
    parts = record.split("; ")
    kept = [p if not p.startswith(mine) else part for p in parts]
    return "; ".join(kept if part in kept else [*kept, part])


def read(data: Data, kind: str = "fix") -> list[dict[str, Any]]:
    """Each thread's sentences once: words, the shipped head's cue score (its logit, the offset), the gate and vetoes;
    for an attempt also whether a rule drafts it and whether a told attempt quotes its message."""
    head = conversation.shipped_models().heads[kind]
    out = []
    for label, thread in data:
        said_msgs = messages(thread)
        found = sentences(said_msgs)
        labelled = (
            bool(label.get(f"{'root_cause' if kind == 'cause' else 'fix'}_keywords"))
            if kind != "attempt"
            else bool(labelled_attempts(label))
        )
        quoted: set[int] = set()
        replies: list[int] = []
        if kind == "attempt":
            told = told_attempts(
                found, [said_msgs[s.message].at for s in found], lambda t: conversation.never("attempt", t)
            )
            quoted = {found[i].message for t in told for i in (t.sentence, t.follow) if i is not None}
            replies = conversation.next_message_starts(found)
        rows = []
        for i, s in enumerate(found):
            gated = conversation.cue_gated(kind, s) and not conversation.vetoed(kind, s)
            rows.append({
                "words": conversation.words_of(s.text),
                "offset": logit(head.probability(s.features)),
                "open": gated and (kind != "attempt" or conversation.how_it_went(found, i)),
                "rule": kind == "attempt" and conversation.suggested_then_failed(found, i, replies[i]) is not None,
                "quoted": s.message in quoted,
                "holds": labelled and is_kind(kind, s.text, label),
            })  # fmt: skip
        out.append({"file": label["file"], "org": label["org"], "labelled": labelled, "rows": rows})
    return out


def pseudonym(word: str) -> bool:
    """ "w:u1", "b:hello_u1": a word or pair with a part that is one of the corpus's pseudonyms."""
    return any(PSEUDONYM.fullmatch(part) for part in word[2:].split("_"))


def fit_words(threads: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The words' weights over the shipped head's score, rounded to 4 places as shipped (bench/fit_reader.py `fit`);
    every head's without the pseudonyms (`pseudonym`): the corpus's authors, no word of a new team's channel."""
    rows = [r for t in threads for r in t["rows"]]
    seen = Counter(word for r in rows for word in r["words"])
    kept = {w for w, n in seen.items() if n >= MIN_SENTENCES and not pseudonym(w)}
    head = reader_fit.fit_head(
        [([w for w in r["words"] if w in kept], r["holds"]) for r in rows], steps="batch",
        epochs=EPOCHS, rate=RATE, l2=L2, offsets=[r["offset"] for r in rows],
    )  # fmt: skip
    return {name: round(w, 4) for name, w in sorted(head.weights.items()) if abs(w) >= 1e-4}


def outcomes(
    threads: Sequence[dict[str, Any]], scores: Sequence[list[float]], threshold: float, kind: str = "fix"
) -> Counter:
    """right / wrong / missed / where_none / empty, the best-scored open sentence at or over `threshold` (the later of
    equals, as the reader picks); for an attempt each drafted sentence right or wrong (`attempts`)."""
    if kind == "attempt":
        return attempts(threads, scores, threshold)
    counts: Counter = Counter()
    for thread, scored in zip(threads, scores, strict=True):
        best = None
        for row, score in zip(thread["rows"], scored, strict=True):
            if row["open"] and score >= threshold and (best is None or score >= best[0]):
                best = (score, row)
        if best is None:
            counts["missed" if thread["labelled"] else "empty"] += 1
        elif not thread["labelled"]:
            counts["where_none"] += 1
        else:
            counts["right" if best[1]["holds"] else "wrong"] += 1
    return counts


def attempts(threads: Sequence[dict[str, Any]], scores: Sequence[list[float]], threshold: float) -> Counter:
    """The scored attempts as the reader drafts them: in order, up to the head's `keep` (counted before the quoted ones
    are dropped), each open sentence at or over `threshold` and each a rule drafts; right when it holds a labelled
    attempt, wrong when not; `where_none`: threads with none labelled that get one."""
    keep = conversation.shipped_models().heads["attempt"].keep
    counts: Counter = Counter()
    for thread, scored_ in zip(threads, scores, strict=True):
        picked = [
            r for r, p in zip(thread["rows"], scored_, strict=True) if r["rule"] or (r["open"] and p >= threshold)
        ]
        shown = [r for r in picked[:keep] if not r["quoted"]]
        for r in shown:
            counts["right" if r["holds"] else "wrong"] += 1
        if shown and not thread["labelled"]:
            counts["where_none"] += 1
        counts["empty"] += int(not shown and not thread["labelled"])
    return counts


def scored(threads: Sequence[dict[str, Any]], words: dict[int, dict[str, float]] | None) -> list[list[float]]:
    """Each sentence's probability: the shipped head's (`words` None) or with its group's word weights added."""
    out = []
    for t in threads:
        w = words[group(t["org"])] if words is not None else {}
        out.append([1 / (1 + math.exp(-(r["offset"] + sum(w.get(f, 0.0) for f in r["words"])))) for r in t["rows"]])
    return out


def choose(base: Counter, grid: dict[float, Counter], kind: str = "fix") -> float:
    """The most right fixes among the thresholds that draft FEWER wrong fixes and fewer fixes where none is labelled than
    `base` (precision first: the change must also take away some of what misleads; the higher threshold of equals). An
    attempt: the fewest wrong attempts among those that draft fewer wrong ones and lose at most `REAL_SPARED` real ones
    (on dev no threshold drafts fewer wrong attempts and every real one: the one-out words push one real attempt under
    every threshold from 0.79 up), then the most real, then the higher threshold."""
    if kind == "cause":  # fewer drafted wrong or where none, at most one right cause fewer
        bad = {t: c["wrong"] + c["where_none"] for t, c in grid.items()}
        base_bad = base["wrong"] + base["where_none"]
        fair = [t for t, c in grid.items() if bad[t] < base_bad and c["right"] >= base["right"] - RIGHT_SPARED]
        if not fair:
            raise SystemExit("no threshold drafts fewer wrong causes or causes where none at most one right fewer")
        return max(fair, key=lambda t: (-bad[t], grid[t]["right"], t))
    if kind == "attempt":
        fair = [t for t, c in grid.items() if c["wrong"] < base["wrong"] and c["right"] >= base["right"] - REAL_SPARED]
        if not fair:
            raise SystemExit("no threshold drafts fewer wrong attempts and loses at most one real one")
        return max(fair, key=lambda t: (-grid[t]["wrong"], grid[t]["right"], t))
    fair = [t for t, c in grid.items() if c["wrong"] < base["wrong"] and c["where_none"] < base["where_none"]]
    if not fair:
        raise SystemExit("no threshold drafts fewer wrong fixes and fewer fixes where none than the shipped head")
    return max(fair, key=lambda t: (grid[t]["right"], t))


def merged(words: dict[str, float], threshold: float, said: str, kind: str = "fix") -> SentenceModel:
    """The shipped heads with `kind`'s cue weights and `words` (its words fitted before: out); the others as shipped."""
    shipped = conversation.shipped_models()
    heads = dict(shipped.heads)
    head = shipped.heads[kind]
    cues = {name: w for name, w in head.weights.items() if not name.startswith(WORD_PREFIXES)}
    heads[kind] = Head(head.bias, {**cues, **words}, threshold, head.keep)
    return SentenceModel(heads, said)


def drafter(data: Data, words: dict[int, dict[str, float]], threshold: float, kind: str = "fix") -> Counter:
    """The offline drafter's totals (bench/fit_reader.py `evaluate`), each group of organisations read with its words;
    for an attempt right / wrong are the drafted attempts real or not, where none the invented ones."""
    counts: Counter = Counter()
    for k in range(GROUPS):
        part = [(label, thread) for label, thread in data if group(label["org"]) == k]
        figures = evaluate(part, merged(words[k], threshold, f"group {k} out", kind))
        if kind == "attempt":
            real, invented = figures["attempts_real"], figures["invented_attempts"]
            counts["right"] += real.right
            counts["wrong"] += real.total - real.right
            counts["where_none"] += invented.total - invented.right  # right: a thread with none labelled given none
            counts["empty"] += invented.right
        else:
            fix, drafted, clean = (
                (figures["root_cause"], figures["root_cause_drafted_right"], figures["cause_where_none"])
                if kind == "cause"
                else (figures["fix"], figures["fix_drafted_right"], figures["fix_where_none"])
            )
            counts["right"] += fix.right
            counts["wrong"] += drafted.total - drafted.right
            counts["missed"] += fix.total - drafted.total
            counts["where_none"] += clean.total - clean.right
            counts["empty"] += clean.right
        for name in CAUSE_OTHERS if kind == "cause" else OTHERS:
            counts[name] += figures[name].right
            counts[name + "/"] += figures[name].total
    return counts


def others(c: Counter, kind: str = "fix") -> str:
    return ", ".join(f"{name} {c[name]}/{c[name + '/']}" for name in (CAUSE_OTHERS if kind == "cause" else OTHERS))


def show(name: str, c: Counter, what: str = "fix") -> str:
    labelled = c["right"] + c["wrong"] + c["missed"]
    return (f"{name}: {what} right {c['right']}/{labelled}, drafted {c['right'] + c['wrong']} ({c['wrong']} wrong), "
            f"where none {c['where_none']} of {c['where_none'] + c['empty']}")  # fmt: skip


def show_attempts(name: str, c: Counter) -> str:
    drafted = c["right"] + c["wrong"]
    return (f"{name}: attempts drafted {drafted} ({c['right']} real, {c['wrong']} wrong), threads with none labelled "
            f"given one {c['where_none']} of {c['where_none'] + c['empty']}")  # fmt: skip


def show_causes(name: str, c: Counter) -> str:
    return show(name, c, "cause")


SHOW = {"fix": show, "attempt": show_attempts, "cause": show_causes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=Path, help="only this list's fold-A names (FOLD<TAB>file lines)")
    parser.add_argument("--drafts", action="store_true", help="the chosen threshold through the offline drafter")
    parser.add_argument("--write", action="store_true", help="fit on all of dev, write bot/data/reader_chat.json")
    parser.add_argument("--threshold", type=float, help="read (and write) this threshold, not the chosen one")
    parser.add_argument("--kind", choices=KINDS, default="fix", help="the head whose words are fitted (fix)")
    args = parser.parse_args(argv)
    kind = args.kind
    data = conversations("A")
    if args.files:
        listed = {line.split("\t")[1].strip() for line in args.files.read_text().splitlines() if line.startswith("A\t")}
        data = [(label, thread) for label, thread in data if label["file"] in listed]
    threads = read(data, kind)
    base = outcomes(threads, scored(threads, None), THRESHOLDS[kind], kind)  # the cue head: shipped before its words
    words = {k: fit_words([t for t in threads if group(t["org"]) != k]) for k in range(GROUPS)}
    out_scores = scored(threads, words)
    grid = {t: outcomes(threads, out_scores, t, kind) for t in GRID}
    threshold = args.threshold if args.threshold is not None else choose(base, grid, kind)
    print(
        f"dev fold A, {len(threads)} threads of {len({t['org'] for t in threads})} organisations; sim (one group out)"
    )
    show = SHOW[kind]
    print(show("  the cue head (no words)", base))
    for t in GRID:
        if abs(t - threshold) <= 0.05 + 1e-9:
            print(show(f"  words, threshold {t:.2f}{' (chosen)' if t == threshold else ''}", grid[t]))
    if args.drafts:
        shipped = drafter(data, {k: {} for k in range(GROUPS)}, THRESHOLDS[kind], kind)
        print(show("  drafter, the cue head (no words)", shipped))
        grid_ = [args.threshold] if args.threshold else DRAFT_GRIDS[kind]
        drafted = {t: drafter(data, words, t, kind) for t in grid_}
        for t, c in drafted.items():
            print(show(f"  drafter, words one group out, threshold {t:.2f}", c) + f"; {others(c, kind)}", flush=True)
        threshold = args.threshold if args.threshold is not None else choose(shipped, drafted, kind)
        print(f"  chosen (drafter): {threshold:.2f}; shipped {others(shipped, kind)}")
    if args.write:
        every = fit_words(threads)
        orgs = len({t["org"] for t in threads})
        part = (f"the {kind} head's words fitted over it on fold A minus bench/held_out.tsv ({len(threads)} conversations "
                f"of {orgs} organisations, bench/fix_head_words.py), threshold {threshold:.2f} chosen one group of "
                "organisations out")  # fmt: skip
        model = merged(every, threshold, said(conversation.shipped_models().fitted_on, kind, part), kind)
        conversation.MODEL_FILE.write_text(
            json.dumps(model.as_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"wrote {conversation.MODEL_FILE} ({len(every)} word weights, threshold {threshold:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
