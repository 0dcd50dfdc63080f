"""The MCP tool layer of issue 33 (docs/production.md): handles bound to
the caller, approvals (hook, elicitation on both protocol revisions,
refusal), identity to the backend, limits and the audit record; against the
in-process gRPC server (real socket) with the official mcp client, in memory
and over streamable HTTP on a real socket.

Over HTTP the caller's identity is put where the HTTP gate puts it (the
request scope's ``user``, an ``AuthenticatedUser`` carrying the SDK's
``AccessToken``), from a test header, so that these tests exercise the tool
layer alone; the gate itself is tested with real tokens elsewhere."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import anyio
import grpc
import grpc.aio
import httpx2
import mcp_types
import pytest
import uvicorn
from conftest import VECTORS, Servers, wait_for_port
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from test_mcp import HOLD, MODERN, mcp_tools, text_of, wait_for
from test_mcp_search_first import SEARCH
from toolset import ALIASES, METHODS, create_args, create_json

from ai_tools_runtime import AliasConfig, ApprovalRequest, Executor, ToolError
from ai_tools_runtime.mcp import (
    CONVERSATION_META_KEY,
    AuditRecord,
    ForwardIdentity,
    Identity,
    McpToolMethod,
    McpToolServer,
    MemoryConversationStore,
    SearchFirst,
    conversation_key,
    json_lines_audit_writer,
)
from ai_tools_runtime.mcp._approval_flow import UsedStates
from ai_tools_runtime.mcp._identity import access_token_of

SECURITY = json.loads((VECTORS / "security" / "security.json").read_text(encoding="utf-8"))
LEGACY = "legacy"
APPROVED = "accounts_create"
"""The tool these tests mark as needing an approval (no auto_execute)."""
DENIED = f'the call of "{APPROVED}" was not approved; nothing was sent'
NOT_ASKED = (
    f'the call of "{APPROVED}" needs an approval and none could be asked (no approval hook, '
    "and the client does not support elicitation); nothing was sent"
)
SUBJECT_HEADER = "x-test-subject"
SCOPES_HEADER = "x-test-scopes"


def tools(**changes: Any) -> list[McpToolMethod]:
    """The vectors' tools, accounts_create needing an approval."""
    return [
        dataclasses.replace(m, needs_approval=True, **changes) if m.tool.name == APPROVED else m
        for m in mcp_tools()
    ]


def tool_server(channel: grpc.aio.Channel, **options: Any) -> McpToolServer:
    server = McpToolServer(name="vectors", **options)
    server.add_tools(tools(), ALIASES, channel)
    return server


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


def with_subject(app: Any) -> Any:
    """``app`` with the caller's identity where the HTTP gate puts it, the
    subject read from a test header (none: no authorization)."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            subject = headers.get(SUBJECT_HEADER.encode())
            scopes = tuple(headers.get(SCOPES_HEADER.encode(), b"").decode().split())
            if subject is not None:
                claims = {"tenant": "t-1", "level": 3}
                identity = Identity(subject.decode(), scopes=scopes, claims=claims)
                scope = {**scope, "user": AuthenticatedUser(access_token_of(identity))}
        await app(scope, receive, send)

    return asgi


@asynccontextmanager
async def serving(server: McpToolServer) -> AsyncIterator[str]:
    """``server`` on streamable HTTP (uvicorn on a free port); its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = server.sdk_server.streamable_http_app(
        streamable_http_path="/mcp", host="127.0.0.1", session_idle_timeout=60
    )
    config = uvicorn.Config(with_subject(app), log_level="warning", lifespan="on")
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: uvicorn.Server(config).serve(sockets=[sock]))
        await wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
        tg.cancel_scope.cancel()
    sock.close()


@asynccontextmanager
async def client_as(
    url: str, subject: str | None, mode: str, scopes: str = "", **kw: Any
) -> AsyncIterator[Client]:
    """A client of ``url`` calling as ``subject`` (None: no identity) with
    ``scopes`` (space-separated)."""
    headers = {SUBJECT_HEADER: subject, SCOPES_HEADER: scopes} if subject is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode, **kw) as client,
    ):
        yield client


