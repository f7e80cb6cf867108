"""Check request bodies against Discord's published OpenAPI 3.1 document.

The fake Discord calls :func:`check_request` for every request the bot sends. A route is matched
by the document's own paths and methods; the body is validated with ``jsonschema`` against that
operation's request body schema (JSON Schema 2020-12), then against :func:`limits_beyond_schema`,
the rules Discord enforces that the document cannot express. Problems come back in Discord's
"Invalid Form Body" shape (:func:`form_errors`), so the fake can refuse the request as Discord
would.

The document is ``tests/fakediscord/data/discord-openapi.json.gz`` (see the README there).
Where it is wrong (refuses what Discord accepts) it is corrected in :data:`SCHEMA_OVERRIDES`, one
documented entry per fault; ``tests/fake/test_discord_schema.py`` shows each fault with its
reason.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT = Path(__file__).parent / "data" / "discord-openapi.json.gz"
_BASE_URI = "urn:discord-openapi"

# Where the document refuses what Discord accepts. Each entry: schema name -> (replacement, why).
SCHEMA_OVERRIDES: dict[str, tuple[dict, str]] = {
    "SnowflakeType": (
        {"oneOf": [{"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
                   {"type": "integer", "minimum": 0}]},
        "Discord reads ids sent as JSON integers as well as strings. discord.py sends every "
        "upload's attachment id as the integer index of its file part (attachments: [{id: 0}]), "
        "the documented way to describe uploads; the document types every snowflake as a string "
        "only.",
    ),
}

# A bit of a message's `flags`.
IS_COMPONENTS_V2 = 1 << 15

_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH", "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH", "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED", "type": "BASE_TYPE_BAD_TYPE",
    "maximum": "NUMBER_TYPE_MAX", "minimum": "NUMBER_TYPE_MIN", "enum": "BASE_TYPE_CHOICES",
}


@dataclass(frozen=True)
class Problem:
    """One reason Discord would refuse a body: where in the body, a code, a message."""

    where: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.where)) or '<body>'}: {self.message}"


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per operation
class Operation:
    """One (path, method) of the document and its request body schema, if any."""

    template: str
    method: str
    regex: re.Pattern
    validator: Any
    required: bool

    @property
    def name(self) -> str:
        return f"{self.method} {self.template}"


def load_document() -> dict:
    """The document with :data:`SCHEMA_OVERRIDES` applied."""
    doc = json.loads(gzip.decompress(DOCUMENT.read_bytes()))
    for name, (schema, _why) in SCHEMA_OVERRIDES.items():
        doc["components"]["schemas"][name] = schema
    return doc


def _for_speed(doc: dict) -> dict:
    """The same rules, cheaper to check: a ``oneOf`` whose branches no value can match twice
    becomes an ``anyOf``, which accepts the same values and stops at the first match; a union of
    objects told apart by a ``type`` tag records the tags (:data:`TAGS`) so :func:`_any_of` tries
    the right branch first. (The README says every union means "only one type from the list".)
    """
    schemas = doc["components"]["schemas"]

    def resolve(branch: dict) -> dict:
        while set(branch) == {"$ref"}:
            branch = schemas[branch["$ref"].rpartition("/")[2]]
        return branch

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: walk(v) for k, v in node.items()}
        if "oneOf" in out and _disjoint([_kinds(resolve(b), resolve) for b in out["oneOf"]]):
            out["anyOf"] = out.pop("oneOf")
        branches = out.get("anyOf") or []
        tags = {str(t): i for i, b in enumerate(branches) for t in _tags(resolve(b))}
        if tags:
            out[TAGS] = tags
        return out

    return walk(doc)


def _tags(schema: dict) -> list:
    tag = (schema.get("properties") or {}).get("type") or {}
    return tag.get("enum") or ([tag["const"]] if "const" in tag else [])


def _kinds(schema: dict, resolve: Callable[[dict], dict]) -> set[tuple] | None:
    """What values a branch can match, as (JSON type, tag or const or "*"); None if unknown."""
    if "const" in schema:
        value = schema["const"]
        return {(_json_type(value), json.dumps(value))}
    union = schema.get("oneOf") or schema.get("anyOf")
    if union and "type" not in schema:
        parts = [_kinds(resolve(b), resolve) for b in union]
        return None if any(p is None for p in parts) else set().union(*parts)
    types = schema.get("type")
    if types is None:
        return None
    out = set()
    for t in [types] if isinstance(types, str) else types:
        t = "number" if t == "integer" else t
        tags = _tags(schema) if t == "object" else []
        out |= {(t, json.dumps(tag)) for tag in tags} or {(t, "*")}
    return out


def _json_type(value: Any) -> str:
    return {bool: "boolean", str: "string", type(None): "null", dict: "object",
            list: "array"}.get(type(value), "number")


def _disjoint(branches: list[set[tuple] | None]) -> bool:
    """No value matches two branches (judged by JSON type and tag or const)."""
    if any(b is None for b in branches):
        return False
    seen: list[tuple] = []
    for kinds in branches:
        for kind, mark in kinds:  # type: ignore[union-attr]
            if any(k == kind and "*" in (m, mark) or (k, m) == (kind, mark) for k, m in seen):
                return False
        seen += kinds  # type: ignore[arg-type]
    return True


TAGS = "x-gamenight-branch-by-type"
_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]


def _any_of(validator: Any, branches: list, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """``anyOf`` that first tries the branch named by the instance's ``type`` tag."""
    tags = schema.get(TAGS)
    if tags and isinstance(instance, dict):
        first = tags.get(str(instance.get("type")))
        if first is not None and validator.evolve(schema=branches[first]).is_valid(instance):
            return
    yield from _ANY_OF(validator, branches, instance, schema)


