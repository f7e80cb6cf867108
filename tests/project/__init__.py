"""Checks of the project as a whole: the code's layout, the README and CI, compose.yaml, the
catalogs, and the fake-Discord suites once more on PostgreSQL and in the pseudo-locale."""
