"""`/gamenight help` stays within Discord's embed limits in every language, however long a
game's words grow in translation."""

from types import SimpleNamespace

from bot.commands.match import EMBED_TOTAL, FIELD_VALUE, help_embeds, split_field
from i18n import LANGUAGES, voice


def presenter(size: int) -> SimpleNamespace:
    summary = " ".join(["word"] * (size // 5))
    return SimpleNamespace(help=SimpleNamespace(
        title="Game", players="2 players", summary=summary,
        commands=tuple((f"/game cmd{i}", "does a thing " * 8) for i in range(8))))


def test_long_help_is_split_into_fields_and_embeds_discord_accepts():
    for lang in LANGUAGES:
        embeds = help_embeds(voice(lang), [presenter(1500) for _ in range(6)])
        assert len(embeds) > 1
        for embed in embeds:
            assert len(embed) <= EMBED_TOTAL and len(embed.fields) <= 25
            assert all(0 < len(field.value) <= FIELD_VALUE and field.name
                       for field in embed.fields)
        values = "\n".join(field.value for embed in embeds for field in embed.fields)
        assert "/gamenight language" in values and values.count("/game cmd7") == 6


def test_a_field_is_cut_between_lines_when_it_can_be():
    parts = split_field("Name", "\n".join(["x" * 600] * 3))
    assert [len(value) for _, value in parts] == [600, 600, 600]
    assert [name for name, _ in parts] == ["Name", "\u200b", "\u200b"]
    assert split_field("Name", "y" * 2500) == [("Name", "y" * 1024), ("\u200b", "y" * 1024),
                                                ("\u200b", "y" * 452)]
