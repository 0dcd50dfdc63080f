"""The meta tools of a search-first tool set (docs/mcp.md, "Search-first
tool sets"): their listings and the reading of their arguments, the same
texts in TypeScript and Go."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import mcp_types

from .._json import json_kind
from .._search_arguments import (
    DEFAULT_SEARCH_LIMIT,
    MAX_SEARCH_LIMIT,
    SEARCH_TOOLS_NAME,
    parse_search_arguments,
    search_parameters,
    unknown_fields,
)
from .._tool_error import ToolError
from .._tool_search import ToolSearchNamespace
from .._violations import Violation, invalid_arguments_text

if TYPE_CHECKING:
    from ._search_first import SearchFirstMode

__all__ = [
    "CALL_TOOL",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "SEARCH_TOOLS",
    "call_arguments",
    "call_tool_listing",
    "search_arguments",
    "search_tool_listing",
    "unknown_called_tool",
]

SEARCH_TOOLS: Final = SEARCH_TOOLS_NAME
CALL_TOOL: Final = "call_tool"
MAX_LIMIT: Final = MAX_SEARCH_LIMIT
DEFAULT_LIMIT: Final = DEFAULT_SEARCH_LIMIT


def search_tool_listing(
    mode: SearchFirstMode, groups: Sequence[ToolSearchNamespace], limit: int
) -> mcp_types.Tool:
    """``search_tools`` as listed in ``mode``: its description names the
    groups (namespaces) of the tools served."""
    if mode == "list":
        then = "The tools found are added to your tool list: call them as any other tool."
    else:
        then = f"Each tool found comes with its input schema: call it with {CALL_TOOL}."
    lines = "".join(f"\n- {g.name}: {g.description}" for g in groups)
    item: dict[str, Any] = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "description": {"type": "string"},
            **({"inputSchema": {"type": "object"}} if mode == "call" else {}),
        },
        "required": ["name", "description", *(["inputSchema"] if mode == "call" else [])],
    }
    return mcp_types.Tool(
        name=SEARCH_TOOLS,
        description=(
            f"Find this server's tools by what you want to do, in a few words. {then}"
            f"\nTool groups:{lines}"
        ),
        input_schema=search_parameters(limit),
        output_schema={
            "type": "object",
            "properties": {"tools": {"type": "array", "items": item}},
            "required": ["tools"],
        },
    )


def call_tool_listing() -> mcp_types.Tool:
    """``call_tool`` as listed (no output schema: its result is the called
    tool's)."""
    return mcp_types.Tool(
        name=CALL_TOOL,
        description=f"Call a tool that {SEARCH_TOOLS} found, by its name, with its arguments.",
        input_schema={
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": f"The tool's name, as {SEARCH_TOOLS} gave it.",
                },
                "arguments": {
                    "type": "object",
                    "description": "The tool's arguments, following its input schema.",
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    )


def search_arguments(args: dict[str, Any], default_limit: int) -> tuple[str, int] | str:
    """A search's query and limit, or the model-facing text refusing them
    (the search tool's one reader, :func:`parse_search_arguments`)."""
    try:
        taken = parse_search_arguments(args)
    except ToolError as refused:
        return str(refused)
    return taken.query, default_limit if taken.limit is None else taken.limit


def call_arguments(args: dict[str, Any]) -> tuple[str, dict[str, Any]] | str:
    """A ``call_tool``'s target (the tool's name and arguments), or the
    model-facing text refusing it."""
    violations = unknown_fields(args, ("name", "arguments"))
    name, inner = args.get("name"), args.get("arguments")
    if name is None:
        violations.append(Violation("name", "required", "missing required field"))
    elif not isinstance(name, str):
        violations.append(Violation("name", "invalid-value", "must be a string"))
    if inner is not None and not isinstance(inner, dict):
        violations.append(
            Violation(
                "arguments", "invalid-value", f"expected a JSON object, got {json_kind(inner)}"
            )
        )
    if violations:
        return invalid_arguments_text(violations)
    assert isinstance(name, str)
    return name, dict(inner or {})


def unknown_called_tool(name: str) -> str:
    """The text of a ``call_tool`` naming no tool of the server."""
    return (
        f"unknown tool {json.dumps(name, ensure_ascii=False)}: call {SEARCH_TOOLS} to find a "
        f"tool, then {CALL_TOOL} with one of the names it gives"
    )
