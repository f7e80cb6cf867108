"""The engines' seam, typed: mypy checks the files `[tool.mypy]` lists in pyproject.toml (games/,
the `Engine` protocol, the bot's rooms that hold engines), and every registered game's engine
package against the protocol (games/engine.py), member by member."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from mypy import api

from bot.registry import GAMES

ROOT = next(path for path in Path(__file__).resolve().parents
            if (path / "pyproject.toml").exists())
CHECKED = "registered_engines.py"


def registered_engines() -> str:
    """A module holding each registered engine package as an `Engine` of the package's own
    State, Move and View: mypy then checks that package against the protocol."""
    lines = ["from games.engine import Engine", *(f"import {game.engine}" for game in GAMES)]
    for package in (game.engine for game in GAMES):
        lines.append(f"{package.replace('.', '_')}: "
                     f"Engine[{package}.State, {package}.Move, {package}.View] = {package}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """mypy's report on the configured files and the registered engines (about 4 s; its
    cache starts empty in the test's temporary folder), and its exit status."""
    folder = tmp_path_factory.mktemp("mypy")
    (folder / CHECKED).write_text(registered_engines())
    config = ROOT / "pyproject.toml"
    files = tomllib.loads(config.read_text())["tool"]["mypy"]["files"]
    stdout, stderr, status = api.run([
        "--config-file", str(config), "--cache-dir", str(folder / "cache"),
        *(str(ROOT / name) for name in files), str(folder / CHECKED),
    ])
    return stdout + stderr, status


def test_every_registered_game_is_an_engine(mypy_report):
    report, _ = mypy_report
    found = [line for line in report.splitlines() if CHECKED in line]
    assert not found, "\n".join([*found, "", CHECKED + ":", registered_engines()])


def test_the_engines_and_the_seam_type_check(mypy_report):
    report, status = mypy_report
    assert status == 0, report
