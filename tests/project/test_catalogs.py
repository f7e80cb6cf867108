"""The catalogs: complete, matching the code, with the same placeholders as the English, valid
command names for Discord, and every character drawable with the shipped fonts."""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import BABEL_LOCALES, CATALOG_NAMES, DOMAIN, _, n_, p_, po_path, voice
from i18n.extract import COMMAND_NAME, TEMPLATE, template
from render.fonts import runs

LANGS = tuple(CATALOG_NAMES)


def catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as po:
        return read_po(po, locale=BABEL_LOCALES[lang], domain=DOMAIN)


def keys(messages) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in messages if m.id}


def forms(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def fields(text: str) -> Counter:
    """The `{names}` a message fills in (str.format's view of it)."""
    return Counter(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {lang: catalog(lang) for lang in LANGS}


def test_the_catalogs_hold_exactly_the_messages_of_the_code(catalogs):
    made = keys(template())
    with TEMPLATE.open("rb") as pot:
        saved = keys(read_po(pot))
    assert not made - saved, f"run `python -m i18n.extract`: new messages {sorted(made - saved)[:10]}"
    assert not saved - made, f"run `python -m i18n.extract`: gone {sorted(saved - made)[:10]}"
    for lang, found in catalogs.items():
        assert keys(found) == saved, lang


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(catalogs, lang):
    untranslated = [m.id for m in catalogs[lang] if m.id and (m.fuzzy or not all(forms(m)))]
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_fill_in_the_same_values(catalogs, lang):
    for message in catalogs[lang]:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(fields(i) for i in ids))
        for form in forms(message):
            have = set(fields(form))
            assert have <= wanted, (lang, message.id, have - wanted)
            assert wanted - {"n"} <= have, (lang, message.id, wanted - have)


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_are_the_languages_own(catalogs, lang):
    expected = {"zh-TW": 1, "zh-CN": 1, "gu": 2}[lang]
    assert catalogs[lang].num_plurals == expected
    for message in catalogs[lang]:
        if message.pluralizable:
            assert len(forms(message)) == expected, (lang, message.id)


NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN"])  # Discord's locales among ours
def test_command_names_are_valid_slash_command_names(catalogs, lang):
    for message in catalogs[lang]:
        if message.context != COMMAND_NAME:
            continue
        name = message.string
        assert NAME.match(name) and name == name.lower(), (lang, message.id, name)
        assert all(unicodedata.category(c)[0] in "LN" or c in "-_" for c in name), (lang, name)


def test_a_voice_words_counts_lists_and_values_in_each_language():
    for lang in ("en", *LANGS):
        said = voice(lang)(n_("{n} tile", "{n} tiles", 3))
        assert "3" in said
    english = voice("en")
    assert english(n_("{n} tile", "{n} tiles", 1)) == "1 tile"
    assert english(n_("{n} tile", "{n} tiles", 2)) == "2 tiles"
    assert english(_("Hello {name}", name="**alice**")) == "Hello **alice**"
    assert voice("pseudo")(_("Hello {name}", name=_("world"))) == "⟦Hello ⟦world⟧⟧"


def test_one_english_text_in_two_places_may_read_differently():
    """Dou Dizhu's Pass is 不叫 in the auction and 不要 in a trick."""
    chinese = voice("zh-TW")
    assert chinese(p_("auction", "Pass")) == "不叫"
    assert chinese(_("Pass")) == "不要"
    assert voice("en")(p_("auction", "Pass")) == "Pass"


NAMES = ("王小明", "陳大文", "李四", "ક્ષિતિજ શ્રી", "પ્રિયા", "alice", "Zoë", "Дмитрий", "さくら", "민수")


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_every_message_and_name_can_be_drawn_with_the_shipped_fonts(catalogs, lang):
    """No character of a message or of a name in any script falls to the missing-glyph mark
    (emoji may: Discord shows them, and an image draws them as a plain mark)."""
    messages = catalogs.get(lang) or catalogs["zh-TW"]
    texts = [form for m in messages if m.id for form in (forms(m) if lang != "en" else
                                                         [m.id] if isinstance(m.id, str) else m.id)]
    lost: set[str] = set()
    for text in (*texts, *NAMES):
        drawn = "".join(part for part, _face in runs(text, 20))
        lost.update(c for c, d in zip(text, drawn, strict=True)
                    if c != d and not is_emoji(c))
    assert not lost, (lang, sorted(lost)[:20])


def is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or 0xFE00 <= ord(char) <= 0xFE0F
