"""Which pairs a best Swiss round can use, without weighing every pair.

A round's score cost is the sum of its pairs' squared score differences. On a line, no pairing
of some values costs less than pairing them in sorted order, neighbours together (a pair that
spans another value can always be uncrossed at a lower cost). So a pair whose own cost plus the
least cost of pairing everyone else exceeds what a known pairing costs is in no best round:
`near_pairs` lists the others, and the matching searches only those.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class LineBound:
    """The least score cost of pairing `values` (sorted, an even count), and of pairing them
    with two left out, each in constant time."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        # every_other[k]: the gaps k, k - 2, k - 4, ... squared and summed.
        self._every_other: list[int] = []
        for k, (a, b) in enumerate(zip(values, values[1:])):
            self._every_other.append((b - a) ** 2 + (self._every_other[k - 2] if k >= 2 else 0))
        self.lowest = self._run(0, len(values))

    def _run(self, start: int, end: int) -> int:
        """Neighbours in values[start:end] paired from `start` on."""
        if end - start < 2:
            return 0
        last = start + (end - 2 - start) // 2 * 2
        return self._every_other[last] - (self._every_other[start - 2] if start >= 2 else 0)

    def without(self, x: int, y: int) -> int:
        """The least cost with the values at sorted places x < y left out."""
        values, cost, carry = self.values, 0, None
        for start, end in ((0, x), (x + 1, y), (y + 1, len(values))):
            if start >= end:
                continue
            if carry is not None:  # the odd one out of the run before pairs with this one's first
                cost += (values[start] - carry) ** 2
                start, carry = start + 1, None
            cost += self._run(start, end)
            if (end - start) % 2:
                carry = values[end - 1]
        return cost


def near_pairs(units: Sequence[int], order: Sequence[int], forbidden: Callable[[int, int], bool],
               allowed: int) -> list[tuple[int, int]]:
    """The pairs (i, j) of `order` (indices into `units`, sorted by unit) that some pairing of
    everyone in `order` costing at most `allowed` could use, leaving out `forbidden` pairs."""
    values = [units[i] for i in order]
    bound = LineBound(values)
    pairs = []
    for x, i in enumerate(order):
        for y in range(x + 1, len(order)):
            own = (values[y] - values[x]) ** 2
            if own > allowed:
                break  # sorted: every later one is further away
            j = order[y]
            if own + bound.without(x, y) <= allowed and not forbidden(i, j):
                pairs.append((i, j))
    return pairs
