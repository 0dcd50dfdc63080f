"""One tool of a generated MCP file (docs/mcp.md, "Tools as listed")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._agent_tool import _freeze
from .._executor import ToolMethod

__all__ = ["McpToolMethod"]


@dataclass(frozen=True, kw_only=True)
class McpToolMethod(ToolMethod):
    """A :class:`~ai_tools_runtime.ToolMethod` with what MCP lists besides:
    the JSON Schema of its result and its hints (the generated file sets all
    four; a hand-written method may set none). ``output_schema`` is stored
    read-only."""

    output_schema: Mapping[str, Any]
    """The JSON Schema of ``structuredContent``: the response's JSON
    (``response_json="full"``), wrapped under :attr:`output_wrap_key`."""
    output_wrap_key: str = ""
    """The key the result wraps the response's JSON under: ``"messages"``
    for a server stream's collected messages, ``"value"`` for a response
    type whose JSON is not an object, ``""`` for none."""
    read_only_hint: bool | None = None
    """MCP's ``readOnlyHint``: the tool does not change anything (a Get,
    List, Search or Watch method, ``idempotency_level = NO_SIDE_EFFECTS``,
    or the ``hints`` annotation); None: not set, left out of the listing."""
    destructive_hint: bool | None = None
    """MCP's ``destructiveHint``: the tool may change or delete what exists
    (false for a Create, which only adds); None: not set (MCP reads true)."""
    idempotent_hint: bool | None = None
    """MCP's ``idempotentHint``: calling it again with the same arguments
    changes nothing more (``idempotency_level = IDEMPOTENT`` or
    ``NO_SIDE_EFFECTS``); None: not set."""
    open_world_hint: bool | None = None
    """MCP's ``openWorldHint``: the tool reaches beyond the service's own
    entities (false unless the ``hints`` annotation says so); None: not set
    (MCP reads true)."""

    required_scopes: tuple[str, ...] = ()
    """The OAuth scopes a token needs to call the tool (its
    ``required_scopes`` annotation); the HTTP gate checks them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "output_schema", _freeze(self.output_schema))
