"""Tests of the bot without Discord, a folder per room of bot/."""
