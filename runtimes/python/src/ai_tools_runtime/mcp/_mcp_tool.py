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
    the JSON Schema of its result and its hints. ``output_schema`` is stored
    read-only."""

    output_schema: Mapping[str, Any]
    """The JSON Schema of ``structuredContent``: the response's JSON
    (``response_json="full"``), wrapped under :attr:`output_wrap_key`."""
    output_wrap_key: str = ""
    """The key the result wraps the response's JSON under: ``"messages"``
    for a server stream's collected messages, ``"value"`` for a response
    type whose JSON is not an object, ``""`` for none."""
    read_only_hint: bool = False
    """True for ``idempotency_level = NO_SIDE_EFFECTS``."""
    idempotent_hint: bool = False
    """True for ``idempotency_level = IDEMPOTENT`` or ``NO_SIDE_EFFECTS``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "output_schema", _freeze(self.output_schema))
