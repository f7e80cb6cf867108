"""Slash-command groups: one cog per game, plus `/match` and `/gamenight`."""
