"""The README's first lines give the commands that CI and new users run."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def commands_in_readme() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()[:15]
    return [line.strip() for line in lines if line.startswith("    ") and line.strip()]


def test_readme_starts_with_a_run_and_a_test_command():
    run, test = commands_in_readme()
    assert run.endswith("gamenight") and "pip install ." in run
    assert test.endswith("pytest") and "[test]" in test


def test_the_test_command_installs_what_the_browser_tests_need():
    test = commands_in_readme()[1]
    assert "apt-get install -y --no-install-recommends chromium" in test
    assert "npm ci --prefix web" in test
    assert "playwright install" not in test  # Playwright drives Debian's Chromium


def test_ci_runs_the_readme_test_command_word_for_word():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands_in_readme()[1] in ci
    assert "export GAMENIGHT_REQUIRE_BROWSER=1" in ci


def test_the_npm_packages_are_locked():
    """`npm ci` installs exactly package-lock.json, which must hold every package asked for."""
    wanted = json.loads((ROOT / "web" / "package.json").read_text())
    locked = json.loads((ROOT / "web" / "package-lock.json").read_text())["packages"]
    for name, version in {**wanted.get("dependencies", {}), **wanted.get("devDependencies", {})}.items():
        assert locked[f"node_modules/{name}"]["version"] == version, name
