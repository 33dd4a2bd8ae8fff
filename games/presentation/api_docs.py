"""The API's reference page, drawn from its OpenAPI schema: each operation with its
parameters, body, answers and their fields, and the shapes they name. A pure function of the
schema, so the page never says other than the schema does.

Each shape's fields are shown once: in place when only one operation names the shape, else
under Shapes, linked from every operation (the refusal's shape, with its every code, was
shown in full at each of ~150 answers: 0.8 MB of a 0.9 MB page). Operations alike but for
their path (each path's CORS preflight) are shown once, with their paths."""

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


def _content(body: dict, components: dict, shared: set[str]) -> list[dict]:
    found = []
    for media, content in (body.get("content") or {}).items():
        schema = content.get("schema", {})
        example = content.get("example", schema.get("example"))
        named = _name(schema["$ref"]) if "$ref" in schema else ""
        found.append(
            {
                "media": media,
                "shape": type_words(schema) if schema else "",
                "link": named,  # its fields under Shapes, if shared
                "fields": fields(schema, components) if schema and named not in shared else [],
                "example": (
                    example
                    if isinstance(example, str) or example is None
                    else json.dumps(example, indent=1)
                )
                or "",
            }
        )
    return found


def _resolved(item: dict, schema: dict) -> dict:
    """``item`` itself, or the component its ``$ref`` names (a parameter, an answer)."""
    if "$ref" not in item:
        return item
    found = schema
    for part in item["$ref"].removeprefix("#/").split("/"):
        found = found.get(part, {})
    return found


def _shared(schema: dict) -> set[str]:
    """The shapes more than one operation answers with or takes directly."""
    users: dict[str, set[str]] = {}
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            contents = [op.get("requestBody", {}), *op.get("responses", {}).values()]
            for content in contents:
                for media in (_resolved(content, schema).get("content") or {}).values():
                    ref = media.get("schema", {}).get("$ref")
                    if ref:
                        users.setdefault(_name(ref), set()).add(f"{method} {path}")
    return {name for name, ops in users.items() if len(ops) > 1}


def _operation(method: str, path: str, op: dict, schema: dict, shared: set[str]) -> dict:
    components = schema.get("components", {}).get("schemas", {})
    parameters = [_resolved(p, schema) for p in op.get("parameters", [])]
    return {
        "anchor": op.get("operationId", f"{method}-{path}"),
        "method": method.upper(),
        "path": path,
        "paths": [path],
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
            for p in parameters
        ],
        "body": _content(op.get("requestBody", {}), components, shared),
        "answers": [
            {
                "status": str(status),
                "about": text(_resolved(answer, schema).get("description")),
                "headers": _headers(_resolved(answer, schema)),
                "content": _content(_resolved(answer, schema), components, shared),
            }
            for status, answer in op.get("responses", {}).items()
        ],
    }


def _headers(answer: dict) -> list[dict]:
    """An answer's headers: each one's value where the schema fixes it, else its type."""
    return [
        {
            "name": name,
            "value": str(h["schema"]["const"])
            if "const" in h.get("schema", {})
            else f"<{type_words(h.get('schema', {}))}>",
            "about": h.get("description", ""),
        }
        for name, h in answer.get("headers", {}).items()
    ]


def _alike(method: str, op: dict) -> str:
    """What an operation says but for its path, its id and the path's parameters."""
    rest = {k: v for k, v in op.items() if k != "operationId"}
    rest["parameters"] = [p for p in op.get("parameters", []) if p.get("in") != "path"]
    return method + json.dumps(rest, sort_keys=True, default=str)


def reference(schema: dict) -> dict:
    """The page's context: the API's description and its operations, in the schema's order
    (those alike but for their path once, at the first), its websockets (``x-websockets``:
    each one's events, what it takes, its close codes), then the shapes they all use."""
    components = schema.get("components", {}).get("schemas", {})
    shared = _shared(schema)
    operations: list[dict] = []
    seen: dict[str, dict] = {}
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            key = _alike(method, op)
            if key in seen:
                seen[key]["paths"].append(path)
                continue
            seen[key] = _operation(method, path, op, schema, shared)
            operations.append(seen[key])
    for op in operations:
        if len(op["paths"]) > 1:  # a path's own parameters: each path names them
            op["parameters"] = [p for p in op["parameters"] if p["where"] != "path"]
    operations.sort(key=lambda op: len(op["paths"]) > 1)  # the many paths' after the rest
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
