"""Does the trouble go on after this step? A fitted reading of an outcome statement, against today's cue reading
(issue 23, r23-outcome; docs/BENCHMARKS.md "A fitted reading of the outcome statement").

Every rule family of this session pointed at one lever for failed attempts in both readers: whether a step failed
is told in its outcome, and four in five missed postmortem attempts carry no failure word the reader knows. This
bench asks whether a fitted head reads an outcome better than the cue words do, on the statements the labels give:

- rows (fold A only): the sentence holding each labelled `outcome_quote` (the quote found in its document or
  message, widened to its sentence, capped), 1 for a `did_not_work` action (the trouble goes on), 0 for a `worked`
  one; and, as negatives, conversation observations in a message at or after the thread's first labelled `fix`
  message (states after the fix: "back up", "works now"). Conversations only from organisations fold A held at
  080b5c0 (through the sixteenth collection): the seventeenth and later are never read here, nor bench/held_out.tsv's
  threads (c21's of older organisations).
- features: bot/reader/sentences.py's words and word pairs and its sentence cues, the attempts cues of
  bot/reader/cues_attempts.py, and negation scope (the three stems after "not", "n't", "no", "never", "nothing",
  "without", "still"); words, pairs and scope kept when seen in three training organisations or more.
- fit: bot/reader/fit.py's batch recipe (`fit_head`: class-balanced, L2 on the weights; numpy with the bench extra);
  its threshold chosen inside each fit on out-of-fold scores of five organisation groups of the training rows: the
  lowest threshold whose precision there is at least the cue reading's on the same rows.
- the cue reading: `told_as_failed` of the action quote with the outcome sentence as its why (and, shown beside it,
  whether `failure_cues` finds anything in the sentence).

    .venv/bin/python bench/outcome_head.py            # P: postmortems one organisation out; C: fit before c16, judge c16
    .venv/bin/python bench/outcome_head.py --json

Fold B is never read (the loaders return fold A's lines only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.attempts_word_gate import auc  # noqa: E402
from bench.conversation_statements import statements as conversation_statements  # noqa: E402
from bench.fit_reader_attempt_gate import statements as postmortem_statements  # noqa: E402
from bench.reading_eval_conversations import left_out  # noqa: E402
from bot.reader import cues_attempts as ca  # noqa: E402
from bot.reader.fit import fit_head  # noqa: E402
from bot.reader.sentences import _CUES, _stem, word_features  # noqa: E402

EVAL = Path(__file__).resolve().parent.parent / "eval"
BEFORE_C16, THROUGH_C16 = "4e303fa", "080b5c0"  # fold A's conversation organisations before / through c16
WIDEN = 300  # characters either side of the quote a sentence may reach
MIN_ORGS = 3  # a word, pair or scope feature is kept when seen in this many training organisations
L2, EPOCHS, RATE, INNER = 1.0, 400, 1.0, 5
ATTEMPT_CUES = {
    name: getattr(ca, name)
    for name in (
        "FAILED_OUTCOME",
        "SAYS_THE_STEP_FAILED",
        "NEGATED_RECOVERY",
        "STEP_WORKED",
        "PARTLY_WORKED",
        "CONTRAST",
    )
}
NEGATOR = re.compile(r"\b(?:not|no|never|nothing|without|still)\b|n[’']t\b", re.I)
WORD = re.compile(r"[a-z][a-z0-9']+")
BOUNDARY = re.compile(r"[.!?](?=\s)|\n")


def sentence_of(text: str, quote: str) -> str | None:
    """The sentence of `text` holding `quote` (lowercase, whitespace collapsed), widened at most WIDEN either side."""
    words = quote.split()
    if not words:
        return None
    m = re.search(r"\s+".join(map(re.escape, words)), text, re.I)
    if m is None:
        return None
    lo = max(m.start() - WIDEN, 0)
    starts = [b.end() for b in BOUNDARY.finditer(text, lo, m.start())]
    end = BOUNDARY.search(text, m.end(), min(m.end() + WIDEN, len(text)))
    return " ".join(text[starts[-1] if starts else lo : end.end() if end else min(m.end() + WIDEN, len(text))].split())


def features(sentence: str) -> list[str]:
    found = word_features(sentence)
    found += [f"cue:{name}" for name, pattern in _CUES.items() if pattern.search(sentence)]
    found += [f"ca:{name}" for name, pattern in ATTEMPT_CUES.items() if pattern.search(sentence)]
    for m in NEGATOR.finditer(sentence[:1000]):
        found += [f"n:{_stem(w)}" for w in WORD.findall(sentence[m.end() : m.end() + 60].lower())[:3]]
    return list(dict.fromkeys(found))


def cue_reading(row: dict) -> tuple[int, int]:
    """Today's reading of the row: told_as_failed (the stored-attempt bar), and any failure cue at all."""
    told = ca.told_as_failed({"action": row["action"], "why_it_failed": row["text"]})
    return int(told), int(bool(ca.failure_cues(row["text"])))


