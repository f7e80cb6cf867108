"""Every series the Grafana dashboard and the Prometheus alert rules in deploy/ read is
exported by a real bot (against the fake Discord, metrics on) after a few moves against a
computer: each metric name (histograms' _bucket and _count, counters' _total), each label a
query matches or groups by, and each label value it asks for by name (a counter's labels are
there from the start at 0)."""

from __future__ import annotations

import pytest

import games.reversi as reversi
from tests.e2e.test_e2e_metrics import scrape
from tests.e2e_helpers import InlineExecutor, fake_world, fix_match_seeds, running_bot
from tests.monitoring import SCRAPED, Query, alert_queries, dashboard_queries

pytestmark = pytest.mark.e2e

PROMETHEUS_OWN = frozenset({"up"})  # series Prometheus makes about each scrape


async def exported_after_a_few_moves(tmp_path, monkeypatch) -> dict[str, list[dict]]:
    """The labels of each sample a bot exports, by sample name, once it has served a game
    against the computer."""
    fix_match_seeds(monkeypatch, 3)
    async with fake_world("games", ("alice",)) as (fake, guild, channel, users):
        alice = users["alice"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0",
                               computer_executor=InlineExecutor()) as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            menu = lobby.message.selects[0]
            await fake.select(alice, lobby.message, menu["custom_id"], ["easy"])
            for _ in range(2):  # the computer answers each move (or moved first)
                match = await bot.service.current(channel.id)
                seat = match.seat_of(alice.id)
                square = str(reversi.legal_moves(match.state, seat)[0])
                moved = await fake.slash(alice, channel, "reversi move", square=square)
                assert not moved.ephemeral, moved.text()
            _, samples = await scrape(bot)
    exported: dict[str, list[dict]] = {}
    for name, labels in samples:
        exported.setdefault(name, []).append(dict(labels))
    assert samples[("gamenight_timekeeper_lease_held", ())] == 1  # one process: it holds it
    assert samples[("gamenight_timekeeper_lease_changes_total", (("change", "taken"),))] == 1
    assert samples[("gamenight_gateway_connected", (("shard", "0"),))] == 1
    played = (("game", "reversi"), ("level", "easy"), ("outcome", "played"))
    assert samples[("gamenight_computer_decisions_total", played)] >= 2
    return exported


def problems(query: Query, exported: dict[str, list[dict]]) -> list[str]:
    """What `query` reads that the bot does not export."""
    found: list[str] = []
    labels_seen: set[str] = set()
    for selector in query.selectors:
        if selector.name in PROMETHEUS_OWN:
            continue
        series = exported.get(selector.name)
        if series is None:
            found.append(f"no series {selector.name}")
            continue
        labels_seen.update(label for labels in series for label in labels)
        for label, op, value in selector.matchers:
            if label in SCRAPED:
                continue
            values = {labels[label] for labels in series if label in labels}
            if not values:
                found.append(f"{selector.name} has no label {label}")
            elif op == "Equal" and value not in values:
                found.append(f"{selector.name} has no {label}={value!r} (only {sorted(values)})")
            # (a pattern, such as statuses 401|403|429, may match values not seen yet)
    if labels_seen:
        for label in query.grouped_by - SCRAPED - labels_seen:
            found.append(f"grouped by {label}, which none of its series has")
    return [f"{query.where}: {problem}" for problem in found]


async def test_the_dashboard_and_the_alerts_read_only_series_the_bot_exports(tmp_path,
                                                                            monkeypatch):
    exported = await exported_after_a_few_moves(tmp_path, monkeypatch)
    queries = dashboard_queries() + alert_queries()
    assert len(queries) > 20
    missing = [problem for query in queries for problem in problems(query, exported)]
    assert missing == []
