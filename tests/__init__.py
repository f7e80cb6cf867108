"""The tests, grouped by what they test:

- games/: the pure engines, their computer players and rules (one folder per game), the
  exporters, records' highlights and the shared text and serial helpers
- render/: the pictures and their alt text
- bot/: the bot without Discord, in its rooms (app, matches, storage, ui, commands, adapters)
- e2e/: the real bot through the fake Discord (fakediscord/, driven by e2e_helpers.py)
- fake/: the fake Discord itself, and its check of request bodies
- browser/: pages in a real browser (headless Chromium through Playwright, axe-core's
  accessibility check)
- project/: the code's layout, the README and CI, compose.yaml, the catalogs, and the runs of
  the suites on PostgreSQL and in the pseudo-locale

conftest.py holds what every folder shares; stores.py picks the database (SQLite or PostgreSQL)
and pseudo.py the pseudo-locale check."""