def answering(action: str, approve: Any = True) -> tuple[Any, list[Any]]:
    """An elicitation callback answering ``action`` (with ``approve``), and
    the list of the forms it was shown."""
    seen: list[Any] = []

    async def callback(_context: Any, params: Any) -> mcp_types.ElicitResult:
        seen.append(params)
        content = {"approve": approve} if action == "accept" else None
        return mcp_types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    return callback, seen


# -- handles bound to the caller -----------------------------------------------


@pytest.mark.parametrize("case", SECURITY["conversationKey"], ids=lambda c: repr(c["subject"]))
def test_conversation_key_vectors(case: dict[str, str]) -> None:
    assert conversation_key(case["handle"], case["subject"]) == case["key"]


async def test_another_subjects_handle_is_unknown(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    records: list[AuditRecord] = []
    server = tool_server(aio_channel, audit=records.append)
    merge = {"source_id": "acct-1", "target_id": "", "note": ""}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN) as alice,
        client_as(url, "bob", MODERN) as bob,
    ):
        first = await alice.call_tool("accounts_list", {"count": 1, "contacts_per_account": 0})
        assert first.meta is not None
        handle = first.meta[CONVERSATION_META_KEY]
        meta = {CONVERSATION_META_KEY: handle}
        sent = servers.received()
        refused = await bob.call_tool("accounts_merge", merge, meta=meta)
        assert refused.is_error
        assert text_of(refused) == (
            f'unknown or expired conversation "{handle}"; '
            'call again without "conversation" to start a new one'
        )
        assert servers.received() == sent
        assert records[-1].outcome == "unauthorized" and records[-1].subject == "bob"
        # the owner still has it: acct-1 resolves in alice's conversation
        mine = await alice.call_tool("accounts_merge", merge, meta=meta)
        assert not mine.is_error, text_of(mine)
        assert servers.received() == sent + 1
    store = server.conversation_store
    assert await store.load(conversation_key(handle, "alice"))
    with pytest.raises(LookupError):
        await store.load(handle)


async def test_without_authorization_the_handle_is_the_key(aio_channel: grpc.aio.Channel) -> None:
    server = tool_server(aio_channel)
    async with serving(server) as url, client_as(url, None, MODERN) as client:
        first = await client.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
        assert first.meta is not None
        assert await server.conversation_store.load(first.meta[CONVERSATION_META_KEY])


# -- approvals -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("answer", [True, False])
async def test_an_approval_hook_decides(
    aio_channel: grpc.aio.Channel, servers: Servers, kind: str, answer: bool
) -> None:
    asked: list[ApprovalRequest] = []

    def sync_hook(request: ApprovalRequest) -> bool:
        asked.append(request)
        return answer

    async def async_hook(request: ApprovalRequest) -> bool:
        return sync_hook(request)

    server = tool_server(aio_channel, approve=sync_hook if kind == "sync" else async_hook)
    async with Client(server.sdk_server) as client:
        result = await client.call_tool(APPROVED, create_args("A"))
        assert result.is_error is not answer
        if not answer:
            assert text_of(result) == DENIED
            assert servers.received() == 0
        else:
            assert len(servers.accounts.received) == 1
        # tools that need none are not asked about
        listed = await client.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
        assert not listed.is_error
    assert asked == [
        ApprovalRequest("", APPROVED, "/aitest.v1.AccountService/CreateAccount", create_args("A"))
    ]


