"""A tool as ``tools/list`` lists it (docs/mcp.md, "Tools as listed")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import mcp_types

from .._agent_tool import _thaw
from ._conversation_handle import CONVERSATION_ARGUMENT, CONVERSATION_ARGUMENT_DESCRIPTION
from ._extra_properties import ExtraProperty, nullable_string
from ._mcp_tool import McpToolMethod
from ._provider_form import McpProvider, served_schema

__all__ = ["list_tool"]


def list_tool(
    name: str,
    method: McpToolMethod,
    extras: Sequence[ExtraProperty],
    handle_argument: bool,
    provider: McpProvider | None = None,
) -> mcp_types.Tool:
    """The listing of one tool under ``name``: its input schema (the
    generated form of ``provider``, or its parameters) with the
    extra properties and (with ``handle_argument``) the handle property added
    as nullable strings, listed in ``required`` in a strict tool (only the
    required extras elsewhere, after the tool's own). A ``ValueError`` naming
    the tool when an added property is already one of its properties, or
    when ``provider`` is given and the tool has no generated forms."""
    tool = method.tool
    schema = served_schema(tool, provider)
    properties: dict[str, Any] = dict(schema.get("properties", {}))
    required: list[str] = list(schema.get("required", []))
    added = [(e.name, e.description, e.required) for e in extras]
    if handle_argument:
        added.append((CONVERSATION_ARGUMENT, CONVERSATION_ARGUMENT_DESCRIPTION, False))
    for prop, description, is_required in added:
        if prop in properties:
            raise ValueError(
                f"tool {json.dumps(name)} already has a property {json.dumps(prop)}: "
                "rename the extra property"
            )
        properties[prop] = nullable_string(description)
        if is_required or tool.strict:
            required.append(prop)
    schema["properties"] = properties
    if required:
        schema["required"] = required
    return mcp_types.Tool(
        name=name,
        description=tool.description,
        input_schema={**schema, "type": "object"},
        output_schema={**_thaw(method.output_schema), "type": "object"},
        annotations=_annotations(method),
    )


def _annotations(method: McpToolMethod) -> mcp_types.ToolAnnotations | None:
    """Every hint the method sets, true or false (readOnlyHint,
    destructiveHint, idempotentHint, openWorldHint); None when it sets none."""
    hints = (
        method.read_only_hint,
        method.destructive_hint,
        method.idempotent_hint,
        method.open_world_hint,
    )
    if all(h is None for h in hints):
        return None
    return mcp_types.ToolAnnotations(
        read_only_hint=method.read_only_hint,
        destructive_hint=method.destructive_hint,
        idempotent_hint=method.idempotent_hint,
        open_world_hint=method.open_world_hint,
    )
