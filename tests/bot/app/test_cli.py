"""`gamenight`'s command line: it lists its commands and refuses a word it does not know,
never starting the bot for it."""

from __future__ import annotations

import subprocess
import sys

from bot.app import main as cli


def gamenight(*argv: str, tmp_path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "not-a-token",
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}  # nothing answers there
    return subprocess.run([sys.executable, "-m", "bot", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def test_help_lists_every_command(tmp_path):
    done = gamenight("--help", tmp_path=tmp_path)
    assert done.returncode == 0
    assert "usage: gamenight" in done.stdout
    for name in cli.COMMANDS:
        assert f"    {name}" in done.stdout


def test_an_unknown_command_prints_the_usage_and_exits_2_without_starting_the_bot(tmp_path):
    done = gamenight("bakcup", "--to", "x", tmp_path=tmp_path)
    assert done.returncode == 2
    assert "usage: gamenight" in done.stderr and "invalid choice: 'bakcup'" in done.stderr
    assert "Discord" not in done.stderr  # it never tried to log in
    assert not list(tmp_path.iterdir())  # nor opened a database


def test_a_command_has_its_own_help(tmp_path):
    done = gamenight("migrate", "--help", tmp_path=tmp_path)
    assert done.returncode == 0 and "usage: gamenight migrate" in done.stdout
