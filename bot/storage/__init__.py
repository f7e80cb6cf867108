"""Persistence: the two databases (SQLite, PostgreSQL), the versioned migrations, and the
`Store` with its parts, one module per kind of data (matches, delivery, clocks, settings,
records, commits, tables) and the only modules that speak SQL; the rows they read and write;
`gamenight migrate`. No `discord` here."""
