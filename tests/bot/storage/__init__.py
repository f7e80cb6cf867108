"""The store under stress, `gamenight migrate` and databases saved by earlier versions
(bot/storage/)."""
