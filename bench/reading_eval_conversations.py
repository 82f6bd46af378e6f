"""How well today's resolution drafter reads real incident conversations (eval/conversations), end
to end through the sandbox, per field and per organisation fold (A in-sample, B out-of-sample).

For each conversation: its channel is made in the local stand-in Slack (bot/sandbox), the incident
declared with `/incident declare`, every message posted in order by its (pseudonymised) author,
then `/incident resolve` run and the drafted modal's fields read back from the `views.update`
that carries the draft, as a responder would see them. The app runs as configured by default (no
ANTHROPIC_API_KEY: the offline drafter, read in the app's own process), on a throwaway database made
on DATABASE_URL.

bench/reading_eval.py shows these beside the importer's (reader "drafter"); this script alone
prints just the drafter. Scored with the one rule of eval/README.md (bot/importer/scoring.py: `holds_half`; for
attempts `attempt_is_real` and `attempt_found`):
- root cause / fix / found how: the drafted root cause / fix / diagnosis holds half of the label's
  phrases; the denominator is the conversations whose label has that field.
- root cause / fix drafted right, found how filled right: the same, out of the conversations (with that field
  labelled) where one was drafted: how far a drafted cause, fix or "how it was found" can be trusted.
- attempts real: drafted attempts (action and why) that hold half of one real attempt's phrases,
  out of all drafted attempts; attempts found: real attempts matched by a drafted one.
- invented attempts: conversations with no real attempt where at least one attempt was drafted,
  out of the conversations with no real attempt (lower is better).
- non-attempts stored: drafted attempts that are not real but hold half of a labelled plan,
  follow-up, critique, recovery or metadata line (lower is better).
- drafted nothing: conversations whose modal came back with every field empty (lower is better).
- cause / fix / found how where none: conversations whose label has no cause (fix, how found) where one was
  drafted, out of those conversations (lower is better): the "drafted right" rows never see these.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/reading_eval_conversations.py [--json] [--misses [A|B]] [--weights chat-B.json] [--files LIST]

`--files LIST` drafts only the conversations LIST names (one a line, the file name last on it, as /work's
c20-files.txt writes "A<tab>name.json"): one collection judged alone, both folds scored as usual.

Held-out threads (bench/held_out.tsv: the newest collection no reader has been written from, c22 this session): every
bench that reads fold A's conversations to write a rule leaves them out by default (`left_out`, the one reader of such
lists, `held_out_files`; bench/fit_reader.py `conversations`), and `--held-out LIST` leaves another list out too. Here
the totals are of every conversation drafted (the judge's totals among them), but `--misses` never names a held-out
thread: its misses are dropped before anything prints. A bench's `--include-held-out` reads them, to judge a stamped rule.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import PROJECT_ROOT, Settings  # noqa: E402
from bot.importer.scoring import (  # noqa: E402
    Ratio,
    attempt_found,
    attempt_is_real,
    drafted_attempt_text,
    holds_half,
    labelled_attempts,
)
from bot.memory.database import throwaway_database  # noqa: E402
from bot.reader import conversation  # noqa: E402
from bot.sandbox import form_values  # noqa: E402
from bot.sandbox.local_bot import LocalBot, local_bot  # noqa: E402

CONVERSATIONS = PROJECT_ROOT / "eval" / "conversations"
# the collections no reader has been written from (FOLD<TAB>file, "#" comments): left out of what writes rules
HELD_OUT = Path(__file__).resolve().parent / "held_out.tsv"
FIELDS = ("root_cause", "root_cause_drafted_right", "fix", "fix_drafted_right", "found", "found_filled_right", "attempts_real", "attempts_found", "invented_attempts", "non_attempts_stored",
          "drafted_nothing", "cause_where_none", "fix_where_none", "found_where_none")  # fmt: skip
# error counts, kept (as in bench/reading_eval.py) as the share of clean cases; shown as "n of total".
# cause / fix where none: a cause or fix drafted in a conversation whose label has none (the thread
# does not tell one); "drafted right" counts only the conversations that do
ERROR_FIELDS = {"invented_attempts", "non_attempts_stored", "drafted_nothing", "cause_where_none", "fix_where_none",
                "found_where_none"}  # fmt: skip
FOLDS = ("A", "B")
# what a tuner may read: the misses of one fold, the tuning fold A unless named. Never read the
# reporting fold's misses while tuning (eval/README.md, the developers' guide).
MISSES_HELP = "list one fold's misses (file: what): A, the tuning fold, unless named"
TITLE_CHARS = 80
WAIT_S = 30
TRIES = 3
NO_DRAFT = "No draft this time"  # the modal of a drafting error (bot/handlers/resolution_form.py)


@dataclass(slots=True)
class Drafted:
    """The fields of one drafted resolution modal, as its inputs' initial values show them."""

    root_cause: str = ""
    diagnosis: str = ""
    resolution: str = ""
    attempts: list[str] = field(default_factory=list)  # "action — why", one per filled slot


