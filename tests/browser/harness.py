"""What the browser tests need: Debian's Chromium (one per test process, which each test
connects to through Playwright), axe-core from web/node_modules, and the check that they are
there: without them the browser tests are skipped, saying why, except where
GAMENIGHT_REQUIRE_BROWSER=1 (CI) makes that a failure.

Playwright's objects belong to the event loop they were made on and pytest-asyncio gives each
test a loop of its own, so each test starts a Playwright client of its own and connects it over
the DevTools protocol to its process's Chromium, which stays up for the whole session (started
by its first browser test: one per pytest-xdist worker). Playwright never downloads a browser
here: `playwright install` is never run.
"""

from __future__ import annotations

import collections
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "web" / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("GAMENIGHT_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("GAMENIGHT_REQUIRE_BROWSER") == "1"
INSTALL = ("apt-get install -y --no-install-recommends chromium && npm ci --prefix web "
           "(README.md's test command does both)")

# How long Playwright's expect() and the tests wait for a page to show what it should before
# they fail: long enough for a loaded machine (CI runs four test processes on two cores).
WAIT_MS = 20_000

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Chromium's switches for tests: headless, no sandbox (the tests run as root and load only
# their own pages on 127.0.0.1), no first-run screens, no network of its own, and no
# throttling of pages that are not in front (every test's page is a background tab).
SWITCHES = (
    "--headless",
    "--no-sandbox",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--hide-scrollbars",
    "--mute-audio",
    "--force-color-profile=srgb",
)


def missing() -> str | None:
    """None when the browser tests can run here, else what is missing."""
    gaps = []
    if importlib.util.find_spec("playwright") is None:
        gaps.append("the Python package playwright (pip install -e '.[test]')")
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        gaps.append(f"Chromium at {CHROMIUM} (set GAMENIGHT_TEST_CHROMIUM to use another)")
    if not AXE.is_file():
        gaps.append(f"{AXE.relative_to(ROOT)}")
    return "; ".join(gaps) or None


def require_browser() -> None:
    """Skip the test (saying why) where Chromium, Playwright or axe-core is missing, or fail
    where GAMENIGHT_REQUIRE_BROWSER=1 says the browser tests must run (CI)."""
    gaps = missing()
    if gaps is None:
        return
    said = f"the browser tests need {gaps}; install with {INSTALL}"
    if REQUIRED:
        pytest.fail(said, pytrace=False)
    pytest.skip(said)


class Chromium:
    """One headless Chromium, started on first use (and again if it died): its DevTools
    address, for Playwright's connect_over_cdp."""

    def __init__(self, executable: str = CHROMIUM) -> None:
        self.executable = executable
        self.process: subprocess.Popen[str] | None = None
        self.address = ""
        self.said: collections.deque[str] = collections.deque(maxlen=40)
        self._profile: tempfile.TemporaryDirectory[str] | None = None

    def endpoint(self) -> str:
        if self.process is None or self.process.poll() is not None:
            self._start()
        return self.address

    def _start(self) -> None:
        self.stop()
        self._profile = tempfile.TemporaryDirectory(prefix="gamenight-chromium-")
        self.process = subprocess.Popen(
            [self.executable, *SWITCHES, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, errors="replace")
        assert self.process.stderr is not None
        for line in self.process.stderr:  # ends when Chromium exits
            self.said.append(line.rstrip())
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            if found:
                self.address = found.group(1)
                break
        else:
            self.process.wait()
            raise RuntimeError(f"Chromium ({self.executable}) exited with "
                               f"{self.process.returncode} before it listened:\n"
                               + "\n".join(self.said))
        # Keep reading what it says (a full pipe would stop it), the last lines kept for errors.
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()

    def _drain(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.said.append(line.rstrip())

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._profile is not None:
            self._profile.cleanup()
            self._profile = None


async def axe_violations(page: Any, impacts: Iterable[str] = ("serious", "critical"),
                         **options: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, those of the given impacts.

    axe is evaluated through the DevTools protocol, which the page's Content-Security-Policy
    does not govern (a <script> tag, as page.add_script_tag makes, would be refused by a strict
    policy): the page is checked with its own policy in force. `options` go to axe.run, e.g.
    runOnly=["wcag2a", "wcag2aa"] or rules={"color-contrast": {"enabled": False}}.
    """
    require_browser()
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.evaluate(AXE.read_text(encoding="utf-8"))
    found = await page.evaluate(
        "async (options) => (await axe.run(document, options)).violations",
        {"resultTypes": ["violations"], **options})
    wanted = set(impacts)
    return [violation for violation in found if violation["impact"] in wanted]


def describe(violations: list[dict[str, Any]]) -> str:
    """axe's violations as lines a failing assertion can show."""
    return "\n".join(
        f"{v['impact']}: {v['id']} ({v['help']}) at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in violations)


def record_errors(page: Any) -> list[str]:
    """The page's errors from now on (console errors, a refused Content-Security-Policy
    among them, and uncaught exceptions), in a list that grows as they come."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return errors
