"""Patchwork's engine, data, moves, computer player and rules."""
