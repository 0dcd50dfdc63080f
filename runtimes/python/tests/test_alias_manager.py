"""AliasManager beyond the shared vectors: concurrency, Go-compatible output."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from ai_tools_runtime import AliasConfig, AliasManager, ToolError

CONFIG = AliasConfig({"id": ""}, frozenset({"acct"}))


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
        m.register_fields_from_json("acct", f'{{"id":"{u}"}}')
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


def test_unknown_alias_is_a_tool_error_with_go_quoting() -> None:
    m = AliasManager(AliasConfig({}, frozenset({'we"ird'})))
    with pytest.raises(ToolError) as caught:
        m.resolve_json('{"a\\tb":"we\\"ird-1"}')
    assert str(caught.value) == (
        'unknown alias "we\\"ird-1" in field "a\\tb"; no we"ird aliases exist yet: '
        'call a tool that returns we"irds first'
    )


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
