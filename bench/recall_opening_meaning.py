"""The meaning of a memory's opening against the query, screened on a kept semantic replay (issue 27,
items 1 and 4; r27-sem): measured bench-side before any product change.

    HF_HUB_OFFLINE=1 nice -n 5 .venv/bin/python bench/embeddings_server.py --port 8137 --cache .bench-data/emb.sqlite &
    SEM="env -u DATABASE_URL EMBEDDINGS_URL=http://127.0.0.1:8137/v1 EMBEDDINGS_MODEL=all-MiniLM-L6-v2 EMBEDDINGS_TIMEOUT_S=10"
    $SEM .venv/bin/python bench/recall_opening_meaning.py eval --cache .bench-data/judgement --nested A \
        --variants "+meaning_head_lead;+meaning_head"   # the screen (fold A only)
    $SEM .venv/bin/python bench/recall_opening_meaning.py eval --cache .bench-data/judgement --variants "…"  # the swap

A whole postmortem's vector is dominated by its body (bot.recall.meaning.memory_text: title, symptoms,
cause, diagnosis, error, resolution…, and the model reads its first ~256 word pieces); a first report
describes symptoms in two lines. The lexical judgement reads `head` (the query's weight in the memory's
title, symptoms and error); this is its twin in meaning. Each kept recall (bench/fit_recall_judgement.py's
replay, reused from --cache) gets, per match, from the endpoint's vectors:

- meaning_head: the cosine of the query's vector (meaning.query_text) with the opening's (the memory's
  title, symptoms and error joined as memory_text joins them, embedded apart);
- meaning_head_lead: meaning_head minus the best other of the first POSTED matches' (the kept lists
  hold the first 10 with the target and 5 without: both read over their first 5 alike);
- meaning_sentence: the best cosine of the query with one of the memory's sentences (meaning.sentences,
  what the card quotes; the product stores their vectors already), and meaning_sentence_lead.

Then each variant (a feature list; "+name" adds to the first) is judged as the bench judges: `--nested A`
(each organisation by the procedure run on the fold's others) or fit on one fold, reported on the
other. Only totals are printed (the Done-when figures), never a case.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build  # noqa: E402
from bench.fit_recall_judgement import fit, nested  # noqa: E402
from bench.judgement_figures import evaluate, evaluate_judged  # noqa: E402
from bench.judgement_replays import cached_replay  # noqa: E402
from bench.logistic_fit import L2  # noqa: E402
from bot.embeddings.openai_http import endpoint_url  # noqa: E402
from bot.recall.meaning import MAX_EMBEDDED_CHARS, query_text, sentences  # noqa: E402

MODEL = "all-MiniLM-L6-v2"
POSTED = 5
ADDED = ("meaning_head", "meaning_head_lead", "meaning_sentence", "meaning_sentence_lead")


def opening_text(memory) -> str:  # noqa: ANN001 - a MemoryDraft
    """The memory's title, symptoms and error, joined as meaning.memory_text joins its parts."""
    parts = (memory.title, memory.symptoms, memory.error_message)
    return "\n".join(p.strip() for p in parts if p and p.strip())[:MAX_EMBEDDED_CHARS]


def embed(url: str, texts: list[str], batch: int = 128) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    todo = [t for t in dict.fromkeys(texts) if t]
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        body = json.dumps({"model": MODEL, "input": chunk}).encode()
        request = urllib.request.Request(endpoint_url(url), body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=3600) as response:  # noqa: S310 (the local endpoint)
            data = json.loads(response.read())["data"]
        out.update((chunk[d["index"]], d["embedding"]) for d in data)
        print(f"embedded {start + len(chunk)}/{len(todo)}", file=sys.stderr, flush=True)
    return out


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return dot / norm if norm > 0 else 0.0


def _leads(values: list[float]) -> list[float]:
    head = values[:POSTED]
    out = []
    for i, v in enumerate(values):
        others = [w for j, w in enumerate(head) if j != i]
        out.append(v - max(others) if others else v)
    return out


def add_features(results, url: str) -> None:  # noqa: ANN001 - CaseResults
    """Each kept match's evidence gains ADDED (in place)."""
    memories = {m.memory.incident_id: m.memory for r in results for m in (*r.matches, *r.absent_matches)}
    openings = {k: opening_text(m) for k, m in memories.items()}
    said = {k: sentences(m) for k, m in memories.items()}
    queries = {r.case.id: query_text(r.case.query) for r in results}
    vectors = embed(url, [*queries.values(), *openings.values(), *(s for ss in said.values() for s in ss)])
    for r in results:
        q = vectors.get(queries[r.case.id])
        for matches in (r.matches, r.absent_matches):
            head, best = [], []
            for m in matches:
                key = m.memory.incident_id
                o = vectors.get(openings[key])
                head.append(cosine(q, o) if q and o else 0.0)
                best.append(max((cosine(q, vectors[s]) for s in said[key] if s in vectors), default=0.0) if q else 0.0)
            for m, h, hl, s, sl in zip(matches, head, _leads(head), best, _leads(best), strict=True):
                m.evidence.update(zip(ADDED, (round(v, 4) for v in (h, hl, s, sl)), strict=True))


def _variants(spec: str, base: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Feature lists separated by ';': "+a,b" adds to the base, "base" is the base itself."""
    out: list[tuple[str, ...]] = []
    for part in (p.strip() for p in spec.split(";")):
        names = tuple(n for n in part.lstrip("+").split(",") if n)
        out.append(base if part == "base" else (*base, *names) if part.startswith("+") else names)
    return out


def _totals(figures: dict) -> dict:
    return {k: v for k, v in figures.items() if k != "curve"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--nested", choices=("A", "B"))
    parser.add_argument("--url", default="http://127.0.0.1:8137/v1")
    parser.add_argument("--base", default="head,head_standout,meaning_lead,score_standout", help="the shipped features")
    parser.add_argument("--variants", required=True, help="feature lists separated by ';' ('+a,b' adds to --base)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        build(args.eval_dir, Path(folder), args.nested)
        results = cached_replay(Path(folder), args.cache)
    if not any(m.score_components.get("similarity") is not None for r in results for m in r.matches):
        parser.error("the replay was lexical: set EMBEDDINGS_URL (semantic recall) as for the bench")
    add_features(results, args.url)
    folds = {f: [r for r in results if r.case.flags.get("fold") == f] for f in ("A", "B")}
    for names in _variants(args.variants, tuple(args.base.split(","))):
        if args.nested:
            figures = evaluate_judged(nested(folds[args.nested], names, None, L2))
            print(json.dumps({"nested": args.nested, "features": names, **_totals(figures)}), flush=True)
            continue
        for train, test in (("A", "B"), ("B", "A")):
            model = fit(folds[train], train, names, None, L2)
            print(json.dumps({"features": names, "fit_on": train, "coefficients": model.coefficients,
                              "in_sample": _totals(evaluate(model, folds[train])),
                              "out_of_sample": {"fold": test, **_totals(evaluate(model, folds[test]))}}), flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
