"""The operator's commands and the bot's own upkeep, without Discord: health checks
(`gamenight health`), backups (taken by `gamenight backup` or on a schedule in the bot),
`gamenight restore`, `gamenight verify`, and what the bot says at start-up about a damaged
database."""
