"""One converter between engine values and plain JSON data, built on cattrs.

Engine values are frozen dataclasses; cattrs derives how to save and load them from their type
hints (tuples become lists, nested values dicts), so no value hand-writes `to_dict`/`from_dict`.
A key missing from older saved data takes the field's default. Two compact shapes that earlier
versions saved are declared on the class itself: `@as_row` and `@unwrapped`; and a field added
later is kept out of the saved data while it holds its default (`@omitted_while_default`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any, Self, TypeVar, get_type_hints

import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

# Tuples of every kind are saved as lists, the shape JSON gives back.
CONVERTER = cattrs.Converter(unstruct_collection_overrides={tuple: list})
# Free-form data (`Outcome.details`) is copied, so a loaded value shares nothing with its source.
CONVERTER.register_structure_hook(Any, lambda data, _: copy.deepcopy(data))

C = TypeVar("C", bound=type)


class Serial:
    """A saved engine value: `value.to_dict()` and `Class.from_dict(data)` through CONVERTER."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return CONVERTER.unstructure(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return CONVERTER.structure(data, cls)


@cache
def _hints(cls: type) -> dict[str, Any]:
    """Field types, resolved on first use (annotations are strings under PEP 563)."""
    return get_type_hints(cls)


def as_row(cls: C) -> C:
    """Save a value as the list of its fields in order: a placed patch is `[3, "90", "c4"]`."""
    names = [f.name for f in fields(cls)]

    def save(value: Any) -> list[Any]:
        return [CONVERTER.unstructure(getattr(value, name)) for name in names]

    def load(data: list[Any], _: type) -> Any:
        hints = _hints(cls)
        return cls(*(CONVERTER.structure(item, hints[name])
                     for item, name in zip(data, names, strict=True)))

    CONVERTER.register_unstructure_hook(cls, save)
    CONVERTER.register_structure_hook(cls, load)
    return cls


def unwrapped(cls: C) -> C:
    """Save a one-field value as that field alone: a Scrabble board is its list of rows."""
    (name,) = (f.name for f in fields(cls))
    CONVERTER.register_unstructure_hook(cls, lambda value: CONVERTER.unstructure(
        getattr(value, name)))
    CONVERTER.register_structure_hook(cls, lambda data, _: cls(CONVERTER.structure(
        data, _hints(cls)[name])))
    return cls


def omitted_while_default(*names: str) -> Callable[[C], C]:
    """Save a value without the fields `names` while they hold their defaults: an option
    added later leaves the data of the values that do not use it as it was before."""
    overrides: dict[str, Any] = {name: override(omit_if_default=True) for name in names}

    def register(cls: C) -> C:
        CONVERTER.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, CONVERTER,
                                                                          **overrides))
        return cls
    return register
