"""The process: the `gamenight` command, its settings, the discord.py client that wires the
rooms together, and the metrics it exports."""
