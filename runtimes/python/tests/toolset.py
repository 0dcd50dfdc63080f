"""The generated module of e2e/vectors/proto/aitest/v1/vectors.proto
(tests/gen/ai_tools_gen.py, scripts/generate.py), as the runtime tests use
it: its tools, its alias configuration, and its ToolMethods, for building the
runtime's executors directly (sharing one alias manager, for one)."""

from __future__ import annotations

import json
from typing import Any

import ai_tools_gen
from ai_tools_gen import (
    ACCOUNTS_CREATE,
    ACCOUNTS_LIST,
    ACCOUNTS_MERGE,
    ACCOUNTS_WATCH,
    ALIAS_CONFIG,
    FIXUP_LOOSE,
    FIXUP_STRICT,
)

ALIASES = ALIAS_CONFIG
METHODS = list(ai_tools_gen._TOOL_METHODS)


def create_args(
    name: Any = "A", owner_id: Any = "", note_count: Any = 0, contact_count: Any = 0
) -> dict[str, Any]:
    """The arguments of accounts_create, a strict tool: every field given."""
    return {
        "name": name,
        "owner_id": owner_id,
        "note_count": note_count,
        "contact_count": contact_count,
    }


def create_json(name: Any = "A", **more: Any) -> str:
    """:func:`create_args` as the model's text."""
    return json.dumps(create_args(name, **more))


__all__ = [
    "ACCOUNTS_CREATE",
    "ACCOUNTS_LIST",
    "ACCOUNTS_MERGE",
    "ACCOUNTS_WATCH",
    "ALIASES",
    "FIXUP_LOOSE",
    "FIXUP_STRICT",
    "METHODS",
    "create_args",
    "create_json",
]
