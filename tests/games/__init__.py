"""Tests of the pure engines in games/: rules, notation, computer players and random playouts
(a folder per game), the exporters, each game's highlights, and the helpers every engine
shares."""
