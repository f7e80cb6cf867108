"""What the store raises: a lost race, a busy channel, a database it cannot use."""

from __future__ import annotations


class StaleVersion(Exception):
    """The match changed between reading it and writing it: another action won the race."""


class ChannelBusy(Exception):
    """The channel already has an open match."""


class StoreUnavailable(Exception):
    """The database file cannot be opened or brought up to date; the message says why."""