_REF = Draft202012Validator.VALIDATORS["$ref"]
_ACCEPTED: set[tuple[str, str]] = set()  # (reference, value as JSON) that passed


def _ref(validator: Any, ref: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """``$ref`` that remembers the values a referenced schema accepted: the bot's requests
    repeat most of their parts (buttons, footers, attachments) with only some text changed."""
    key = (ref, json.dumps(instance, sort_keys=True))
    if key in _ACCEPTED:
        return
    accepted = True
    for error in _REF(validator, ref, instance, schema):
        accepted = False
        yield error
    if accepted:
        if len(_ACCEPTED) > 100_000:
            _ACCEPTED.clear()
        _ACCEPTED.add(key)


_Validator = validators.extend(Draft202012Validator, {"anyOf": _any_of, "$ref": _ref})


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def _operation(doc: dict, registry: Registry, template: str, method: str, op: dict) -> Operation:
    literal = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
    body = op.get("requestBody") or {}
    validator = None
    if "application/json" in body.get("content", {}):
        ref = _pointer("paths", template, method, "requestBody", "content", "application/json", "schema")
        validator = _Validator({"$ref": _BASE_URI + ref}, registry=registry)
    return Operation(template, method.upper(), re.compile(literal + "$"), validator,
                     bool(body.get("required")))


@cache
def operations() -> tuple[Operation, ...]:
    """Every operation of the document, compiled once per process; concrete paths first."""
    doc = _for_speed(load_document())
    registry = Registry().with_resource(_BASE_URI, Resource(doc, DRAFT202012))
    ops = [
        _operation(doc, registry, template, method, op)
        for template, item in doc["paths"].items()
        for method, op in item.items() if method != "parameters"
    ]
    # OpenAPI: concrete paths match before templated ones (/messages/@original before /{id}).
    return tuple(sorted(ops, key=lambda o: o.template.count("{")))


@lru_cache(maxsize=4096)
def find_operation(method: str, path: str) -> Operation | None:
    """The document's operation for ``method path`` (path after ``/api/v10``, no query);
    remembered, as the bot sends to the same channels and messages again and again."""
    for op in operations():
        if op.method == method and op.regex.match(path):
            return op
    return None


def check_request(method: str, path: str, body: Any) -> list[Problem]:
    """Why Discord would refuse this request; empty when it would accept it."""
    op = find_operation(method, path)
    if op is None:
        return [Problem((), "UNKNOWN_ROUTE", f"Discord's API has no {method} {path}")]
    if body is None:
        return [Problem((), "BASE_TYPE_REQUIRED", "This request needs a body.")] if op.required else []
    if op.validator is None:
        return [Problem((), "NO_BODY", f"{op.name} takes no JSON body")]
    return list(_check_body(op, json.dumps(body, sort_keys=True)))


@lru_cache(maxsize=8192)
def _check_body(op: Operation, text: str) -> tuple[Problem, ...]:
    """Cached by the body's text: the suite sends the same bodies again and again."""
    body = json.loads(text)
    problems = [p for e in op.validator.iter_errors(body) for p in _problems(e)]
    return tuple(problems or limits_beyond_schema(op, body))


def _problems(error: ValidationError) -> list[Problem]:
    """The problems under ``error``; for a union, those of the branch the body meant."""
    if not error.context:
        return [Problem(tuple(error.absolute_path), _CODES.get(str(error.validator), "INVALID"),
                        _message(error))]
    branches: dict[Any, list[ValidationError]] = {}
    for e in error.context:
        branches.setdefault(e.relative_schema_path[0], []).append(e)
    meant = [errs for errs in branches.values() if not any(_wrong_kind(e) for e in errs)]
    if not meant:  # no branch of the right kind: say so once
        return [Problem(tuple(error.absolute_path), "UNION_TYPE_CHOICES", _message(best_match(error.context)))]
    return [p for e in min(meant, key=len) for p in _problems(e)]


def _wrong_kind(e: ValidationError) -> bool:
    """A union branch for another kind of value: another JSON type, or another `type` tag."""
    if not e.relative_path:
        return e.validator == "type"
    return list(e.relative_path) == ["type"] and e.validator in ("enum", "const")


def _message(error: ValidationError) -> str:
    value, kind = error.validator_value, error.validator
    if kind in ("maxLength", "maxItems"):
        return f"Must be {value} or fewer in length."
    if kind in ("minLength", "minItems"):
        return f"Must be {value} or more in length."
    text = error.message
    return text if len(text) <= 200 else text[:197] + "..."


def form_errors(problems: list[Problem]) -> dict:
    """Discord's nested ``errors`` object of a 50035 Invalid Form Body answer."""
    out: dict = {}
    for p in problems:
        node = out
        for key in p.where:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return out


# ---------------------------------------------------------------------------------------------
# Limits Discord enforces that the document does not express
# ---------------------------------------------------------------------------------------------

CONTENT_MAX = 2000  # the document allows 4000, the limit for Nitro users; bots get 2000
EMBEDS_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
MODAL_ROWS_MAX = 5
COMMAND_TOTAL_MAX = 4000
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def limits_beyond_schema(op: Operation, body: Any) -> list[Problem]:
    """Rules Discord applies to bodies that already match the operation's schema."""
    checks: list[tuple[tuple, Any, Callable[[Any], Iterator[tuple[tuple, str]]]]] = []
    if op.template.endswith("/callback"):
        kind = body.get("type")
        if kind in (4, 7) and body.get("data"):
            checks.append((("data",), body["data"], _message_rules))
        elif kind == 9:
            checks.append((("data",), body["data"], _modal_rules))
    elif op.template.endswith("/commands") and op.method == "PUT":
        checks += [((i,), c, _command_rules) for i, c in enumerate(body or [])]
    elif re.search(r"/commands(/\{command_id\})?$", op.template):
        checks.append(((), body, _command_rules))
    elif "/messages" in op.template or op.template.startswith("/webhooks/"):
        checks.append(((), body, _message_rules))
    return [Problem(where + sub, "DISCORD_LIMIT", text)
            for where, part, rule in checks for sub, text in rule(part)]


def _message_rules(msg: dict) -> Iterator[tuple[tuple, str]]:
    content = msg.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        yield ("content",), f"Must be {CONTENT_MAX} or fewer in length."
    if _embeds_length(msg.get("embeds") or []) > EMBEDS_TOTAL_MAX:
        yield ("embeds",), f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}"
    components = msg.get("components") or []
    if not (msg.get("flags") or 0) & IS_COMPONENTS_V2:
        yield from _action_rows(components)
    yield from _unique_custom_ids(components)
    for where, c in _walk(components, ("components",)):
        yield from _component_rules(where, c)


