"""``$ref`` cycles of a tool schema, for the adapters that derive a
provider's form: a compact strict tool generated for OpenAI alone
(``providers=openai``) keeps its recursion, which Anthropic strict tool use
refuses outright and Gemini refuses through required properties
(docs/compat.md, "$defs and $ref")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["find_ref_cycle"]

_BRANCHES = ("anyOf", "oneOf", "allOf")


def _refs_below(node: object, only_required: bool, out: set[str]) -> None:
    """Adds the ``$ref`` targets below ``node`` (not followed), passing only
    properties their object requires when ``only_required``."""
    if not isinstance(node, Mapping):
        return
    ref = node.get("$ref")
    if isinstance(ref, str):
        out.add(ref)
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        required = node.get("required")
        names = required if isinstance(required, (list, tuple)) else ()
        for name, sub in properties.items():
            if not only_required or name in names:
                _refs_below(sub, only_required, out)
    _refs_below(node.get("items"), only_required, out)
    _refs_below(node.get("additionalProperties"), only_required, out)
    for key in _BRANCHES:
        branches = node.get(key)
        if isinstance(branches, (list, tuple)):
            for branch in branches:
                _refs_below(branch, only_required, out)


def find_ref_cycle(schema: Mapping[str, Any], only_required: bool) -> str | None:
    """The first place (``#`` or ``#/$defs/<name>``) a ``$ref`` of ``schema``
    leads back to, through required properties only when ``only_required``;
    None when the schema has no such cycle."""
    edges: dict[str, set[str]] = {}

    def collect(at: str, node: object) -> None:
        refs: set[str] = set()
        _refs_below(node, only_required, refs)
        edges[at] = refs

    collect("#", {k: v for k, v in schema.items() if k != "$defs"})
    defs = schema.get("$defs")
    if isinstance(defs, Mapping):
        for name, node in defs.items():
            collect("#/$defs/" + name.replace("~", "~0").replace("/", "~1"), node)
    done: set[str] = set()

    def visit(at: str, stack: list[str]) -> str | None:
        if at in stack:
            return at
        if at in done:
            return None
        stack.append(at)
        for target in sorted(edges.get(at, ())):
            found = visit(target, stack)
            if found is not None:
                return found
        stack.pop()
        done.add(at)
        return None

    for at in edges:
        found = visit(at, [])
        if found is not None:
            return found
    return None
