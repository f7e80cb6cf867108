"""Matches without Discord: the match service (lobbies, seats, turns, locking), the match
model and its errors, the engines by name, turn-clock settings and deadlines, the timekeeper
lease, records and ratings. Nothing here imports `discord` (tests/project/test_layout.py)."""
