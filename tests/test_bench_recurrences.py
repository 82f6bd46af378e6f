"""bench/recurrences.py: a later incident's first report against the memory of the earlier incident of the same
failure. On a tiny eval/ written here: each case's bank holds every incident document but the later incident's own
item, so recall must find the earlier incident, not the later one copied word for word; a pair whose target eval/
does not hold is a clear error; with --judgement, each fold judged by the model given for it, another fold left out;
with the target removed, the memory posted strong is named with whether it is the case's own organisation's; with
--reports --targets, only the listed targets' first reports are cases, against the whole bank."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest

from bot.config import PROJECT_ROOT
from bot.recall.judgement import load_judgement


def bench():  # noqa: ANN201 - the bench module
    spec = importlib.util.spec_from_file_location("recurrences", PROJECT_ROOT / "bench" / "recurrences.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LATER_OPENING = "Website down again: 500 errors\nThe website answers 500 errors on every page since this morning."
CONVERSATIONS = {
    "acme-web-1-disk-full": ("A", [
        "Website down: 500 errors\nEvery page of the website answers 500 errors.",
        "The host ran out of disk space: the nginx logs filled it. Cleaned the logs, the website is back.",
    ]),
    "acme-web-2-disk-full-again": ("A", [
        LATER_OPENING,
        "The host ran out of disk space again: same as #1, the nginx logs. Cleaned them and rotated.",
    ]),
    "zeta-app-7-certificate": ("B", [
        "Certificate expired\nBrowsers warn that the certificate of the app expired yesterday.",
        "Renewed the certificate with certbot.",
    ]),
    "zeta-app-8-question": ("B", ["How do I change my password?\nI cannot find the setting.", "In your profile."]),
}  # fmt: skip
POSTMORTEM = """# Queue workers stalled

## Summary
On 2021-03-02 the job queue stalled for two hours: the workers lost their connection to Redis and never
reconnected. Jobs piled up until the workers were restarted.

## Root cause
The Redis client had no reconnect timeout, so a failover left every worker waiting forever.

