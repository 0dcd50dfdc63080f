"""The generated module of e2e/vectors/proto/aitest/v1/vectors.proto
(tests/gen/ai_tools_gen.py, scripts/generate.py), as the runtime tests use
it: its tools, its alias configuration, and its ToolMethods, for building the
runtime's executors directly (sharing one alias manager, for one)."""

from __future__ import annotations

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

__all__ = [
    "ACCOUNTS_CREATE",
    "ACCOUNTS_LIST",
    "ACCOUNTS_MERGE",
    "ACCOUNTS_WATCH",
    "ALIASES",
    "FIXUP_LOOSE",
    "FIXUP_STRICT",
    "METHODS",
]
