"""The form of a strict tool's schema sent to Anthropic with ``strict: true``
(strict tool use), derived from the generated schema as Anthropic's own SDK
does: every object is closed (``additionalProperties: false``), and what
strict tool use does not take (numeric bounds, string lengths,
``maxItems``, a ``minItems`` over 1, a ``format`` outside its list, …) moves
into the description, as ``(key: value, …)`` with the keys sorted and the
values as compact JSON. The shared vectors
e2e/vectors/providers/anthropic-strict.json pin it (docs/compat.md, "What
providers accept")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._schema_cycles import find_ref_cycle

__all__ = ["anthropic_strict_schema"]

_FORMATS = frozenset(
    ("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")
)
_KEPT = frozenset(
    (
        "type",
        "title",
        "description",
        "properties",
        "required",
        "items",
        "enum",
        "const",
        "anyOf",
        "allOf",
        "pattern",
        "$ref",
        "$defs",
    )
)


def anthropic_strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The strict tool use form of ``schema`` (a new dict). A recursive
    schema (a ``$ref`` cycle: a compact strict tool generated with
    ``providers=openai``) raises ValueError, since strict tool use takes no
    recursion."""
    cycle = find_ref_cycle(schema, False)
    if cycle is not None:
        raise ValueError(
            f"the schema is recursive (a $ref cycle through {json.dumps(cycle)}), which "
            "Anthropic strict tool use refuses; send the tool without strict, or generate "
            "it with providers=anthropic (recursion then stops at an empty object)"
        )
    out = _derive(dict(schema))
    assert isinstance(out, dict)
    return out


def _derive(node: object) -> object:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    moved: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs"):
            out[key] = (
                {k: _derive(v) for k, v in value.items()} if isinstance(value, dict) else value
            )
        elif key == "items":
            out[key] = _derive(value)
        elif key in ("anyOf", "allOf"):
            out[key] = [_derive(v) for v in value] if isinstance(value, list) else value
        elif key in _KEPT:
            out[key] = value
        elif key == "format" and value in _FORMATS:
            out[key] = value
        elif key == "minItems" and value in (0, 1) and not isinstance(value, bool):
            out[key] = value
        elif not (key == "additionalProperties" and value is False):
            moved[key] = value
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node:
        out["additionalProperties"] = False
    if moved:
        text = "(" + ", ".join(f"{k}: {_compact(moved[k])}" for k in sorted(moved)) + ")"
        description = out.get("description")
        out["description"] = (
            f"{description} {text}" if isinstance(description, str) and description else text
        )
    return out


def _compact(value: object) -> str:
    """Compact JSON with object keys sorted."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
