"""Query parameters read as Discord reads them, or refused with its 400 50035."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.errors import form_error


def query_flag(query: Any, name: str) -> bool:
    """A boolean query parameter as Discord reads it (``true``/``1``)."""
    return str(query.get(name, "")).lower() in ("1", "true")


def query_limit(query: Any, default: int, most: int) -> int:
    raw = query.get("limit")
    if raw is None:
        return default
    try:
        limit = int(raw)
    except ValueError:
        raise form_error("limit", "NUMBER_TYPE_COERCE", f"Value \"{raw}\" is not int.") from None
    if limit < 1:
        raise form_error("limit", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 1.")
    if limit > most:
        raise form_error("limit", "NUMBER_TYPE_MAX", f"int value should be less than or equal to {most}.")
    return limit


def query_snowflake(query: Any, name: str) -> int | None:
    raw = query.get(name)
    if raw is None:
        return None
    if not str(raw).isdigit():
        raise form_error(name, "NUMBER_TYPE_COERCE", f"Value \"{raw}\" is not snowflake.")
    return int(raw)
