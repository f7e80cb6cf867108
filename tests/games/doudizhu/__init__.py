"""Dou Dizhu's engine, combinations, computer players and rules."""
