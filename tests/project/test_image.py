"""The container image's recipe: two stages, a HEALTHCHECK by `gamenight health` (no curl in the
slim image) with the metrics server on, the match pages off unless the operator sets their port,
and the pruning's idea of what the bot reads and what it never loads (the build runs
docker/prune_data.py, which fails the build if results change; here it is checked without
Docker)."""

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


def test_the_pruning_takes_only_pillows_avif_codec_and_discords_windows_dlls():
    script = ("import json, runpy; m = runpy.run_path('docker/prune_data.py'); print(json.dumps("
              "[[p.parent.name, p.name, p.is_file()] for p in m['unused_code']()]))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert all(exists for _, _, exists in found)
    names = sorted((folder, name.split(".")[0].split("-")[0]) for folder, name, _ in found)
    assert names == [("PIL", "_avif"), ("bin", "libopus"), ("bin", "libopus"),
                     ("pillow.libs", "libavif")]
    assert all(name.endswith(".dll") for folder, name, _ in found if folder == "bin")


def test_the_match_pages_stay_off_in_the_image_and_their_port_is_documented():
    final = DOCKERFILE.split("\nFROM python:3.12-slim\n")[1]
    assert "GAMENIGHT_WEB_PORT=" not in final and "GAMENIGHT_PUBLIC_URL=" not in final
    assert "GAMENIGHT_WEB_HOST=" not in re.sub(r"#.*", "", final)  # a host alone is refused
    assert "EXPOSE 8080" in final
    readme = (ROOT / "README.md").read_text()
    docker_section = readme.split("\n## Docker\n")[1].split("\n## ")[0]
    for said in ("GAMENIGHT_WEB_PORT=8080", "GAMENIGHT_WEB_HOST=0.0.0.0",
                 "GAMENIGHT_PUBLIC_URL", "-p 127.0.0.1:8080:8080", "docker/play_pages.py"):
        assert said in docker_section, said
