"""Tests of the fake Discord itself (tests/fakediscord/): what it models, its rate limits and
its check of request bodies against Discord's OpenAPI document."""
