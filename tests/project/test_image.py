"""The container image's recipe: two stages, a HEALTHCHECK by `gamenight health` (no curl in the
slim image) with the metrics server on, and the data pruning's idea of what the bot reads (the
build runs docker/prune_data.py, which fails the build if results change; here it is checked
without Docker)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import i18n
from bot.app.config import port

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_two_stages_and_only_the_installed_venv_in_the_image():
    stages = re.findall(r"^FROM (\S+)(?: AS (\w+))?", DOCKERFILE, re.M)
    assert stages == [("python:3.12-slim", "build"), ("python:3.12-slim", "")]
    final = DOCKERFILE.split("\nFROM python:3.12-slim\n")[1]
    assert re.findall(r"^COPY .*", final, re.M) == ["COPY --from=build /venv /venv"]
    assert "prune_data.py" in DOCKERFILE.split("\nFROM python:3.12-slim\n")[0]


def test_the_healthcheck_asks_gamenight_health_on_the_metrics_port_the_image_sets():
    assert re.search(r'^HEALTHCHECK .*\\\n\s+CMD \["gamenight", "health"\]$', DOCKERFILE, re.M)
    assert "curl" not in DOCKERFILE and "wget" not in DOCKERFILE
    value = re.search(r"GAMENIGHT_METRICS_PORT=(\S+)", DOCKERFILE).group(1)
    assert port(value) and f"EXPOSE {value}" in DOCKERFILE
    assert "GAMENIGHT_METRICS_HOST=0.0.0.0" in DOCKERFILE


def test_pruning_keeps_the_english_word_list_and_the_four_languages_locales():
    script = ("import json, runpy; m = runpy.run_path('docker/prune_data.py'); "
              "found, lists, locales = m['read_files'](); "
              "print(json.dumps([sorted(p.name for p in lists), sorted(locales)]))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lists, locales = json.loads(done.stdout)
    assert lists == ["large_en.msgpack.gz"]
    assert {"root", "en", *i18n.BABEL_LOCALES.values()} <= set(locales)
    assert len(locales) < 15  # of Babel's ~1,000