def _orgs(corpus: str) -> dict[str, str]:
    lines = (EVAL / corpus / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return {t["file"]: t["org"] for t in map(json.loads, filter(None, lines))}


def rows(conversation_orgs: frozenset[str] | None = None) -> tuple[list[dict], int]:
    """Fold A's outcome rows of both corpora, and how many quotes were not found in their text."""
    out, lost = [], 0
    orgs = _orgs("postmortems")
    for file, labelled in postmortem_statements("A").items():
        text = (EVAL / "postmortems" / file).read_text(encoding="utf-8", errors="replace")
        for s in labelled:
            if s["kind"] == "action" and s.get("outcome") in ("worked", "did_not_work") and s.get("outcome_quote"):
                said = sentence_of(text, s["outcome_quote"])
                lost += said is None
                if said:
                    out.append(_row("pm", orgs[file], file, said, s["quote"], s["outcome"] == "did_not_work", "action"))
    if conversation_orgs is not None and not conversation_orgs:
        return out, lost  # postmortems only: no conversation label is even loaded
    orgs = _orgs("conversations")
    held = left_out()  # held_out.tsv's (newest collection): no row of a thread no reader read
    for file, labelled in conversation_statements("A").items():
        if file in held or (conversation_orgs is not None and orgs[file] not in conversation_orgs):
            continue
        messages = [
            m["text"] for m in json.loads((EVAL / "conversations" / file).read_text(encoding="utf-8"))["messages"]
        ]
        fixed = min((s["message"] for s in labelled if s["kind"] == "fix"), default=None)
        for s in labelled:
            if s["kind"] == "action" and s.get("outcome") in ("worked", "did_not_work") and s.get("outcome_quote"):
                said = next(filter(None, (sentence_of(t, s["outcome_quote"]) for t in messages[s["message"] :])), None)
                lost += said is None
                if said:
                    out.append(
                        _row("conv", orgs[file], file, said, s["quote"], s["outcome"] == "did_not_work", "action")
                    )
            elif s["kind"] == "observation" and fixed is not None and s["message"] >= fixed:
                said = sentence_of(messages[s["message"]], s["quote"])
                lost += said is None
                if said:
                    out.append(_row("conv", orgs[file], file, said, "", False, "recovery"))
    return out, lost


def _row(corpus: str, org: str, file: str, text: str, action: str, goes_on: bool, kind: str) -> dict:
    row = {"corpus": corpus, "org": org, "file": file, "text": text, "action": action, "label": int(goes_on)}
    row["kind"], row["features"] = kind, features(text)
    row["cue"], row["any_cue"] = cue_reading(row)
    return row


class Fitted:
    """A head over the features seen in MIN_ORGS training organisations (and every cue), fitted by bot/reader/fit.py's
    batch recipe (its numpy path with the bench extra)."""

    def __init__(self, train: Sequence[dict]) -> None:
        seen: dict[str, set[str]] = defaultdict(set)
        for r in train:
            for f in r["features"]:
                seen[f].add(r["org"])
        keep = [f for f, orgs in seen.items() if f.startswith(("cue:", "ca:")) or len(orgs) >= MIN_ORGS]
        self.index = {f: i for i, f in enumerate(sorted(keep))}
        if len({r["label"] for r in train}) < 2:
            raise ValueError("a fit needs both outcomes")
        kept = [([f for f in r["features"] if f in self.index], r["label"]) for r in train]
        self.head = fit_head(kept, steps="batch", epochs=EPOCHS, rate=RATE, l2=L2)

    def scores(self, some: Sequence[dict]) -> np.ndarray:
        return np.array([self.head.probability(r["features"]) for r in some])


def precision_recall(said: Sequence[int], truth: Sequence[int]) -> tuple[int, int, int]:
    """(right, said, real): lines read as 'goes on' that are, lines read so, lines that are."""
    return sum(s and t for s, t in zip(said, truth, strict=True)), sum(said), sum(truth)


def threshold(train: Sequence[dict]) -> float:
    """Chosen inside the fit: out-of-fold scores over INNER organisation groups of `train`; the lowest threshold
    whose precision there is at least the cue reading's on the same rows (else the most precise one)."""
    orgs = sorted({r["org"] for r in train})
    group = {o: i % INNER for i, o in enumerate(orgs)}
    scored: list[tuple[float, int]] = []
    for k in range(INNER):
        held = [r for r in train if group[r["org"]] == k]
        if held:
            scored += zip(
                Fitted([r for r in train if group[r["org"]] != k]).scores(held), (r["label"] for r in held), strict=True
            )
    right, said, _ = precision_recall([r["cue"] for r in train], [r["label"] for r in train])
    bar = right / said if said else 1.0
    table = []
    for t in sorted({s for s, _ in scored}):
        hits = [y for s, y in scored if s >= t]
        table.append((t, sum(hits) / len(hits)))
    passing = [t for t, precision in table if precision >= bar]
    return min(passing) if passing else max(table, key=lambda tp: (tp[1], -tp[0]))[0]


def judge(train: Sequence[dict], held: Sequence[dict]) -> list[tuple[dict, float, int]]:
    fitted, t = Fitted(train), threshold(train)
    return [(r, float(s), int(s >= t)) for r, s in zip(held, fitted.scores(held), strict=True)]


def summary(judged: Sequence[tuple[dict, float, int]], only: str | None = None) -> dict:
    judged = [j for j in judged if only is None or j[0]["kind"] == only]
    truth = [r["label"] for r, _, _ in judged]
    out = {"rows": len(judged), "goes_on": sum(truth), "auc": round(auc([(s, r["label"]) for r, s, _ in judged]), 3)}
    for name, said in (("head", [h for _, _, h in judged]), ("told_as_failed", [r["cue"] for r, _, _ in judged]),
                       ("failure_cues", [r["any_cue"] for r, _, _ in judged])):  # fmt: skip
        out[name] = precision_recall(said, truth)
    return out


def against_cues(judged: Sequence[tuple[dict, float, int]]) -> dict:
    """Where the head and told_as_failed part: goes-on lines only the head reads (with and without any failure cue in
    the sentence), only the cue reading reads, and wrong lines of each."""
    goes_on = [(r, h) for r, _, h in judged if r["label"]]
    worked = [(r, h) for r, _, h in judged if not r["label"]]
    return {
        "head_only": sum(h and not r["cue"] for r, h in goes_on),
        "head_only_no_failure_cue": sum(h and not r["cue"] and not r["any_cue"] for r, h in goes_on),
        "cue_only": sum(r["cue"] and not h for r, h in goes_on),
        "wrong_head": sum(h for _, h in worked),
        "wrong_cue": sum(r["cue"] for r, _ in worked),
        "wrong_both": sum(h and r["cue"] for r, h in worked),
    }


def run() -> dict:
    from bench.fit_reader import orgs_as_at

    through, before = orgs_as_at("A", THROUGH_C16), orgs_as_at("A", BEFORE_C16)
    data, lost = rows(through)
    pm_orgs = sorted({r["org"] for r in data if r["corpus"] == "pm"})
    one_out: list[tuple[dict, float, int]] = []
    for org in pm_orgs:
        held = [r for r in data if r["corpus"] == "pm" and r["org"] == org]
        train = [r for r in data if r["org"] != org and (r["corpus"] == "pm" or r["org"] in before)]
        one_out += judge(train, held)
    conv_one_out: list[tuple[dict, float, int]] = []  # a check after the decision, not the rule: pre-c16 threads
    for org in sorted({r["org"] for r in data if r["corpus"] == "conv" and r["org"] in before}):
        held = [r for r in data if r["corpus"] == "conv" and r["org"] == org]
        train = [r for r in data if r["org"] != org and (r["corpus"] == "pm" or r["org"] in before)]
        conv_one_out += judge(train, held)
    c16 = [r for r in data if r["corpus"] == "conv" and r["org"] not in before]
    by_collection = judge([r for r in data if r["corpus"] == "pm" or r["org"] in before], c16)
    return {
        "rows": len(data),
        "quotes_not_found": lost,
        "P_postmortems_one_out": summary(one_out),
        "C_c16_all": summary(by_collection),
        "C_c16_outcome_quotes": summary(by_collection, "action"),
        "P_against_cues": against_cues(one_out),
        "C_against_cues": against_cues(by_collection),
        "conv_before_c16_one_out": summary(conv_one_out),
        "conv_before_c16_one_out_outcome_quotes": summary(conv_one_out, "action"),
        "conv_before_c16_against_cues": against_cues(conv_one_out),
        "orgs_held_out": len(pm_orgs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run()
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"rows {result['rows']} (quotes not found {result['quotes_not_found']}), pm orgs held out {result['orgs_held_out']}"
    )
    for name in ("P_postmortems_one_out", "C_c16_all", "C_c16_outcome_quotes", "conv_before_c16_one_out",
                 "conv_before_c16_one_out_outcome_quotes"):  # fmt: skip
        s = result[name]
        line = f"{name}: rows {s['rows']} goes on {s['goes_on']} AUC {s['auc']}"
        for reader in ("head", "told_as_failed", "failure_cues"):
            right, said, real = s[reader]
            line += f" | {reader} P {right}/{said} R {right}/{real}"
        print(line)
    for name in ("P_against_cues", "C_against_cues", "conv_before_c16_against_cues"):
        print(name, " ".join(f"{k} {v}" for k, v in result[name].items()))


if __name__ == "__main__":
    main()
