"""Which database the tests run on: SQLite files (the default), or PostgreSQL when
GAMENIGHT_TEST_STORE=postgresql (the server GAMENIGHT_TEST_PG names, else the local one).

On PostgreSQL each test's database is a schema of its own in that server, named after the
path the test would have used for its SQLite file, so a test that closes and reopens its
database (a restart) finds it again. The schemas are dropped when the session ends.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path

POSTGRESQL = "postgresql"
STORE = os.environ.get("GAMENIGHT_TEST_STORE", "sqlite")
PG_URL = os.environ.get("GAMENIGHT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
ON_POSTGRESQL = STORE == POSTGRESQL
CREATED: set[str] = set()


def schema_for(path: str | Path) -> str:
    return "t_" + hashlib.sha1(str(path).encode()).hexdigest()[:20]


def url_for(schema: str) -> str:
    joiner = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{joiner}search_path={schema}"


async def location(path: str | Path) -> str | Path:
    """Where a test's database lives: its SQLite file, or a fresh PostgreSQL schema."""
    if not ON_POSTGRESQL:
        return path
    schema = schema_for(path)
    if schema not in CREATED:
        await run_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE", f"CREATE SCHEMA {schema}")
        CREATED.add(schema)
    return url_for(schema)


async def run_sql(*statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def reachable() -> str | None:
    """None when the PostgreSQL server answers, else why not."""
    try:
        await run_sql("SELECT 1")
    except Exception as error:  # any reason at all: the tests say which
        return f"{type(error).__name__}: {error}"
    return None


async def require_postgresql(what: str) -> None:
    """Skip (saying why) where no PostgreSQL server answers, or fail where GAMENIGHT_REQUIRE_PG
    says the tests must run there (CI)."""
    import pytest

    from bot.storage.database import safe_url

    why = await reachable()
    if why is None:
        return
    said = (f"no PostgreSQL server answers at {safe_url(PG_URL)} ({why}); set "
            f"GAMENIGHT_TEST_PG to a server's URL to run {what}")
    if os.environ.get("GAMENIGHT_REQUIRE_PG"):
        pytest.fail(said)
    pytest.skip(said)


async def fresh_schema(path: str | Path) -> str:
    """A new, empty PostgreSQL schema for `path` (dropped at the end of the session): its URL."""
    schema = schema_for(path)
    await run_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE", f"CREATE SCHEMA {schema}")
    CREATED.add(schema)
    return url_for(schema)


def drop_created() -> None:
    if CREATED:
        asyncio.run(run_sql(*(f"DROP SCHEMA IF EXISTS {s} CASCADE" for s in sorted(CREATED))))
        CREATED.clear()
