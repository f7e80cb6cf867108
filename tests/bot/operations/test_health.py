"""`gamenight health`: one line and exit status 0 (healthy), 1 (not) or 2 (nothing to ask),
against a small stand-in for the bot's metrics server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bot.app.config import ConfigError
from bot.operations import health

ANSWERS = {
    "/readyz": (503, {"status": "not ready", "problems": ["gateway: shard 0 not connected",
                                                          "database: no answer within 2 s"]}),
    "/healthz": (200, {"status": "alive", "loop_lag_seconds": 0.002}),
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status, body = ANSWERS.get(self.path, (404, {}))
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def server() -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def gamenight_health(*argv: str, env: dict[str, str], cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "health", *argv], cwd=cwd,
                          env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True,
                          timeout=60)


def test_ready_or_not_in_one_line_with_its_exit_status(tmp_path):
    with server() as port:
        env = {"GAMENIGHT_METRICS_PORT": str(port)}
        not_ready = gamenight_health(env=env, cwd=tmp_path)
        alive = gamenight_health("--live", env=env, cwd=tmp_path)
    assert not_ready.returncode == 1 and not_ready.stdout == ""
    assert not_ready.stderr == (
        "gamenight health: not ready: gateway: shard 0 not connected; database: no answer "
        f"within 2 s (http://127.0.0.1:{port}/readyz)\n")
    assert alive.returncode == 0
    assert alive.stdout == f"gamenight health: alive (http://127.0.0.1:{port}/healthz)\n"


def test_the_port_comes_from_dotenv_and_url_overrides_it(tmp_path):
    with server() as port:
        (tmp_path / ".env").write_text(f"GAMENIGHT_METRICS_PORT={port}\n")
        from_file = gamenight_health("--live", env={}, cwd=tmp_path)
        (tmp_path / ".env").write_text("GAMENIGHT_METRICS_PORT=9\n")
        by_url = gamenight_health("--live", "--url", f"http://127.0.0.1:{port}", env={},
                                  cwd=tmp_path)
    assert from_file.returncode == 0 and by_url.returncode == 0, (from_file, by_url)


def test_nothing_answering_is_unhealthy(tmp_path):
    with server() as port:
        pass  # closed: nothing listens there any more
    done = gamenight_health(env={"GAMENIGHT_METRICS_PORT": str(port)}, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"gamenight health: no answer from http://127.0.0.1:{port}/"
                                  "readyz: ") and done.stderr.count("\n") == 1


@pytest.mark.parametrize("value, says", [
    ("", "GAMENIGHT_METRICS_PORT is not set"),
    ("0", "GAMENIGHT_METRICS_PORT is 0"),
    ("nine", "GAMENIGHT_METRICS_PORT must be a TCP port number"),
])
def test_without_a_port_to_ask_it_says_so_and_exits_2(tmp_path, value, says):
    done = gamenight_health(env={"GAMENIGHT_METRICS_PORT": value}, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith(f"gamenight health: {says}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_local_url_follows_the_metrics_host():
    assert health.local_url({"GAMENIGHT_METRICS_PORT": "9100"}) == "http://127.0.0.1:9100"
    assert health.local_url({"GAMENIGHT_METRICS_PORT": "9100",
                             "GAMENIGHT_METRICS_HOST": "0.0.0.0"}) == "http://127.0.0.1:9100"
    assert health.local_url({"GAMENIGHT_METRICS_PORT": "9100",
                             "GAMENIGHT_METRICS_HOST": "::"}) == "http://[::1]:9100"
    assert health.local_url({"GAMENIGHT_METRICS_PORT": "9100",
                             "GAMENIGHT_METRICS_HOST": "10.0.0.5"}) == "http://10.0.0.5:9100"
    with pytest.raises(ConfigError):
        health.local_url({})
