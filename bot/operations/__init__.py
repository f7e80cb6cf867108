"""The operator's commands and the bot's own upkeep: backups (taken by `gamenight backup` or on
a schedule in the bot), `gamenight restore`, `gamenight verify`, and what the bot says at
start-up about a damaged database. No `discord` here."""
