"""Gamenight's Discord adapter and the transport-agnostic match service beneath it."""
