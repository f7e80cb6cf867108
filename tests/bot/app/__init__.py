"""The settings, the metrics and discord.py's rate-limit buckets (bot/app/)."""
