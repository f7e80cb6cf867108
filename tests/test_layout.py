"""The shape of the code: games registered in one place, and no import cycles in the bot."""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path

import bot.engines
from bot.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module `path` imports, at any level (TYPE_CHECKING blocks and functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def bot_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in (ROOT / "bot").rglob("*.py")}
    return {name: {m for m in imports(path) if m in modules and m != name}
            for name, path in modules.items()}


def test_the_bot_has_no_import_cycle():
    graph = bot_graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            cycle = " -> ".join(path[path.index(name):] + (name,))
            raise AssertionError(f"import cycle: {cycle}")
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, path + (name,))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_the_client_and_the_service_know_no_game():
    names = {import_module(game.engine).NAME for game in GAMES}
    for module in ("bot/client.py", "bot/service.py", "bot/store.py", "bot/lobby.py",
                   "bot/present.py", "bot/private.py", "bot/errors.py", "bot/cogs/base.py",
                   "bot/cogs/match.py"):
        text = (ROOT / module).read_text().lower()
        assert not any(f"games.{name}" in text for name in names), module
        assert not any(f"bot.cogs.{name}" in text for name in names), module


def test_every_registered_game_has_an_engine_and_an_adapter():
    for game in GAMES:
        engine = import_module(game.engine)
        assert bot.engines.engine_for(engine.NAME) is engine
        for name in ("NAME", "MIN_SEATS", "MAX_SEATS", "State", "new_game", "apply",
                     "parse_move", "legal_moves", "current_seat", "outcome", "view", "resign"):
            assert hasattr(engine, name), (game.engine, name)
        assert callable(import_module(game.adapter).setup)