def read_modal(view: dict[str, Any]) -> Drafted:
    values = {
        block: next(iter(actions.values())).get("value") or "" for block, actions in form_values(view, {}).items()
    }
    attempts = []
    slot = 1
    while f"failed_{slot}_action" in values:
        action, why = values[f"failed_{slot}_action"].strip(), values.get(f"failed_{slot}_why", "").strip()
        if action:
            attempts.append(drafted_attempt_text(action, why))
        slot += 1
    return Drafted(values.get("root_cause", ""), values.get("diagnosis", ""), values.get("resolution", ""), attempts)


async def recorded(bot: LocalBot, channel: str, count: int) -> None:
    """Wait until every posted message is on the incident's timeline: each is joined by a durable
    job, and a draft read before the last one lands would miss what is usually the fix."""
    incidents, team = bot.runtime.services.incidents, bot.sandbox.team_id
    async with asyncio.timeout(WAIT_S):
        while True:
            incident = await incidents.open_in(team, channel)
            if incident and len(await incidents.timeline(incident)) >= count:
                return
            await asyncio.sleep(0.1)


async def draft_one(bot: LocalBot, number: int, conversation: dict[str, Any]) -> Drafted:
    """Post one conversation into its own incident channel and read what `/incident resolve` drafts."""
    channel = f"CEVAL{number:04d}"
    bot.sandbox.add_channel(channel, f"inc-eval-{number}")
    users = {}
    for message in conversation["messages"]:
        if message["author"] not in users:
            users[message["author"]] = f"UEV{number:03d}{len(users):03d}"
            bot.sandbox.add_user(users[message["author"]], message["author"])
    responder = users[conversation["messages"][0]["author"]]
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "declare", user_id=responder, channel_id=channel)
    await bot.sandbox.wait_for("views.open", count=opened + 1, timeout=WAIT_S)
    title = conversation["messages"][0]["text"].strip().splitlines()[0][:TITLE_CHARS]
    await bot.slack.view_submission(bot.sandbox.last_view(), user_id=responder, answers={"title": title})
    for message in conversation["messages"]:
        await bot.slack.say(channel, message["text"], user=users[message["author"]])
    await bot.runtime.services.background.drain()
    await recorded(bot, channel, len(conversation["messages"]))
    for _ in range(
        TRIES
    ):  # on a loaded machine the incident lookup can miss Slack's 3 s: the modal then opens undrafted
        opened, updated = len(bot.sandbox.calls("views.open")), len(bot.sandbox.calls("views.update"))
        await bot.slack.command("/incident", "resolve", user_id=responder, channel_id=channel)
        try:
            await bot.sandbox.wait_for("views.open", count=opened + 1, timeout=WAIT_S)
            await bot.sandbox.wait_for("views.update", count=updated + 1, timeout=WAIT_S)
        except TimeoutError:
            continue
        await bot.runtime.services.background.drain()
        view = bot.sandbox.last_view()
        if NO_DRAFT not in json.dumps(view):
            return read_modal(view)
    raise RuntimeError(f"{channel}: no drafted modal after {TRIES} tries of /incident resolve")


