"""Conversation stores (docs/store.md) without Redis: the in-memory store,
the layout vectors of e2e/vectors/store on the fields it keeps, the alias
manager's collected registrations, and ConversationExecutor against the
in-process gRPC server (real socket)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

import grpc
import grpc.aio
import pytest
from conftest import Servers, load_vectors
from test_alias_vectors import VECTORS as ALIAS_VECTORS
from test_alias_vectors import response_aliases
from toolset import ALIASES, METHODS, create_json

from ai_tools_runtime import (
    AliasConfig,
    AliasManager,
    AsyncExecutor,
    ConversationExecutor,
    ConversationExpiredError,
    ConversationStore,
    MemoryConversationStore,
    ToolError,
    mint_conversation_handle,
)
from ai_tools_runtime._conversation_executor import StoredConversation
from ai_tools_runtime._json import decode_json
from ai_tools_runtime._store_layout import conversation_key, register_fields, state_from_fields

LAYOUT: dict[str, Any] = load_vectors("store")[0]
EMPTY = '{"aliases":{},"counters":{},"version":1}'


# -- the in-memory store ------------------------------------------------------------


async def test_memory_store_create_load_register_delete() -> None:
    store = MemoryConversationStore()
    assert isinstance(store, ConversationStore)
    a, b = await store.create(), await store.create()
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", a) and a != b
    epoch, state = await store.load(a)
    assert re.fullmatch(r"[0-9a-f]{32}", epoch) and state == EMPTY
    assert (await store.load(b))[0] != epoch  # one epoch per conversation
    u1, u2 = "0b6f0001-0000-4000-8000-000000000001", "0b6f0002-0000-4000-8000-000000000002"
    state = await store.register(a, epoch, [("acct", u1), ("acct", u2), ("user", u1)])
    assert json.loads(state) == {
        "aliases": {"acct-1": u1, "acct-2": u2},
        "counters": {"acct": 2},
        "version": 1,
    }
    assert await store.load(a) == (epoch, state)
    assert await store.load(b) == ((await store.load(b))[0], EMPTY)
    with pytest.raises(ConversationExpiredError) as caught:
        await store.register(a, "f" * 32, [("acct", u1)])
    assert str(caught.value) == (f'conversation "{a}" expired or unknown: start a new conversation')
    await store.delete(a)
    await store.delete(a)  # unknown: not an error
    with pytest.raises(ConversationExpiredError):
        await store.load(a)
    with pytest.raises(ConversationExpiredError):
        await store.register(a, epoch, [])


async def test_memory_store_expires_idle_conversations() -> None:
    now = [0.0]
    store = MemoryConversationStore(idle_ttl_seconds=10, clock=lambda: now[0])
    a, b, c = await store.create(), await store.create(), await store.create()
    epoch, _ = await store.load(a)
    now[0] = 9
    await store.load(a)  # renewed at 9
    await store.register(c, (await store.load(c))[0], [])  # renewed at 9
    now[0] = 15
    with pytest.raises(ConversationExpiredError):
        await store.load(b)  # idle since 0
    assert (await store.load(a))[0] == epoch
    assert len(store) == 2
    now[0] = 30
    assert len(store) == 0
    with pytest.raises(ValueError, match="idle_ttl_seconds must be positive"):
        MemoryConversationStore(idle_ttl_seconds=0)
    assert len({mint_conversation_handle() for _ in range(100)}) == 100


# -- the layout vectors, on the fields the in-memory store keeps ------------------------


@pytest.mark.parametrize("case", LAYOUT["cases"], ids=[c["name"] for c in LAYOUT["cases"]])
def test_layout_case_on_fields(case: dict[str, Any]) -> None:
    assert conversation_key(case["keyPrefix"], case["handle"]) == case["key"]
    fields = {"v": "1", "epoch": case["epoch"]}
    for step in case["steps"]:
        register_fields(fields, [(p, u) for p, u in step["register"]])
        assert state_from_fields(fields) == step["state"]
        manager = AliasManager()
        manager.restore_state(step["state"])
        assert manager.export_state() == step["state"]
    assert fields == case["hash"]


@pytest.mark.parametrize("case", LAYOUT["cases"], ids=[c["name"] for c in LAYOUT["cases"]])
async def test_layout_case_on_the_memory_store(case: dict[str, Any]) -> None:
    store = MemoryConversationStore()
    handle = await store.create()
    epoch, _ = await store.load(handle)
    for step in case["steps"]:
        pairs = [(p, u) for p, u in step["register"]]
        assert await store.register(handle, epoch, pairs) == step["state"]
        assert (await store.load(handle))[1] == step["state"]


class FieldsStore:
    """A store holding one conversation's fields as given (a vector's
    ``setup``), the way Redis would hold them: for the refusals."""

    def __init__(self, fields: dict[str, str] | None) -> None:
        self.fields = fields

    async def create(self, suffix: str = "") -> str:
        raise AssertionError("not used")

    async def load(self, handle: str) -> tuple[str, str]:
        if self.fields is None:
            raise ConversationExpiredError(handle)
        return self.fields.get("epoch", ""), state_from_fields(self.fields)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        if self.fields is None or self.fields.get("epoch") != epoch:
            raise ConversationExpiredError(handle)
        register_fields(self.fields, pairs)
        return state_from_fields(self.fields)

    async def delete(self, handle: str) -> None:
        self.fields = None


REFUSALS: list[dict[str, Any]] = LAYOUT["refusals"]


async def refused(store: ConversationStore, handle: str, refusal: dict[str, Any]) -> ToolError:
    """The error of a refusal vector's load, or register, in a call."""
    with pytest.raises(ToolError) as caught:
        if refusal.get("load"):
            await StoredConversation.load(store, handle, ALIASES)
        else:
            conversation = StoredConversation(
                store, handle, refusal["registerEpoch"], AliasManager(ALIASES)
            )
            created = {"account": {"id": "0b6f0001-0000-4000-8000-000000000001"}}
            await conversation.confirm("accounts_create", [created])
    err = caught.value
    assert err.reason == refusal["error"]
    if refusal["error"] == "conversation-expired":
        assert err.code == grpc.StatusCode.NOT_FOUND
        assert str(err) == f'conversation "{handle}" expired or unknown: start a new conversation'
    else:
        assert err.code == grpc.StatusCode.DATA_LOSS
        assert str(err).startswith(f'conversation "{handle}" cannot be read: restore alias state: ')
    return err


