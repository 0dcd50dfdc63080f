"""Drive an MCP server with the official Python client (``mcp``) and print
what it answered as JSON, for the cross-language suite (test/*.test.ts).

    python scripts/py_client.py < plans.json

The input is a JSON array of plans, run concurrently. A plan::

    {"server": {"command": "...", "args": [...]} | {"url": "http://.../mcp"},
     "mode": "legacy" | "auto" | "2026-07-28",
     "clients": 1,
     "steps": [{"op": "list"},
               {"op": "call", "client": 0, "name": "...", "arguments": {...},
                "meta": {...}, "handle": "meta" | "argument"}]}

Each client connects to the server (stdio: one child each); the steps run
in order. ``handle`` passes back the conversation handle of the client's
last result that carried one, in ``_meta`` or as the argument
``conversation``. The output is a JSON array, per plan::

    {"protocolVersions": [...],
     "results": [{"tools": [...]} | {"result": {...}} | {"error": {"code": N, "message": "..."}}]}

Tools and results are written as the wire JSON (camelCase, no nulls).
"""

from __future__ import annotations

import json
import sys
from contextlib import AsyncExitStack
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

HANDLE_KEY = "ai-tools/conversation"


def client_for(plan: dict[str, Any]) -> Client:
    """A client of the plan's server, in the plan's mode, without caching."""
    server = plan["server"]
    mode = plan.get("mode", "auto")
    if "url" in server:
        return Client(server["url"], mode=mode, cache=None)
    params = StdioServerParameters(
        command=server["command"], args=server.get("args", []), env=server.get("env")
    )
    return Client(params, mode=mode, cache=None)


def wire(model: Any) -> Any:
    """A result or tool as the JSON on the wire."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    """Connect the plan's clients, run its steps, collect the answers."""
    results: list[dict[str, Any]] = []
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(client_for(plan))
            for _ in range(plan.get("clients", 1))
        ]
        handles: list[str | None] = [None] * len(clients)
        for step in plan["steps"]:
            index = step.get("client", 0)
            client = clients[index]
            try:
                if step["op"] == "list":
                    listed = await client.list_tools()
                    results.append({"tools": [wire(t) for t in listed.tools]})
                    continue
                arguments = dict(step.get("arguments", {}))
                meta = dict(step.get("meta", {}))
                handle = handles[index]
                if step.get("handle") == "meta" and handle is not None:
                    meta[HANDLE_KEY] = handle
                elif step.get("handle") == "argument" and handle is not None:
                    arguments["conversation"] = handle
                result = await client.call_tool(
                    step["name"], arguments, meta=meta or None
                )
                if result.meta and HANDLE_KEY in result.meta:
                    handles[index] = result.meta[HANDLE_KEY]
                results.append({"result": wire(result)})
            except MCPError as e:
                results.append(
                    {"error": {"code": e.error.code, "message": e.error.message}}
                )
        versions = [c.protocol_version for c in clients]
    return {"protocolVersions": versions, "results": results}


async def run_all(plans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the plans concurrently; their outputs in the plans' order."""
    outputs: list[dict[str, Any]] = [{} for _ in plans]

    async def one(i: int) -> None:
        outputs[i] = await run(plans[i])

    async with anyio.create_task_group() as tg:
        for i in range(len(plans)):
            tg.start_soon(one, i)
    return outputs


def main() -> None:
    plans = json.load(sys.stdin)
    json.dump(anyio.run(run_all, plans), sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
