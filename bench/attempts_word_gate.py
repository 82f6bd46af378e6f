"""Stored "did not work" lines gated by their WORDS, or by where the document tells them, judged on lines no rule was
written from (fold A only).

    nice -n 10 .venv/bin/python bench/attempts_blind.py --cache /tmp/blind.json     # the blind and today's lines
    nice -n 10 .venv/bin/python bench/attempts_word_gate.py --cache /tmp/blind.json --gate words [--cues] \
        [--min-orgs 3] [--l2 10] --keep 0.4 0.5 0.6
    nice -n 10 .venv/bin/python bench/attempts_word_gate.py --cache /tmp/blind.json --gate structure [--lines]

`--gate words`: a logistic head (bot/reader/fit.py) over the words of a line (lower-cased, cut to 6 letters, uni- and
bigrams, and character 4-grams of its words with `--chars`), only words seen in at least `--min-orgs` organisations'
training rows (a word of one organisation's own is no evidence on the next); `--cues` adds attempts_label_gate's cue
names. Fitted on fold A's sentence labels as attempts_label_gate's "unlabelled" population (a document sentence holding
a failure cue: positive when a labelled action that did not work is quoted in it, else negative), one organisation out
(organisation X's lines read by the head fitted without X's rows).

`--gate structure`: a line is kept only when the document itself frames it as tried-and-failed: the heading it sits
under names attempts or what did not work (ATTEMPT_HEADING), or step and failure are told in one sentence with the step
the failure's subject (an explicit try in the action, or a no-effect predicate whose subject is the step), nothing else.

Judged on fold A's blind lines (attempts_blind.py: each organisation as read by the reader before any cue was written
from it), the blind lines today's bar and vetoes still keep, and today's reader (one out, and in-sample).
Fold B is never read here.
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

from bench import attempts_label_gate as label_gate  # noqa: E402
from bench.attempts_blind import judged, truths_a  # noqa: E402
from bench.attempts_label_gate import evidence, figures, kept_by_today  # noqa: E402
from bot.reader import cues_attempts as c  # noqa: E402
from bot.reader.fit import fit_head  # noqa: E402
from bot.reader.narrative import _NO_EFFECT  # noqa: E402

POSTMORTEMS = ROOT / "eval" / "postmortems"
_WORD = re.compile(r"[a-z][a-z'-]{1,30}")
OPTS = {"cues": False, "chars": False, "min_orgs": 3, "l2": 10.0}


def words(said: str) -> set[str]:
    toks = [w.replace("'", "")[:6] for w in _WORD.findall(said[:2000].lower())]
    out = {f"w:{t}" for t in toks} | {f"b:{a}_{b}" for a, b in zip(toks, toks[1:], strict=False)}
    if OPTS["chars"]:
        out |= {f"c:{t[i : i + 4]}" for t in toks if len(t) >= 4 for i in range(len(t) - 3)}
    if OPTS["cues"]:
        out |= {f"cue:{e}" for e in evidence(said)}
    return out


def labelled_rows() -> list[tuple[str, set[str], bool]]:
    """(organisation, words, did not work): fold A's document sentences holding a failure cue, as
    attempts_label_gate's "unlabelled" population reads them, by their words."""
    return label_gate.labelled_rows("unlabelled", features=words)


class Gate:
    """The word head fitted without one organisation's rows (None: on all), each fitted once; a word counts only
    when the training rows show it in at least `min_orgs` organisations."""

    def __init__(self, rows: list[tuple[str, set[str], bool]]) -> None:
        self.rows, self.heads = rows, {}

    def head(self, left_out: str | None):  # noqa: ANN201
        if left_out not in self.heads:
            rows = [(o, f, y) for o, f, y in self.rows if o != left_out]
            orgs: dict[str, set[str]] = defaultdict(set)
            for o, feats, _ in rows:
                for f in feats:
                    orgs[f].add(o)
            keep = {f for f, os in orgs.items() if len(os) >= OPTS["min_orgs"]}
            self.heads[left_out] = (
                fit_head([(f & keep, y) for _, f, y in rows], steps="batch", epochs=300, rate=1.0, l2=OPTS["l2"]),
                keep,
            )
        return self.heads[left_out]

    def p(self, said: str, left_out: str | None) -> float:
        head, keep = self.head(left_out)
        return head.probability(sorted(words(said) & keep))


# where a document frames what follows as tried and failed: a probe broader on purpose than the importer's own
# "failed_attempts" headings (bot/data/postmortem_sections.json, read by bot/importer/vocabulary.section_kind),
# so that S is not lost for a missing phrase; on main 99c6db6's fold A neither matches the heading of any stored
# line (0 of 99 blind, 0 of 86 today's), so S there is its one-sentence clause alone
ATTEMPT_HEADING = re.compile(
    r"\b(?:attempts?|attempted|tried|what (?:we )?(?:tried|didn'?t work|did not work)|(?:did ?n[o']t|did not) work"
    r"|failed (?:fix|mitigation|attempt)s?|dead ends?|unsuccessful)\b",
    re.I,
)
_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s+(.{1,120})|\*\*([^*]{1,120})\*\*:?\s*|([^\n]{1,120})\n[=-]{3,})\s*$", re.M)


