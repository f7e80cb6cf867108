"""One package per game: its slash commands, its words, its controls and how its match is
shown on Discord. Each is registered by one line in bot/registry.py."""
