"""Shared fixtures: a real PostgreSQL, one fresh database per test.

`TEST_DATABASE_URL` names a server to use (CI uses the machine's PostgreSQL); without it the
tests start the embedded PostgreSQL the app itself uses by default. Each test gets its own
database, cloned from a migrated template, so tests never see each other's rows.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.config import PROJECT_ROOT
from bot.memory.migrate import apply_migrations
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore

if TYPE_CHECKING:
    from tests.fakes.anthropic_api import FakeMessagesAPI
    from tests.fakes.embeddings_api import FakeEmbeddingsApi

MIGRATIONS = PROJECT_ROOT / "migrations"

# Slack's OAuth variables switch Bolt into OAuth mode by themselves, and an exported EMBEDDINGS_URL
# would turn semantic recall on in every test: tests never inherit them.
for _name in list(os.environ):
    if _name.startswith(("SLACK_", "ANTHROPIC_", "EMBEDDINGS_")) or _name in ("DATABASE_URL",):
        os.environ.pop(_name)


def with_database(dsn: str, name: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path="/" + name))


@pytest.fixture(scope="session", autouse=True)
async def nothing_left_unretrieved() -> AsyncIterator[None]:
    """The session fails if any test or fixture leaves a future or task whose exception nobody
    retrieved (asyncio logs them only when they are collected, often at interpreter exit, after
    the report: "Future exception was never retrieved")."""
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    stray: list[str] = []

    def record(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        if "never retrieved" in str(context.get("message", "")):
            made = context.get("future") or context.get("task")
            stray.append(f"{context['message']}: {made!r}, while {os.environ.get('PYTEST_CURRENT_TEST', '?')}")
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(record)
    yield
    gc.collect()  # what is left unreferenced is logged now, not at exit
    loop.set_exception_handler(previous)
    assert stray == [], stray


@pytest.fixture(scope="session")
def admin_dsn() -> Iterator[str]:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    from bot.memory.embedded import start_embedded

    # short path: PostgreSQL's socket lives inside it
    folder = Path(tempfile.mkdtemp(prefix="imt-", dir="/tmp"))
    dsn = start_embedded(folder)
    yield dsn
    # pgserver logs from an atexit hook, after pytest has closed the streams it captured
    logging.getLogger("pgserver").disabled = True
    shutil.rmtree(folder, ignore_errors=True)


async def _admin(dsn: str) -> asyncpg.Connection:
    """The fixtures' own connection. Without TLS negotiation unless the DSN asks for it (a test
    server is local): asyncpg's `prefer` mode sends an SSLRequest first, and a connect cancelled
    while it waits for the answer leaves that answer's future failed and never retrieved. The
    clones' connects are cancelled so when a synchronous test holds the event loop past their
    timeout; the stray future was logged at interpreter exit."""
    return await asyncpg.connect(dsn, ssl=None if "sslmode" in urlsplit(dsn).query else False)


@pytest.fixture(scope="session")
async def template_database(admin_dsn: str) -> AsyncIterator[str]:
    name = f"im_tmpl_{uuid.uuid4().hex[:10]}"
    conn = await _admin(admin_dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    target = await _admin(with_database(admin_dsn, name))
    try:
        await apply_migrations(target, MIGRATIONS)
    finally:
        await target.close()
    yield name
    conn = await _admin(admin_dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _fresh_database(admin_dsn: str, template: str | None, name: str | None = None) -> str:
    name = name or f"im_t_{uuid.uuid4().hex[:12]}"
    conn = await _admin(admin_dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    finally:
        await conn.close()
    return name


async def _drop(admin_dsn: str, name: str) -> None:
    conn = await _admin(admin_dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


class Clones:
    """Each test's own database, cloned from a template (or empty) and dropped after the test.

    A clone and a drop mostly wait on the server's disk (the copy's WAL; a checkpoint per DROP),
    so the next test's clone is made while this test runs and a used one is dropped while the next
    runs. Every test still starts on a fresh clone; the session ends once all are dropped.

    Work begun in the background can see its connect timeout run out while a synchronous test
    holds the event loop (the clock runs on, the loop does not): it is then done again."""

    def __init__(self, admin_dsn: str, template: str | None) -> None:
        self.admin_dsn, self.template = admin_dsn, template
        self._next: tuple[str, asyncio.Task[str]] | None = None
        self._drops: dict[str, asyncio.Task[None]] = {}
        self._dropping = asyncio.Semaphore(4)  # a slow server is not sent every drop at once

    def _clone(self) -> tuple[str, asyncio.Task[str]]:
        name = f"im_t_{uuid.uuid4().hex[:12]}"
        return name, asyncio.create_task(_fresh_database(self.admin_dsn, self.template, name))

    async def take(self) -> str:
        (name, made), self._next = self._next or self._clone(), None
        try:
            await made
        except (OSError, asyncpg.PostgresError):  # TimeoutError is an OSError
            self.give_back(with_database(self.admin_dsn, name))  # it may be made all the same
            name = await _fresh_database(self.admin_dsn, self.template)
        self._next = self._clone()
        return with_database(self.admin_dsn, name)

    def give_back(self, dsn: str) -> None:
        name = urlsplit(dsn).path.lstrip("/")
        self._drops[name] = asyncio.create_task(self._drop(name))

    async def _drop(self, name: str) -> None:
        async with self._dropping:
            await _drop(self.admin_dsn, name)

    async def close(self) -> None:
        if self._next is not None:
            name, made = self._next
            await asyncio.gather(made, return_exceptions=True)
            self.give_back(with_database(self.admin_dsn, name))  # IF EXISTS: made or not
        names = list(self._drops)
        done = await asyncio.gather(*self._drops.values(), return_exceptions=True)
        for name, outcome in zip(names, done, strict=True):
            if isinstance(outcome, Exception):
                await _drop(self.admin_dsn, name)  # once more, the loop running; failing now fails the session


@pytest.fixture(scope="session")
async def clones(admin_dsn: str, template_database: str) -> AsyncIterator[Clones]:
    made = Clones(admin_dsn, template_database)
    yield made
    await made.close()


@pytest.fixture(scope="session")
async def empty_clones(admin_dsn: str) -> AsyncIterator[Clones]:
    made = Clones(admin_dsn, None)
    yield made
    await made.close()


@pytest.fixture
async def database_url(clones: Clones) -> AsyncIterator[str]:
    """A migrated database of this test's own."""
    dsn = await clones.take()
    yield dsn
    clones.give_back(dsn)


