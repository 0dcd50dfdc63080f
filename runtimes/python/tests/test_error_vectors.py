"""The shared error vectors of e2e/vectors/errors, run unchanged through the
generated executors of vectors.proto (tests/gen/ai_tools_gen.py), sync and
asyncio, against the in-process server on a real socket."""

from __future__ import annotations

from typing import Any

import ai_tools_gen
import grpc
import grpc.aio
import pytest
from conftest import Servers, bad_request, load_vectors, status_bin

from ai_tools_runtime import AliasManager, ToolError
from ai_tools_runtime._tool_error import STATUS_DETAILS_KEY

VECTORS = load_vectors("errors")
CASES = [(v, c) for v in VECTORS for c in v["cases"]]
IDS = [f"{v['name']}: {c['name']}" for v, c in CASES]


def prepare(
    vector: dict[str, Any], case: dict[str, Any], servers: Servers, aliases: AliasManager
) -> None:
    for r in vector["register"]:
        aliases.register(r["prefix"], r["uuid"])
    if "server" in case:
        server = case["server"]
        code = grpc.StatusCode[server["code"]]
        trailing: tuple[tuple[str, Any], ...] = ()
        if "badRequest" in server:
            detail = bad_request([(v["field"], v["description"]) for v in server["badRequest"]])
            status = status_bin(code.value[0], server["message"], [detail])
            trailing = ((STATUS_DETAILS_KEY, status),)
        servers.inject.fail_next(code, server["message"], trailing)


def check(case: dict[str, Any], servers: Servers, err: ToolError | None) -> None:
    expect = case.get("expect")
    if expect is None:
        assert err is None, f"unexpected error: {err}"
    else:
        assert err is not None, "the call succeeded"
        assert {
            "reason": err.reason,
            "code": err.code.name,
            "message": str(err),
            "rawMessage": err.raw_message,
        } == expect
        assert err.message == str(err)
        server = case.get("server", {})
        assert len(err.details) == (1 if "badRequest" in server else 0)
        # the field violations, aliasified (their lines are in the message)
        assert [v.field for v in err.violations if v.reason == "server"] == [
            v["field"] for v in server.get("badRequest", ())
        ]
    assert (servers.received() > 0) == case["sent"]


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_error_vector(
    vector: dict[str, Any], case: dict[str, Any], servers: Servers, channel: grpc.Channel
) -> None:
    executor = ai_tools_gen.Executor(channel)
    prepare(vector, case, servers, executor.aliases)
    err: ToolError | None = None
    try:
        executor.execute(case["tool"], case["args"], timeout=10)
    except ToolError as caught:
        err = caught
    check(case, servers, err)


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
async def test_error_vector_async(
    vector: dict[str, Any], case: dict[str, Any], servers: Servers
) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = ai_tools_gen.AsyncExecutor(channel)
        prepare(vector, case, servers, executor.aliases)
        err: ToolError | None = None
        try:
            await executor.execute(case["tool"], case["args"], timeout=10)
        except ToolError as caught:
            err = caught
    check(case, servers, err)


def test_every_case_ran() -> None:
    assert len(CASES) >= 37
    reasons = {c["expect"]["reason"] for _, c in CASES if "expect" in c}
    assert reasons >= {
        "unknown-tool",
        "unknown-alias",
        "invalid-arguments",
        "server-error",
        "unavailable",
    }
