"""Gamenight's words in every language it speaks: gettext catalogs read with Babel.

Code marks what it says with `_("...")` (`n_` for a count, `p_` for a text with a context) and gets a `Text`: the message and
its values, not yet worded. A `Voice` words it in one language when it is known who reads it
(bot/ui/language.py picks the voice: the reader's choice, their Discord client, the server).
Values may be Texts, `Listed` items or numbers; the voice words those too.

The catalogs are `i18n/locale/<lang>/LC_MESSAGES/gamenight.po`, made from the code with Babel
(`python -m i18n.extract`). They are compiled in memory when first used, so the `.po` files are
the only copy. No discord here: the renderers word their labels with the same voices.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from pathlib import Path

from babel import Locale
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "gamenight"

ENGLISH = "en"
LANGUAGES: dict[str, str] = {  # code -> the language's name in itself
    "en": "English",
    "zh-TW": "繁體中文",
    "zh-CN": "简体中文",
    "gu": "ગુજરાતી",
}
BABEL_LOCALES = {"en": "en_GB", "zh-TW": "zh_Hant_TW", "zh-CN": "zh_Hans_CN", "gu": "gu"}
CATALOG_NAMES = {"zh-TW": "zh_TW", "zh-CN": "zh_CN", "gu": "gu"}  # folders under locale/
PSEUDO = "pseudo"  # every worded message wrapped in OPEN ... CLOSE (tests find unworded text)
OPEN, CLOSE = "⟦", "⟧"


@dataclass(frozen=True, slots=True)
class Text:
    """A message to word: its English source (the catalog key), values for its `{names}`,
    and for a counted message the plural source and the count (`{n}`)."""

    msgid: str
    values: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None  # tells apart one English text with two meanings

    def __add__(self, other: object) -> Joined:
        return Joined((self, other), "")


@dataclass(frozen=True, slots=True)
class Joined:
    """Texts (or plain values) worded one after the other with `sep` between them."""

    parts: tuple[object, ...]
    sep: str = "\n"

    def __add__(self, other: object) -> Joined:
        return Joined((self, other), "")


@dataclass(frozen=True, slots=True)
class Listed:
    """Items worded as a list: `a, b and c` (`style="or"`: `a, b or c`)."""

    items: tuple[object, ...]
    style: str = "standard"


@dataclass(frozen=True, slots=True)
class Duration:
    """A length of time worded as people say it: 2 minutes, 1 hour, 3 days."""

    seconds: float


Words = Text | Joined | Listed | Duration


def _(msgid: str, /, **values: object) -> Text:
    """A message to word later; the English here is also its key in the catalogs."""
    return Text(msgid, values)


def n_(singular: str, plural: str, n: int, /, **values: object) -> Text:
    """A message that depends on a count `n` (also available as `{n}`)."""
    return Text(singular, {"n": n, **values}, plural, n)


def p_(context: str, msgid: str, /, **values: object) -> Text:
    """`_` for an English text that other languages word differently in different places
    (`p_("auction", "Pass")`: "不叫", where a trick's Pass is "不要")."""
    return Text(msgid, values, context=context)


def lines(parts: Iterable[object], sep: str = "\n") -> Joined:
    return Joined(tuple(parts), sep)


def listed(items: Iterable[object], style: str = "standard") -> Listed:
    return Listed(tuple(items), style)


class Voice:
    """Words Texts in one language. Calling it gives the finished string."""

    def __init__(self, lang: str, translations: gettext.NullTranslations, *,
                 pseudo: bool = False) -> None:
        self.lang = lang
        self.locale = Locale.parse(BABEL_LOCALES[lang])
        self._translations = translations
        self._pseudo = pseudo

    def __repr__(self) -> str:
        return f"Voice({self.lang!r}{', pseudo' if self._pseudo else ''})"

    def __reduce__(self) -> tuple:
        """Sent to another process by its language: there it is that process's own voice."""
        return voice, (PSEUDO if self._pseudo else self.lang,)

    def __call__(self, words: object) -> str:
        if isinstance(words, Text):
            return self._text(words)
        if isinstance(words, Joined):
            return words.sep.join(self(part) for part in words.parts)
        if isinstance(words, Listed):
            style = "or" if words.style == "or" else "standard"
            return format_list([self(item) for item in words.items], style, self.locale)
        if isinstance(words, Duration):
            return format_timedelta(timedelta(seconds=words.seconds), threshold=1.0,
                                    locale=self.locale)
        if isinstance(words, bool) or not isinstance(words, int):
            return "" if words is None else str(words)
        return format_decimal(words, locale=self.locale)

    def _text(self, text: Text) -> str:
        catalog = self._translations
        if text.context is not None:
            template = catalog.pgettext(text.context, text.msgid)
        elif text.plural is None:
            template = catalog.gettext(text.msgid)
        else:
            template = catalog.ngettext(text.msgid, text.plural, text.n or 0)
        worded = template.format_map({k: self(v) for k, v in text.values.items()})
        return f"{OPEN}{worded}{CLOSE}" if self._pseudo else worded

    def number(self, value: float) -> str:
        return format_decimal(value, locale=self.locale)


def voice(lang: str = ENGLISH) -> Voice:
    """The voice of `lang` (a code of LANGUAGES, or PSEUDO: English in markers)."""
    if lang == PSEUDO:
        return _voice(ENGLISH, pseudo=True)
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    return _voice(lang, pseudo=False)


@cache
def _voice(lang: str, *, pseudo: bool) -> Voice:
    return Voice(lang, translations(lang), pseudo=pseudo)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (English: the messages as written)."""
    if lang == ENGLISH:
        return gettext.NullTranslations()
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=BABEL_LOCALES[lang], domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / CATALOG_NAMES[lang] / "LC_MESSAGES" / f"{DOMAIN}.po"


ENGLISH_VOICE = voice()
