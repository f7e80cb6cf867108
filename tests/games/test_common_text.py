"""The shared text helpers: lists of names, exact quotes of input, counts."""

from games.common import counted, join_and, quoted, unreadable


def test_names_are_listed_with_commas_and_one_and():
    assert join_and([]) == ""
    assert join_and(["bob"]) == "bob"
    assert join_and(["bob", "carol"]) == "bob and carol"
    assert join_and(["bob", "carol", "alice"]) == "bob, carol and alice"
    assert join_and([1, 2, 3], "or") == "1, 2 or 3"


def test_input_is_quoted_exactly():
    assert quoted("1!") == "`1!`"
    assert quoted("it's \\ \"x\"") == "`it's \\ \"x\"`"  # no repr escapes or re-quoting
    assert quoted("d`9") == "`` d`9 ``"
    assert quoted("x" * 100) == "`" + "x" * 39 + "…`"


def test_unreadable_characters_keep_the_typed_order():
    assert unreadable("1!", str.isalpha) == "1!"
    assert unreadable("A b!9", str.isalpha) == "!9"


def test_counts():
    assert counted(1, "tile") == "1 tile" and counted(0, "tile") == "0 tiles"
    assert counted(2, "more match", "more matches") == "2 more matches"
