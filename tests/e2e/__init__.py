"""The real bot through the fake Discord (tests/fakediscord/): whole games, lobbies, DMs,
refusals, clocks, records, several processes and shards. Helpers: tests/e2e_helpers.py."""
