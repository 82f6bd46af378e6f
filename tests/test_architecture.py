"""The layout, read from the code itself: who imports whom, where SQL lives, how long files get.

Every `import` in bot/ (lazy ones inside functions too: a lazy import hides a circle, it does
not remove it) becomes an arrow between modules; the rules below are checked on those arrows.
"""

from __future__ import annotations

import ast
import re
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
    # the one prompt fence and the one quote-support check: pure, so any prompt or reader may use them
    "bot.fence": {"bot.fence"},
    "bot.quote_support": {"bot.quote_support", "bot.recall"},
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
    long = {
        name: n
        for name, (path, _) in _sources().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
