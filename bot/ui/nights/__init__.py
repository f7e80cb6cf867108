"""Game nights on Discord: the sign-up card and its buttons, check-in pings, rounds as matches
in threads with one round card, the standings after each round, and the Discord event."""
