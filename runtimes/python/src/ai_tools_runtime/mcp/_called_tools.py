"""The tools a JSON-RPC request body calls (``tools/call``, alone or in a
batch), read before the SDK sees the request so that per-tool scopes are
checked at the HTTP gate."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["called_tools"]


def called_tools(body: bytes, call_tool: str | None = None) -> list[str]:
    """The ``params.name`` of every ``tools/call`` in ``body``, in order;
    ``[]`` for a body that is not JSON, or nested too deep to read (the SDK
    answers it). A call of ``call_tool`` (a search-first server's) is the
    call of the tool its arguments name (none when they name none)."""
    try:
        message: Any = json.loads(body)
    except (ValueError, RecursionError):
        return []
    messages = message if isinstance(message, list) else [message]
    names: list[str] = []
    for m in messages:
        if isinstance(m, dict) and m.get("method") == "tools/call":
            params = m.get("params")
            name = params.get("name") if isinstance(params, dict) else None
            if call_tool is not None and name == call_tool and isinstance(params, dict):
                args = params.get("arguments")
                name = args.get("name") if isinstance(args, dict) else None
            if isinstance(name, str):
                names.append(name)
    return names