def _embeds_length(embeds: list[dict]) -> int:
    total = 0
    for e in embeds:
        total += len(e.get("title") or "") + len(e.get("description") or "")
        total += len((e.get("footer") or {}).get("text") or "")
        total += len((e.get("author") or {}).get("name") or "")
        total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in e.get("fields") or [])
    return total


def _action_rows(components: list[dict]) -> Iterator[tuple[tuple, str]]:
    if len(components) > ACTION_ROWS_MAX:
        yield ("components",), f"Must be {ACTION_ROWS_MAX} or fewer in length."
    for i, row in enumerate(components):
        if row.get("type") != 1:
            yield ("components", i), "Without the components v2 flag a message holds only action rows."
            continue
        kinds = [c.get("type") for c in row.get("components") or []]
        if any(k != 2 for k in kinds) and len(kinds) > 1:
            yield ("components", i, "components"), "An action row holds up to 5 buttons or one select menu."


def _walk(components: list[dict], where: tuple) -> Iterator[tuple[tuple, dict]]:
    for i, c in enumerate(components):
        yield where + (i,), c
        for key in ("components", "accessory", "component"):
            kids = c.get(key)
            if isinstance(kids, dict):
                kids = [kids]
            if isinstance(kids, list):
                yield from _walk(kids, where + (i, key))


