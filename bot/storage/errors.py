"""What the store raises: a lost race, a busy channel, a database it cannot use, or cannot use
just now."""

from __future__ import annotations


class StaleVersion(Exception):
    """The match changed between reading it and writing it: another action won the race."""


class ChannelBusy(Exception):
    """The channel already has an open match."""


class StoreUnavailable(Exception):
    """The database file cannot be opened or brought up to date; the message says why."""


class SchemaTooNew(StoreUnavailable):
    """The database was brought up to date by a newer Gamenight: this one leaves it alone."""


class StoreOutage(Exception):
    """The database could not take a write or answer a read just now (its disk is full, its
    server is restarting or out of reach): nothing was changed, and trying again later may
    work. The message says why, for the log."""
