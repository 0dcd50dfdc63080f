"""Limits that hold per model request, not per tool (docs/compat.md, "What
providers accept"): the adapters that build a request's tool list refuse one
over them, as the provider would, before anything is sent."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

__all__ = [
    "ANTHROPIC_MAX_OPTIONAL_PARAMETERS",
    "ANTHROPIC_MAX_STRICT_TOOLS",
    "ANTHROPIC_MAX_UNION_PARAMETERS",
    "GEMINI_MAX_FUNCTION_DECLARATIONS",
    "OPENAI_MAX_TOOLS",
    "AnthropicStrictCounts",
    "check_anthropic_strict_request",
    "count_anthropic_strict_parameters",
]

# Anthropic strict tool use, per request (Anthropic, "Structured outputs",
# JSON Schema limitations).
ANTHROPIC_MAX_STRICT_TOOLS: Final = 20
ANTHROPIC_MAX_OPTIONAL_PARAMETERS: Final = 24
ANTHROPIC_MAX_UNION_PARAMETERS: Final = 16
# Gemini, per request: "At most 512 function declarations can be specified".
GEMINI_MAX_FUNCTION_DECLARATIONS: Final = 512
# OpenAI, per request: `maxItems: 128` on `tools` in OpenAI's API
# description (docs/compat.md, "What providers accept").
OPENAI_MAX_TOOLS: Final = 128


class AnthropicStrictCounts(NamedTuple):
    """What one strict schema adds to a request's Anthropic counts."""

    optional: int
    """Properties, at every depth, that their object does not require."""
    unions: int
    """Properties, at every depth, whose schema is an ``anyOf`` or a type list."""


def count_anthropic_strict_parameters(schema: object) -> AnthropicStrictCounts:
    """Counts a schema's optional and union parameters at every depth
    (``properties``, ``items``, ``anyOf`` branches, ``$defs``), as the shared
    vectors e2e/vectors/providers/anthropic-strict-counts.json pin."""
    optional = 0
    unions = 0

    def walk(node: object) -> None:
        nonlocal optional, unions
        if not isinstance(node, dict):
            return
        properties = node.get("properties")
        if isinstance(properties, dict):
            required = node.get("required")
            listed = required if isinstance(required, list) else []
            for name, sub in properties.items():
                if name not in listed:
                    optional += 1
                if isinstance(sub, dict) and ("anyOf" in sub or isinstance(sub.get("type"), list)):
                    unions += 1
                walk(sub)
        walk(node.get("items"))
        any_of = node.get("anyOf")
        for branch in any_of if isinstance(any_of, list) else []:
            walk(branch)
        defs = node.get("$defs")
        for definition in defs.values() if isinstance(defs, dict) else []:
            walk(definition)

    walk(schema)
    return AnthropicStrictCounts(optional, unions)


def check_anthropic_strict_request(schemas: Iterable[object]) -> None:
    """Raises ValueError when the strict schemas of one Anthropic request
    exceed a limit of strict tool use, naming the count and the limit."""
    listed = list(schemas)
    optional = 0
    unions = 0
    for schema in listed:
        counts = count_anthropic_strict_parameters(schema)
        optional += counts.optional
        unions += counts.unions
    for what, count, limit in (
        ("strict tools", len(listed), ANTHROPIC_MAX_STRICT_TOOLS),
        (
            "optional parameters across the strict tools",
            optional,
            ANTHROPIC_MAX_OPTIONAL_PARAMETERS,
        ),
        (
            "parameters with a union type across the strict tools",
            unions,
            ANTHROPIC_MAX_UNION_PARAMETERS,
        ),
    ):
        if count > limit:
            raise ValueError(
                f"{count} {what} in one request: Anthropic strict tool use takes at most {limit}; "
                "send fewer tools with strict"
            )
