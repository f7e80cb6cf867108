"""The Discord side shared by every game: posting boards and replies, DMs, lobby cards,
threads, permissions, turn clocks and computer turns on Discord, error replies, records,
exports and replays as Discord shows them."""
