"""Tests of the renderers in render/: valid pictures of every game, readable on a phone, in
every language and script, the alt text and the replays."""