@pytest.fixture
async def empty_database_url(empty_clones: Clones) -> AsyncIterator[str]:
    """An empty database of this test's own (for migration tests)."""
    dsn = await empty_clones.take()
    yield dsn
    empty_clones.give_back(dsn)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[PostgresMemoryStore]:
    pool = await create_pool(database_url)
    try:
        yield PostgresMemoryStore(pool)
    finally:
        await pool.close()


# ---- a database with pgvector (semantic recall) -------------------------------------------------


async def _has_vector(dsn: str) -> bool:
    conn = await _admin(dsn)
    try:
        return bool(await conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')"))
    finally:
        await conn.close()


@pytest.fixture(scope="session")
async def vector_admin_dsn(admin_dsn: str) -> AsyncIterator[str]:
    """A server with the `vector` extension: the configured one if it has it, else the embedded
    PostgreSQL the app uses by default (its wheel ships pgvector)."""
    if await _has_vector(admin_dsn):
        yield admin_dsn
        return
    from bot.memory.embedded import start_embedded

    folder = Path(tempfile.mkdtemp(prefix="imv-", dir="/tmp"))
    yield start_embedded(folder)
    logging.getLogger("pgserver").disabled = True
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
async def vector_template_database(vector_admin_dsn: str) -> AsyncIterator[str]:
    name = await _fresh_database(vector_admin_dsn, None)
    target = await _admin(with_database(vector_admin_dsn, name))
    try:
        await apply_migrations(target, MIGRATIONS)
    finally:
        await target.close()
    yield name
    await _drop(vector_admin_dsn, name)


@pytest.fixture(scope="session")
async def vector_clones(vector_admin_dsn: str, vector_template_database: str) -> AsyncIterator[Clones]:
    made = Clones(vector_admin_dsn, vector_template_database)
    yield made
    await made.close()


@pytest.fixture
async def vector_database_url(vector_clones: Clones) -> AsyncIterator[str]:
    """A migrated database of this test's own, with pgvector's tables."""
    dsn = await vector_clones.take()
    yield dsn
    vector_clones.give_back(dsn)


@pytest.fixture
async def embeddings_api() -> AsyncIterator[FakeEmbeddingsApi]:
    from tests.fakes.embeddings_api import FakeEmbeddingsApi

    api = await FakeEmbeddingsApi().start()
    yield api
    await api.stop()


@pytest.fixture
async def model_api() -> AsyncIterator[FakeMessagesAPI]:
    """The Anthropic Messages API at the HTTP edge: it records every prompt the bot sends."""
    from tests.fakes.anthropic_api import FakeMessagesAPI

    async with FakeMessagesAPI() as fake:
        yield fake


@pytest.fixture
def weighs_only(request: pytest.FixtureRequest) -> Iterator[None]:
    """The reader's sentence heads replaced by one that weighs one feature and nothing else ("whatever
    weight a fit gives it"): what the offline drafter drafts is then what the gates and vetoes let
    through. Parametrised indirectly with (kind, feature)."""
    from bot.reader import conversation
    from bot.reader.sentences import Head, SentenceModel

    kind, feature = request.param
    conversation.use_models(SentenceModel({kind: Head(-5.0, {feature: 10.0}, threshold=0.6, keep=20)}, "test"))
    yield
    conversation.use_models(None)
