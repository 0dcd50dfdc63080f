"""Run by tests/test_deferred_compute.py in a process of its own (with
tests/gen/compute first on sys.path): Compute Engine's generated module
(988 tools, tool_search=true), every deferred request DeferredTools builds
for it, with three tools loaded; prints what the test checks, as JSON."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import ai_tools_gen

from ai_tools_runtime import DeferredTools, MemoryConversationStore


async def main() -> dict[str, Any]:
    search = ai_tools_gen.TOOL_SEARCH
    store = MemoryConversationStore()
    deferred = DeferredTools(ai_tools_gen.ALL_TOOLS, search, store)
    handle = await store.create()
    loaded = (await deferred.search(handle, "stop a VM instance", 3)).loaded
    out: dict[str, Any] = {
        "tools": len(ai_tools_gen.ALL_TOOLS),
        "namespaces": len(search.namespaces),
        "largest": max(len(ns.tools) for ns in search.namespaces),
        "loaded": loaded,
    }
    for mode in ("hosted", "client"):
        tools = await deferred.openai_responses(handle, search=mode)  # type: ignore[arg-type]
        out[f"openai_responses_{mode}"] = _summary(tools)
    for mode in ("bm25", "regex", "client"):
        tools = await deferred.anthropic(handle, search=mode)  # type: ignore[arg-type]
        out[f"anthropic_{mode}"] = _summary(tools)
    out["openai_chat"] = [t["function"]["name"] for t in await deferred.openai_chat(handle)]
    for form in ("parameters_json_schema", "parameters"):
        gemini = await deferred.gemini(handle, form=form)  # type: ignore[arg-type]
        out[f"gemini_{form}"] = [d.get("name") for d in gemini.get("function_declarations") or []]
    return out


def _summary(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Top-level items; the functions they hold (a namespace's, or the item
    itself) and how many of those are deferred; the last item; the bytes."""
    functions = [f for t in tools for f in (t["tools"] if t.get("type") == "namespace" else [t])]
    return {
        "items": len(tools),
        "functions": len(functions),
        "deferred": sum(1 for f in functions if f.get("defer_loading") is True),
        "last": {k: v for k, v in tools[-1].items() if k in ("type", "name", "execution")},
        "bytes": len(json.dumps(tools, separators=(",", ":"))),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
