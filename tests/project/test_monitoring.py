"""deploy/: the Grafana dashboard, the Prometheus alert rules and scrape configuration, and
compose.yaml's `monitoring` profile hold together: every query is PromQL, every panel asks the
data source variable, the files compose mounts exist, and Prometheus scrapes the bots where
they serve metrics. Where promtool is installed (Debian's `prometheus` package), it checks the
files and runs the alert rules' unit tests (deploy/prometheus/alerts_test.yml)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from bot.app.config import Settings
from tests.monitoring import (ALERTS, DASHBOARD, PROMETHEUS, ROOT, alert_queries, alert_rules,
                              dashboard, dashboard_queries, panels)
from tests.project.test_compose import compose

DURATION = re.compile(r"\d+[smhd]")


def test_the_alert_rules_cover_what_an_operator_must_hear_of():
    rules = alert_rules()
    names = [rule["alert"] for rule in rules]
    assert len(names) == len(set(names))
    reads = {query.where.removeprefix("alert "): {s.name for s in query.selectors}
             for query in alert_queries()}  # and every expression is PromQL
    wanted = {  # the metric each concern is read from
        "refused requests nearing Discord's budget": "gamenight_discord_refused_last_10m",
        "the p99 of reply times": "gamenight_interaction_reply_seconds_bucket",
        "nobody holds the lease": "gamenight_timekeeper_lease_held",
        "the lease flapping": "gamenight_timekeeper_lease_changes_total",
        "a gateway disconnected": "gamenight_gateway_connected",
        "backups older than two periods": "gamenight_backup_last_success_timestamp_seconds",
    }
    for concern, metric in wanted.items():
        assert any(metric in metrics for metrics in reads.values()), concern
    for rule in rules:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule["alert"]
        assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
        assert rule["annotations"]["summary"], rule["alert"]
        assert DURATION.fullmatch(rule.get("for", "0s")), rule["alert"]


def test_the_dashboard_asks_its_data_source_variable_in_every_query():
    board = dashboard()
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    shown = [p for p in panels(board) if p["type"] != "row"]
    ids = [p["id"] for p in panels(board)]
    assert len(ids) == len(set(ids))
    for panel in shown:
        assert panel["title"] and panel["targets"], panel["id"]
        for source in (panel["datasource"], *(t["datasource"] for t in panel["targets"])):
            assert source == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
    assert len(dashboard_queries()) >= len(shown)  # and every one of them is PromQL


def test_the_dashboards_panels_do_not_overlap():
    cells: dict[tuple[int, int], str] = {}
    for panel in panels(dashboard()):
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24, panel["title"]
        for x in range(grid["x"], grid["x"] + grid["w"]):
            for y in range(grid["y"], grid["y"] + grid["h"]):
                assert (x, y) not in cells, f"{panel['title']} covers {cells.get((x, y))}"
                cells[x, y] = panel["title"]


def test_the_monitoring_profile_runs_prometheus_and_grafana_on_the_files_in_deploy():
    services = compose()["services"]
    monitoring = {name for name, s in services.items() if "monitoring" in s.get("profiles", ())}
    assert monitoring == {"prometheus", "grafana"}
    for name in monitoring:
        for volume in services[name]["volumes"]:
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), f"{name} mounts {source}, which is missing"
    mounts = dict(v.split(":")[:2] for v in services["grafana"]["volumes"])
    assert Path(mounts["./deploy/grafana/gamenight.json"]).parent == Path(provider_path())
    datasource, = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/"
                                  "prometheus.yml").read_text())["datasources"]
    assert datasource["type"] == "prometheus" and datasource["url"] == "http://prometheus:9090"


def provider_path() -> str:
    provider, = yaml.safe_load((ROOT / "deploy/grafana/provisioning/dashboards/"
                                "gamenight.yml").read_text())["providers"]
    return provider["options"]["path"]


def test_prometheus_scrapes_every_bot_where_it_serves_metrics_and_loads_the_rules():
    config = yaml.safe_load(PROMETHEUS.read_text())
    assert [(PROMETHEUS.parent / f).resolve() for f in config["rule_files"]] == [ALERTS]
    job, = config["scrape_configs"]
    assert job["job_name"] == "gamenight"  # GamenightDown reads up{job="gamenight"}
    targets = {t for group in job["static_configs"] for t in group["targets"]}
    bots = {name: s for name, s in compose()["services"].items() if name.startswith("bot-")}
    ports = {name: Settings.from_mapping({"DISCORD_TOKEN": "t", **bot["environment"]}).metrics_port
             for name, bot in bots.items()}
    served = {f"{name}:{port}" for name, port in ports.items()}
    assert targets == served


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed")
@pytest.mark.parametrize("check", [["check", "config", "prometheus.yml"],
                                   ["check", "rules", "alerts.yml"],
                                   ["test", "rules", "alerts_test.yml"]])
def test_promtool(check):
    done = subprocess.run(["promtool", *check], cwd=PROMETHEUS.parent, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dashboard_file_is_where_readme_says():
    assert DASHBOARD.relative_to(ROOT).as_posix() in (ROOT / "README.md").read_text()
