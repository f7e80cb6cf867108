"""The engines' seam, typed: mypy checks the files `[tool.mypy]` lists in pyproject.toml (games/,
the `Engine` protocol, the bot's rooms that hold engines), and every registered game's engine
package against the protocol (games/engine.py), member by member. It also checks the seams the
bot's modules declare as `typing.Protocol`s: each slice of the store (named `...Store`) against
`Store`, and what a module uses of the bot (named `...Host`) against `GamenightBot`."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from mypy import api

from bot.registry import GAMES

ROOT = next(path for path in Path(__file__).resolve().parents
            if (path / "pyproject.toml").exists())
CHECKED = "registered_engines.py"
SEAMS = "declared_seams.py"


def registered_engines() -> str:
    """A module holding each registered engine package as an `Engine` of the package's own
    State, Move and View: mypy then checks that package against the protocol."""
    lines = ["from games.engine import Engine", *(f"import {game.engine}" for game in GAMES)]
    for package in (game.engine for game in GAMES):
        lines.append(f"{package.replace('.', '_')}: "
                     f"Engine[{package}.State, {package}.Move, {package}.View] = {package}")
    return "\n".join(lines) + "\n"


def declared(suffix: str) -> list[tuple[str, str]]:
    """(module, name) of every `typing.Protocol` under bot/ whose name ends in `suffix`."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found += [(module, node.name) for node in ast.walk(ast.parse(path.read_text()))
                  if isinstance(node, ast.ClassDef) and node.name.endswith(suffix)
                  and any(ast.unparse(base).split(".")[-1] == "Protocol" for base in node.bases)]
    return found


def declared_seams() -> str:
    """A module assigning a `Store` to a name of each declared slice of the store, and a
    `GamenightBot` to one of each declared host: mypy then checks that the store has every
    method a slice names, with a signature that fits, and the bot every part a host names."""
    slices, hosts = declared("Store"), declared("Host")
    lines = ["from bot.app.client import GamenightBot", "from bot.storage.store import Store",
             *sorted({f"import {module}" for module, _ in slices + hosts}),
             "", "", "def seams(store: Store, gamenight: GamenightBot) -> None:"]
    lines += [f"    {module.replace('.', '_')}_{name}: {module}.{name} = store"
              for module, name in slices]
    lines += [f"    {module.replace('.', '_')}_{name}: {module}.{name} = gamenight"
              for module, name in hosts]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """mypy's report on the configured files and the registered engines (about 4 s; its
    cache starts empty in the test's temporary folder), and its exit status."""
    folder = tmp_path_factory.mktemp("mypy")
    (folder / CHECKED).write_text(registered_engines())
    (folder / SEAMS).write_text(declared_seams())
    config = ROOT / "pyproject.toml"
    files = tomllib.loads(config.read_text())["tool"]["mypy"]["files"]
    stdout, stderr, status = api.run([
        "--config-file", str(config), "--cache-dir", str(folder / "cache"),
        *(str(ROOT / name) for name in files), str(folder / CHECKED), str(folder / SEAMS),
    ])
    return stdout + stderr, status


def test_every_registered_game_is_an_engine(mypy_report):
    report, _ = mypy_report
    found = [line for line in report.splitlines() if CHECKED in line]
    assert not found, "\n".join([*found, "", CHECKED + ":", registered_engines()])


def test_every_declared_slice_of_the_store_and_host_fits(mypy_report):
    assert {"LeaseStore", "DMStore", "RecordsStore"} <= {name for _, name in declared("Store")}
    assert {"Host", "DMHost", "ClockHost"} <= {name for _, name in declared("Host")}
    report, _ = mypy_report
    found = [line for line in report.splitlines() if SEAMS in line]
    assert not found, "\n".join([*found, "", SEAMS + ":", declared_seams()])


def test_the_engines_and_the_seam_type_check(mypy_report):
    report, status = mypy_report
    assert status == 0, report
