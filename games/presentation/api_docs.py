"""The API's reference page, drawn from its OpenAPI schema: each operation with its
parameters, body, answers and their fields, and the shapes they name. A pure function of the
schema, so the page never says other than the schema does."""

from __future__ import annotations

import json
import re

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

CODE = re.compile(r"``?([^`]+)``?")


def text(words: str | None) -> list[SafeString]:
    """A description as paragraphs, its `code` spans as <code>."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", words or "")]
    return [_paragraph(p) for p in paragraphs if p]


def _paragraph(words: str) -> SafeString:
    pieces = CODE.split(words)  # words, code, words, code, ...
    shown = ((format_html("<code>{}</code>", p) if i % 2 else p,) for i, p in enumerate(pieces))
    return format_html_join("", "{}", shown)


def _name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_words(schema: dict) -> str:
    """A field's type as a reader needs it: ``integer``, ``string: one of a, b``, ``Match``."""
    if "$ref" in schema:
        return _name(schema["$ref"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            kinds = [type_words(s) for s in schema[key]]
            return " | ".join(k for k in kinds if k)
    kind = schema.get("type", "")
    if kind == "array":
        return f"array of {type_words(schema.get('items', {}))}"
    if "enum" in schema:
        return f"{kind or 'value'}: one of {', '.join(json.dumps(v) for v in schema['enum'])}"
    if "const" in schema:
        return f"{kind or 'value'}: {json.dumps(schema['const'])}"
    return kind or "any"


def fields(schema: dict, components: dict) -> list[dict]:
    """The top-level fields of an object schema (through one $ref)."""
    if "$ref" in schema:
        schema = components.get(_name(schema["$ref"]), {})
    required = set(schema.get("required", ()))
    return [
        {
            "name": name,
            "type": type_words(field),
            "required": name in required,
            "about": text(field.get("description")),
        }
        for name, field in schema.get("properties", {}).items()
    ]


def _content(body: dict, components: dict) -> list[dict]:
    found = []
    for media, content in (body.get("content") or {}).items():
        schema = content.get("schema", {})
        example = content.get("example", schema.get("example"))
        found.append(
            {
                "media": media,
                "shape": type_words(schema) if schema else "",
                "fields": fields(schema, components) if schema else [],
                "example": (
                    example
                    if isinstance(example, str) or example is None
                    else json.dumps(example, indent=1)
                )
                or "",
            }
        )
    return found


def reference(schema: dict) -> dict:
    """The page's context: the API's description and its operations, in the schema's order,
    its websockets (``x-websockets``: each one's events, what it takes, its close codes), then
    the shapes they all use."""
    components = schema.get("components", {}).get("schemas", {})
    operations = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            operations.append(
                {
                    "anchor": op.get("operationId", f"{method}-{path}"),
                    "method": method.upper(),
                    "path": path,
                    "summary": op.get("summary", ""),
                    "about": text(op.get("description")),
                    "token": bool(op.get("security")),
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p.get("in", ""),
                            "type": type_words(p.get("schema", {})),
                            "required": p.get("required", False),
                            "about": text(p.get("description")),
                        }
                        for p in op.get("parameters", [])
                    ],
                    "body": _content(op.get("requestBody", {}), components),
                    "answers": [
                        {
                            "status": str(status),
                            "about": text(answer.get("description")),
                            "content": _content(answer, components),
                        }
                        for status, answer in op.get("responses", {}).items()
                    ],
                }
            )
    shapes = [
        {"name": name, "about": text(s.get("description")), "fields": fields(s, components),
         "type": type_words(s) if "properties" not in s else "object"}
        for name, s in components.items()
    ]  # fmt: skip
    sockets = [
        {
            "path": socket["path"],
            "about": text(socket.get("description")),
            "events": [_name(e["$ref"]) for e in socket["events"].get("oneOf", [])],
            "sends": _name(socket["sends"]["$ref"]) if socket.get("sends") else "",
            "errors": _name(socket["errors"]["$ref"]),
            "close_codes": [(code, text(about)) for code, about in socket["close_codes"].items()],
        }
        for socket in schema.get("x-websockets", [])
    ]
    info = schema.get("info", {})
    return {
        "title": info.get("title", ""),
        "version": info.get("version", ""),
        "about": text(info.get("description")),
        "operations": operations,
        "sockets": sockets,
        "shapes": shapes,
    }
