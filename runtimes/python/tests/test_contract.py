"""The generated executors of vectors.proto against the in-process server:
registration by message type, status details, reasons, and that no
registered UUID reaches the model by any path (docs/runtime.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import ai_tools_gen
import grpc
import grpc.aio
import pytest
from conftest import Servers, status_bin
from google.protobuf import any_pb2, wrappers_pb2
from toolset import create_json

from ai_tools_runtime import Executor, ToolError
from ai_tools_runtime._tool_error import STATUS_DETAILS_KEY

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
ACCT_1 = "0a1b2c3d-0000-4000-8000-000000000001"
ACCT_2 = "0a1b2c3d-0000-4000-8000-000000000002"
USER_1 = "0a1b2c3d-0000-4000-8000-000000000003"


def registered(executor: Executor) -> set[str]:
    state = json.loads(executor.aliases.export_state())
    return set(state["aliases"].values())


def with_aliases(executor: Executor) -> Executor:
    executor.aliases.register("acct", ACCT_1)
    executor.aliases.register("acct", ACCT_2)
    executor.aliases.register("user", USER_1)
    return executor


# -- registration by message type ----------------------------------------------


def test_list_of_accounts_with_contacts(channel: grpc.Channel) -> None:
    executor = ai_tools_gen.Executor(channel)
    out = json.loads(
        executor.execute("accounts_list", '{"count":12,"contacts_per_account":2}', timeout=10)
    )
    accounts = out["accounts"]
    assert [a["id"] for a in accounts] == [f"acct-{i}" for i in range(1, 13)]
    contacts = [c for a in accounts for c in a["contacts"]]
    assert [c["id"] for c in contacts] == [f"contact-{i}" for i in range(1, 25)]
    # Contact.owner_id names the account (acct), where Account.owner_id is a user.
    for a in accounts:
        assert {c["owner_id"] for c in a["contacts"]} == {a["id"]}
        assert UUID.fullmatch(a["workspace_id"])  # no prefix: stays raw
        for c in a["contacts"]:
            assert UUID.fullmatch(c["external_id"])  # unannotated, not the entity
    # The aliases resolve back: a contact alias is not an account.
    merged = json.loads(
        executor.execute("accounts_merge", '{"source_id":"acct-12","target_id":"acct-1","note":""}')
    )
    assert merged["received_source_id"] == "acct-12"
    with pytest.raises(ToolError) as caught:
        executor.execute(
            "accounts_merge", '{"source_id":"contact-3","target_id":"acct-1","note":""}'
        )
    assert caught.value.reason == "server-error"
    assert str(caught.value) == ('rpc error: code = NotFound desc = account "contact-3" not found')


def test_create_registers_nested_notes_and_contacts(channel: grpc.Channel) -> None:
    executor = ai_tools_gen.Executor(channel)
    out = json.loads(
        executor.execute(
            "accounts_create", '{"name":"A","owner_id":"","note_count":2,"contact_count":1}'
        )
    )
    account = out["account"]
    assert account["id"] == "acct-1"
    assert [n["id"] for n in account["notes"]] == ["note-1", "note-2"]
    assert account["contacts"][0]["id"] == "contact-1"
    assert account["contacts"][0]["owner_id"] == "acct-1"


def test_stream_registers_each_message_as_it_arrives(channel: grpc.Channel) -> None:
    executor = ai_tools_gen.Executor(channel)
    out = json.loads(executor.execute("accounts_watch", '{"count":3}'))
    assert [(a["id"], a["contacts"][0]["id"]) for a in out] == [
        ("acct-1", "contact-1"),
        ("acct-2", "contact-2"),
        ("acct-3", "contact-3"),
    ]


async def test_async_registration(servers: Servers) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = ai_tools_gen.AsyncExecutor(channel)
        out = json.loads(
            await executor.execute("accounts_list", '{"count":2,"contacts_per_account":2}')
        )
        assert [c["id"] for a in out["accounts"] for c in a["contacts"]] == [
            "contact-1",
            "contact-2",
            "contact-3",
            "contact-4",
        ]
        stream = json.loads(await executor.execute("accounts_watch", '{"count":2}'))
        assert [a["id"] for a in stream] == ["acct-3", "acct-4"]
        assert [a["contacts"][0]["id"] for a in stream] == ["contact-5", "contact-6"]


# -- errors: reason, code, details ---------------------------------------------


def packed(text: str) -> any_pb2.Any:
    detail = any_pb2.Any()
    detail.Pack(wrappers_pb2.StringValue(value=text))
    return detail


def expect_details(err: ToolError) -> None:
    assert err.reason == "server-error"
    assert err.code == grpc.StatusCode.FAILED_PRECONDITION
    assert str(err) == "rpc error: code = FailedPrecondition desc = account acct-1 is locked"
    assert err.raw_message == "account acct-1 is locked"
    assert len(err.details) == 2
    assert all(isinstance(d, any_pb2.Any) for d in err.details)
    value = wrappers_pb2.StringValue()
    assert err.details[0].Unpack(value)
    assert value.value == f"locked by {ACCT_1}"  # raw ids kept for the application
    assert err.details[1].type_url == "type.googleapis.com/google.protobuf.StringValue"
    keys = [k for k, _ in err.trailing_metadata]
    assert STATUS_DETAILS_KEY in keys


def inject_details(servers: Servers) -> None:
    message = f"account {ACCT_1} is locked"
    trailing = (
        (STATUS_DETAILS_KEY, status_bin(9, message, [packed(f"locked by {ACCT_1}"), packed("")])),
    )
    servers.inject.fail_next(grpc.StatusCode.FAILED_PRECONDITION, message, trailing)


def test_status_details(servers: Servers, channel: grpc.Channel) -> None:
    executor = with_aliases(ai_tools_gen.Executor(channel))
    inject_details(servers)
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_merge", '{"source_id":"acct-1","target_id":"acct-2","note":""}')
    expect_details(caught.value)


async def test_status_details_async(servers: Servers) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = ai_tools_gen.AsyncExecutor(channel)
        executor.aliases.register("acct", ACCT_1)
        inject_details(servers)
        with pytest.raises(ToolError) as caught:
            await executor.execute(
                "accounts_merge", '{"source_id":"acct-1","target_id":"acct-1","note":""}'
            )
    expect_details(caught.value)


def test_undecodable_status_details_are_left_out(servers: Servers, channel: grpc.Channel) -> None:
    executor = ai_tools_gen.Executor(channel)
    servers.inject.fail_next(grpc.StatusCode.ABORTED, "x", ((STATUS_DETAILS_KEY, b"\xff\xff"),))
    with pytest.raises(ToolError) as caught:
        executor.execute("fixup_loose", "{}")
    assert caught.value.details == ()
    assert caught.value.code == grpc.StatusCode.ABORTED


def test_reasons_and_causes(servers: Servers, channel: grpc.Channel) -> None:
    executor = ai_tools_gen.Executor(channel)
    cases: list[tuple[Callable[[], Any], str, grpc.StatusCode]] = [
        (lambda: executor.execute("nope", "{}"), "unknown-tool", grpc.StatusCode.NOT_FOUND),
        (
            lambda: executor.execute("fixup_loose", '{"note":"acct-1"}'),
            "unknown-alias",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            lambda: executor.execute("fixup_loose", '{"count":1.5}'),
            "invalid-arguments",
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            lambda: executor.execute("accounts_create", create_json("slow"), timeout=0.05),
            "server-error",
            grpc.StatusCode.DEADLINE_EXCEEDED,
        ),
        (
            lambda: executor.execute("accounts_watch", '{"count":1001}'),
            "result-too-large",
            grpc.StatusCode.RESOURCE_EXHAUSTED,
        ),
    ]
    for call, reason, code in cases:
        with pytest.raises(ToolError) as caught:
            call()
        assert (caught.value.reason, caught.value.code) == (reason, code), str(caught.value)
        assert caught.value.raw_message == (
            str(caught.value) if reason != "server-error" else caught.value.raw_message
        )
    with pytest.raises(ToolError) as caught:
        executor.execute("fixup_loose", '{"count":1.5}')
    assert caught.value.__cause__ is not None  # the decoder's own error


def test_the_object_check_comes_before_aliases(channel: grpc.Channel) -> None:
    # Stage 1 before stage 3: an alias, registered or not, as the whole
    # arguments is not an object.
    executor = with_aliases(ai_tools_gen.Executor(channel))
    for args in ('"acct-9"', '"acct-1"'):
        with pytest.raises(ToolError) as caught:
            executor.execute("accounts_merge", args)
        assert caught.value.reason == "invalid-arguments"
        assert str(caught.value) == (
            "invalid arguments, nothing was sent:\n- expected a JSON object, got a string"
        )


def test_unreachable_and_closed_are_unavailable(servers: Servers) -> None:
    with grpc.insecure_channel("127.0.0.1:1") as ch:
        executor = ai_tools_gen.Executor(ch)
        with pytest.raises(ToolError) as caught:
            executor.execute("accounts_list", '{"count":0,"contacts_per_account":0}', timeout=5)
    assert (caught.value.reason, caught.value.code) == ("unavailable", grpc.StatusCode.UNAVAILABLE)
    assert str(caught.value) == f"rpc error: code = Unavailable desc = {caught.value.raw_message}"
    channel = grpc.insecure_channel(servers.target)
    executor = ai_tools_gen.Executor(channel)
    channel.close()
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_list", '{"count":0,"contacts_per_account":0}')
    assert (caught.value.reason, caught.value.code) == ("unavailable", grpc.StatusCode.UNAVAILABLE)
    assert isinstance(caught.value.__cause__, ValueError)


# -- no UUID reaches the model -------------------------------------------------

LEAKS = [
    ("fixup_loose", '{"count":"acct-1"}'),  # int32
    ("fixup_loose", '{"count":["acct-1"]}'),
    ("fixup_loose", '{"enabled":"acct-2"}'),  # bool
    ("fixup_loose", '{"timeout":"user-1"}'),  # Duration
    ("fixup_loose", '{"items":[{"counts":{"a":"acct-1"}}]}'),  # map<string, int32>
    ("fixup_loose", '{"item":"acct-1"}'),  # a message
    ("fixup_loose", '{"labels":"acct-1"}'),  # a map
    ("fixup_loose", '"acct-1"'),  # the whole arguments one alias
    ("fixup_loose", '["acct-1"]'),
    ("accounts_merge", '"acct-1"'),
    # Past the kind checks, the decoder echoes the resolved value.
    ("fixup_loose", '{"items_by_num":[{"key":"acct-1","value":{}}]}'),
    ("fixup_loose", '{"number":"acct-1"}'),
    # The model's own keys, and the tool name, hold a UUID.
    ("fixup_loose", f'{{"{ACCT_1}":"acct-9"}}'),
    ("fixup_loose", f'{{"items":[{{"{ACCT_2}":1, "name":7}}]}}'),
    (ACCT_1, "{}"),
]


@pytest.mark.parametrize(("tool", "args"), LEAKS)
def test_no_uuid_in_errors(tool: str, args: str, servers: Servers, channel: grpc.Channel) -> None:
    executor = with_aliases(ai_tools_gen.Executor(channel))
    with pytest.raises(ToolError) as caught:
        executor.execute(tool, args)
    text = str(caught.value)
    for uuid in registered(executor):
        assert uuid not in text, text
        assert uuid not in caught.value.raw_message
    assert servers.received() == 0


@pytest.mark.parametrize(
    "args",
    [
        '{"data":"acct-1"}',  # bytes: the UUID is valid base64 and decodes
        '{"labels":{"a":"acct-1"},"attrs":{"k":"acct-2"},"extra":"user-1"}',
        '{"display_name":"merge acct-1 into acct-2"}',
        f'{{"display_name":"{ACCT_1}"}}',
    ],
)
def test_no_uuid_in_results(args: str, channel: grpc.Channel) -> None:
    executor = with_aliases(ai_tools_gen.Executor(channel))
    out = executor.execute("fixup_loose", args)
    for uuid in registered(executor):
        assert uuid not in out, out


def test_server_error_and_stream_limit_never_show_uuids(
    servers: Servers, channel: grpc.Channel
) -> None:
    executor = with_aliases(ai_tools_gen.Executor(channel))
    servers.inject.fail_next(grpc.StatusCode.INTERNAL, f"{ACCT_1}/{USER_1}: {ACCT_2.upper()}")
    with pytest.raises(ToolError) as caught:
        executor.execute("fixup_loose", "{}")
    assert caught.value.raw_message == f"acct-1/user-1: {ACCT_2.upper()}"  # case-sensitive
    with pytest.raises(ToolError) as caught:
        executor.execute("accounts_watch", '{"count":1001}')
    for uuid in registered(executor):
        assert uuid not in str(caught.value)


# -- keys as written -----------------------------------------------------------


def test_proto_key_is_an_ordinary_key(servers: Servers, channel: grpc.Channel) -> None:
    executor = with_aliases(ai_tools_gen.Executor(channel))
    with pytest.raises(ToolError) as caught:
        executor.execute("fixup_loose", '{"__proto__":{"display_name":"x"}}')
    assert caught.value.violations[0].field == "__proto__"  # an unknown field, refused
    assert servers.fixup.received == []
    out = executor.execute(
        "fixup_loose", '{"labels":{"__proto__":"acct-1"},"attrs":{"__proto__":{"a":1}}}'
    )
    received = servers.fixup.received[0]
    assert dict(received.labels) == {"__proto__": ACCT_1}
    assert received.attrs["__proto__"]["a"] == 1
    assert json.loads(out)["labels"] == {"__proto__": "acct-1"}


@pytest.mark.parametrize("depth", [50, 500, 990, 1000, 1010, 3000])
def test_deep_arguments_are_a_tool_error(depth: int, servers: Servers) -> None:
    with grpc.insecure_channel(servers.target) as channel:
        executor = ai_tools_gen.Executor(channel)
        for args in (
            '{"extra":' + "[" * depth + "]" * depth + "}",
            '{"item":' + '{"children":[' * depth + "]}" * depth + "}",
        ):
            try:
                executor.execute("fixup_loose", args, timeout=10)
            except ToolError as err:
                assert err.reason in ("invalid-arguments", "server-error"), str(err)
