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
    "ANTHROPIC_TOOL_SEARCH_MAX_TOOLS",
    "GEMINI_MAX_FUNCTION_DECLARATIONS",
    "OPENAI_MAX_TOOLS",
    "check_anthropic_strict_request",
    "check_anthropic_tool_search_request",
    "check_openai_deferred_request",
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
# Anthropic tool search, per request: "Maximum tools: 10,000 tools in your
# catalog" (every tool of the request, deferred or not, the search tool
# too), of which at least one not deferred.
ANTHROPIC_TOOL_SEARCH_MAX_TOOLS: Final = 10000


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


def check_openai_deferred_request(always_loaded: int, namespaces: int) -> None:
    """Raises ValueError when a deferred OpenAI Responses request would
    carry more top-level tools than OpenAI takes: it counts the items of
    ``tools`` (a namespace is one, whatever it holds; docs/tool-search.md,
    "Limits")."""
    count = always_loaded + namespaces + 1
    if count > OPENAI_MAX_TOOLS:
        raise ValueError(
            f"{count} top-level tools in one request ({always_loaded} always loaded, "
            f"{namespaces} namespaces, the tool_search tool): OpenAI takes at most "
            f"{OPENAI_MAX_TOOLS}; load fewer tools always, or split the API into several tool "
            "sets (fewer services per generated file)"
        )


def check_anthropic_tool_search_request(count: int) -> None:
    """Raises ValueError when a deferred Anthropic request would carry more
    tools than Anthropic tool search takes. (Anthropic also wants one tool
    not deferred: the deferred request's search tool always is.)"""
    if count > ANTHROPIC_TOOL_SEARCH_MAX_TOOLS:
        raise ValueError(
            f"{count} tools in one request: Anthropic tool search takes at most "
            f"{ANTHROPIC_TOOL_SEARCH_MAX_TOOLS}; send a subset of the tools"
        )
