"""The search tool's contract, one for the deferred tools (the search call
of every provider) and the MCP search-first ``search_tools``
(docs/tool-search.md, "The search tool"): its name, its input schema and
the reading of its arguments, the same in the TypeScript and Go runtimes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import grpc

from ._argument_check import INVALID_JSON
from ._json import JsonNumber, decode_json, json_kind, quote
from ._tool_error import ToolError
from ._violations import Violation, invalid_arguments_text

__all__ = [
    "DEFAULT_SEARCH_LIMIT",
    "MAX_SEARCH_LIMIT",
    "SEARCH_TOOLS_NAME",
    "SearchArguments",
    "parse_search_arguments",
    "search_parameters",
]

SEARCH_TOOLS_NAME: Final = "search_tools"
"""The name of the search tool a model calls."""

MAX_SEARCH_LIMIT: Final = 20
"""The most tools one search may find (and load)."""

DEFAULT_SEARCH_LIMIT: Final = 5
"""How many tools a search finds when neither the model nor the options say."""

_KNOWN: Final = ("query", "limit")


@dataclass(frozen=True)
class SearchArguments:
    """The arguments of a search call, as :func:`parse_search_arguments`
    reads them."""

    query: str
    """What the model searches for."""
    limit: int | None = None
    """How many tools to find (1 to 20), when the model said."""


def search_parameters(default_limit: int) -> dict[str, Any]:
    """The search tool's input schema (JSON Schema), its ``limit`` saying
    ``default_limit`` (what a search finds when the model gives none). A
    fresh dict each call."""
    return {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What you want to do, in a few words."},
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_SEARCH_LIMIT,
                "description": f"The most tools to find; {default_limit} by default.",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    }


def parse_search_arguments(args: Any) -> SearchArguments:
    """The query and limit of a search call's arguments: a mapping, or a
    string holding JSON text of one (decoded once: a function call's
    arguments; OpenAI's ``tool_search_call`` sends an object). Anything
    else, an unknown key, a query that is no string or a limit that is no
    whole number from 1 to 20 is the model's mistake: a :class:`ToolError`
    (``invalid-arguments``, ``invalid arguments, nothing was sent:`` and one
    line per violation, docs/runtime.md "Errors"). Text is read with the
    runtime's strict decoder (``NaN`` and ``Infinity`` are not JSON)."""
    value = args
    if isinstance(value, str):
        value, ok = decode_json(value)
        if not ok:
            raise _refused([Violation("", "invalid-json", INVALID_JSON)])
    if not isinstance(value, Mapping):
        raise _refused(
            [Violation("", "not-an-object", f"expected a JSON object, got {json_kind(value)}")]
        )
    violations = unknown_fields(value, _KNOWN)
    query, limit = value.get("query"), value.get("limit")
    if isinstance(limit, JsonNumber):
        limit = float(limit.text)
    if query is None:
        violations.append(Violation("query", "required", "missing required field"))
    elif not isinstance(query, str):
        violations.append(Violation("query", "invalid-value", "must be a string"))
    whole = (
        isinstance(limit, int | float)
        and not isinstance(limit, bool)
        and math.isfinite(limit)
        and limit == int(limit)
        and 1 <= limit <= MAX_SEARCH_LIMIT
    )
    if limit is not None and not whole:
        violations.append(
            Violation(
                "limit", "invalid-value", f"must be a whole number from 1 to {MAX_SEARCH_LIMIT}"
            )
        )
    if violations:
        raise _refused(violations)
    assert isinstance(query, str)
    return SearchArguments(query, None if limit is None else int(limit))


def not_in_search_data(tool: str) -> str:
    """The refusal of a tool the tool-search data does not name and that is
    not always loaded (no search could find it), one text for the deferred
    tools and MCP search-first."""
    return (
        f"tool {quote(tool)} is served but not in the tool-search data: generate its file "
        "with tool_search=true and pass that file's data, or list it in always_loaded"
    )


def _refused(violations: list[Violation]) -> ToolError:
    return ToolError(
        invalid_arguments_text(violations),
        reason="invalid-arguments",
        code=grpc.StatusCode.INVALID_ARGUMENT,
        violations=tuple(violations),
    )


def unknown_fields(args: Mapping[Any, Any], known: Sequence[str]) -> list[Violation]:
    """A violation per key of ``args`` that is not in ``known``, in key
    order: the one unknown-field rule of the search tool and the MCP meta
    tools."""
    return [
        Violation(str(key), "unknown-field", f"unknown field; valid fields: {', '.join(known)}")
        for key in args
        if key not in known
    ]
