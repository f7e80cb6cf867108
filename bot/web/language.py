"""The page's language: `?lang=` if it names one of ours, else the browser's Accept-Language,
else English."""

from __future__ import annotations

from i18n import ENGLISH, LANGUAGES

TRADITIONAL = ("tw", "hk", "mo", "hant")


def ours(tag: str) -> str | None:
    """One language tag (`zh-Hant-TW`, `gu-IN`, `en`) as one of LANGUAGES, or None."""
    parts = tag.strip().lower().replace("_", "-").split("-")
    if parts[0] == "zh":
        return "zh-TW" if any(part in TRADITIONAL for part in parts[1:]) else "zh-CN"
    if parts[0] in ("en", "gu"):
        return parts[0]
    return None


def accepted(header: str) -> str | None:
    """The best of our languages in an Accept-Language header (`gu, en;q=0.8`), or None."""
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")[:32]):
        tag, _sep, params = item.partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        found = ours(tag)
        if found is not None and weight > 0:
            ranked.append((-weight, index, found))
    return min(ranked)[2] if ranked else None


def page_language(asked: str | None, header: str | None) -> str:
    if asked in LANGUAGES:
        return asked
    return accepted(header or "") or ENGLISH
