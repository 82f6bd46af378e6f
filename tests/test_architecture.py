"""The layout, read from the code itself: who imports whom, where SQL lives, how long files get.

Every `import` in bot/ (lazy ones inside functions too: a lazy import hides a circle, it does
not remove it) becomes an arrow between modules; the rules below are checked on those arrows.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from bot.config import PROJECT_ROOT

BOT = PROJECT_ROOT / "bot"
MAX_LINES = 500

# The composition root, and the only modules that may import it: the ways the app is started.
COMPOSITION_ROOT = "bot.app"
ENTRY_POINTS = {"bot.cli", "bot.demo", "bot.sandbox.local_bot"}

# Arrows that must not exist: (from package, to package). Storage and Slack never know each
# other or the listeners; listeners reach storage only through the services.
FORBIDDEN = [
    ("bot.memory", "bot.slack"),
    ("bot.memory", "bot.handlers"),
    ("bot.slack", "bot.memory"),
    ("bot.slack", "bot.handlers"),
    ("bot.handlers", "bot.memory"),
    ("bot.services", "bot.slack"),  # services never build Block Kit
    ("bot.services", "bot.handlers"),
    ("bot.recall", "bot.memory"),
    # the alert receivers read and bound; storing and Slack are the services' and the jobs'
    ("bot.alerts", "bot.memory"),
    ("bot.alerts", "bot.slack"),
    ("bot.alerts", "bot.handlers"),
]
# The domain and the pure recall pipeline: what each may import from bot/ at all.
ONLY = {
    "bot.models": {"bot.models"},
    "bot.errors": {"bot.errors"},
    "bot.recall": {"bot.recall", "bot.models"},
    # patterns, rule files and matching: the domain and the pure vocabulary, nothing stored
    "bot.rules": {"bot.rules", "bot.models", "bot.recall"},
    # what a vendor's webhook is read into: bounded, and nothing of Slack, HTTP or storage
    "bot.alerts.model": {"bot.alerts.model"},
    # the one prompt fence: pure, so any prompt or reader may use it
    "bot.fence": {"bot.fence"},
    # the one reader of incident narratives: the domain, the tokenizer and the caps, nothing stored or sent
    "bot.reader": {"bot.reader", "bot.models", "bot.recall", "bot.text_limits"},
}
# Outside libraries the domain and the pure pipeline must never touch.
IMPURE_LIBRARIES = ("slack_sdk", "slack_bolt", "anthropic", "asyncpg", "aiohttp")
SQL = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS|VACUUM|ANALYZE|CREATE\s+(TABLE|INDEX|DATABASE)|DROP\s)",
    re.IGNORECASE,
)


def _module(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _sources() -> dict[str, tuple[Path, ast.Module]]:
    return {_module(p): (p, ast.parse(p.read_text(encoding="utf-8"), str(p))) for p in sorted(BOT.rglob("*.py"))}


def _imported(tree: ast.Module, modules: set[str]) -> Iterator[str]:
    """Every module of ours and every outside library `tree` imports, anywhere in it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                # `from bot.handlers import command_recall` imports the module bot.handlers.command_recall
                sub = f"{node.module}.{alias.name}"
                yield sub if sub in modules else node.module