@pytest.mark.parametrize("refusal", REFUSALS, ids=[r.get("name", "v2") for r in REFUSALS])
async def test_layout_refusal(refusal: dict[str, Any]) -> None:
    store = FieldsStore(dict(refusal["setup"]) if refusal["setup"] is not None else None)
    await refused(store, "AAAAAAAAAAAAAAAAAAAAAA", refusal)


def test_store_scripts_and_vectors_present() -> None:
    assert len(LAYOUT["cases"]) >= 2 and len(REFUSALS) >= 5
    assert {r["error"] for r in REFUSALS} == {"conversation-expired", "conversation-corrupt"}


# -- collected registrations -------------------------------------------------------------


REGISTERING = [v for v in ALIAS_VECTORS if any(s["op"] == "registerResponse" for s in v["steps"])]


@pytest.mark.parametrize("vector", REGISTERING, ids=[v["name"] for v in REGISTERING])
def test_collect_registrations_is_what_register_response_registers(
    vector: dict[str, Any],
) -> None:
    config = AliasConfig(
        known_alias_prefixes=frozenset(vector["knownPrefixes"]),
        response_aliases=response_aliases(vector.get("responseAliases")),
    )
    manager, mirror = AliasManager(config), AliasManager(config)
    for step in vector["steps"]:
        if step["op"] == "reset":
            manager, mirror = AliasManager(config), AliasManager(config)
        elif step["op"] == "register":
            manager.register(step["prefix"], step["uuid"])
            mirror.register(step["prefix"], step["uuid"])
        elif step["op"] == "registerResponse":
            value, ok = decode_json(step["json"])
            if not ok:
                continue  # invalid JSON registers nothing (the vector checks it)
            pairs = manager.collect_registrations(step["tool"], [value])
            before = manager.export_state()
            assert manager.collect_registrations(step["tool"], [value]) == pairs
            assert manager.export_state() == before  # collecting registers nothing
            manager.register_response(step["tool"], step["json"])
            for prefix, uuid in pairs:
                mirror.register(prefix, uuid)
            assert mirror.export_state() == manager.export_state()
            assert len({u for _, u in pairs}) == len(pairs)


