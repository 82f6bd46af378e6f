"""`incident-memory patterns` and `incident-memory rules …`: from confirmed memories to reviewed rules.

patterns            recurring confirmed episodes (mechanism + remediation), at --min-episodes
rules propose       one inert YAML rule file per pattern, into RULES_DIR
rules replay        run rules against the bank's history (and a replay corpus); results into the file
rules approve       record a reviewer's approval of a rule's current version
rules check         every rule file: in use, or why not
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.config import Settings
from bot.models import Incident
from bot.recall.concepts import load_vocabulary
from bot.rules.files import RuleFileError, other_files
from bot.rules.model import Rule
from bot.rules.patterns import DEFAULT_MIN_EPISODES
from bot.services.rules import ReplayCorpus, RuleService

Handler = Callable[[argparse.Namespace, Settings], Awaitable[int]]


def bank_name(settings: Settings) -> str:
    """Which memory bank a rule came from, without credentials."""
    if not settings.database_url:
        return f"embedded PostgreSQL in {settings.data_dir}"
    url = urlsplit(settings.database_url)
    return f"{url.scheme}://{url.hostname or ''}{f':{url.port}' if url.port else ''}{url.path}"


def _emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    print(json.dumps(payload, indent=2, default=str, ensure_ascii=False) if args.json else text)


async def _with_rules(
    args: argparse.Namespace, settings: Settings, work: Callable[[RuleService], Awaitable[int]]
) -> int:
    from bot.memory.database import open_store

    folder = Path(args.dir) if getattr(args, "dir", None) else settings.rules_dir
    vocabulary = load_vocabulary(settings.incident_memory_concepts_path)
    async with open_store(settings) as store:
        return await work(RuleService(store, vocabulary, folder))


def _replay_line(rule: Rule) -> str:
    r = rule.replay
    if r is None:
        return "not replayed"
    return (
        f"hits {len(r.hits)} · false fires {len(r.false_fires)} · misses {len(r.misses)} · unjudged {len(r.unjudged)}"
    )


async def cmd_patterns(args: argparse.Namespace, settings: Settings) -> int:
    async def work(rules: RuleService) -> int:
        found = await rules.patterns(args.team, min_episodes=args.min_episodes)
        payload = [
            {"mechanism": list(c.mechanism), "terms": list(c.core_words), "incidents": c.incident_ids} for c in found
        ]
        lines = [
            f"{len(c.episodes)} confirmed episodes · {', '.join(c.mechanism)} · {' '.join(c.core_words)}\n"
            f"  {', '.join(c.incident_ids)}"
            for c in found
        ]
        text = (
            "\n".join(lines)
            or f"no pattern: no group of {args.min_episodes} confirmed episodes shares a mechanism and a fix"
        )
        _emit(args, payload, text)
        return 0

    return await _with_rules(args, settings, work)


async def cmd_propose(args: argparse.Namespace, settings: Settings) -> int:
    async def work(rules: RuleService) -> int:
        proposals = await rules.propose(args.team, bank=bank_name(settings), min_episodes=args.min_episodes)
        lines = [
            f"{'wrote' if p.written else 'exists, left as it is:'} {p.path}  ({len(p.rule.provenance.incidents)} incidents)"
            for p in proposals
        ]
        text = "\n".join(lines) or f"no pattern at --min-episodes {args.min_episodes}: no rule proposed"
        if any(p.written for p in proposals):
            text += "\nproposals are inert: replay them (`incident-memory rules replay`), then review and approve"
        _emit(args, [{"id": p.rule.id, "path": str(p.path), "written": p.written} for p in proposals], text)
        return 0

    return await _with_rules(args, settings, work)


def _corpus(folder: str) -> ReplayCorpus:
    from bot.replay import load_cases, load_memories

    path = Path(folder)
    if not (path / "memories.jsonl").is_file():
        raise RuleFileError(f"{folder}: a replay corpus needs memories.jsonl (format: docs/REPLAY.md)")
    cases = []
    if (path / "cases.jsonl").is_file():
        for case in load_cases(path):
            q = case.query
            incident = Incident(title=q.title or "untitled", service=q.service, symptoms=q.text or None,
                                error_message=q.error_message)  # fmt: skip
            cases.append((case.id, incident, sorted(case.relevant)))
    return ReplayCorpus(name=path.name, memories=load_memories(path), cases=cases)


async def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    corpus = _corpus(args.corpus) if args.corpus else None

    async def work(rules: RuleService) -> int:
        done = await rules.replay(args.rules, corpus=corpus, bank=bank_name(settings))
        lines = []
        for r in done:
            bumped = f" (edited: version {r.bumped_from} → {r.rule.version}, approval cleared)" if r.bumped_from else ""
            lines.append(f"{r.rule.id} v{r.rule.version}{bumped}: {_replay_line(r.rule)} → {r.path}")
        _emit(args, [r.rule.model_dump(mode="json") for r in done], "\n".join(lines) or "no rule files")
        return 0

    return await _with_rules(args, settings, work)


async def cmd_approve(args: argparse.Namespace, settings: Settings) -> int:
    async def work(rules: RuleService) -> int:
        rule = await rules.approve(args.rule, by=args.by)
        _emit(args, rule.model_dump(mode="json"),
              f"{rule.id} v{rule.version} approved by {rule.reviewed_by}; merge the file through review to use it")  # fmt: skip
        return 0

    return await _with_rules(args, settings, work)


async def cmd_check(args: argparse.Namespace, settings: Settings) -> int:
    async def work(rules: RuleService) -> int:
        statuses, refused = rules.statuses()
        problems = [str(e) for e in refused]
        lines = []
        for rule_file, inert in statuses:
            try:
                await rules.check_provenance(rule_file.rule, rule_file.path)
            except RuleFileError as exc:
                problems.append(str(exc))
                continue
            lines.append(
                f"{rule_file.rule.id} v{rule_file.rule.version}: {'in use' if inert is None else 'inert: ' + inert}"
            )
        lines += [f"refused: {p}" for p in problems]
        skipped = [str(p) for p in other_files(rules.folder)]
        lines += [f"skipped: {p} (not a rule file: rule files end in .yaml or .yml)" for p in skipped]
        _emit(args, {"rules": lines, "refused": problems, "skipped": skipped}, "\n".join(lines) or "no rule files")
        return 1 if problems else 0

    return await _with_rules(args, settings, work)


def register(add: Callable[[str, Handler, str], argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    def min_episodes(p: argparse.ArgumentParser) -> None:
        p.add_argument("--min-episodes", type=int, default=DEFAULT_MIN_EPISODES,
                       help="confirmed episodes a pattern needs (default: %(default)s)")  # fmt: skip

    min_episodes(add("patterns", cmd_patterns, "recurring confirmed episodes: same mechanism, same fix"))
    rules = add("rules", cmd_check, "rule files: propose, replay, approve, check (RULES_DIR)")
    sub = rules.add_subparsers(dest="rules_command", required=True, metavar="RULES_COMMAND")

    def rule_command(name: str, handler: Handler, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_, description=help_)
        p.add_argument("--dir", help="the rules folder (default: RULES_DIR)")
        p.set_defaults(handler=handler)
        return p

    min_episodes(rule_command("propose", cmd_propose, "write one inert rule file per pattern"))
    p = rule_command("replay", cmd_replay, "replay rules against the bank (and a corpus); results into each file")
    p.add_argument("rules", nargs="*", metavar="RULE", help="rule ids (default: every rule file)")
    p.add_argument("--corpus", help="also replay against this replay corpus folder (docs/REPLAY.md)")
    p = rule_command("approve", cmd_approve, "record a reviewer's approval of a rule's current version")
    p.add_argument("rule")
    p.add_argument("--by", required=True, help="who reviewed it")
    rule_command("check", cmd_check, "every rule file: in use, or why not")
