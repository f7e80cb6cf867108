"""The queries of the Grafana dashboard and the Prometheus alert rules in deploy/, parsed with
promql-parser: the series each one reads, for tests/project/test_monitoring.py (the files hold
together) and tests/e2e/test_e2e_dashboard.py (a running bot exports every series)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import promql_parser as promql
import yaml

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "deploy" / "grafana" / "gamenight.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
PROMETHEUS = ROOT / "deploy" / "prometheus" / "prometheus.yml"
SCRAPED = frozenset({"instance", "job"})  # labels Prometheus adds to every series it scrapes
# Grafana's variables, as a query is sent: every process, a rate over 1 minute.
GRAFANA = {"$__rate_interval": "1m", "$__interval": "1m", "$__range": "1h", "$instance": ".*"}


@dataclass
class Selector:
    """A series a query reads: its metric name and its label matchers (label, op, value)."""

    name: str
    matchers: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class Query:
    where: str  # the panel or alert rule that holds it
    expr: str
    selectors: list[Selector]
    grouped_by: set[str]  # labels named in by (...) and on (...) clauses


def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def alert_rules() -> list[dict]:
    return [rule for group in yaml.safe_load(ALERTS.read_text())["groups"]
            for rule in group["rules"]]


def panels(board: dict) -> list[dict]:
    out = []
    for panel in board["panels"]:
        out.append(panel)
        out.extend(panel.get("panels", []))  # a collapsed row holds its panels
    return out


def dashboard_queries() -> list[Query]:
    board = dashboard()
    queries = [parse(f"panel {panel['title']!r}", target["expr"])
               for panel in panels(board) for target in panel.get("targets", [])]
    for variable in board["templating"]["list"]:
        if variable["type"] == "query":  # label_values(metric, label): not PromQL itself
            found = re.fullmatch(r"label_values\((\w+), *(\w+)\)", variable["query"]["query"])
            assert found, variable["query"]
            queries.append(Query(f"variable {variable['name']}", found[0],
                                 [Selector(found[1])], {found[2]}))
    return queries


def alert_queries() -> list[Query]:
    return [parse(f"alert {rule['alert']}", rule["expr"]) for rule in alert_rules()]


def parse(where: str, expr: str) -> Query:
    text = expr
    for variable, value in GRAFANA.items():
        text = text.replace(variable, value)
    try:
        tree = promql.parse(text)
    except ValueError as err:
        raise AssertionError(f"{where}: {expr!r} is not PromQL: {err}") from None
    selectors: list[Selector] = []
    grouped: set[str] = set()
    walk(tree, selectors, grouped)
    return Query(where, expr, selectors, grouped)


def walk(node: object, selectors: list[Selector], grouped: set[str]) -> None:
    """Collect the series selectors and grouping labels anywhere under `node`."""
    if isinstance(node, promql.VectorSelector):
        selectors.append(Selector(node.name, [
            (m.name, str(m.op).rsplit(".", 1)[-1], m.value)
            for m in node.matchers.matchers if m.name != "__name__"]))
        return
    if isinstance(node, promql.MatrixSelector):
        walk(node.vector_selector, selectors, grouped)
        return
    if isinstance(node, promql.AggregateExpr):
        if node.modifier is not None:
            grouped.update(node.modifier.labels)
        walk(node.expr, selectors, grouped)
        if node.param is not None:
            walk(node.param, selectors, grouped)
        return
    if isinstance(node, promql.BinaryExpr):
        matching = node.modifier.matching if node.modifier is not None else None
        if matching is not None:
            grouped.update(matching.labels)
        walk(node.lhs, selectors, grouped)
        walk(node.rhs, selectors, grouped)
        return
    if isinstance(node, promql.Call):
        for arg in node.args:
            walk(arg, selectors, grouped)
        return
    if isinstance(node, (promql.ParenExpr, promql.UnaryExpr, promql.SubqueryExpr)):
        walk(node.expr, selectors, grouped)
