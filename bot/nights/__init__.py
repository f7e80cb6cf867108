"""Game nights without Discord: pure, seeded pairing (Swiss, round robin, tables of three or
four) and standings recomputed from a night's results, so every round can be explained and
recomputed from what is stored."""