def _unique_custom_ids(components: list[dict]) -> Iterator[tuple[tuple, str]]:
    seen: set[str] = set()
    for where, c in _walk(components, ("components",)):
        cid = c.get("custom_id")
        if cid is not None and cid in seen:
            yield where + ("custom_id",), f"Component custom id {cid!r} is used more than once."
        seen.add(cid)


def _component_rules(where: tuple, c: dict) -> Iterator[tuple[tuple, str]]:
    if c.get("type") == 2:
        link = c.get("style") == 5
        if link != bool(c.get("url")) or (not link and c.get("style") != 6 and not c.get("custom_id")):
            yield where, "A link button needs a url and no custom_id; other buttons need a custom_id."
        if not (c.get("label") or c.get("emoji")):
            yield where, "A button needs a label or an emoji."
    if c.get("type") == 3:
        options = c.get("options") or []
        low, high = c.get("min_values", 1), c.get("max_values", 1)
        if low is not None and high is not None and low > high or (high or 1) > len(options):
            yield where, "min_values <= max_values <= the number of options."
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            yield where + ("options",), "Select option values must be unique."
        if sum(bool(o.get("default")) for o in options) > (high or 1):
            yield where + ("options",), "More options marked default than max_values."


def _modal_rules(modal: dict) -> Iterator[tuple[tuple, str]]:
    components = modal.get("components") or []
    if len(components) > MODAL_ROWS_MAX:
        yield ("components",), f"Must be {MODAL_ROWS_MAX} or fewer in length."
    yield from _unique_custom_ids(components)


def _command_rules(command: dict) -> Iterator[tuple[tuple, str]]:
    chat_input = command.get("type") in (None, 1)
    name = command.get("name")
    if chat_input and name is not None and not (COMMAND_NAME.match(name) and name == name.lower()):
        yield ("name",), f"Command name {name!r} must be 1-32 lower-case letters, digits, - or _."
    if chat_input and "name" in command and not command.get("description"):
        yield ("description",), "A slash command needs a description of 1-100 characters."
    if _command_length(command) > COMMAND_TOTAL_MAX:
        yield (), f"Names, descriptions and choices of a command total over {COMMAND_TOTAL_MAX} characters."
    yield from _localized_rules(command, ())
    yield from _option_rules(command.get("options") or [], ("options",))


def _localized_rules(node: dict, where: tuple) -> Iterator[tuple[tuple, str]]:
    """Each locale's name follows the rules of names; descriptions are 1-100 characters."""
    for locale, name in (node.get("name_localizations") or {}).items():
        if not (COMMAND_NAME.match(name) and name == name.lower()):
            yield where + ("name_localizations", locale), (
                f"Localized name {name!r} must be 1-32 lower-case letters, digits, - or _.")
    for locale, text in (node.get("description_localizations") or {}).items():
        if not 1 <= len(text) <= 100:
            yield where + ("description_localizations", locale), "Descriptions are 1-100 characters."


def _option_rules(options: list[dict], where: tuple) -> Iterator[tuple[tuple, str]]:
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        yield where, f"Option names must be unique: {names}"
    for locale in {loc for o in options for loc in (o.get("name_localizations") or {})}:
        local = [(o.get("name_localizations") or {}).get(locale, o.get("name")) for o in options]
        if len(set(local)) != len(local):
            yield where, f"Option names must be unique in {locale}: {local}"
    optional_seen = False
    for i, o in enumerate(options):
        here = where + (i,)
        name = o.get("name") or ""
        if not (COMMAND_NAME.match(name) and name == name.lower()):
            yield here + ("name",), f"Option name {name!r} must be 1-32 lower-case letters, digits, - or _."
        yield from _localized_rules(o, here)
        if o.get("type") in (1, 2):
            yield from _option_rules(o.get("options") or [], here + ("options",))
            continue
        if o.get("required") and optional_seen:
            yield here + ("required",), "Required options must be placed before non-required options."
        optional_seen = optional_seen or not o.get("required")
        if o.get("autocomplete") and o.get("choices"):
            yield here + ("autocomplete",), "Autocomplete and choices are mutually exclusive."


def _command_length(node: dict) -> int:
    """Discord counts each text at its longest, over the default and every localization."""
    total = _longest(node, "name") + _longest(node, "description")
    total += sum(_longest(c, "name") + len(str(c.get("value", ""))) for c in node.get("choices") or [])
    return total + sum(_command_length(o) for o in node.get("options") or [])


def _longest(node: dict, key: str) -> int:
    texts = [str(node.get(key) or ""), *(node.get(f"{key}_localizations") or {}).values()]
    return max(len(text) for text in texts)
