"""A word list as a minimal DAWG (directed acyclic word graph), for the move generator.

A node is a dict from letter to child node, children in alphabetical order, with `end` set
when the letters leading to it spell a word. Equal subtrees are shared, so ENABLE's 172,820
words take about 55,000 nodes instead of the 390,000 of a plain trie. Walking the graph letter
by letter is a dict lookup per letter, which is what a generator in pure Python needs.

Building it (Daciuk et al.'s incremental algorithm over sorted words) takes seconds for a big
list, so the packaged word list ships with its graph prebuilt (`data/enable.dawg.gz`, made by
`python -m games.scrabble.dawg`); lists an operator supplies are built on first use.

The file is text: a line with the node count, then one line per node, each after its children
(the root last): `1` or `0` (ends a word), its letters, then its children's numbers (0 = the
first node line).
"""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Iterable, Iterator
from typing import IO


class Node(dict[str, "Node"]):
    """Letter -> child. `end` (a class attribute, so loading sets no per-node field) says
    whether the letters leading here spell a word: nodes that do are `End` nodes. `depth` is
    the most letters that can follow in a word (0 where none can): a search for the best
    plays knows from it how many more tiles a word can take."""

    __slots__ = ("depth",)
    end = False
    depth: int


class End(Node):
    __slots__ = ()
    end = True


def build(words: Iterable[str]) -> Node:
    """The minimal DAWG of `words` (upper-case)."""
    root = Node()
    register: dict[tuple[object, ...], Node] = {}
    unchecked: list[tuple[Node, str, Node]] = []  # the last word's path not yet minimised
    previous = ""

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            key = (child.end, *((k, id(v)) for k, v in child.items()))
            kept = register.setdefault(key, child)
            if kept is not child:
                parent[letter] = kept

    for word in sorted(set(words)):
        common = 0
        for a, b in zip(word, previous):
            if a != b:
                break
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for i in range(common, len(word)):
            child = End() if i == len(word) - 1 else Node()
            node[word[i]] = child
            unchecked.append((node, word[i], child))
            node = child
        previous = word
    minimise(0)
    for node in nodes(root):  # children first
        node.depth = 1 + max([child.depth for child in node.values()]) if node else 0
    return root


def nodes(root: Node) -> list[Node]:
    """Every node once, each after all its children (so the root comes last)."""
    done: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if expanded:
            done[id(node)] = node
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.values()))
    return list(done.values())


def words(root: Node, prefix: str = "") -> Iterator[str]:
    """Every word in the graph, in alphabetical order."""
    if root.end:
        yield prefix
    for letter, child in root.items():
        yield from words(child, prefix + letter)


def walk(node: Node | None, letters: str) -> Node | None:
    """The node reached from `node` by `letters`, or None."""
    for letter in letters:
        if node is None:
            return None
        node = node.get(letter)
    return node


def dump(root: Node, handle: IO[str]) -> None:
    everything = nodes(root)
    number = {id(node): i for i, node in enumerate(everything)}
    handle.write(f"{len(everything)}\n")
    for node in everything:
        kids = " ".join(str(number[id(child)]) for child in node.values())
        handle.write(f"{int(node.end)}{''.join(node)} {kids}".rstrip() + "\n")


def load(text: str) -> Node:
    """Read `dump`'s text. Children come before parents, so each node is made whole at once."""
    count, *lines = text.splitlines()
    table: list[Node] = []
    add, get = table.append, table.__getitem__
    for line in lines:
        head, _, kids = line.partition(" ")
        kind = End if head[0] == "1" else Node
        children = list(map(get, map(int, kids.split())))
        node = kind(zip(head[1:], children))
        node.depth = 1 + max([child.depth for child in children]) if children else 0
        add(node)
    if len(table) != int(count):
        raise ValueError(f"a DAWG file of {count} nodes holds {len(table)}")
    return table[-1]


def main() -> None:
    """Rebuild the packaged graph: python -m games.scrabble.dawg [words.txt.gz [out.dawg.gz]]."""
    from importlib import resources

    data = resources.files(__package__).joinpath("data")
    source = sys.argv[1] if len(sys.argv) > 1 else str(data.joinpath("enable.txt.gz"))
    target = sys.argv[2] if len(sys.argv) > 2 else str(data.joinpath("enable.dawg.gz"))
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        listed = [w.strip().upper() for w in handle.read().split() if w.strip().isalpha()]
    root = build(listed)
    # mtime=0: the same list gives the same bytes, so the file only changes when the list does
    with open(target, "wb") as raw, gzip.GzipFile(
        fileobj=raw, mode="wb", compresslevel=9, mtime=0
    ) as packed, io.TextIOWrapper(packed, encoding="ascii", newline="\n") as text:
        dump(root, text)
    print(f"{target}: {len(nodes(root))} nodes for {len(listed)} words")


if __name__ == "__main__":
    main()
