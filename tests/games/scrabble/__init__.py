"""Scrabble's engine, scoring, validation, move generator, analysis, computer players and
rules."""