## Resolution
We restarted the workers and set a reconnect timeout on the Redis client.
"""


def tiny_eval(root: Path, pairs: list[dict], conversations: dict | None = None) -> Path:
    eval_dir = root / "eval"
    for corpus in ("conversations", "postmortems", "first-reports"):
        (eval_dir / corpus).mkdir(parents=True)
    labels = []
    for stem, (fold, texts) in (conversations or CONVERSATIONS).items():
        org = stem.split("-")[0]
        messages = [{"ts": f"2024-0{n + 1}-01", "author": f"u{n}", "text": t} for n, t in enumerate(texts)]
        conversation = {"id": stem, "org": org, "fold": fold, "messages": messages}
        (eval_dir / "conversations" / f"{stem}.json").write_text(json.dumps(conversation), encoding="utf-8")
        labels.append({"file": f"{stem}.json", "org": org, "fold": fold, "not_an_incident": "question" in stem})
    (eval_dir / "conversations" / "truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in labels))
    (eval_dir / "postmortems" / "beta-2021-03-02-queue.md").write_text(POSTMORTEM, encoding="utf-8")
    label = {"file": "beta-2021-03-02-queue.md", "org": "beta", "fold": "B", "not_an_incident": False}
    (eval_dir / "postmortems" / "truth.jsonl").write_text(json.dumps(label) + "\n")
    (eval_dir / "first-reports" / "recurrences.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs))
    return eval_dir


def pair(target: str, text: str, later: str | None = None, **keys: object) -> dict:
    line = {"id": f"rec-{Path(target).stem}", "org": target.split("/")[1].split("-")[0], "fold": "A", "text": text,
            "ts": "2024-06-01", "target": target, "source": "https://example.org/later", "sameness": "again",
            "links_earlier": later is not None} | keys  # fmt: skip
    return line | ({"later_in_corpus": later} if later else {})


PAIRS = [
    pair("conversations/acme-web-1-disk-full.json", LATER_OPENING, "conversations/acme-web-2-disk-full-again.json"),
    pair("postmortems/beta-2021-03-02-queue.md", "Queue stalled again\nJobs are piling up, the workers do nothing.",
         fold="B"),
]  # fmt: skip


def memory_ids(folder: Path) -> set[str]:
    return {json.loads(line)["id"] for line in (folder / "memories.jsonl").read_text().splitlines()}


def test_each_bank_holds_every_incident_document_but_its_cases_later_item(tmp_path: Path) -> None:
    eval_dir = tiny_eval(tmp_path, PAIRS)
    folders, lost = bench().build(eval_dir, tmp_path / "out")
    assert lost == []
    banks = {json.loads((f / "cases.jsonl").read_text().splitlines()[0])["id"]: memory_ids(f) for f in folders}
    everything = {
        "conversations/acme-web-1-disk-full.json",
        "conversations/acme-web-2-disk-full-again.json",
        "conversations/zeta-app-7-certificate.json",
        "postmortems/beta-2021-03-02-queue.md",
    }  # the question thread is no incident: no memory
    assert banks == {
        "rec-acme-web-1-disk-full": everything - {"conversations/acme-web-2-disk-full-again.json"},
        "rec-beta-2021-03-02-queue": everything,
    }


def test_a_pair_whose_target_eval_does_not_hold_is_a_clear_error(tmp_path: Path) -> None:
    eval_dir = tiny_eval(tmp_path, [*PAIRS, pair("conversations/acme-web-9-gone.json", "Website down")])
    with pytest.raises(ValueError, match="rec-acme-web-9-gone: its target conversations/acme-web-9-gone.json is not"):
        bench().build(eval_dir, tmp_path / "out")


def test_the_later_report_finds_the_earlier_incident_not_its_own_thread(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = bench()
    folders, _ = module.build(tiny_eval(tmp_path, PAIRS), tmp_path / "out")
    monkeypatch.setenv("DATABASE_URL", database_url)
    results = asyncio.run(module.replay_banks(folders))
    ranked = {r.case.id: r.ranked for r in results}
    # the later thread opens with the very words of the query: were it in the bank, it would rank first
    assert ranked["rec-acme-web-1-disk-full"][0] == "conversations/acme-web-1-disk-full.json", ranked
    assert "conversations/acme-web-2-disk-full-again.json" not in ranked["rec-acme-web-1-disk-full"]
    figures = module.by_subset(results)
    assert figures["all"]["cases"] == 2 and figures["fold A"]["recall_at_1"] == 1.0, figures


def test_each_fold_judged_by_the_model_given_for_it_the_other_fold_left_out(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = bench()
    folders, _ = module.build(tiny_eval(tmp_path, PAIRS), tmp_path / "out")
    monkeypatch.setenv("DATABASE_URL", database_url)
    results = asyncio.run(module.replay_banks(folders, keep_matches=True))
    shipped = module.rejudged(results, {"A": load_judgement(), "B": load_judgement()})
    # the shipped model judging the kept matches gives the tiers the replay's own pipeline gave
    assert [(r.tiers, r.absent_tiers) for r in shipped] == [(r.tiers, r.absent_tiers) for r in results]
    model = {"coefficients": {"head": 0.0}, "intercept": 50.0, "strong_from": 0.5, "weak_from": 0.1, "sure_from": None}
    (tmp_path / "fit.json").write_text(json.dumps({"fit_on": "B", "model": model}))  # a fit_recall_judgement line
    (tmp_path / "never.json").write_text(json.dumps(model | {"intercept": -50.0, "strong_from": 0.99}))
    everything = module.rejudged(results, dict([module.judgement_of(f"A={tmp_path / 'fit.json'}")]))
    never = module.rejudged(results, dict([module.judgement_of(f"A={tmp_path / 'never.json'}")]))
    assert [r.case.id for r in everything] == [r.case.id for r in never] == ["rec-acme-web-1-disk-full"]
    assert everything[0].right_tier() == "strong" and never[0].right_tier() != "strong", (everything, never)
    with pytest.raises(ValueError, match="kept no matches"):
        module.rejudged(asyncio.run(module.replay_banks(folders)), {"A": load_judgement()})


def test_the_memory_posted_strong_with_the_target_removed_is_named_with_its_organisation(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = bench()
    third = {"acme-web-3-disk-full-third": ("A", [
        "Website down, 500 errors again\nThe website answers 500 errors on every page: the disk is full.",
        "Cleaned the nginx logs once more, the website is back.",
    ])}  # fmt: skip
    eval_dir = tiny_eval(tmp_path, PAIRS, CONVERSATIONS | third)
    folders, _ = module.build(eval_dir, tmp_path / "out")
    monkeypatch.setenv("DATABASE_URL", database_url)
    results = asyncio.run(module.replay_banks(folders, keep_matches=True))
    model = {"coefficients": {"head": 0.0}, "intercept": 50.0, "strong_from": 0.5, "weak_from": 0.1, "sure_from": None}
    (tmp_path / "all.json").write_text(json.dumps(model))
    org_of = module.organisations(eval_dir)
    everything = {r.case.id: r for r in module.rejudged(results, dict(
        module.judgement_of(f"{fold}={tmp_path / 'all.json'}") for fold in "AB"))}  # fmt: skip
    acme = everything["rec-acme-web-1-disk-full"]
    # the same organisation's third disk-full thread answers the later report once the first is removed
    assert module.removed_posted(acme)["strong"][0] == "conversations/acme-web-3-disk-full-third.json", acme
    assert module.removed_strong_org(acme, org_of) == "same"
    beta = everything["rec-beta-2021-03-02-queue"]
    assert module.removed_strong_org(beta, org_of) in ("other", None)  # beta has no other incident
    assert module.by_subset(list(everything.values()), org_of=org_of)["fold A"]["absent_strong_same_org"] == 1.0
    assert module.by_subset(list(everything.values()), org_of=org_of)["fold B"]["absent_strong_same_org"] == 0.0


def test_reports_of_the_listed_targets_only_against_the_whole_bank(tmp_path: Path) -> None:
    module = bench()
    eval_dir = tiny_eval(tmp_path, PAIRS)
    reports = [{"id": f"fr-{stem}", "org": stem.split("-")[0], "fold": fold, "text": texts[0], "ts": "2024-01-01",
                "target": f"conversations/{stem}.json", "source": "https://example.org"}
               for stem, (fold, texts) in CONVERSATIONS.items() if "question" not in stem]  # fmt: skip
    (eval_dir / "first-reports" / "reports.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reports))
    out = tmp_path / "fr"
    module.first_reports.build(eval_dir, out)
    # the benches' one list format (a fold and a tab before the name, "#" comments), as /work/c21-files.txt writes it
    (tmp_path / "list.txt").write_text("# a collection\nB\tzeta-app-7-certificate.json\nB\tzeta-app-8-question.json\n")
    assert module.only_targets(out, tmp_path / "list.txt", eval_dir) == (1, 1)  # the question has no first report
    cases = [json.loads(line) for line in (out / "cases.jsonl").read_text().splitlines()]
    assert [c["id"] for c in cases] == ["fr-zeta-app-7-certificate"]
    assert len(memory_ids(out)) == 3  # every report's target stays a memory
    (tmp_path / "none.txt").write_text("zeta-app-8-question.json\n")
    with pytest.raises(ValueError, match="no first report"):
        module.only_targets(out, tmp_path / "none.txt", eval_dir)
    # a name eval/ has no document of (misspelt, or another format) is an error, never a smaller set kept
    for wrong in ("zeta-app-7-certificat.json", "conversations/zeta-app-7-certificate.json"):
        (tmp_path / "wrong.txt").write_text(f"B\tzeta-app-7-certificate.json\nB\t{wrong}\n")
        with pytest.raises(ValueError, match="no document of"):
            module.only_targets(out, tmp_path / "wrong.txt", eval_dir)
