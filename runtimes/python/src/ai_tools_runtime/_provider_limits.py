"""Limits that hold per model request, not per tool (docs/compat.md, "What
providers accept"): the adapters that build a request's tool list refuse one
over them, as the provider would, before anything is sent."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = [
    "ANTHROPIC_MAX_OPTIONAL_PARAMETERS",
    "ANTHROPIC_MAX_STRICT_TOOLS",
    "ANTHROPIC_MAX_UNION_PARAMETERS",
    "GEMINI_MAX_FUNCTION_DECLARATIONS",
    "OPENAI_MAX_TOOLS",
    "check_anthropic_strict_request",
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


def check_anthropic_strict_request(counts: Iterable[Mapping[str, Any]]) -> None:
    """Raises ValueError when the strict tools of one Anthropic request exceed
    a limit of strict tool use, naming the count and the limit. ``counts``
    holds one ``anthropicStrictCounts`` form per strict tool (its optional and
    union parameters, which the generator counted)."""
    listed = list(counts)
    optional = sum(int(c["optional"]) for c in listed)
    unions = sum(int(c["unions"]) for c in listed)
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
