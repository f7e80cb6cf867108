"""The bot and the renderers use what an engine package exports, never its inner modules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
GAMES = ("doudizhu", "patchwork", "reversi", "scrabble")
# games.common, games.replay, games.contests, games.review (the coach's judged turn) and
# games.engine (the protocol) are every engine's
ALLOWED = {"games", "games.common", "games.replay", "games.contests", "games.engine", "games.review",
           *(f"games.{game}" for game in GAMES)}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every `import x` / `from x import y` in a file; `from games import
    scrabble` counts as `games.scrabble`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            if node.module == "games":
                found += [(node.lineno, f"games.{alias.name}") for alias in node.names]
    return found


def adapter_files() -> list[Path]:
    return sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("render/**/*.py")])


def test_bot_and_render_import_only_engine_packages():
    assert adapter_files()
    reaching_in = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                   for path in adapter_files() for line, module in imported_modules(path)
                   if module.startswith("games") and module not in ALLOWED]
    assert reaching_in == []


def test_the_check_sees_an_import_that_reaches_in(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import games.scrabble\nfrom games.patchwork.patches import SQUARES\n"
                      "from games import reversi\n")
    assert [m for _, m in imported_modules(sample)] == [
        "games.scrabble", "games.patchwork.patches", "games", "games.reversi"]


@pytest.mark.parametrize("game", GAMES)
def test_every_exported_name_exists(game):
    package = importlib.import_module(f"games.{game}")
    missing = [name for name in package.__all__ if not hasattr(package, name)]
    assert missing == []
    assert len(set(package.__all__)) == len(package.__all__)
