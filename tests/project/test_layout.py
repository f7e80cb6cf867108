"""The shape of the code: bot/ in rooms along the Discord line, games registered in one place,
and no import cycles in the bot."""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path

import bot.matches.engines
from bot.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


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


# The rooms below the Discord line: they never import discord, directly or through another room.
WITHOUT_DISCORD = ("bot/matches", "bot/storage", "bot/workers", "bot/operations",
                   "bot/nights", "bot/web", "bot/registry.py", "bot/app/config.py")
ROOMS = ("app", "matches", "storage", "workers", "operations", "nights", "web", "ui", "commands",
         "adapters")


def without_discord(name: str) -> bool:
    path = name.replace(".", "/")
    return any(path == room.removesuffix(".py") or path.startswith(room + "/")
               for room in WITHOUT_DISCORD)


def test_the_rooms_below_the_discord_line_never_import_discord():
    modules = {module_name(p): p for p in (ROOT / "bot").rglob("*.py")}
    graph = bot_graph()
    below = sorted(name for name in modules if without_discord(name))
    assert "bot.matches.service" in below and "bot.storage.store" in below
    for name in below:
        found = imports(modules[name])
        assert not any(m == "discord" or m.startswith("discord.") for m in found), name
        above = sorted(m for m in graph[name] if not without_discord(m))
        assert not above, f"{name} imports {above}, which are on the Discord side"


def test_the_bot_is_in_rooms():
    """Every module lives in a room; only the entry point and the games' register sit at the top."""
    top = sorted(p.name for p in (ROOT / "bot").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "registry.py"], top
    rooms = sorted(p.name for p in (ROOT / "bot").iterdir()
                   if p.is_dir() and (p / "__init__.py").exists())
    assert rooms == sorted(ROOMS), rooms
    for room in ROOMS:
        assert ast.get_docstring(ast.parse((ROOT / "bot" / room / "__init__.py").read_text())), room


def test_the_client_and_the_service_know_no_game():
    names = {import_module(game.engine).NAME for game in GAMES}
    for module in ("bot/app/client.py", "bot/matches/service.py", "bot/storage/store.py",
                   "bot/ui/lobby.py", "bot/ui/present.py", "bot/ui/dms.py", "bot/ui/error_replies.py",
                   "bot/ui/presenter.py", "bot/ui/game_presenter.py", "bot/ui/boards.py",
                   "bot/ui/opening.py", "bot/ui/threads.py", "bot/ui/exports.py",
                   "bot/ui/persistent.py", "bot/commands/game.py", "bot/commands/match.py",
                   *(str(p.relative_to(ROOT)) for p in (ROOT / "bot/storage").glob("*.py"))):
        text = (ROOT / module).read_text().lower()
        assert not any(f"games.{name}" in text for name in names), module
        assert not any(f"bot.adapters.{name}" in text for name in names), module


def test_every_registered_game_has_an_engine_and_an_adapter():
    """What an engine package holds is checked against the `Engine` protocol (test_types.py)."""
    for game in GAMES:
        engine = import_module(game.engine)
        assert bot.matches.engines.engine_for(engine.NAME) is engine
        assert callable(import_module(game.adapter).setup)


ADAPTER_MODULES = {"__init__.py", "commands.py", "words.py", "presenter.py"}


def test_every_game_adapter_has_the_same_shape():
    """A package each: its slash commands, its words, how its match is shown, and `setup`."""
    for game in GAMES:
        package = ROOT / game.adapter.replace(".", "/")
        found = {path.name for path in package.glob("*.py")}
        assert ADAPTER_MODULES <= found, (game.adapter, sorted(ADAPTER_MODULES - found))
        assert ast.get_docstring(ast.parse((package / "__init__.py").read_text())), game.adapter


def test_the_shared_presenter_offers_all_the_seam_declares():
    """Every member of `Presenter` has a default in `GamePresenter`, which each game's
    presenter extends."""
    from bot.ui.game_presenter import GamePresenter
    from bot.ui.presenter import Presenter

    declared = {name for name in vars(Presenter) if not name.startswith("_")}
    declared |= set(Presenter.__annotations__)
    assert {"announce", "repost_board", "export_files", "help"} <= declared
    assert not [name for name in sorted(declared) if not hasattr(GamePresenter, name)
                and name not in GamePresenter.__annotations__]


def test_every_persistent_control_reports_its_errors_through_one_base():
    """Buttons and menus extend `PersistentItem`, whose callback reports errors; each writes
    only what using it does (`use`)."""
    controls = 0
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.name == "persistent.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [ast.unparse(base) for base in node.bases]
            assert not any("DynamicItem" in base for base in bases), (path, node.name)
            if any(base.startswith("PersistentItem") for base in bases):
                controls += 1
                methods = {item.name for item in node.body
                           if isinstance(item, ast.AsyncFunctionDef)}
                assert "use" in methods and "callback" not in methods, (path, node.name)
    assert controls >= 15


# The Discord side: it reads and writes through the match service, or through the slices of the
# store each module declares (a `typing.Protocol` named `...Store`, checked against `Store` by
# test_types.py), never through the bot's or the service's whole store.
DISCORD_SIDE = ("bot/ui", "bot/commands", "bot/adapters")


def declared_protocols(tree: ast.Module) -> set[str]:
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and any(ast.unparse(base).split(".")[-1] == "Protocol" for base in node.bases)}


def store_reached(node: ast.AST) -> ast.Attribute | None:
    """`X.store` when `node` is `X.store.method` or `name = X.store`."""
    alias = isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets)
    if not (isinstance(node, ast.Attribute) or alias):
        return None
    reached = node.value
    return reached if isinstance(reached, ast.Attribute) and reached.attr == "store" else None


def whole_store_uses(path: Path) -> set[str]:
    """Where `path` reaches the store past a declared slice: `X.store.method` or
    `name = X.store`, X being anything but `self` (whose `store` is its slice) or a name the
    function types with a Protocol its module declares (a host whose `store` is a slice)."""
    tree = ast.parse(path.read_text())
    hosts = declared_protocols(tree)
    found: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        arguments = function.args
        typed = {arg.arg for arg in (*arguments.posonlyargs, *arguments.args,
                                     *arguments.kwonlyargs)
                 if arg.annotation is not None and ast.unparse(arg.annotation) in hosts}
        typed |= {node.target.id for node in ast.walk(function)
                  if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                  and ast.unparse(node.annotation) in hosts}
        for node in ast.walk(function):
            store = store_reached(node)
            if store is None or isinstance(store.value, ast.Name) and (
                    store.value.id == "self" or store.value.id in typed):
                continue
            found.add(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_discord_side_uses_the_store_only_through_the_slices_it_declares():
    paths = sorted(path for room in DISCORD_SIDE for path in (ROOT / room).rglob("*.py"))
    found = sorted(use for path in paths for use in whole_store_uses(path))
    assert not found, "\n".join(found)
    whole = [str(path.relative_to(ROOT)) for path in paths if "bot.storage.store" in imports(path)]
    assert not whole, f"{whole} name the whole Store, not the slice they use"
