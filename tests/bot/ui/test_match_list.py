"""`/match list` stays inside Discord's embed limit however long the lines are."""

import bot.ui.threads as threads


def test_long_lines_are_counted_not_cut(monkeypatch):
    monkeypatch.setattr(threads, "match_line", lambda match: "x" * 300)
    description = threads.match_list_embed([object()] * 25).description
    assert len(description) <= 4096
    shown = description.count("x" * 300)
    assert shown == 12 and f"…and {25 - shown} more matches not shown." in description
