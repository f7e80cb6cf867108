"""The match service, records and ratings, deadlines, the announcement order and several
processes on one database (bot/matches/)."""
