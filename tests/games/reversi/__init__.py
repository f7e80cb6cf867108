"""Reversi's engine and computer players."""
