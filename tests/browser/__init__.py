"""Tests in a real browser: headless Chromium driven by Playwright, with axe-core's
accessibility check (harness.py, conftest.py)."""