@cache
def import_graph() -> dict[str, set[str]]:
    sources = _sources()
    modules = set(sources)
    return {name: set(_imported(tree, modules)) for name, (_, tree) in sources.items()}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue  # an outside library
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_sees_imports_and_circles() -> None:
    # the rules below are only as good as the graph: it must see what is there
    graph = import_graph()
    assert "bot.handlers.command_recall" in graph["bot.handlers"]
    assert "bot.services.container" in graph["bot.app"]
    assert "bot.handlers" in graph["bot.app"]
    assert "slack_bolt.async_app" in graph["bot.app"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_there_is_no_import_circle() -> None:
    assert _cycles(import_graph()) == []


@pytest.mark.parametrize(("source", "target"), FORBIDDEN)
def test_layers_do_not_reach_across(source: str, target: str) -> None:
    arrows = sorted(
        f"{module} → {imported}"
        for module, imports in import_graph().items()
        if _within(module, source)
        for imported in imports
        if _within(imported, target)
    )
    assert arrows == []


def test_nothing_imports_the_composition_root_but_the_entry_points() -> None:
    importers = {module for module, imports in import_graph().items() if COMPOSITION_ROOT in imports}
    assert importers - ENTRY_POINTS == set()
    assert importers  # it is imported: the check above looks at real arrows


@pytest.mark.parametrize("package", sorted(ONLY))
def test_the_domain_and_pure_recall_import_only_the_domain(package: str) -> None:
    graph = import_graph()
    members = [m for m in graph if _within(m, package)]
    assert members
    ours = {i for m in members for i in graph[m] if _within(i, "bot")}
    assert {i for i in ours if not any(_within(i, allowed) for allowed in ONLY[package])} == set()
    outside = {i for m in members for i in graph[m] if i.split(".")[0] in IMPURE_LIBRARIES}
    assert outside == set()


def test_sql_lives_only_in_the_memory_package() -> None:
    found = sorted(
        f"{name}:{node.lineno}"
        for name, (_, tree) in _sources().items()
        if not _within(name, "bot.memory")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value)
    )
    assert found == []