async def test_bad_arguments_are_refused_before_anyone_is_asked(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    asked: list[ApprovalRequest] = []
    server = tool_server(aio_channel, approve=lambda r: bool(asked.append(r)) or True)
    async with Client(server.sdk_server) as client:
        result = await client.call_tool(APPROVED, {"name": "A", "bogus": 1})
        assert result.is_error
        assert text_of(result).startswith("invalid arguments, nothing was sent:")
    assert asked == [] and servers.received() == 0


@pytest.mark.parametrize("mode", [MODERN, LEGACY])
async def test_no_way_to_ask_is_refused(
    aio_channel: grpc.aio.Channel, servers: Servers, mode: str
) -> None:
    records: list[AuditRecord] = []
    server = tool_server(aio_channel, audit=records.append)
    async with Client(server.sdk_server, mode=mode) as client:
        result = await client.call_tool(APPROVED, create_args("A"))
    assert result.is_error and text_of(result) == NOT_ASKED
    assert servers.received() == 0
    assert [r.outcome for r in records] == ["denied"]


@pytest.mark.parametrize("transport", ["memory", "http"])
@pytest.mark.parametrize("mode", [MODERN, LEGACY])
@pytest.mark.parametrize(
    ("action", "approve"), [("accept", True), ("accept", False), ("decline", True)]
)
async def test_elicitation_asks_the_user(
    aio_channel: grpc.aio.Channel,
    servers: Servers,
    transport: str,
    mode: str,
    action: str,
    approve: bool,
) -> None:
    callback, seen = answering(action, approve)
    records: list[AuditRecord] = []
    server = tool_server(aio_channel, audit=records.append)
    runs = action == "accept" and approve
    async with serving(server) as url:
        connect = (
            Client(server.sdk_server, mode=mode, elicitation_callback=callback)
            if transport == "memory"
            else client_as(url, "alice", mode, elicitation_callback=callback)
        )
        async with connect as client:
            result = await client.call_tool(APPROVED, create_args("A"))
    assert result.is_error is not runs, text_of(result)
    if not runs:
        assert text_of(result) == DENIED
    assert len(servers.accounts.received) == (1 if runs else 0)
    assert [r.subject for r in records] == ["" if transport == "memory" else "alice"]
    assert [r.outcome for r in records] == ["ok" if runs else "denied"]
    assert len(seen) == 1
    form = seen[0]
    assert isinstance(form, mcp_types.ElicitRequestFormParams)
    assert form.message == (
        'Allow the call of "accounts_create"? Arguments: '
        '{"name":"A","owner_id":"","note_count":0,"contact_count":0}'
    )
    assert form.requested_schema == {
        "type": "object",
        "properties": {"approve": {"type": "boolean", "title": "Approve"}},
        "required": ["approve"],
    }


async def first_round(client: Client, args: dict[str, Any]) -> mcp_types.InputRequiredResult:
    asked = await client.session.call_tool(APPROVED, args, allow_input_required=True)
    assert isinstance(asked, mcp_types.InputRequiredResult)
    return asked


ACCEPT: mcp_types.InputResponses = {
    "approval": mcp_types.ElicitResult(action="accept", content={"approve": True})
}


@pytest.mark.parametrize(
    "tamper",
    ["altered state", "other arguments", "no state", "other subject", "other server"],
)
async def test_a_forged_approval_is_denied(
    aio_channel: grpc.aio.Channel, servers: Servers, tamper: str
) -> None:
    # The requestState of a 2026-07-28 approval is sealed and bound to the
    # tool, the arguments, the subject and ten minutes: anything else that
    # comes back is the denied result, and nothing is sent.
    callback, _ = answering("accept")
    server = tool_server(aio_channel, approval_secret="s" * 32)
    other = tool_server(aio_channel, approval_secret="t" * 32)
    records: list[AuditRecord] = []
    server._policy._audit = records.append
    async with (
        serving(server) as url,
        serving(other) as other_url,
        client_as(url, "alice", MODERN, elicitation_callback=callback) as alice,
        client_as(url, "bob", MODERN, elicitation_callback=callback) as bob,
        client_as(other_url, "alice", MODERN, elicitation_callback=callback) as elsewhere,
    ):
        asked = await first_round(alice, create_args("A"))
        assert asked.input_requests is not None and list(asked.input_requests) == ["approval"]
        state = asked.request_state
        assert state is not None and "ai-tools" not in state  # sealed, not readable
        retry: Callable[..., Awaitable[Any]] = alice.session.call_tool
        args = create_args("A")
        if tamper == "altered state":
            state = state[:-2] + ("AA" if state[-2:] != "AA" else "BB")
        elif tamper == "other arguments":
            args = create_args("B")
        elif tamper == "no state":
            state = None
        elif tamper == "other subject":
            retry = bob.session.call_tool
        else:
            retry = elsewhere.session.call_tool
        result = await retry(APPROVED, args, input_responses=ACCEPT, request_state=state)
        assert isinstance(result, mcp_types.CallToolResult)
        assert result.is_error and text_of(result) == DENIED
        assert servers.received() == 0
        # the genuine retry runs
        good = await alice.session.call_tool(
            APPROVED, create_args("A"), input_responses=ACCEPT, request_state=asked.request_state
        )
        assert isinstance(good, mcp_types.CallToolResult) and not good.is_error
        assert servers.received() == 1
    if tamper not in ("other server",):
        assert [r.outcome for r in records] == ["denied", "ok"]


def test_a_short_approval_secret_is_refused() -> None:
    text = "approval_secret must be at least 32 bytes (got 5)"
    with pytest.raises(ValueError, match=re.escape(text)):
        McpToolServer(approval_secret="short")


# -- identity to the backend ------------------------------------------------------


async def test_forward_identity_sends_claims_and_backend_credentials(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    seen: list[Identity] = []

    async def credentials(identity: Identity) -> dict[str, str]:
        seen.append(identity)
        return {"Authorization": f"Bearer backend-for-{identity.subject}"}

    forward = ForwardIdentity(
        metadata={"X-User-Id": "sub", "x-tenant": "tenant", "x-level": "level", "x-no": "nope"},
        backend_credentials=credentials,
    )
    server = tool_server(aio_channel, forward_identity=forward, approve=lambda _r: True)
    async with serving(server) as url, client_as(url, "alice", MODERN) as client:
        result = await client.call_tool(APPROVED, create_args("A"))
        assert not result.is_error, text_of(result)
        # a call refused before sending asks the hook nothing
        bad = await client.call_tool(APPROVED, {"name": 1})
        assert bad.is_error
    (metadata,) = servers.accounts.metadata
    sent = dict(metadata)
    assert sent["x-user-id"] == "alice"
    assert sent["x-tenant"] == "t-1"
    assert sent["x-level"] == "3"
    assert "x-no" not in sent
    assert sent["authorization"] == "Bearer backend-for-alice"
    assert [i.subject for i in seen] == ["alice"]
    assert "backend-for" not in json.dumps(result.model_dump(mode="json"))


async def test_without_authorization_no_claims_are_sent(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    server = tool_server(aio_channel, forward_identity=ForwardIdentity(metadata={"x-user": "sub"}))
    async with Client(server.sdk_server) as client:
        await client.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
        await client.call_tool(APPROVED, create_args("A"))
    assert all("x-user" not in dict(m) for m in servers.accounts.metadata)


# -- limits --------------------------------------------------------------------


async def test_the_rate_limit_is_per_subject(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    records: list[AuditRecord] = []
    server = tool_server(aio_channel, rate_limit=2, audit=records.append)
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN) as alice,
        client_as(url, "bob", MODERN) as bob,
    ):
        for _ in range(2):
            assert not (await alice.call_tool("accounts_list", args)).is_error
        over = await alice.call_tool("accounts_list", args)
        assert over.is_error
        assert (
            text_of(over)
            == "too many calls: the limit is 2 per minute for this user; retry in 30 s"
        )
        assert not (await bob.call_tool("accounts_list", args)).is_error
    assert servers.received() == 3
    assert [r.outcome for r in records] == ["ok", "ok", "limited", "ok"]


async def test_concurrent_calls_are_limited_per_conversation(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    server = tool_server(aio_channel, max_concurrent_calls=1)
    accounts = servers.accounts
    async with (
        Client(server.sdk_server) as client,
        Client(server.sdk_server) as other,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(client.call_tool, "accounts_watch", HOLD)
        await wait_for("the call held", accounts.holding.is_set)
        over = await client.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
        assert over.is_error
        assert text_of(over) == (
            "too many calls at once in this conversation (limit 1); retry when one finishes"
        )
        # another conversation is not held back
        listed = await other.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
        assert not listed.is_error, text_of(listed)
        tg.cancel_scope.cancel()
    assert len(accounts.received) == 2


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="rate_limit must be a whole number of 1 or more"):
        McpToolServer(rate_limit=0)
    with pytest.raises(ValueError, match="max_concurrent_calls must be a whole number"):
        McpToolServer(max_concurrent_calls=0)


# -- audit ---------------------------------------------------------------------


async def test_the_audit_record_of_each_call(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    stream = io.StringIO()
    server = tool_server(
        aio_channel,
        audit=json_lines_audit_writer(stream),
        approve=lambda r: r.arguments["name"] == "A",
    )
    secret_id = "9b2f1d3c-0000-4000-8000-00000000beef"
    async with Client(server.sdk_server) as client:
        await client.call_tool(APPROVED, create_args("A"))
        await client.call_tool(APPROVED, create_args("no"))
        await client.call_tool(
            "accounts_merge", {"source_id": secret_id, "target_id": "", "note": ""}
        )
        await client.call_tool("accounts_list", {"count": "many"})
    lines = stream.getvalue().splitlines()
    assert secret_id not in stream.getvalue() and '"no"' not in stream.getvalue()
    records = [json.loads(line) for line in lines]
    assert [(r["tool"], r["outcome"], r.get("code")) for r in records] == [
        (APPROVED, "ok", None),
        (APPROVED, "denied", None),
        ("accounts_merge", "tool_error", "NOT_FOUND"),
        ("accounts_list", "invalid_arguments", None),
    ]
    for r in records:
        assert list(r) == [
            k
            for k in ("time", "subject", "tool", "method", "outcome", "code", "durationMs")
            if k in r
        ]
        assert r["subject"] == ""
        assert r["method"].startswith("/aitest.v1.AccountService/")
        assert isinstance(r["durationMs"], float) and r["durationMs"] >= 0
        assert round(r["durationMs"], 3) == r["durationMs"]  # ms, 3 decimals at most
        assert len(r["time"]) == 24 and r["time"].endswith("Z") and r["time"][19] == "."


# -- scopes --------------------------------------------------------------------


def test_required_scopes_merge_the_annotation_and_the_option(
    aio_channel: grpc.aio.Channel,
) -> None:
    server = McpToolServer(required_scopes={APPROVED: ["b", "a"], "accounts_list": ["r"]})
    server.add_tools(tools(required_scopes=("a", "c")), ALIASES, aio_channel)
    assert server.required_scopes(APPROVED) == ("a", "b", "c")
    assert server.required_scopes("accounts_list") == ("r",)
    assert server.required_scopes("accounts_watch") == ()
    assert server.required_scopes("nope") == ()
    assert server.tool_names() == tuple(t.name for t in server.list_tools())
    with pytest.raises(ValueError, match=r'required_scopes\["x"\] must be a list of scope names'):
        McpToolServer(required_scopes={"x": "a"})


# -- executors -----------------------------------------------------------------


@pytest.mark.parametrize("hook", ["none", "allow", "deny"])
def test_executor_approvals(channel: grpc.Channel, servers: Servers, hook: str) -> None:
    methods = [dataclasses.replace(m, needs_approval=m.tool.name == APPROVED) for m in METHODS]
    asked: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> bool:
        asked.append(request)
        return hook == "allow"

    executor = Executor(channel, methods, ALIASES, approve=None if hook == "none" else approve)
    if hook == "allow":
        assert json.loads(executor.execute(APPROVED, create_json("A")))["account"]["name"] == "A"
        assert len(servers.accounts.received) == 1
    else:
        with pytest.raises(ToolError) as caught:
            executor.execute(APPROVED, create_json("A"))
        assert caught.value.reason == "not-approved"
        assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
        assert str(caught.value) == (
            DENIED
            if hook == "deny"
            else f'the call of "{APPROVED}" needs an approval and none could be asked '
            "(no approval hook); nothing was sent"
        )
        assert servers.received() == 0
    assert len(asked) == (0 if hook == "none" else 1)
    if asked:
        assert asked[0].method == "/aitest.v1.AccountService/CreateAccount"
        assert asked[0].arguments == create_args("A")
    # the others run without asking
    executor.execute("accounts_list", '{"count": 0, "contacts_per_account": 0}')


async def test_an_elicitation_the_client_fails_is_denied(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    async def failing(_context: Any, _params: Any) -> mcp_types.ErrorData:
        return mcp_types.ErrorData(code=mcp_types.INTERNAL_ERROR, message="no user here")

    server = tool_server(aio_channel)
    async with Client(server.sdk_server, mode=LEGACY, elicitation_callback=failing) as client:
        result = await client.call_tool(APPROVED, create_args("A"))
    assert result.is_error and text_of(result) == DENIED
    assert servers.received() == 0


async def test_the_tool_layer_checks_the_scopes_too(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    records: list[AuditRecord] = []
    server = McpToolServer(required_scopes={"accounts_list": ["b", "a"]}, audit=records.append)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN, scopes="a") as alice,
        client_as(url, "bob", MODERN, scopes="b a") as bob,
        client_as(url, None, MODERN) as anyone,
    ):
        refused = await alice.call_tool("accounts_list", args)
        assert (
            refused.is_error and text_of(refused) == 'the call of "accounts_list" needs scope "b"'
        )
        assert servers.received() == 0
        assert not (await bob.call_tool("accounts_list", args)).is_error
        # without authorization there are no scopes to check (the gate's job)
        assert not (await anyone.call_tool("accounts_list", args)).is_error
    assert [r.outcome for r in records] == ["unauthorized", "ok", "ok"]


async def test_a_failing_backend_credentials_hook_sends_nothing(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    def broken(_identity: Identity) -> dict[str, str]:
        raise RuntimeError("token exchange down: secret-detail")

    records: list[AuditRecord] = []
    forward = ForwardIdentity(backend_credentials=broken)
    server = tool_server(aio_channel, forward_identity=forward, audit=records.append)
    async with Client(server.sdk_server) as client:
        result = await client.call_tool("accounts_list", {"count": 0, "contacts_per_account": 0})
    assert result.is_error and text_of(result) == (
        'the backend credentials of the call of "accounts_list" could not be obtained; '
        "nothing was sent"
    )
    assert servers.received() == 0
    assert [(r.outcome, r.code) for r in records] == [("tool_error", "UNAVAILABLE")]


class OldStore(MemoryConversationStore):
    """A store written before handles were bound to callers."""

    async def create(self) -> str:  # type: ignore[override]
        return await super().create()


async def test_a_store_that_cannot_bind_handles_is_named(aio_channel: grpc.aio.Channel) -> None:
    server = McpToolServer(conversation_store=OldStore())
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN) as alice,
        client_as(url, None, MODERN) as anyone,
    ):
        refused = await alice.call_tool("accounts_list", args)
        assert refused.is_error
        assert text_of(refused) == (
            "the conversation store OldStore cannot bind conversations to callers: "
            'give its create a parameter, create(self, suffix: str = "") -> handle + suffix'
        )
        assert not (await anyone.call_tool("accounts_list", args)).is_error


async def test_concurrent_calls_are_limited_per_handle(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    server = tool_server(aio_channel, max_concurrent_calls=1)
    accounts = servers.accounts
    args = {"count": 0, "contacts_per_account": 0}
    async with serving(server) as url, client_as(url, "alice", MODERN) as client:
        first = await client.call_tool("accounts_list", args)
        assert first.meta is not None
        meta = {CONVERSATION_META_KEY: first.meta[CONVERSATION_META_KEY]}
        async with anyio.create_task_group() as tg:
            tg.start_soon(partial(client.call_tool, "accounts_watch", HOLD, meta=meta))
            await wait_for("the call held", accounts.holding.is_set)
            over = await client.call_tool("accounts_list", args, meta=meta)
            assert over.is_error and text_of(over) == (
                "too many calls at once in this conversation (limit 1); retry when one finishes"
            )
            # a call that starts another conversation is not held back
            assert not (await client.call_tool("accounts_list", args)).is_error
            tg.cancel_scope.cancel()
    assert len(accounts.received) == 3


# -- fix round: replays, conversations, limits without a handle -----------------


async def test_an_approval_state_runs_once(aio_channel: grpc.aio.Channel, servers: Servers) -> None:
    # A granted requestState replayed is the denied result: nothing sent
    # again (SEC-2/D2).
    callback, _ = answering("accept")
    records: list[AuditRecord] = []
    server = tool_server(aio_channel, audit=records.append)
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN, elicitation_callback=callback) as alice,
    ):
        asked = await first_round(alice, create_args("A"))
        state = asked.request_state
        for n in range(2):
            result = await alice.session.call_tool(
                APPROVED, create_args("A"), input_responses=ACCEPT, request_state=state
            )
            assert isinstance(result, mcp_types.CallToolResult)
            assert bool(result.is_error) == (n == 1)
        assert text_of(result) == DENIED
    assert servers.received() == 1
    assert [r.outcome for r in records] == ["ok", "denied"]


async def test_an_approval_state_of_another_conversation_is_denied(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    # The state asked in one conversation does not run the same arguments
    # in another (where the same alias names something else; SEC-2/D2).
    callback, _ = answering("accept")
    server = tool_server(aio_channel)
    list_args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN, elicitation_callback=callback) as alice,
    ):
        handles = []
        for _ in range(2):
            listed = await alice.call_tool("accounts_list", list_args)
            assert listed.meta is not None
            handles.append(listed.meta[CONVERSATION_META_KEY])
        sent = servers.received()
        asked = await alice.session.call_tool(
            APPROVED,
            create_args("A"),
            allow_input_required=True,
            meta={CONVERSATION_META_KEY: handles[0]},
        )
        assert isinstance(asked, mcp_types.InputRequiredResult)
        for handle in (handles[1], None):
            result = await alice.session.call_tool(
                APPROVED,
                create_args("A"),
                input_responses=ACCEPT,
                request_state=asked.request_state,
                meta={CONVERSATION_META_KEY: handle} if handle is not None else None,
            )
            assert isinstance(result, mcp_types.CallToolResult)
            assert result.is_error and text_of(result) == DENIED
        assert servers.received() == sent
        result = await alice.session.call_tool(
            APPROVED,
            create_args("A"),
            input_responses=ACCEPT,
            request_state=asked.request_state,
            meta={CONVERSATION_META_KEY: handles[0]},
        )
        assert isinstance(result, mcp_types.CallToolResult) and not result.is_error
        assert servers.received() == sent + 1


async def test_calls_without_a_conversation_are_limited_per_subject(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    # 2026-07-28 calls without a handle count per subject (SEC-5/D6).
    server = tool_server(aio_channel, max_concurrent_calls=1)
    accounts = servers.accounts
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN) as alice,
        client_as(url, "bob", MODERN) as bob,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(alice.call_tool, "accounts_watch", HOLD)
        await wait_for("the call held", accounts.holding.is_set)
        over = await alice.call_tool("accounts_list", args)
        # no conversation to name: the text says none
        assert over.is_error
        assert text_of(over) == "too many calls at once (limit 1); retry when one finishes"
        assert not (await bob.call_tool("accounts_list", args)).is_error
        tg.cancel_scope.cancel()
    assert len(accounts.received) == 2


async def test_a_session_counts_per_session_without_aliases_too(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    # A 2025-11-25 session is a conversation, for a tool set without
    # aliases too: two sessions of one subject have a count each (S-4).
    server = McpToolServer(name="vectors", max_concurrent_calls=1)
    server.add_tools(tools(), AliasConfig(), aio_channel)
    accounts = servers.accounts
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", LEGACY) as one,
        client_as(url, "alice", LEGACY) as two,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(one.call_tool, "accounts_watch", HOLD)
        await wait_for("the call held", accounts.holding.is_set)
        over = await one.call_tool("accounts_list", args)
        assert over.is_error and text_of(over).startswith("too many calls at once")
        listed = await two.call_tool("accounts_list", args)
        assert not listed.is_error, text_of(listed)
        tg.cancel_scope.cancel()
    assert len(accounts.received) == 2


def test_used_approval_states_leave_in_order_of_expiry() -> None:
    now = [0.0]
    used = UsedStates(clock=lambda: now[0])
    for i in range(5):
        assert used.take(f"n{i}")
    assert not used.take("n0")
    now[0] = 660.0
    # The five expired: dropped as the next nonce is taken, no store kept.
    assert used.take("n0")
    assert len(used) == 1


async def test_a_handle_not_minted_is_unknown(aio_channel: grpc.aio.Channel) -> None:
    # Without auth, "<handle>.<tag>" would name a subject's store key (D18).
    server = tool_server(aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN) as alice,
        client_as(url, None, MODERN) as anyone,
    ):
        first = await alice.call_tool("accounts_list", args)
        assert first.meta is not None
        key = conversation_key(first.meta[CONVERSATION_META_KEY], "alice")
        refused = await anyone.call_tool("accounts_list", args, meta={CONVERSATION_META_KEY: key})
        assert refused.is_error
        assert text_of(refused).startswith(f"unknown or expired conversation {json.dumps(key)}")


@pytest.mark.parametrize("scope", ["a b", 'a"b', "a\\b", "a\r", "é", ""])
def test_required_scopes_are_scope_tokens(scope: str) -> None:
    with pytest.raises(ValueError) as refused:
        McpToolServer(required_scopes={"accounts_create": [scope]})
    assert str(refused.value) == (
        f'required_scopes: scope {json.dumps(scope)} of tool "accounts_create" is not a valid '
        "scope token (RFC 6749: printable ASCII, no space, quote or backslash)"
    )


async def test_backend_credentials_without_authorization_get_none(
    aio_channel: grpc.aio.Channel, servers: Servers
) -> None:
    seen: list[Any] = []

    def credentials(identity: Identity | None) -> dict[str, str]:
        seen.append(identity)
        return {"x-app": "app"}

    forward = ForwardIdentity(backend_credentials=credentials)
    server = tool_server(aio_channel, forward_identity=forward, approve=lambda _r: True)
    async with Client(server.sdk_server) as client:
        assert not (await client.call_tool(APPROVED, create_args("A"))).is_error
    assert seen == [None]
    assert dict(servers.accounts.metadata[-1])["x-app"] == "app"


@pytest.mark.parametrize("action", ["accept", "decline"])
async def test_call_tool_asks_as_a_direct_call(
    aio_channel: grpc.aio.Channel, servers: Servers, action: str
) -> None:
    """A search-first server's call_tool of a tool that needs an approval
    asks it over 2026-07-28 HTTP (the sealed state comes back to
    call_tool) and runs it only when approved; audited under its name."""
    callback, seen = answering(action, True)
    records: list[AuditRecord] = []
    option = SearchFirst(search=SEARCH)
    server = tool_server(aio_channel, audit=records.append, search_first=option)
    async with (
        serving(server) as url,
        client_as(url, "alice", MODERN, elicitation_callback=callback) as client,
    ):
        called = {"name": APPROVED, "arguments": create_args("A")}
        result = await client.call_tool("call_tool", called)
    runs = action == "accept"
    assert result.is_error is not runs, text_of(result)
    assert len(servers.accounts.received) == (1 if runs else 0)
    assert len(seen) == 1
    assert [(r.tool, r.outcome) for r in records] == [(APPROVED, "ok" if runs else "denied")]
