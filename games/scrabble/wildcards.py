"""Blanks searched as wildcards, when the move generator (movegen.py) keeps one choice of
letters for a placement's blanks (`one_blank_choice`, what computer players need).

A generator that tries each letter for a blank searches the rest of the word 26 times over,
676 times with two blanks, only to keep one of the words that put the same tiles on the same
squares (a blank scores 0 whatever it stands for). Here a placed blank is one step: a `Wild`
holds every DAWG node the word so far can have reached, whatever its blanks stand for, and the
search reads it as it reads a node. Each node keeps the letters that lead to it first in
alphabetical order, the choice a person would list first; what can follow depends on the node
alone, so the other choices would only give the same placements again. The next `Wild` for a
letter is made when first asked for and kept, so a search makes each once however many
anchors and lines reach it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .dawg import Node
from .tiles import BLANK, LETTERS

_LOWER = {letter: letter.lower() for letter in LETTERS}

# DAWG nodes, each with the first letters its blanks can stand for to get there (lower case, a
# letter a blank), in alphabetical order of those letters
Members = list[tuple[Node, str]]


class Wild:
    """Several DAWG nodes searched as one; read through `get`, `items`, `in`, `end` and
    `depth` like a node."""

    __slots__ = ("members", "usable", "end", "depth", "letters", "next", "filled")

    def __init__(self, members: Members, usable: tuple[str, ...]) -> None:
        self.members = members
        self.usable = usable  # the rack's letters: those `items` gives
        end, depth = False, 0
        for node, _ in members:
            end = end or node.end
            depth = max(depth, node.depth)
        self.end, self.depth = end, depth
        self.letters: frozenset[str] | None = None  # the letters that can follow, when needed
        self.next: dict[str, Wild] = {}
        self.filled = False

    def following(self) -> frozenset[str]:
        """The letters that can follow."""
        if self.letters is None:
            self.letters = frozenset().union(*[node.keys() for node, _ in self.members])
        return self.letters

    def __contains__(self, letter: str) -> bool:
        return letter in (self.letters or self.following())

    def get(self, letter: str) -> Wild | None:
        child = self.next.get(letter)
        if child is None and letter in (self.letters or self.following()):
            child = self.next[letter] = self._after(letter)
        return child

    def _after(self, letter: str) -> Wild:
        return Wild(_first([(after, choice) for node, choice in self.members
                            if (after := node.get(letter)) is not None]), self.usable)

    def items(self) -> Iterable[tuple[str, Wild]]:
        """The next ones for (at least) every letter of the rack that can follow."""
        following = self.next
        if not self.filled:
            self.filled = True
            letters = self.letters or self.following()
            for letter in self.usable:
                if letter in letters and letter not in following:
                    following[letter] = self._after(letter)
        return following.items()

    def nodes(self) -> list[Node]:
        return [node for node, _ in self.members]

    def word(self, word: str) -> str:
        """`word` (BLANK where blanks were placed, ending here) with the first letters they
        can stand for."""
        return _written(word, next(choice for node, choice in self.members if node.end))

    def written(self, word: str) -> str:
        """`word` with the letters of the first node (the only one, when it is read so)."""
        return _written(word, self.members[0][1])


def _written(word: str, choice: str) -> str:
    pieces = word.split(BLANK)
    written = pieces[0]
    for letter, piece in zip(choice, pieces[1:]):
        written += letter + piece
    return written


# a DAWG node, or a `Wild` standing for several
Step = Node | Wild


def _first(members: Members) -> Members:
    """One entry per node, its first (members come in the order of their letters)."""
    if len(members) < 2:
        return members
    first: dict[int, tuple[Node, str]] = {}
    for member in members:
        first.setdefault(id(member[0]), member)
    return list(first.values())


class Blanks:
    """For one search: the `Wild` after a blank standing for a letter in `allowed` (any if
    None), made once per node and cross-check."""

    def __init__(self, rack: str) -> None:
        self.usable = tuple(sorted(set(rack) - {BLANK}))
        self.made: dict[tuple[int, frozenset[str] | None], Wild | None] = {}

    def after(self, node: Step, allowed: frozenset[str] | None) -> Wild | None:
        key = (id(node), allowed)
        if key not in self.made:
            lower = _LOWER
            members = node.members if isinstance(node, Wild) else [(node, "")]
            out: Members = [
                (child, choice + lower[letter])
                for member, choice in members
                for letter, child in member.items()
                if allowed is None or letter in allowed
            ]
            self.made[key] = Wild(_first(out), self.usable) if out else None
        return self.made[key]
