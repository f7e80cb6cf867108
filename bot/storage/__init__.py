"""Persistence: the two databases (SQLite, PostgreSQL), the versioned migrations and the
`Store`, the one place that speaks SQL, plus `gamenight migrate`. No `discord` here."""
