"""Executor and AsyncExecutor against the in-process gRPC server (real
socket): call flow, aliases, fix-up, server errors, streams, bad input."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import AsyncIterator, Sequence
from types import SimpleNamespace

import grpc
import grpc.aio
import pytest
from conftest import Servers, new_uuid
from toolset import ALIASES, METHODS, create_args, create_json

from ai_tools_runtime import (
    DEFAULT_TIMEOUT,
    AliasManager,
    AsyncExecutor,
    Executor,
    ToolError,
    Violation,
)

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture
def executor(channel: grpc.Channel) -> Executor:
    return Executor(channel, METHODS, ALIASES)


@pytest.fixture
async def aexecutor(servers: Servers) -> AsyncIterator[AsyncExecutor]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield AsyncExecutor(ch, METHODS, ALIASES)


def test_create_aliases_the_response(executor: Executor, servers: Servers) -> None:
    owner = new_uuid()
    out = executor.execute("accounts_create", create_json("A", owner_id=owner))
    value = json.loads(out)
    account = value["account"]
    assert account["id"] == "acct-1"
    assert account["owner_id"] == "user-1"
    assert UUID.fullmatch(account["workspace_id"])  # not an aliased field: stays raw
    assert "notes" not in account and "tags" not in account  # unpopulated left out
    assert out == json.dumps(value, separators=(",", ":"))  # compact
    assert list(account) == ["id", "name", "owner_id", "workspace_id"]  # field order
    assert servers.accounts.received[0].owner_id == owner
    assert executor.aliases.resolve_alias("user-1") == owner


def test_aliases_resolved_before_the_call(executor: Executor, servers: Servers) -> None:
    executor.execute("accounts_create", create_json("A"))
    executor.execute("accounts_create", create_json("B"))
    out = json.loads(
        executor.execute(
            "accounts_merge", '{"source_id":"acct-1","target_id":"acct-2","note":"merge acct-1"}'
        )
    )
    received = servers.accounts.received[-1]
    assert received.source_id == executor.aliases.resolve_alias("acct-1")
    assert received.target_id == executor.aliases.resolve_alias("acct-2")
    assert received.note == "merge acct-1"  # free text untouched
    assert out["received_source_id"] == "acct-1"
    assert out["account"]["id"] == "acct-2"


def test_unknown_alias_sends_nothing(executor: Executor, servers: Servers) -> None:
    executor.execute("accounts_create", create_json("A"))
    sent = len(servers.accounts.received)
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_merge", '{"source_id":"acct-7","target_id":"acct-1","note":""}')
    assert str(caught.value) == (
        "invalid arguments, nothing was sent:\n"
        '- "source_id": unknown alias "acct-7"; valid acct aliases: acct-1'
    )
    assert caught.value.reason == "unknown-alias"
    assert caught.value.violations == (
        Violation(
            "source_id", "unknown-alias", 'unknown alias "acct-7"; valid acct aliases: acct-1'
        ),
    )
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert len(servers.accounts.received) == sent


def test_server_error_keeps_code_and_shows_aliases(executor: Executor) -> None:
    gone = new_uuid()
    alias = executor.aliases.register("acct", gone)
    with pytest.raises(ToolError) as caught:
        executor.execute(
            "accounts_merge", json.dumps({"source_id": alias, "target_id": alias, "note": ""})
        )
    err = caught.value
    assert err.code == grpc.StatusCode.NOT_FOUND
    assert err.reason == "server-error"
    assert str(err) == 'rpc error: code = NotFound desc = account "acct-1" not found'
    assert err.raw_message == 'account "acct-1" not found'
    assert err.details == ()
    assert ("raw-id", gone) in err.trailing_metadata  # raw ids kept for the application
    assert isinstance(err.__cause__, grpc.RpcError)


def test_stream_collected_into_an_array(executor: Executor) -> None:
    out = json.loads(executor.execute("accounts_watch", '{"count":3}'))
    assert [a["id"] for a in out] == ["acct-1", "acct-2", "acct-3"]
    assert executor.execute("accounts_watch", "{}") == "[]"


def test_stream_over_1000_messages_refused(channel: grpc.Channel) -> None:
    executor = Executor(channel, METHODS, ALIASES, max_result_bytes=0)
    with pytest.raises(ToolError, match=r"^stream returned more than 1000 messages"):
        executor.execute("accounts_watch", '{"count":1001}')
    out = json.loads(executor.execute("accounts_watch", '{"count":1000}'))
    assert len(out) == 1000


HEAD = "invalid arguments, nothing was sent:\n- "


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("not json", HEAD + "invalid JSON"),
        ('{"name":', HEAD + "invalid JSON"),
        ('{"name":"a"} trailing', HEAD + "invalid JSON"),
        ("[]", HEAD + "expected a JSON object, got an array"),
        ('"x"', HEAD + "expected a JSON object, got a string"),
        ("null", HEAD + "expected a JSON object, got null"),
        (create_json(5), HEAD + '"name": expected a string, got 5'),
        (create_json(note_count="many"), HEAD + '"note_count": expected an integer, got "many"'),
        (create_json(note_count=1.5), HEAD),
        (create_json(note_count=3000000000), HEAD),
        (create_json({"a": 1}), HEAD + '"name": expected a string, got an object'),
    ],
)
def test_bad_arguments_send_nothing(
    executor: Executor, servers: Servers, args: str, message: str
) -> None:
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", args)
    assert str(caught.value).startswith(message), str(caught.value)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert servers.accounts.received == []


def test_unknown_tool(executor: Executor, servers: Servers) -> None:
    assert not executor.can_execute("accounts_delete")
    assert executor.can_execute("accounts_create")
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_delete", "{}")
    assert str(caught.value) == "no auto-executor for tool: accounts_delete"
    assert servers.accounts.received == []


def test_lenient_arguments_ignore_unknown_fields(channel: grpc.Channel, servers: Servers) -> None:
    executor = Executor(channel, METHODS, ALIASES, lenient_arguments=True)
    args = {**create_args(note_count=2), "mystery": {"x": None}}
    executor.execute("accounts_create", json.dumps(args))
    assert servers.accounts.received[0].note_count == 2


def test_metadata_and_timeout_passed(executor: Executor, servers: Servers) -> None:
    executor.execute(
        "accounts_create", create_json(), timeout=5, metadata=[("x-conversation", "c1")]
    )
    assert ("x-conversation", "c1") in servers.accounts.metadata[0]


def test_deadline_exceeded_is_a_tool_error(executor: Executor) -> None:
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", create_json("slow"), timeout=0.05)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert str(caught.value).startswith("rpc error: code = DeadlineExceeded desc = ")


def test_unavailable_server_is_a_tool_error() -> None:
    with grpc.insecure_channel("127.0.0.1:1") as ch:
        executor = Executor(ch, METHODS, ALIASES)
        with pytest.raises(ToolError) as caught:
            executor.execute("accounts_list", '{"count":0,"contacts_per_account":0}', timeout=5)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE


def test_shared_alias_manager(channel: grpc.Channel) -> None:
    manager = AliasManager(ALIASES)
    a = Executor(channel, METHODS, manager)
    b = Executor(channel, METHODS, manager)
    assert a.aliases is b.aliases is manager
    a.execute("accounts_create", create_json())
    assert manager.resolve_alias("acct-1") != "acct-1"


def test_export_restore_across_executors(channel: grpc.Channel) -> None:
    first = Executor(channel, METHODS, ALIASES)
    first.execute("accounts_list", '{"count":2,"contacts_per_account":0}')
    second = Executor(channel, METHODS, ALIASES)
    second.aliases.restore_state(first.aliases.export_state())
    out = json.loads(
        second.execute("accounts_merge", '{"source_id":"acct-2","target_id":"acct-1","note":""}')
    )
    assert out["received_source_id"] == "acct-2"


def test_duplicate_tool_refused(channel: grpc.Channel) -> None:
    with pytest.raises(ValueError, match="two executors"):
        Executor(channel, [METHODS[0], METHODS[0]], ALIASES)


def test_parallel_calls_on_one_executor(executor: Executor, servers: Servers) -> None:
    results: list[str] = []
    lock = threading.Lock()

    def work() -> None:
        for _ in range(5):
            out = json.loads(executor.execute("accounts_create", create_json()))
            with lock:
                results.append(out["account"]["id"])

    threads = [threading.Thread(target=work) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(f"acct-{i}" for i in range(1, 51))
    uuids = {executor.aliases.resolve_alias(a) for a in results}
    assert uuids == set(servers.accounts.accounts)


# -- AsyncExecutor -----------------------------------------------------------


async def test_async_flow(aexecutor: AsyncExecutor, servers: Servers) -> None:
    out = json.loads(await aexecutor.execute("accounts_create", create_json("A")))
    assert out["account"]["id"] == "acct-1"
    out = json.loads(
        await aexecutor.execute(
            "accounts_merge", '{"source_id":"acct-1","target_id":"acct-1","note":""}'
        )
    )
    assert out["received_source_id"] == "acct-1"
    assert servers.accounts.received[-1].source_id == aexecutor.aliases.resolve_alias("acct-1")


async def test_async_errors(aexecutor: AsyncExecutor, servers: Servers) -> None:
    with pytest.raises(ToolError, match="no auto-executor for tool: nope"):
        await aexecutor.execute("nope", "{}")
    with pytest.raises(ToolError, match=r"^invalid arguments, nothing was sent:\n- invalid JSON"):
        await aexecutor.execute("accounts_create", "not json")
    with pytest.raises(ToolError, match=r'\n- "source_id": unknown alias "acct-3"'):
        await aexecutor.execute("accounts_merge", '{"source_id":"acct-3","target_id":"","note":""}')
    assert servers.accounts.received == []
    alias = aexecutor.aliases.register("acct", new_uuid())
    with pytest.raises(ToolError) as caught:
        await aexecutor.execute(
            "accounts_merge", json.dumps({"source_id": alias, "target_id": "", "note": ""})
        )
    assert caught.value.code == grpc.StatusCode.NOT_FOUND
    assert str(caught.value) == 'rpc error: code = NotFound desc = account "acct-1" not found'


async def test_async_stream(aexecutor: AsyncExecutor) -> None:
    out = json.loads(
        await aexecutor.execute("accounts_watch", '{"count":3}', metadata=[("a", "b")])
    )
    assert [a["id"] for a in out] == ["acct-1", "acct-2", "acct-3"]
    with pytest.raises(ToolError) as caught:
        await aexecutor.execute("accounts_watch", '{"count":1001}')
    assert caught.value.reason == "result-too-large"
    assert str(caught.value) == (
        "result too large: more than 100000 bytes; ask for less (a smaller page size or a filter)"
    )


async def test_async_parallel_tasks(aexecutor: AsyncExecutor) -> None:
    import asyncio

    outs = await asyncio.gather(
        *(aexecutor.execute("accounts_create", create_json()) for _ in range(50))
    )
    ids = sorted(json.loads(o)["account"]["id"] for o in outs)
    assert ids == sorted(f"acct-{i}" for i in range(1, 51))


def test_closed_channel_is_a_tool_error(servers: Servers) -> None:
    channel = grpc.insecure_channel(servers.target)
    executor = Executor(channel, METHODS, ALIASES)
    channel.close()
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", create_json("A"))
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    assert str(caught.value).startswith("rpc error: code = Unavailable desc = ")


# -- issue 30: naming, result size, deadlines ---------------------------------


def test_json_names_restore_lower_camel_results(channel: grpc.Channel) -> None:
    executor = Executor(channel, METHODS, ALIASES, json_names=True)
    account = json.loads(executor.execute("accounts_create", create_json()))
    assert list(account["account"]) == ["id", "name", "workspaceId"]
    listed = json.loads(executor.execute("accounts_list", '{"count":1,"contacts_per_account":1}'))
    # registration reads either naming: the contact's owner is the account
    contact = listed["accounts"][0]["contacts"][0]
    assert (contact["id"], contact["ownerId"]) == ("contact-1", "acct-2")


def test_a_result_over_the_limit_is_refused(channel: grpc.Channel) -> None:
    executor = Executor(channel, METHODS, ALIASES, max_result_bytes=300)
    out = executor.execute("accounts_list", '{"count":1,"contacts_per_account":0}')
    assert len(out.encode()) <= 300
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_list", '{"count":20,"contacts_per_account":0}')
    err = caught.value
    assert (err.reason, err.code) == ("result-too-large", grpc.StatusCode.RESOURCE_EXHAUSTED)
    size = int(str(err).split()[3])
    assert size > 300
    assert str(err) == (
        f"result too large: {size} bytes, over the limit of 300; "
        "ask for less (a smaller page size or a filter)"
    )
    # the size is the aliasified text's: the same call without a limit
    unbounded = Executor(channel, METHODS, ALIASES, max_result_bytes=0)
    unbounded.execute("accounts_list", '{"count":1,"contacts_per_account":0}')
    assert (
        len(unbounded.execute("accounts_list", '{"count":20,"contacts_per_account":0}').encode())
        == size
    )


def test_a_stream_stops_once_over_the_limit(channel: grpc.Channel, servers: Servers) -> None:
    executor = Executor(channel, METHODS, ALIASES, max_result_bytes=2000)
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_watch", '{"count":1000}')
    assert str(caught.value) == (
        "result too large: more than 2000 bytes; ask for less (a smaller page size or a filter)"
    )
    # stopped early: far fewer of the 1,000 messages were registered
    state = json.loads(executor.aliases.export_state())
    assert 0 < state["counters"]["acct"] < 100


@pytest.mark.parametrize(
    ("tool_timeout", "executor_timeout", "call_timeout"),
    [(0.05, None, None), (None, 0.05, None), (10.0, None, 0.05), (0.05, 10.0, 10.0)],
)
def test_the_shortest_deadline_wins(
    channel: grpc.Channel,
    tool_timeout: float | None,
    executor_timeout: float | None,
    call_timeout: float | None,
) -> None:
    methods = [dataclasses.replace(m, timeout=tool_timeout) for m in METHODS]
    executor = Executor(channel, methods, ALIASES, timeout=executor_timeout)
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", create_json("slow"), timeout=call_timeout)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert str(caught.value) == "rpc error: code = DeadlineExceeded desc = Deadline Exceeded"


def test_the_default_deadline_is_30_seconds(channel: grpc.Channel) -> None:
    executor = Executor(channel, METHODS, ALIASES)
    method = METHODS[0]
    assert executor._deadline(method, None) == DEFAULT_TIMEOUT == 30.0
    assert executor._deadline(dataclasses.replace(method, timeout=2.0), None) == 2.0
    assert executor._deadline(method, 1.0) == 1.0


def test_a_zero_timeout_is_no_deadline(channel: grpc.Channel) -> None:
    executor = Executor(channel, METHODS, ALIASES, timeout=0)
    method = METHODS[0]
    assert executor._deadline(method, None) is None
    assert executor._deadline(method, 1.0) == 1.0
    assert executor._deadline(dataclasses.replace(method, timeout=2.0), None) == 2.0
    assert json.loads(executor.execute("accounts_create", create_json()))["account"]


def test_bad_options_are_refused(channel: grpc.Channel) -> None:
    with pytest.raises(
        ValueError, match=r"max_result_bytes must be 0 \(no limit\) or more, got -1"
    ):
        Executor(channel, METHODS, ALIASES, max_result_bytes=-1)
    with pytest.raises(ValueError, match=r"timeout must be 0 \(no deadline\) or a positive"):
        Executor(channel, METHODS, ALIASES, timeout=-1)
    broken = dataclasses.replace(METHODS[0], arguments='{"nodes":[]}')
    with pytest.raises(ValueError, match="invalid argument table"):
        Executor(channel, [broken], ALIASES)


class _Rules:
    """A validator of protovalidate's shape: reports ``found`` or raises
    ``error``."""

    def __init__(self, found: Sequence[object] = (), error: Exception | None = None) -> None:
        self.found, self.error = list(found), error

    def collect_violations(self, message: object) -> list[object]:
        if self.error is not None:
            raise self.error
        return self.found


def _validated(channel: grpc.Channel, validator: _Rules) -> Executor:
    methods = [dataclasses.replace(m, validate=True) for m in METHODS]
    return Executor(channel, methods, ALIASES, validator=validator)


def test_a_validator_that_cannot_run_sends_nothing(channel: grpc.Channel, servers: Servers) -> None:
    executor = _validated(channel, _Rules(error=RuntimeError('no such rule "x"')))
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", create_json())
    err = caught.value
    assert (err.reason, err.code, str(err), err.violations) == (
        "failed-validation",
        grpc.StatusCode.INTERNAL,
        'cannot check the request\'s rules: no such rule "x"',
        (),
    )
    assert servers.accounts.received == []


def test_a_rule_without_a_message_shows_its_id(channel: grpc.Channel) -> None:
    rule = SimpleNamespace(message="", rule_id="name.even", HasField=lambda _: False)
    executor = _validated(channel, _Rules([SimpleNamespace(proto=rule)]))
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_create", create_json())
    assert caught.value.violations == (Violation("", "validation", "name.even"),)
    assert str(caught.value) == "invalid arguments, nothing was sent:\n- name.even"
