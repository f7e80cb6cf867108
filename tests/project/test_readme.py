"""The README's first lines give the commands that CI and new users run."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def commands_in_readme() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()[:15]
    return [line.strip() for line in lines if line.startswith("    python3 -m venv")]


def test_readme_starts_with_a_run_and_a_test_command():
    run, test = commands_in_readme()
    assert run.endswith("gamenight") and "pip install ." in run
    assert test.endswith("pytest") and "[test]" in test


def test_ci_runs_the_readme_test_command_word_for_word():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands_in_readme()[1] in ci