def heading_before(text: str, said: str) -> str:
    """The last heading before the line's words in the document ('' when the words are not found)."""
    flat = " ".join(text.split()).lower()
    probe = " ".join(said.split()).lower()[:40]
    at = flat.find(probe)
    if at < 0:
        return ""
    last = ""
    for m in _HEADING.finditer(text):
        if len(" ".join(text[: m.start()].split())) > at:
            break
        last = next(g for g in m.groups() if g)
    return last


def framed(file: str, action: str, why: str) -> bool:
    text = (POSTMORTEMS / file).read_text(encoding="utf-8")
    if ATTEMPT_HEADING.search(heading_before(text, action)):
        return True
    if why:
        return False  # step and outcome split apart: only a heading frames it
    return bool(c.EXPLICIT_TRY.search(action) or _NO_EFFECT.search(action))


def gated(lines: dict, keep_it) -> dict:  # noqa: ANN001
    org = {t.file: t.org or t.file for t in truths_a()}
    return {f: [[a, w] for a, w in said if keep_it(f, org.get(f, f), a, w)] for f, said in lines.items()}


def auc(scored: list[tuple[float, bool]]) -> float:
    """The chance a real line scores above a wrong one (ties half)."""
    real = [p for p, y in scored if y]
    wrong = [p for p, y in scored if not y]
    if not real or not wrong:
        return float("nan")
    return sum((r > w) + 0.5 * (r == w) for r in real for w in wrong) / (len(real) * len(wrong))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--gate", choices=("words", "structure"), default="words")
    parser.add_argument("--cues", action="store_true")
    parser.add_argument("--chars", action="store_true")
    parser.add_argument("--min-orgs", type=int, default=3)
    parser.add_argument("--l2", type=float, default=10.0)
    parser.add_argument("--keep", type=float, nargs="+", default=[0.4, 0.5, 0.6])
    parser.add_argument(
        "--train",
        choices=("sentences", "lines"),
        default="sentences",
        help="fit on fold A's labelled sentences, or on the other organisations' stored lines (blind and today's)",
    )
    parser.add_argument("--lines", action="store_true", help="fold A's lines, kept or dropped")
    parser.add_argument("--weights", type=int, default=0, help="print this many weights each way (head on all)")
    args = parser.parse_args(argv)
    OPTS.update(cues=args.cues, chars=args.chars, min_orgs=args.min_orgs, l2=args.l2)
    cached = json.loads(args.cache.read_text(encoding="utf-8"))
    blind = {f: v for f, v in cached["blind"].items() if v is not None}
    kept = kept_by_today(blind)
    today = cached["today"]
    print(
        f"{'':<18} {'blind, one out':<40} {'blind kept by today, one out':<40} {'today, one out':<40} today in-sample"
    )
    print(f"{'rules alone':<18} {figures(blind):<40} {figures(kept):<40} {figures(today):<40} {figures(today)}")
    if args.gate == "structure":

        def keep_it(f, o, a, w):  # noqa: ANN001, ANN202, ARG001
            return framed(f, a, w)

        s = [figures(gated(x, keep_it)) for x in (blind, kept, today)]
        print(f"{'structure':<18} {s[0]:<40} {s[1]:<40} {s[2]:<40} {s[2]}")
        if args.lines:
            for name, x in (("blind", blind), ("today", today)):
                for r in judged(x):
                    heading = heading_before((POSTMORTEMS / r["file"]).read_text(encoding="utf-8"), r["said"])
                    a, _, w = r["line"].partition(" | ")
                    print(
                        f"  {name} {'REAL ' if r['real'] else 'WRONG'} {'KEPT' if framed(r['file'], a, w) else '    '}"
                        f" [{heading[:30]}] {r['line'][:110]}"
                    )
        return 0
    if args.train == "lines":
        seen = {(r["file"], r["said"]): r for r in judged(blind) + judged(today)}
        rows = [(r["org"], words(r["said"]), r["real"]) for r in seen.values()]
    else:
        rows = labelled_rows()
    print(f"rows {len(rows)} ({sum(y for *_, y in rows)} did not work), {len({o for o, *_ in rows})} organisations")
    gate = Gate(rows)
    if args.weights:
        head, keep = gate.head(None)
        ranked = sorted(head.weights.items(), key=lambda kv: kv[1])
        print("most against:", "  ".join(f"{n} {w:+.2f}" for n, w in ranked[: args.weights]))
        print("most for:", "  ".join(f"{n} {w:+.2f}" for n, w in ranked[-args.weights :]))
    for keep in args.keep:

        def one_out(f, o, a, w, keep=keep):  # noqa: ANN001, ANN202, ARG001
            return gate.p(f"{a} {w}", o) >= keep

        def in_sample(f, o, a, w, keep=keep):  # noqa: ANN001, ANN202, ARG001
            return gate.p(f"{a} {w}", None) >= keep

        s = [figures(gated(x, one_out)) for x in (blind, kept, today)]
        print(f"{'P >= ' + str(keep):<18} {s[0]:<40} {s[1]:<40} {s[2]:<40} {figures(gated(today, in_sample))}")
    for name, x in (("blind", blind), ("blind kept by today", kept), ("today", today)):
        scored = [(gate.p(r["said"], r["org"]), r["real"]) for r in judged(x)]
        print(f"AUC one out, {name}: {auc(scored):.2f}")
    if args.lines:
        for r in judged(kept):
            print(f"  {'REAL ' if r['real'] else 'WRONG'} {gate.p(r['said'], r['org']):.2f} {r['line'][:120]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
