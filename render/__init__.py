"""Pillow renderers: a view in, PNG bytes out. No Discord."""
