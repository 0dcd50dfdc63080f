"""Loaded tools in the in-memory store (docs/store.md, "Loaded tools"): the
vectors of e2e/vectors/store/loaded-tools.json (the refusals too: this
store keeps the Redis fields), the epoch, the TTL, an empty name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import VECTORS

from ai_tools_runtime import ConversationExpiredError, MemoryConversationStore
from ai_tools_runtime._conversation_store import ConversationCorruptError

LOADED_TOOLS: dict[str, Any] = json.loads(
    (VECTORS / "store" / "loaded-tools.json").read_text(encoding="utf-8")
)
ERRORS = {
    "conversation-expired": ConversationExpiredError,
    "conversation-corrupt": ConversationCorruptError,
}


async def run_step(store: Any, handle: str, epoch: str, step: dict[str, Any]) -> None:
    """One step of a loaded-tools case, checked (any store with the two methods)."""
    if "loadTools" in step:
        assert await store.load_tools(handle, epoch, step["loadTools"]) == step["loaded"]
    elif "loadedTools" in step:
        assert await store.loaded_tools(handle) == step["loaded"]
    elif "register" in step:
        pairs = [(p, u) for p, u in step["register"]]
        assert await store.register(handle, epoch, pairs) == step["state"]
    else:
        assert (await store.load(handle))[1] == step["state"]


@pytest.mark.parametrize("case", LOADED_TOOLS["cases"], ids=lambda c: c["name"])
async def test_memory_store_loaded_tools_vectors(case: dict[str, Any]) -> None:
    store = MemoryConversationStore()
    handle = await store.create()
    store._entries[handle][0]["epoch"] = case["epoch"]
    assert await store.loaded_tools(handle) == []
    for step in case["steps"]:
        await run_step(store, handle, case["epoch"], step)
    # The store keeps the fields of the Redis layout.
    assert {**store._entries[handle][0]} == case["hash"]


@pytest.mark.parametrize("refusal", LOADED_TOOLS["refusals"], ids=lambda r: r["name"])
async def test_memory_store_loaded_tools_refusals(refusal: dict[str, Any]) -> None:
    store = MemoryConversationStore()
    handle = await store.create()
    if refusal["setup"] is None:
        await store.delete(handle)
    else:
        store._entries[handle] = (dict(refusal["setup"]), store._clock())
    before = dict(store._entries.get(handle, ({}, 0))[0])
    with pytest.raises(ERRORS[refusal["error"]]) as err:
        if "loadTools" in refusal:
            await store.load_tools(
                handle, refusal["loadTools"]["epoch"], refusal["loadTools"]["names"]
            )
        else:
            await store.loaded_tools(handle)
    assert getattr(err.value, "handle", None) == handle
    assert dict(store._entries.get(handle, ({}, 0))[0]) == before


async def test_memory_store_loaded_tools_ttl_and_names() -> None:
    now = [0.0]
    store = MemoryConversationStore(idle_ttl_seconds=100, clock=lambda: now[0])
    handle = await store.create()
    epoch, _ = await store.load(handle)
    with pytest.raises(ValueError, match='cannot load the tool name "": pass the names of tools'):
        await store.load_tools(handle, epoch, ["links_get", ""])
    assert await store.loaded_tools(handle) == []
    for t in (99.0, 198.0, 297.0):  # each operation renews the 100 s
        now[0] = t
        assert await store.load_tools(handle, epoch, ["links_get"]) == ["links_get"]
    now[0] = 397.0
    with pytest.raises(ConversationExpiredError, match=r"expired or unknown: start a new"):
        await store.loaded_tools(handle)
