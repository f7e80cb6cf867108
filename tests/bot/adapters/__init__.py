"""Each game's adapter words the engine in every language (bot/adapters/<game>/)."""
