"""AliasManager beyond the shared vectors: concurrency, Go-compatible output."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import pytest

from ai_tools_runtime import (
    AliasConfig,
    AliasManager,
    ResponseAliases,
    ResponseAliasField,
    ResponseAliasTool,
    ToolError,
)

CONFIG = AliasConfig(
    known_alias_prefixes=frozenset({"acct"}),
    response_aliases=ResponseAliases(
        types={"t.Account": (ResponseAliasField(field="id", prefix="acct"),)},
        tools={"accounts_get": ResponseAliasTool(message="t.Account")},
    ),
)


def test_threads_never_share_or_skip_numbers() -> None:
    m = AliasManager(CONFIG)
    ids = [str(uuid.uuid4()) for _ in range(400)]
    out: dict[str, str] = {}
    lock = threading.Lock()

    def work(part: list[str]) -> None:
        for u in part:
            a = m.register("acct", u)
            m.aliasify_json(f'{{"id":"{u}"}}')
            m.resolve_json(f'{{"id":"{a}"}}')
            with lock:
                out[u] = a

    threads = [threading.Thread(target=work, args=(ids[i::8] * 2,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(out.values()) == sorted(f"acct-{i}" for i in range(1, 401))
    assert all(m.resolve_alias(a) == u for u, a in out.items())


async def test_asyncio_tasks() -> None:
    m = AliasManager(CONFIG)

    async def work(u: str) -> str:
        await asyncio.sleep(0)
        m.register_response("accounts_get", f'{{"id":"{u}"}}')
        return m.aliasify_json(u)

    aliases = await asyncio.gather(*(work(str(uuid.uuid4())) for _ in range(100)))
    assert sorted(aliases) == sorted(f"acct-{i}" for i in range(1, 101))


def test_resolve_output_like_go() -> None:
    m = AliasManager(CONFIG)
    u = m.register("acct", "0a1b2c3d-0000-4000-8000-000000000001")
    text = '{"b":"<a&b>","a":"é\\u2028\\n\\u0001","n":-0.0e+5,"acct":"' + u + '"}'
    assert m.resolve_json(text) == (
        '{"a":"é\\u2028\\n\\u0001","acct":"0a1b2c3d-0000-4000-8000-000000000001",'
        '"b":"<a&b>","n":-0.0e+5}'
    )
    assert m.resolve_json("NaN") == "NaN"  # not JSON: unchanged
    assert m.resolve_json(' \n{"a":1}\t') == '{"a":1}'


def test_unknown_alias_is_a_tool_error_with_json_quoting() -> None:
    m = AliasManager(AliasConfig(known_alias_prefixes=frozenset({'we"ird'})))
    with pytest.raises(ToolError) as caught:
        m.resolve_json('{"a\\tb\\u0001\\u007fé\\u2028":"we\\"ird-1"}')
    assert str(caught.value) == (
        'unknown alias "we\\"ird-1" in field "a\\tb\\u0001\x7fé\u2028"; no we"ird aliases '
        'exist yet: call a tool that returns we"irds first'
    )
    assert caught.value.reason == "unknown-alias"
    assert caught.value.raw_message == str(caught.value)


def test_unknown_alias_message_shows_no_uuid() -> None:
    m = AliasManager(CONFIG)
    u = "0a1b2c3d-0000-4000-8000-000000000001"
    m.register("acct", u)
    with pytest.raises(ToolError) as caught:
        m.resolve_json(f'{{"{u}":{{"x":"acct-2"}}}}')
    assert str(caught.value) == (
        'unknown alias "acct-2" in field "acct-1.x"; valid acct aliases: acct-1'
    )


def test_register_response_is_one_walk_per_response() -> None:
    # 12 accounts of 2 contacts each: acct-1..12 and contact-1..24, account by account.
    m = AliasManager(
        AliasConfig(
            response_aliases=ResponseAliases(
                types={
                    "List": (ResponseAliasField(field="accounts", message="Account"),),
                    "Account": (
                        ResponseAliasField(field="id", prefix="acct"),
                        ResponseAliasField(field="contacts", message="Contact"),
                    ),
                    "Contact": (ResponseAliasField(field="id", prefix="contact"),),
                },
                tools={"accounts_list": ResponseAliasTool(message="List")},
            )
        )
    )
    accounts = [
        {
            "id": str(uuid.UUID(int=a + 1)),
            "contacts": [{"id": str(uuid.UUID(int=1000 + 2 * a + c))} for c in range(2)],
        }
        for a in range(12)
    ]
    m.register_response("accounts_list", json.dumps({"accounts": accounts}))
    for a, account in enumerate(accounts):
        assert m.aliasify_json(account["id"]) == f"acct-{a + 1}"
        for c, contact in enumerate(account["contacts"]):
            assert m.aliasify_json(contact["id"]) == f"contact-{2 * a + c + 1}"


def test_restore_accepts_bytes_and_refuses_junk() -> None:
    m = AliasManager(CONFIG)
    m.restore_state(
        b'{"aliases":{"acct-1":"0a1b2c3d-0000-4000-8000-000000000001"},'
        b'"counters":{"acct":1},"version":1}'
    )
    assert m.register("acct", "0a1b2c3d-0000-4000-8000-000000000002") == "acct-2"
    for bad in (
        b"\xff",
        '{"version":1.0}',
        '{"version":"1"}',
        '{"counters":{"a":"1"},"version":1}',
    ):
        with pytest.raises(ValueError, match=r"^restore alias state: invalid JSON"):
            m.restore_state(bad)


OPERATIONS = AliasConfig(
    known_alias_prefixes=frozenset({"operation"}),
    response_aliases=ResponseAliases(
        types={
            "o.Operation": (ResponseAliasField(field="name", prefix="operation", any_value=True),)
        },
        tools={"export": ResponseAliasTool(message="o.Operation")},
    ),
)


def test_a_name_is_registered_only_when_a_store_could_restore_it() -> None:
    m = AliasManager(OPERATIONS)
    longest = "o/" + "x" * 1022  # 1024 bytes
    for name in ("a\tb", "é" * 513, longest + "x", longest):
        m.register_response("export", json.dumps({"name": name}))
    assert json.loads(m.export_state())["aliases"] == {"operation-1": longest}
    m.restore_state(m.export_state())  # what a store does with it
    refused = '{"aliases":{"operation-1":"' + "y" * 1025 + '"},"version":1}'
    with pytest.raises(ValueError, match="neither a UUID nor a name"):
        m.restore_state(refused)
    assert m.resolve_alias("operation-1") == longest


def test_names_are_aliasified_longest_first_in_one_pass() -> None:
    m = AliasManager(OPERATIONS)
    for name in ("ops/1", "ops/1 (copy)", "operation-1"):
        m.register_response("export", json.dumps({"name": name}))
    # "ops/1 (copy)" wins over "ops/1"; an alias written by the pass is not
    # read again as the name "operation-1" (operation-3).
    assert m.aliasify_json("ops/1 (copy), ops/1") == "operation-2, operation-1"
    assert m.aliasify_json("[operation-1]") == "[operation-3]"
