"""A cause or fix label is only worth its score if its phrases are distinctive (eval/README.md,
"Label agreement"): when one phrase alone is enough to make a stored text right (a label of one or
two phrases) and that phrase sits in four or more sentences of its document, a follow-up, a symptom
or the title naming it scores as the cause or the fix. Fold A had 63 such labels against fold B's
20 before they were rewritten; this keeps a new label from bringing the gap back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.config import PROJECT_ROOT
from bot.importer.scoring import keyword_in

EVAL = PROJECT_ROOT / "eval"
MIN_SENTENCES = 4
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# Kept: every sentence that holds the phrase states that cause or fix itself.
DISTINCTIVE_THOUGH_REPEATED = {
    ("geth-2021-08-22-split-postmortem.md", "fix_keywords"),  # four patch lines `common.CopyBytes(ret)`
    ("openfoodfacts-2023-07-26-off1-rpool-products-full.md", "fix_keywords"),  # four `zfs destroy` commands
    ("yearn-2020-10-10.md", "root_cause_keywords"),  # `EvilGauge`, only in the exploit's steps
    ("cog-uk-20220420_foel_prod_listener_failure.md", "root_cause_keywords"),  # "DNS glitch" in four cause lines
    ("posthog-2025-10-21-feature-flags-recurring-outages.md", "root_cause_keywords"),  # the cause said four times
    ("lucos-2026-03-13-lucos-monitoring-ssl-not-started.md", "fix_keywords"),  # the one-call fix, in each fix line
    # pm26: the raised limit, in each fix line (summary, timeline, resolution, the done action item)
    ("harsh-upadhayay-INC-2026-004-argocd-repo-server-oom-recovery.md", "fix_keywords"),
}


def _labels(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def _sentences(folder: Path, name: str) -> list[str]:
    raw = (folder / name).read_text(encoding="utf-8")
    if folder.name == "conversations":
        raw = "\n".join(m["text"] for m in json.loads(raw)["messages"])
    return [s for s in _SENTENCE_END.split(raw) if s.strip()]


def _loose(folder: Path) -> list[tuple[str, str, str, int]]:
    found = []
    for label in _labels(folder):
        if label.get("not_an_incident"):
            continue
        sentences = None
        for field in ("root_cause_keywords", "fix_keywords"):
            phrases = label[field]
            if not phrases or len(phrases) > 2 or (label["file"], field) in DISTINCTIVE_THOUGH_REPEATED:
                continue
            sentences = sentences if sentences is not None else _sentences(folder, label["file"])
            for phrase in phrases:
                count = sum(keyword_in(phrase, s) for s in sentences)
                if count >= MIN_SENTENCES:
                    found.append((label["file"], field, phrase, count))
    return found


def test_no_postmortem_cause_or_fix_scores_on_a_phrase_found_all_over_its_document() -> None:
    assert _loose(EVAL / "postmortems") == []


def test_no_conversation_cause_or_fix_scores_on_a_phrase_found_all_over_its_thread() -> None:
    assert _loose(EVAL / "conversations") == []


def test_the_check_catches_a_generic_phrase(tmp_path: Path) -> None:
    folder = tmp_path / "postmortems"
    folder.mkdir()
    text = "The core pool was full.\nWe moved the core pods.\nCore nodes idle.\nAdd a core alert.\n"
    (folder / "x.md").write_text(text, encoding="utf-8")
    label = {"file": "x.md", "root_cause_keywords": ["core"], "fix_keywords": ["moved the core pods"]}
    (folder / "truth.jsonl").write_text(json.dumps(label) + "\n", encoding="utf-8")
    assert _loose(folder) == [("x.md", "root_cause_keywords", "core", 4)]
