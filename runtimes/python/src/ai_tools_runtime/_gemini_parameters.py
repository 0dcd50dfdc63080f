"""Gemini's OpenAPI-subset ``parameters``, derived from a generated input
schema, for callers that cannot send ``parameters_json_schema`` (the two are
exclusive). The rules (docs/compat.md, "What providers accept"; the shared
vectors e2e/vectors/providers/gemini-parameters.json pin them):

- types are written as the API's ``Type`` enum names (``STRING``,
  ``OBJECT``, …), as the SDKs send them;
- ``$ref``\\ s are inlined (a referring ``description`` wins); a reference
  back to a schema being inlined (recursion) is left out;
- ``anyOf`` loses its ``{"type": "null"}`` branch, which becomes
  ``nullable: true``; one branch left replaces the ``anyOf``;
- a type list ``[t, "null"]`` becomes ``t`` with ``nullable: true``;
- objects keep ``properties`` and ``required`` (no ``additionalProperties``,
  ``propertyNames``); strings ``format``, ``pattern``, ``minLength``,
  ``maxLength``, ``enum`` (a string ``const`` becomes a one-value ``enum``);
  numbers ``format``, ``minimum``, ``maximum``; arrays ``items``,
  ``minItems``, ``maxItems``; every node ``title`` and ``description``;
- what the subset cannot express is left out, and its name taken out of
  ``required``: a free-form value (``{}``), an object without properties (a
  map, ``Struct``, ``Empty``), an array of such, a lone ``null``, a list of
  several types."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["gemini_parameters"]

_Node = dict[str, Any]


def gemini_parameters(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``parameters`` form of ``schema``, or None when no parameter
    remains (the declaration then has none)."""
    root = dict(schema)
    return _convert(root, root, ("#",))


def _resolve(root: _Node, ref: str) -> _Node | None:
    if ref == "#":
        return root
    prefix = "#/$defs/"
    defs = root.get("$defs")
    if not ref.startswith(prefix) or not isinstance(defs, dict):
        return None
    name = ref[len(prefix) :].replace("~1", "/").replace("~0", "~")
    target = defs.get(name)
    return target if isinstance(target, dict) else None


def _is_null(branch: object) -> bool:
    return isinstance(branch, dict) and branch.get("type") == "null"


def _convert(node: object, root: _Node, stack: Sequence[str]) -> _Node | None:
    if not isinstance(node, dict):
        return None
    ref = node.get("$ref")
    if isinstance(ref, str):
        target = _resolve(root, ref)
        if target is None or ref in stack:
            return None
        out = _convert(target, root, (*stack, ref))
        return None if out is None else _annotate(out, node, nullable=False)
    any_of = node.get("anyOf")
    if isinstance(any_of, list):
        branches = [
            b
            for b in (_convert(b, root, stack) for b in any_of if not _is_null(b))
            if b is not None
        ]
        if not branches:
            return None
        out = branches[0] if len(branches) == 1 else {"anyOf": branches}
        return _annotate(out, node, nullable=any(_is_null(b) for b in any_of))
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    non_null = [k for k in kinds if k != "null"]
    if len(non_null) != 1 or not isinstance(non_null[0], str):
        return None
    out = _convert_typed(non_null[0], node, root, stack)
    return None if out is None else _annotate(out, node, nullable="null" in kinds)


def _annotate(out: _Node, source: _Node, *, nullable: bool) -> _Node:
    result = dict(out)
    for key in ("title", "description"):
        if isinstance(source.get(key), str):
            result[key] = source[key]
    if nullable:
        result["nullable"] = True
    return result


def _copy(out: _Node, source: _Node, keys: Sequence[str]) -> _Node:
    for key in keys:
        if key in source:
            out[key] = source[key]
    return out


def _convert_typed(kind: str, node: _Node, root: _Node, stack: Sequence[str]) -> _Node | None:
    if kind == "object":
        source = node.get("properties")
        properties: _Node = {}
        for name, sub in source.items() if isinstance(source, dict) else []:
            converted = _convert(sub, root, stack)
            if converted is not None:
                properties[name] = converted
        if not properties:
            return None
        out: _Node = {"type": "OBJECT", "properties": properties}
        required = node.get("required")
        if isinstance(required, list):
            out["required"] = [n for n in required if isinstance(n, str) and n in properties]
        return out
    if kind == "array":
        items = _convert(node.get("items"), root, stack)
        if items is None:
            return None
        return _copy({"type": "ARRAY", "items": items}, node, ("minItems", "maxItems"))
    if kind == "string":
        out = _copy({"type": "STRING"}, node, ("format", "pattern", "minLength", "maxLength"))
        values = node.get("enum")
        if isinstance(values, list) and all(isinstance(v, str) for v in values):
            out["enum"] = values
        elif isinstance(node.get("const"), str):
            out["enum"] = [node["const"]]
        return out
    if kind in ("integer", "number"):
        return _copy({"type": kind.upper()}, node, ("format", "minimum", "maximum"))
    if kind == "boolean":
        return {"type": "BOOLEAN"}
    return None