def read_labels(folder: Path, files: frozenset[str] | None = None, said: str = "") -> list[dict[str, Any]]:
    """The folder's labels, or only those of `files` (a name with no label is a clear error, not a silent zero)."""
    labels = [json.loads(line) for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    if files is None:
        return labels
    unknown = sorted(files - {label["file"] for label in labels})
    if unknown:
        raise SystemExit(f"{said}{len(unknown)} named file(s) have no label in {folder}: {', '.join(unknown[:5])}")
    return [label for label in labels if label["file"] in files]


def named_files(path: Path) -> frozenset[str]:
    """The conversation files a list names: one a line, the name last on it (a fold may come first); a line opening
    with "#" is a comment."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split()[-1] for line in lines if line.strip() and not line.lstrip().startswith("#"))


def held_out_files(path: Path, folder: Path = CONVERSATIONS) -> frozenset[str]:
    """`named_files`, each name checked against the folder's labels: a list that names a file with no label (misspelt,
    or written for another eval/) is a clear error, never a held-out set silently smaller, which would put the held-out
    threads (c20, a collection's judge) back among those a rule is written from."""
    files = named_files(path)
    read_labels(folder, files, said=f"{path}: ")
    return files


def held_out_by_default(folder: Path = CONVERSATIONS, path: Path = HELD_OUT) -> frozenset[str]:
    """bench/held_out.tsv's threads that this eval/ holds. The list is read a collection at a time (a block of names
    after its "#" lines): a collection none of whose names the folder has a label for is not in this eval/ (an earlier
    one, as the session's frozen corpus) and holds nothing out; one the folder holds only part of is a clear error
    (misspelt, or a stale list), never a held-out set silently smaller."""
    labelled = {label["file"] for label in read_labels(folder)}
    blocks: list[set[str]] = [set()]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("#") and blocks[-1]:
            blocks.append(set())
        elif line.strip() and not line.lstrip().startswith("#"):
            blocks[-1].add(line.split()[-1])
    held: set[str] = set()
    for block in blocks:
        if block & labelled and block - labelled:
            missing = sorted(block - labelled)
            raise SystemExit(
                f"{path}: {len(missing)} named file(s) have no label in {folder}: {', '.join(missing[:5])}"
            )
        held |= block & labelled
    return frozenset(held)


def left_out(
    include_held_out: bool = False, lists: Sequence[Path] = (), folder: Path = CONVERSATIONS
) -> frozenset[str]:
    """The threads a bench that writes rules leaves out: bench/held_out.tsv's (`held_out_by_default`; unless
    `include_held_out`: to judge a stamped rule, totals only) and those of any other held-out list (`--held-out`,
    each read by `held_out_files`: every name must be labelled)."""
    default = frozenset() if include_held_out else held_out_by_default(folder)
    return default.union(*(held_out_files(path, folder) for path in lists))


def held_out_arguments(parser: argparse.ArgumentParser) -> None:
    """`--held-out LIST` (another list left out, repeatable) and `--include-held-out`, as `left_out` reads them."""
    parser.add_argument("--held-out", type=Path, action="append", default=[], help="also leave this list out")
    parser.add_argument(
        "--include-held-out", action="store_true", help=f"read {HELD_OUT.name}'s threads too: to judge, totals only"
    )


def quiet(scores: dict[str, dict[str, Ratio]], files: frozenset[str]) -> dict[str, dict[str, Ratio]]:
    """The scores with no miss of `files` kept (a miss is its file's name, alone or before ": "): the totals stand, but
    no held-out thread's miss can be printed."""
    for counts in scores.values():
        for ratio in counts.values():
            ratio.misses = [miss for miss in ratio.misses if miss.split(": ", 1)[0] not in files]
    return scores


async def draft_all(dsn: str, folder: Path = CONVERSATIONS, files: frozenset[str] | None = None) -> dict[str, Drafted]:
    labels = read_labels(folder, files)
    drafts = {}
    # reading_workers=0: the drafter reads in the app's process. Its pool would spawn at the first
    # long channel, and on a loaded machine the spawn alone can pass READING_DEADLINE_S (the
    # draft then fails: that is a measure of the machine, not of what the drafter reads).
    async with local_bot(Settings(database_url=dsn, reading_workers=0)) as bot:
        for number, label in enumerate(labels, 1):
            conversation = json.loads((folder / label["file"]).read_text(encoding="utf-8"))
            drafts[label["file"]] = await draft_one(bot, number, conversation)
    return drafts


def score(labels: list[dict[str, Any]], drafts: dict[str, Drafted]) -> dict[str, dict[str, Ratio]]:
    """{fold: {field: Ratio}} by the rule of eval/README.md; a label without the field is not counted."""
    scores: dict[str, dict[str, Ratio]] = {}
    for label in labels:
        name, draft = label["file"], drafts[label["file"]]
        counts = scores.setdefault(label["fold"], {f: Ratio() for f in FIELDS})
        for key, text, keywords in (
            ("root_cause", draft.root_cause, label["root_cause_keywords"]),
            ("fix", draft.resolution, label["fix_keywords"]),
            ("found", draft.diagnosis, label["found_keywords"]),
        ):
            if keywords:
                counts[key].add(holds_half(text, keywords), name)
                if text:  # precision: of the drafted ones, how many are right
                    precision = "found_filled_right" if key == "found" else f"{key}_drafted_right"
                    counts[precision].add(holds_half(text, keywords), f"{name}: {text[:120]}")
            else:
                counts[f"{'cause' if key == 'root_cause' else key}_where_none"].add(not text, f"{name}: {text[:120]}")
        real = labelled_attempts(label)
        others = [n["keywords"] for n in label["not_attempts"]]
        for attempt in draft.attempts:
            is_real = attempt_is_real(attempt, real)
            counts["attempts_real"].add(is_real, f"{name}: {attempt}")
            counts["non_attempts_stored"].add(
                is_real or not any(holds_half(attempt, keywords) for keywords in others), f"{name}: {attempt}"
            )
        for keywords in real:
            counts["attempts_found"].add(attempt_found(keywords, draft.attempts), f"{name}: {keywords}")
        if not real:  # error rows keep the clean share, as bench/reading_eval.py does
            counts["invented_attempts"].add(not draft.attempts, name)
        counts["drafted_nothing"].add(
            bool(draft.root_cause or draft.diagnosis or draft.resolution or draft.attempts), name
        )
    return scores


def cell(key: str, ratio: Ratio, share: bool = True) -> str:
    """A field's right/total (with its share unless `share` is off); an error row's errors, "n of total"."""
    if not ratio.total:
        return "–"
    if key in ERROR_FIELDS:
        return f"{ratio.total - ratio.right} of {ratio.total}"
    return f"{ratio.right}/{ratio.total}" + (f" = {ratio.value:.0%}" if share else "")


def fitted_on() -> str:
    """The fold the reader's coefficients were fitted on: its figures are in-sample."""
    return "B" if "fold B" in conversation.shipped_models().fitted_on else "A"


def row_name(key: str) -> str:
    """The field as a row names it: an error row says so (its cell counts the errors, not the clean share)."""
    return ("errors: " if key in ERROR_FIELDS else "") + key


def figure(key: str, ratio: Ratio, share: bool = True) -> str:
    """One field's figure named as the table's row names it: what the in-process benches print (fit_reader.py,
    found_by_collection.py), so that no error row is read as its clean share."""
    return f"{row_name(key)} {cell(key, ratio, share)}"


def table(scores: dict[str, dict[str, Ratio]]) -> str:
    a, b = (f"fold {fold} ({'in-sample' if fold == fitted_on() else 'out-of-sample'})" for fold in FOLDS)
    rows = [f"{'field':<30} {a:>20} {b:>24}"]
    for key in FIELDS:
        a, b = (cell(key, scores.get(f, {}).get(key, Ratio())) for f in "AB")
        rows.append(f"{row_name(key):<30} {a:>20} {b:>24}")
    return "\n".join(rows)


@cache
def drafted(
    folder: Path = CONVERSATIONS, files: frozenset[str] | None = None
) -> tuple[list[dict[str, Any]], dict[str, Drafted]]:
    """Every conversation (or those of `files`) drafted once per process (DATABASE_URL: where the throwaway database
    goes)."""
    admin = os.environ.get("DATABASE_URL")
    if not admin:
        raise SystemExit("set DATABASE_URL to a PostgreSQL server (a throwaway database is made on it)")
    return asyncio.run(run(admin, folder, files))


def use_weights(path: Path) -> None:
    """Read with these coefficients instead of the shipped ones (fitted on fold A): `--weights` with
    a fold-B fit gives fold A's out-of-sample figures. In-process only (READING_WORKERS=0, as here)."""
    conversation.MODEL_FILE = path
    conversation.shipped_models.cache_clear()


def drafter_scores(fold: str) -> dict[str, Ratio]:
    """bench/reading_eval.py's reader signature: the drafter's field scores on one fold (no held-out thread's miss)."""
    labels, drafts = drafted()
    return quiet(score(labels, drafts), left_out()).get(fold, {})


async def run(
    admin: str, folder: Path, files: frozenset[str] | None = None
) -> tuple[list[dict[str, Any]], dict[str, Drafted]]:
    labels = read_labels(folder, files)
    settings = Settings()
    async with throwaway_database(admin, settings.migrations_dir, prefix="im_reading") as dsn:
        drafts = await draft_all(dsn, folder, files)
    return labels, drafts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=CONVERSATIONS)
    parser.add_argument("--json", action="store_true", help="{fold: {field: [right, total]}}")
    parser.add_argument("--misses", nargs="?", const="A", choices=FOLDS, help=MISSES_HELP)
    parser.add_argument("--weights", type=Path, help="the reader's coefficients (bench/fit_reader.py --out): the swap")
    parser.add_argument("--files", type=Path, help="draft only the conversations this list names (one collection)")
    parser.add_argument("--held-out", type=Path, action="append", default=[], help="no miss of this list either")
    args = parser.parse_args(argv)
    if args.weights:
        use_weights(args.weights)
    labels, drafts = drafted(args.folder, named_files(args.files) if args.files else None)
    # the held-out threads' misses are never kept (totals only): bench/held_out.tsv's for eval/conversations
    held = left_out(args.folder != CONVERSATIONS, args.held_out, args.folder)
    scores = quiet(score(labels, drafts), held)
    if args.json:
        print(json.dumps({f: {k: [r.right, r.total] for k, r in c.items()} for f, c in sorted(scores.items())}))
        return 0
    print(f"resolution drafter (offline, through the sandbox) on {len(labels)} conversations")
    print(table(scores))
    if args.misses:
        for fold, counts in sorted(scores.items()):
            if fold != args.misses:
                continue
            for key, ratio in counts.items():
                for miss in ratio.misses:
                    print(f"  miss {fold} {key}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
