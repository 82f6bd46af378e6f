"""The replays a recall judgement is fitted and judged on (bench/fit_recall_judgement.py and the benches that
compare its fits): a replay folder's cases recalled as they are and with their targets removed, on a throwaway
database, the matches kept; cached by what the candidate lists depend on (the corpus, bot/recall's code, the mode).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import pickle
import sys
from dataclasses import fields, replace
from pathlib import Path

from bot.config import Settings
from bot.recall.judgement import load_judgement
from bot.replay import run_replay
from bot.replay_report import CaseResult


def one_fold(corpus: Path, fold: str, out: Path) -> Path:
    """A copy of a replay folder holding only one fold's cases (the memories: all of them)."""
    (out / "memories.jsonl").write_bytes((corpus / "memories.jsonl").read_bytes())
    lines = (corpus / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if line.strip() and json.loads(line).get("fold") == fold]
    (out / "cases.jsonl").write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")
    return out


async def replayed(corpus: Path, sentences: bool = False) -> list[CaseResult]:
    report = await run_replay(corpus, Settings(), progress=sys.stderr.isatty(), keep_matches=True, target_absent=True,
                              sentences=sentences)  # fmt: skip
    return list(report.results)


def replay_key(corpus: Path, meaning: bool, sentences: bool = False) -> str:
    """What a replay's candidate lists depend on: the corpus, recall's code, the mode (with meaning:
    whether the memories' sentences were embedded, which features.SENTENCE_FEATURES read)."""
    digest = hashlib.sha256(
        (b"semantic" if meaning else b"lexical") + (b"+sentences" if meaning and sentences else b"")
    )
    recall = Path(__file__).resolve().parent.parent / "bot" / "recall"
    for path in [corpus / "memories.jsonl", corpus / "cases.jsonl", *sorted(recall.glob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cached_replay(corpus: Path, cache: Path | None, sentences: bool | None = None) -> list[CaseResult]:
    """The replay's results, reused from the folder `cache` when one was made from the same corpus,
    bot/recall code and mode (a pickle this bench wrote: keep the folder your own), else replayed
    and stored there. `sentences`: a semantic replay embeds the memories' sentences (a model to fit
    reads features.SENTENCE_FEATURES), else not (they read 0); None: when the shipped judgement reads them."""
    sentences = load_judgement().reads_sentences() if sentences is None else sentences
    key = replay_key(corpus, bool(Settings().embeddings_url), sentences)
    stored = None if cache is None else cache / f"{key}.pickle"
    if stored is not None and stored.is_file():
        print(f"replay reused from {stored}", file=sys.stderr)
        return pickle.loads(stored.read_bytes())  # noqa: S301 (the bench's own file)
    results = asyncio.run(replayed(corpus, sentences))
    if stored is not None:
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_bytes(pickle.dumps(results))
    return results


def with_absent(results: list[CaseResult], absent: list[CaseResult]) -> list[CaseResult]:
    """Each case's recall as it is, with its target-absent recall taken from another replay of the same cases
    (`--absent-corpus`: the bank the product keeps, where a case would find its own words; the target is
    removed there anyway)."""
    by_id = {r.case.id: r for r in absent}
    if missing := [r.case.id for r in results if r.case.id not in by_id]:
        raise ValueError(f"the absent corpus lacks {len(missing)} cases, e.g. {missing[0]}")
    # every target-absent field of CaseResult, read from its declaration so a field added there is never left behind
    absent_fields = [f.name for f in fields(CaseResult) if f.name.startswith("absent")]
    return [replace(r, **{name: getattr(by_id[r.case.id], name) for name in absent_fields}) for r in results]