def test_collect_registrations_across_stream_messages() -> None:
    manager = AliasManager(ALIASES)
    u = [f"0b6f000{i}-0000-4000-8000-00000000000{i}" for i in range(1, 4)]
    messages = [{"id": u[0], "ownerId": u[1]}, {"id": u[2], "ownerId": u[1]}, {"id": u[0]}]
    assert manager.collect_registrations("accounts_watch", messages) == [
        ("acct", u[0]),
        ("user", u[1]),
        ("acct", u[2]),
    ]
    assert manager.collect_registrations("nope", messages) == []
    manager.register("acct", u[2])
    assert [p for p in manager.collect_registrations("accounts_watch", messages)] == [
        ("acct", u[0]),
        ("user", u[1]),
    ]


# -- ConversationExecutor ------------------------------------------------------------------


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


def executor_on(channel: grpc.aio.Channel, store: ConversationStore) -> ConversationExecutor:
    return ConversationExecutor(AsyncExecutor(channel, METHODS, ALIASES), store)


async def test_a_conversation_continues_in_another_executor(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    store = MemoryConversationStore()
    first, second = executor_on(aio_channel, store), executor_on(aio_channel, store)
    assert first.store is store and "accounts_create" in first.tool_names
    handle = await first.start()
    out = json.loads(await first.execute(handle, "accounts_create", create_json("A")))
    assert out["account"]["id"] == "acct-1"
    out = json.loads(await second.execute(handle, "accounts_create", create_json("B")))
    assert out["account"]["id"] == "acct-2"
    merged = json.loads(
        await first.execute(
            handle, "accounts_merge", '{"source_id":"acct-1","target_id":"acct-2","note":""}'
        )
    )
    received = servers.accounts.received[-1]
    state = json.loads((await store.load(handle))[1])
    assert received.source_id == state["aliases"]["acct-1"]
    assert received.target_id == state["aliases"]["acct-2"]
    assert merged["received_source_id"] == "acct-1" and merged["account"]["id"] == "acct-2"
    # the same calls through one in-memory executor give the same aliases
    memory = AsyncExecutor(aio_channel, METHODS, ALIASES)
    await memory.execute("accounts_create", create_json("A"))
    await memory.execute("accounts_create", create_json("B"))
    assert sorted(json.loads(memory.aliases.export_state())["aliases"]) == sorted(state["aliases"])
    await second.end(handle)
    with pytest.raises(ToolError) as caught:
        await first.execute(handle, "accounts_create", create_json("C"))
    assert caught.value.reason == "conversation-expired"
    assert caught.value.code == grpc.StatusCode.NOT_FOUND


async def test_a_stream_registers_every_message_in_order(aio_channel: grpc.aio.Channel) -> None:
    store = MemoryConversationStore()
    executor = executor_on(aio_channel, store)
    handle = await executor.start()
    items = json.loads(await executor.execute(handle, "accounts_watch", '{"count":3}'))
    assert [i["id"] for i in items] == ["acct-1", "acct-2", "acct-3"]
    assert [i["contacts"][0]["id"] for i in items] == ["contact-1", "contact-2", "contact-3"]
    assert json.loads((await store.load(handle))[1])["counters"] == {"acct": 3, "contact": 3}


async def test_errors_are_those_of_the_in_memory_executor(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    store = MemoryConversationStore()
    executor = executor_on(aio_channel, store)
    memory = AsyncExecutor(aio_channel, METHODS, ALIASES)
    handle = await executor.start()
    for args in [create_json("A"), create_json("B")]:
        await executor.execute(handle, "accounts_create", args)
        await memory.execute("accounts_create", args)
    for tool, args in [
        ("accounts_merge", '{"source_id":"acct-7","target_id":"acct-1","note":""}'),
        ("nope", "{}"),
        ("fixup_loose", '{"count":1.5}'),
    ]:
        with pytest.raises(ToolError) as stored:
            await executor.execute(handle, tool, args)
        with pytest.raises(ToolError) as direct:
            await memory.execute(tool, args)
        assert (stored.value.reason, str(stored.value)) == (direct.value.reason, str(direct.value))
    sent = servers.received()
    with pytest.raises(ToolError):
        await executor.execute(
            handle, "accounts_merge", '{"source_id":"acct-7","target_id":"acct-1","note":""}'
        )
    assert servers.received() == sent  # nothing sent on an unknown alias


async def test_an_unknown_handle_sends_nothing(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    executor = executor_on(aio_channel, MemoryConversationStore())
    with pytest.raises(ToolError) as caught:
        await executor.execute("nope", "accounts_create", create_json("A"))
    assert str(caught.value) == ('conversation "nope" expired or unknown: start a new conversation')
    assert servers.received() == 0


class FailingStore(MemoryConversationStore):
    """The in-memory store whose operations fail from a given moment, the
    way a client fails when its server is gone."""

    def __init__(self) -> None:
        super().__init__()
        self.down: set[str] = set()

    def _fail(self, op: str) -> None:
        if op in self.down:
            raise ConnectionError(
                f"Error 111 connecting to 127.0.0.1:1.\nConnection refused ({op})"
            )

    async def create(self, suffix: str = "") -> str:
        self._fail("create")
        return await super().create(suffix)

    async def load(self, handle: str) -> tuple[str, str]:
        self._fail("load")
        return await super().load(handle)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        self._fail("register")
        return await super().register(handle, epoch, pairs)

    async def delete(self, handle: str) -> None:
        self._fail("delete")
        await super().delete(handle)


async def test_a_failing_store_is_store_unavailable(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    store = FailingStore()
    executor = executor_on(aio_channel, store)
    handle = await executor.start()
    await executor.execute(handle, "accounts_create", create_json("A"))
    for op in ["create", "load", "register", "delete"]:
        store.down = {op}
        with pytest.raises(ToolError) as caught:
            if op == "create":
                await executor.start()
            elif op == "delete":
                await executor.end(handle)
            else:
                await executor.execute(handle, "accounts_create", create_json("B"))
        assert caught.value.reason == "store-unavailable", op
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
        assert str(caught.value) == (
            "conversation store unavailable: Error 111 connecting to 127.0.0.1:1. "
            f"Connection refused ({op})"
        )
        assert isinstance(caught.value.__cause__, ConnectionError)
    store.down = set()
    # the call whose registration failed showed nothing: acct-2 was never confirmed
    out = json.loads(await executor.execute(handle, "accounts_create", create_json("C")))
    assert out["account"]["id"] == "acct-2"


async def test_concurrent_calls_in_one_conversation_number_without_gaps(
    aio_channel: grpc.aio.Channel,
) -> None:
    store = MemoryConversationStore()
    executors = [executor_on(aio_channel, store) for _ in range(4)]
    handle = await executors[0].start()

    async def create(i: int) -> str:
        out = await executors[i % 4].execute(handle, "accounts_create", create_json(f"n{i}"))
        return str(json.loads(out)["account"]["id"])

    shown = await asyncio.gather(*(create(i) for i in range(40)))
    assert sorted(shown) == sorted(f"acct-{i}" for i in range(1, 41))
    state = json.loads((await store.load(handle))[1])
    assert len(set(state["aliases"].values())) == 40