def test_no_module_is_over_500_lines() -> None:
    # the tests and the benchmarks too: a long test file is two topics as surely as a long module
    paths = [
        p for folder in (BOT, PROJECT_ROOT / "tests", PROJECT_ROOT / "bench") for p in sorted(folder.rglob("*.py"))
    ]
    long = {
        str(path.relative_to(PROJECT_ROOT)): n
        for path in paths
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_benchmarks_and_tests_import_each_name_from_where_it_now_lives() -> None:
    # a module split moves names (bot/replay.py's percentile went to bot/replay_report.py); a bench script is
    # run by hand, not by CI, so its stale import only shows when someone reruns a documented figure
    stale = []
    for path in [*sorted((PROJECT_ROOT / "bench").glob("*.py")), *sorted((PROJECT_ROOT / "tests").glob("*.py"))]:
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:  # top level: a try's fallback is not
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("bot"):
                module = importlib.import_module(node.module)
                stale += [
                    f"{path.relative_to(PROJECT_ROOT)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if not hasattr(module, alias.name)
                    # a submodule of a package is imported by name; a plain module has no submodules
                    and not (hasattr(module, "__path__") and importlib.util.find_spec(f"{node.module}.{alias.name}"))
                ]
    assert stale == []


# Cue words for attempts, outcomes, causes and fixes live in one place, the reader (bot/reader/cues.py).
# A pattern is a cue pattern when it finds one of these phrases and none of the neutral ones, or when it finds a cue word
# of a probe (in brackets) whole: what it finds over those words differs once their inner letters are masked (review F81:
# r"\b(?:rolled back|did not help)\b|\bfox\b" also finds a neutral sentence, and passed both checks).
CUE_PROBES = (
    "we [tried restarting] the pods",
    "[restarted] the service",
    "[rolled back] the deploy",
    "it [did] not [help]",
    "[still failing] after that",
    "the errors are [back]",
    "that [fixed] it",
    "[back] to [normal]",
    "the [root cause] was a bad config",
    "[caused] by a memory leak",
    "it [turned out] to be the cache",
    "the [fix] was to [revert]",
    "[resolved] by [reverting]",
    "[mitigated] by [failing over]",
    "no [luck]",
    "[made] no [difference]",
    # more of the steps and outcomes responders tell (review F81: a list of such words none of the
    # probes above held, r"\b(?:reverted|bounced|failed over)\b", passed the check)
    "we [reverted] the change",
    "[failed over] to the replica",
    "[rebooted] the node",
    "[redeployed] the service",
    "[flushed] the cache",
    "[scaled up] the cluster",
    "that [worked]",
    "it [didn't work]",
    "the [culprit] was the cache",
    "the [problem] was a full disk",
    "once we [restored] the backup",
    "[still broken]",
    "service has [recovered]",
)
NEUTRAL = ("the quick brown fox jumps over the lazy dog", "alice posted a link at noon")
# Modules that keep patterns which find some of those phrases, and why they are not the reader's.
CUE_EXEMPT = {
    # the guard's verdicts on an answer's claims about PAST incidents (recurrence, likening, applying an
    # old fix as today's verdict): a judgement of a model's answer, not a reading of what responders did
    "bot.investigation.claims": "claims about past incidents in an answer (bench/guard_adversarial.py)",
    # the words that mark an error message as telling (fail, refused, timed out): recall's error signature
    "bot.recall.signature": "error-signature words for recall, not a narrative",
}


def _patterns_outside_the_reader() -> Iterator[tuple[str, str, re.Pattern[str]]]:
    """Every compiled pattern a module outside bot/reader holds at module level, in a name or a
    list of them, and every pattern written inline in an `re.*(...)` call, with its module."""
    for name, (_path, tree) in _sources().items():
        if _within(name, "bot.reader"):
            continue
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            for item in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(item, re.Pattern) and item.pattern and not _defined_in_reader(item):
                    yield name, attr, item
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                yield name, f"line {node.lineno}", re.compile(node.args[0].value, re.IGNORECASE)


@cache
def _reader_patterns() -> frozenset[int]:
    found = set()
    for name in _sources():
        if _within(name, "bot.reader"):
            found |= {id(v) for v in vars(importlib.import_module(name)).values() if isinstance(v, re.Pattern)}
    return frozenset(found)


def _defined_in_reader(pattern: re.Pattern[str]) -> bool:
    return id(pattern) in _reader_patterns()


def _probe(marked: str) -> tuple[str, str, list[tuple[int, int]]]:
    """A probe as written, the same with its cue words' inner letters masked (every place stays where it was), and
    where each cue word is."""
    text, masked, words = "", "", []
    for part in re.split(r"(\[[^\]]*\])", marked):
        cue = part.startswith("[")
        part = part.strip("[]")
        words += [(len(text) + w.start(), len(text) + w.end()) for w in re.finditer(r"\w+", part)] if cue else []
        # a word's inner letters masked, its first and last kept: a pattern of a word's shape ("[a-z]{2,4}t", a time
        # zone's) finds "root" and "rxxt" alike, a cue pattern only the first
        inner = re.sub(r"\b(\w)(\w+)(\w)\b", lambda w: w[1] + "x" * len(w[2]) + w[3], part)
        text, masked = text + part, masked + (inner if cue else part)
    return text, masked, words


def _finds_a_cue_word(pattern: re.Pattern[str], marked: str) -> bool:
    text, masked, words = _probe(marked)

    def whole(found: str) -> list[tuple[int, int]]:  # the matches that hold a cue word whole
        return [m.span() for m in pattern.finditer(found) if any(m.start() <= s and e <= m.end() for s, e in words)]

    return whole(text) != whole(masked)


def _cue_pattern(pattern: re.Pattern[str]) -> bool:
    if any(pattern.search(_probe(p)[0]) for p in CUE_PROBES) and not any(pattern.search(n) for n in NEUTRAL):
        return True
    return any(_finds_a_cue_word(pattern, p) for p in CUE_PROBES)


def test_the_cue_check_is_not_fooled_by_a_neutral_branch_and_passes_a_plain_one() -> None:
    # a cue pattern with a branch that finds anything (a word of the neutral sentences, any word, any character) is
    # still one; a pattern of any word, any character, any line or a word of the neutral sentences is none
    for planted in (
        r"\b(?:rolled back|did not help)\b|\bfox\b",
        r"\b(?:reverted|no luck)\b|\w+",
        r"(?:that fixed it|.)",
    ):
        assert _cue_pattern(re.compile(planted, re.I)), planted
    for plain in (r"\w+", r".", r"^", r"\bthe\b", r"\s+", r"(?:[ap]\.?(?:m\.?)?|at|on|to|and)"):
        assert not _cue_pattern(re.compile(plain, re.I)), plain


def test_the_cue_check_sees_the_readers_patterns() -> None:
    # the check below is only as good as its probes: the reader's own vocabulary must trip them
    from bot.reader import cues

    caught = {n for n, v in vars(cues).items() if isinstance(v, re.Pattern) and _cue_pattern(v)}
    assert {"TRIED", "DID_NOT_WORK", "RESOLVED", "CAUSE", "FIX", "CHAT_ACTION", "CHAT_FAILED", "CAUSE_MARKER"} <= caught


def test_no_module_outside_the_reader_defines_cue_words() -> None:
    found = sorted(
        f"{module}.{where}"
        for module, where, pattern in _patterns_outside_the_reader()
        if module not in CUE_EXEMPT and _cue_pattern(pattern)
    )
    assert found == []


# what the check above does not see (review F81): a cue written as a fragment, a string compiled where it is used
# (the reader's own way: THE_TROUBLE_IS), a pattern joined from constants in an re.*(…) call, and a pattern kept in a
# dict, a set or a class. A string counts when it is
# written as a pattern (it holds "\b", "(?:" or "|"): a field's name or a message is no fragment.
_FRAGMENT_MARKS = ("\\b", "(?:", "|")


def _held(value: object, module: str, depth: int = 0) -> Iterator[object]:
    """The strings and patterns a module-level value holds: itself, or inside a list, tuple, set, dict or a class the
    module defines."""
    if isinstance(value, (str, re.Pattern)):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _held(item, module, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _held(item, module, depth + 1)
    elif depth < 3 and isinstance(value, type) and value.__module__ == module:
        for item in vars(value).values():
            yield from _held(item, module, depth + 1)


@cache
def _reader_values() -> frozenset[int]:
    """The strings and patterns the reader's modules hold: imported elsewhere, they are still the reader's."""
    found = set()
    for name in _sources():
        if _within(name, "bot.reader"):
            for value in vars(importlib.import_module(name)).values():
                found |= {id(item) for item in _held(value, name)}
    return frozenset(found)


def _as_pattern(item: object) -> re.Pattern[str] | None:
    if id(item) in _reader_values():
        return None
    if isinstance(item, re.Pattern):
        return item
    if not isinstance(item, str) or not any(mark in item for mark in _FRAGMENT_MARKS) or len(item) > 20_000:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a set written as "[[…]" warns; it is read as it is
        try:
            return re.compile(item, re.IGNORECASE)
        except re.error:  # a string that only looks like a pattern
            return None


def _folded(node: ast.expr) -> str | None:
    """A string written as constants joined by `+` ("r'\\brolled ' + r'back\\b'"), folded; None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _folded(node.left), _folded(node.right)
        return None if left is None or right is None else left + right
    return None


def _cue_fragments_outside_the_reader() -> Iterator[str]:
    for name, (_path, tree) in _sources().items():
        if _within(name, "bot.reader") or name in CUE_EXEMPT:
            continue
        for node in ast.walk(tree):  # a pattern joined from constants where it is used, inside a function too
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                joined = _folded(node.args[0]) if isinstance(node.args[0], ast.BinOp) else None
                if joined and isinstance(node.func.value, ast.Name) and node.func.value.id == "re":
                    pattern = _as_pattern(joined)
                    if pattern is not None and _cue_pattern(pattern):
                        yield f"{name}.line {node.lineno}"
        for attr, value in vars(importlib.import_module(name)).items():
            for item in _held(value, name):
                pattern = _as_pattern(item)
                if pattern is not None and _cue_pattern(pattern):
                    yield f"{name}.{attr}"


def test_no_module_outside_the_reader_keeps_cue_words_as_a_fragment_or_in_a_dict() -> None:
    assert sorted(set(_cue_fragments_outside_the_reader())) == []
