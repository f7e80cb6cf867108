"""Check the fake's own answers against the responses of Discord's OpenAPI document, as
discord_schema.py checks the bot's requests: a success against the operation's 2xx schema, an
error against Discord's error object (the document's ``4XX``), an empty answer (204) where
the document has no body. Where the document describes an answer wrongly it is corrected in
:data:`RESPONSE_OVERRIDES`, one documented entry per fault."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.fakediscord import discord_schema
from tests.fakediscord.discord_schema import Problem


# Where the document describes Discord's answers wrongly: schema name -> (replacement, why).
RESPONSE_OVERRIDES: dict[str, tuple[dict, str]] = {
    "InnerErrors": (
        {"type": "object", "additionalProperties": False, "required": ["_errors"],
         "properties": {"_errors": {"type": "array", "items": {
             "type": "object", "required": ["code", "message"],
             "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}},
        "The reasons under a field of a 400 50035 (Invalid Form Body) carry a word as their code "
        "(BASE_TYPE_REQUIRED, as in Discord's own example of an error answer); the document "
        "reuses the answer's top-level Error, whose code is an integer, so it would refuse "
        "every Invalid Form Body Discord sends.",
    ),
}


@cache
def _document() -> tuple[dict, Registry]:
    doc = discord_schema.load_document()
    for name, (schema, _why) in RESPONSE_OVERRIDES.items():
        doc["components"]["schemas"][name] = schema
    doc = discord_schema._for_speed(doc)
    return doc, Registry().with_resource(discord_schema._BASE_URI, Resource(doc, DRAFT202012))


@lru_cache(maxsize=512)
def _validator(template: str, method: str, status: str) -> Any:
    """The validator of one answer of one operation; None when the answer has no body."""
    doc, registry = _document()
    response = doc["paths"][template][method]["responses"][status]
    pointer = ("paths", template, method, "responses", status)
    if "$ref" in response:  # the shared error answers
        pointer = tuple(response["$ref"].removeprefix("#/").split("/"))
        response = doc
        for part in pointer:
            response = response[part]
    if "application/json" not in response.get("content", {}):
        return None
    ref = discord_schema._pointer(*pointer, "content", "application/json", "schema")
    return discord_schema._Validator({"$ref": discord_schema._BASE_URI + ref}, registry=registry)


def check_response(method: str, path: str, status: int, body: Any) -> list[Problem]:
    """Why Discord's document says it would never answer ``method path`` so; empty if fine."""
    op = discord_schema.find_operation(method, path)
    if op is None or status >= 500:
        return []  # refused as unknown already; Discord's own failures (fail_next) undocumented
    doc, _ = _document()
    responses = doc["paths"][op.template][op.method.lower()]["responses"]
    key = str(status) if str(status) in responses else f"{str(status)[0]}XX"
    if key not in responses:
        return [Problem((), "UNDOCUMENTED_STATUS", f"{op.name} never answers {status}")]
    validator = _validator(op.template, op.method.lower(), key)
    if validator is None:
        return [] if body is None else [Problem((), "UNEXPECTED_BODY", f"{status} has no body")]
    return [p for e in validator.iter_errors(body) for p in discord_schema._problems(e)]
