"""The `/match` and `/gamenight` commands, without Discord (bot/commands/)."""
