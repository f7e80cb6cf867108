"""The Discord side every game shares, without Discord: error replies, live DMs and the match
list (bot/ui/)."""
