"""ai_tools_runtime.otel on the OpenTelemetry SDK (in-memory span exporter
and metric reader): one ``execute_tool`` span per tool call with names,
kinds and counts only, the metrics, the trace context received by the
real gRPC test server, and over MCP a ``_meta`` trace context honoured
(our span a child of the SDK's ``tools/call`` span)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import grpc
import grpc.aio
import pytest
from conftest import Servers, new_uuid
from mcp import Client
from mcp.shared.exceptions import MCPError
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.baggage.propagation import W3CBaggagePropagator
from opentelemetry.propagate import set_global_textmap
from opentelemetry.propagators.composite import CompositePropagator
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader, Metric
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, StatusCode, TraceFlags
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from test_mcp import HOLD, MODERN, LossyStore, mcp_tools, wait_for
from test_mcp_security import client_as, serving
from toolset import ALIASES, METHODS, create_json

from ai_tools_runtime import (
    AsyncExecutor,
    ConversationExecutor,
    Executor,
    MemoryConversationStore,
    Telemetry,
    ToolCallOutcome,
    ToolError,
)
from ai_tools_runtime.mcp import (
    CONVERSATION_META_KEY,
    AuditRecord,
    ForwardIdentity,
    McpToolServer,
)
from ai_tools_runtime.otel import INSTRUMENTATION_NAME, create_open_telemetry

CREATE = "aitest.v1.AccountService/CreateAccount"
MERGE = "aitest.v1.AccountService/MergeAccounts"


@dataclass
class Recorded:
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader
    provider: TracerProvider
    meters: MeterProvider

    def ours(self) -> list[ReadableSpan]:
        """The spans of the runtime's tracer, in end order."""
        return [
            s
            for s in self.spans.get_finished_spans()
            if s.instrumentation_scope is not None
            and s.instrumentation_scope.name == INSTRUMENTATION_NAME
        ]

    def metric(self, name: str) -> Metric:
        data = self.metrics.get_metrics_data()
        assert data is not None
        for resource in data.resource_metrics:
            for scope in resource.scope_metrics:
                for m in scope.metrics:
                    if m.name == name:
                        assert scope.scope.name == INSTRUMENTATION_NAME
                        return m
        raise AssertionError(f"no metric {name}")


# One SDK tracer provider for the process, also the global one: the mcp
# SDK's tools/call span is made by its global tracer (set once per process).
_SPANS = InMemorySpanExporter()
_PROVIDER = TracerProvider()
_PROVIDER.add_span_processor(SimpleSpanProcessor(_SPANS))


@pytest.fixture
def recorded() -> Iterator[Recorded]:
    if trace.get_tracer_provider() is not _PROVIDER:
        trace.set_tracer_provider(_PROVIDER)
    set_global_textmap(
        CompositePropagator([TraceContextTextMapPropagator(), W3CBaggagePropagator()])
    )
    _SPANS.clear()
    reader = InMemoryMetricReader()
    meters = MeterProvider(metric_readers=[reader])
    yield Recorded(_SPANS, reader, _PROVIDER, meters)
    meters.shutdown()


@pytest.fixture
def telemetry(recorded: Recorded) -> Telemetry:
    return create_open_telemetry(tracer_provider=recorded.provider, meter_provider=recorded.meters)


def attributes(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def outcomes(recorded: Recorded) -> list[tuple[Any, Any]]:
    """The error.type and rpc.response.status_code of each of our spans."""
    return [
        (attributes(s).get("error.type"), attributes(s).get("rpc.response.status_code"))
        for s in recorded.ours()
    ]


def all_attribute_text(recorded: Recorded) -> str:
    """Every attribute value of every span and data point, as one text."""
    values: list[str] = []
    for span in recorded.spans.get_finished_spans():
        values += [str(v) for v in (span.attributes or {}).values()]
        values.append(span.name)
    data = recorded.metrics.get_metrics_data()
    assert data is not None
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for m in scope.metrics:
                for point in m.data.data_points:
                    values += [str(v) for v in (point.attributes or {}).values()]
    return "\n".join(values)


@pytest.fixture
def executor(channel: grpc.Channel, telemetry: Telemetry) -> Executor:
    return Executor(channel, METHODS, ALIASES, telemetry=telemetry)


def create_two(executor: Executor) -> None:
    """acct-1 with its owner user-1, then acct-2."""
    executor.execute("accounts_create", create_json("A", owner_id=new_uuid()))
    executor.execute("accounts_create", create_json("B"))


def test_a_call_is_one_internal_span_with_names_and_counts(
    executor: Executor, recorded: Recorded
) -> None:
    create_two(executor)
    executor.execute("accounts_merge", '{"source_id":"acct-1","target_id":"acct-2","note":""}')
    first, _, merge = recorded.ours()
    assert first.name == "execute_tool accounts_create"
    assert first.kind is SpanKind.INTERNAL
    assert attributes(first) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "accounts_create",
        "gen_ai.tool.type": "function",
        "rpc.system.name": "grpc",
        "rpc.method": CREATE,
        "rpc.response.status_code": "OK",
        "ai_tools.aliases.resolved": 0,
        "ai_tools.aliases.registered": 2,  # acct-1 and its owner user-1
    }
    assert first.status.status_code is StatusCode.UNSET
    assert attributes(merge)["rpc.method"] == MERGE
    assert attributes(merge)["ai_tools.aliases.resolved"] == 2
    assert attributes(merge)["ai_tools.aliases.registered"] == 0  # both known


def test_failures_name_their_reason_and_the_code_of_a_sent_call(
    executor: Executor, servers: Servers, recorded: Recorded
) -> None:
    unknown = json.dumps({"source_id": new_uuid(), "target_id": new_uuid(), "note": ""})
    for name, args in [
        ("accounts_merge", unknown),  # the server answers NOT_FOUND
        ("accounts_create", '{"name": 1}'),  # refused before sending
        ("accounts_merge", '{"source_id":"acct-9","target_id":"","note":""}'),
    ]:
        with pytest.raises(ToolError):
            executor.execute(name, args)
    server, invalid, alias = recorded.ours()
    assert attributes(server)["error.type"] == "server-error"
    assert attributes(server)["rpc.response.status_code"] == "NOT_FOUND"
    assert attributes(invalid)["error.type"] == "invalid-arguments"
    assert attributes(alias)["error.type"] == "unknown-alias"
    for span in (invalid, alias):
        assert "rpc.response.status_code" not in attributes(span)  # never sent
    for span in (server, invalid, alias):
        assert span.status.status_code is StatusCode.ERROR
        assert span.status.description is None
    assert len(servers.accounts.received) == 1


def test_metrics_duration_and_registered_aliases(executor: Executor, recorded: Recorded) -> None:
    create_two(executor)
    with pytest.raises(ToolError):
        executor.execute("accounts_create", "[]")
    duration = recorded.metric("ai_tools.tool_call.duration")
    assert duration.unit == "s"
    points = {tuple(sorted((p.attributes or {}).items())): p for p in duration.data.data_points}
    ok = (("gen_ai.tool.name", "accounts_create"), ("rpc.method", CREATE))
    failed = (("error.type", "invalid-arguments"), *ok)
    assert sorted(points) == sorted([ok, failed])
    assert points[ok].count == 2  # type: ignore[union-attr]
    assert points[failed].count == 1  # type: ignore[union-attr]
    assert 0 < points[ok].sum < 30  # type: ignore[union-attr]
    registered = recorded.metric("ai_tools.aliases.registered")
    assert registered.unit == "{alias}"
    (point,) = registered.data.data_points
    assert point.attributes == {"gen_ai.tool.name": "accounts_create"}
    assert point.value == 3  # type: ignore[union-attr]


async def test_no_value_id_or_handle_in_any_attribute(
    servers: Servers, recorded: Recorded, telemetry: Telemetry
) -> None:
    owner, secret = new_uuid(), "a secret name"
    store = MemoryConversationStore()
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = ConversationExecutor(AsyncExecutor(channel, METHODS, ALIASES), store)
        observed = ConversationExecutor(
            AsyncExecutor(channel, METHODS, ALIASES), store, telemetry=telemetry
        )
        assert executor.store is observed.store
        handle = await observed.start()
        await observed.execute(handle, "accounts_create", create_json(secret, owner_id=owner))
        await observed.execute(
            handle, "accounts_merge", '{"source_id":"acct-1","target_id":"user-1","note":"n"}'
        )
        with pytest.raises(ToolError) as failed:
            await observed.execute(
                handle, "accounts_merge", json.dumps({"source_id": owner, "target_id": owner})
            )
        with pytest.raises(ToolError):
            await observed.execute("no-such-handle", "accounts_create", create_json(secret))
    create, merge, _, expired = recorded.ours()
    assert attributes(create)["ai_tools.conversation.aliases"] == 2
    assert attributes(create)["ai_tools.aliases.registered"] == 2
    assert attributes(merge)["ai_tools.aliases.resolved"] == 2
    assert attributes(merge)["ai_tools.aliases.registered"] == 1  # a new target
    assert attributes(merge)["ai_tools.conversation.aliases"] == 3
    assert attributes(expired)["error.type"] == "conversation-expired"
    assert "ai_tools.conversation.aliases" not in attributes(expired)
    text = all_attribute_text(recorded)
    ids = [owner, *(a.id for a in servers.accounts.accounts.values())]
    for forbidden in [*ids, handle, "no-such-handle", secret, str(failed.value), "acct-1"]:
        assert forbidden not in text


def test_the_server_receives_the_span_as_traceparent(
    executor: Executor, servers: Servers, recorded: Recorded
) -> None:
    executor.execute("accounts_create", create_json("A"), metadata=[("x-tenant", "t1")])
    (span,) = recorded.ours()
    received = dict(servers.accounts.metadata[0])
    assert received["x-tenant"] == "t1"
    assert received["traceparent"] == _traceparent(span.context)


async def test_the_async_executor_sends_the_traceparent_too(
    servers: Servers, recorded: Recorded, telemetry: Telemetry
) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = AsyncExecutor(channel, METHODS, ALIASES, telemetry=telemetry)
        parent = _remote_parent()
        token = otel_context.attach(trace.set_span_in_context(NonRecordingSpan(parent)))
        try:
            await executor.execute("accounts_create", create_json("A"))
        finally:
            otel_context.detach(token)
    (span,) = recorded.ours()
    assert span.parent is not None and span.parent.span_id == parent.span_id
    assert span.context.trace_id == parent.trace_id
    received = dict(servers.accounts.metadata[0])
    assert received["traceparent"] == _traceparent(span.context)


def test_without_telemetry_nothing_is_added(
    channel: grpc.Channel, servers: Servers, recorded: Recorded
) -> None:
    Executor(channel, METHODS, ALIASES).execute("accounts_create", create_json("A"))
    assert recorded.ours() == []
    assert "traceparent" not in dict(servers.accounts.metadata[0])


@pytest.fixture
async def aio_channel(servers: Servers) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(servers.target) as ch:
        yield ch


@pytest.mark.parametrize("sync", [False, True], ids=["grpc.aio", "grpc"])
async def test_mcp_meta_trace_context_is_the_parent(
    servers: Servers,
    aio_channel: grpc.aio.Channel,
    recorded: Recorded,
    telemetry: Telemetry,
    sync: bool,
) -> None:
    server = McpToolServer(name="vectors", telemetry=telemetry)
    parent = _remote_parent()
    meta = {"traceparent": _traceparent(parent)}  # SEP-414; no trace is current here
    with grpc.insecure_channel(servers.target) as plain:
        server.add_tools(mcp_tools(), ALIASES, plain if sync else aio_channel)
        async with Client(server.sdk_server) as client:
            args = json.loads(create_json("A"))
            result = await client.call_tool("accounts_create", args, meta=meta)
            refused = await client.call_tool("accounts_create", {"name": 1}, meta=meta)
    assert not result.is_error and refused.is_error
    handled = _named(recorded.spans.get_finished_spans(), "tools/call accounts_create")
    ours = recorded.ours()
    assert [s.name for s in ours] == ["execute_tool accounts_create"] * 2
    for server_span, span in zip(handled, ours, strict=True):
        # The SDK's span takes _meta's context; ours is its child.
        assert server_span.kind is SpanKind.SERVER
        assert server_span.parent is not None and server_span.parent.is_remote
        assert server_span.parent.span_id == parent.span_id
        assert span.parent is not None and span.parent.span_id == server_span.context.span_id
        assert span.context.trace_id == parent.trace_id
    assert attributes(ours[0])["ai_tools.conversation.aliases"] == 1
    assert attributes(ours[1])["error.type"] == "invalid-arguments"
    received = dict(servers.accounts.metadata[0])
    assert received["traceparent"] == _traceparent(ours[0].context)


def _named(spans: Sequence[ReadableSpan], name: str) -> list[ReadableSpan]:
    return sorted((s for s in spans if s.name == name), key=lambda s: s.start_time or 0)


def _remote_parent() -> SpanContext:
    return SpanContext(
        trace_id=0x0AF7651916CD43DD8448EB211C80319C,
        span_id=0xB7AD6B7169203331,
        is_remote=True,
        trace_flags=TraceFlags(TraceFlags.SAMPLED),
    )


def _traceparent(context: SpanContext | None) -> str:
    assert context is not None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{context.trace_flags:02x}"


class _Unreachable(MemoryConversationStore):
    async def load(self, handle: str) -> tuple[str, str]:
        raise ConnectionError("redis did not answer within 500 ms")


async def test_store_failures_name_their_reason(
    servers: Servers, recorded: Recorded, telemetry: Telemetry
) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        for store in (MemoryConversationStore(max_aliases=2), _Unreachable()):
            executor = AsyncExecutor(channel, METHODS, ALIASES)
            conversations = ConversationExecutor(executor, store, telemetry=telemetry)
            handle = await conversations.start()
            if not isinstance(store, _Unreachable):
                await conversations.execute(
                    handle, "accounts_create", create_json("A", owner_id=new_uuid())
                )
            with pytest.raises(ToolError):
                await conversations.execute(handle, "accounts_create", create_json("B"))
    *_, full, unreachable = recorded.ours()
    assert attributes(full)["error.type"] == "conversation-full"
    assert attributes(full)["ai_tools.conversation.aliases"] == 2  # the count held
    assert attributes(unreachable)["error.type"] == "store-unavailable"
    assert "ai_tools.conversation.aliases" not in attributes(unreachable)  # never loaded
    for span in (full, unreachable):
        assert "rpc.response.status_code" not in attributes(span)  # nothing sent
        assert span.status.status_code is StatusCode.ERROR
    assert len(servers.accounts.received) == 1


class _Failing:
    def start_tool_call(self, tool: str, method: str) -> _Failing:
        return self

    def trace_metadata(self) -> list[tuple[str, str]]:
        return []

    def end(self, outcome: ToolCallOutcome) -> None:
        raise RuntimeError("exporter down")


def test_a_failing_hook_is_logged_not_raised(
    channel: grpc.Channel, caplog: pytest.LogCaptureFixture
) -> None:
    executor = Executor(channel, METHODS, ALIASES, telemetry=_Failing())
    assert json.loads(executor.execute("accounts_create", create_json("A")))["account"]["id"]
    with pytest.raises(ToolError) as failed:
        executor.execute("accounts_create", "[]")
    assert failed.value.reason == "invalid-arguments"
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "the telemetry hook failed")
    ] * 2


class _FailingStart:
    def start_tool_call(self, tool: str, method: str) -> _Failing:
        raise RuntimeError("exporter down")


class _FailingTraceContext(_Failing):
    def trace_metadata(self) -> list[tuple[str, str]]:
        raise RuntimeError("propagator down")

    def end(self, outcome: ToolCallOutcome) -> None:
        pass


@pytest.mark.parametrize("hook", [_FailingStart(), _FailingTraceContext()], ids=["start", "trace"])
async def test_a_hook_failing_to_start_or_to_give_its_context_changes_no_call(
    servers: Servers, caplog: pytest.LogCaptureFixture, hook: Any
) -> None:
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = AsyncExecutor(channel, METHODS, ALIASES, telemetry=hook)
        assert json.loads(await executor.execute("accounts_create", create_json("A")))
        conversations = ConversationExecutor(executor, MemoryConversationStore())
        handle = await conversations.start()
        out = await conversations.execute(handle, "accounts_create", create_json("B"))
        assert json.loads(out)["account"]["id"] == "acct-1"
        with pytest.raises(ToolError) as failed:
            await conversations.execute(handle, "accounts_create", "[]")
    assert failed.value.reason == "invalid-arguments"
    assert len(servers.accounts.received) == 2
    expected = 3 if isinstance(hook, _FailingStart) else 2  # the refused call sends nothing
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "the telemetry hook failed")
    ] * expected


# -- what the spans of unusual calls say (the review of issue 34) ---------------


async def test_a_tool_the_executor_does_not_run_gets_no_span_nor_metric(
    executor: Executor, servers: Servers, recorded: Recorded, telemetry: Telemetry
) -> None:
    # The name is the model's: a span or metric named after it would grow
    # without bound (and could carry anything the prompt put there).
    invented = "get_link_550e8400-e29b-41d4-a716-446655440000"
    with pytest.raises(ToolError) as caught:
        executor.execute(invented, "{}")
    assert caught.value.reason == "unknown-tool"
    async with grpc.aio.insecure_channel(servers.target) as channel:
        aio = AsyncExecutor(channel, METHODS, ALIASES, telemetry=telemetry)
        with pytest.raises(ToolError):
            await aio.execute(invented, "{}")
        conversations = ConversationExecutor(aio, MemoryConversationStore())
        handle = await conversations.start()
        with pytest.raises(ToolError) as caught:
            await conversations.execute(handle, invented, "{}")
        assert caught.value.reason == "unknown-tool"
        await aio.execute("accounts_create", create_json("A"))
    assert [s.name for s in recorded.spans.get_finished_spans()] == ["execute_tool accounts_create"]
    assert invented not in all_attribute_text(recorded)
    (point,) = recorded.metric("ai_tools.tool_call.duration").data.data_points
    assert point.attributes == {"gen_ai.tool.name": "accounts_create", "rpc.method": CREATE}


def test_an_error_that_is_no_tool_error_is_other(
    channel: grpc.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    def approve(_request: Any) -> bool:
        raise RuntimeError("approval service down: a secret")

    methods = [dataclasses.replace(m, needs_approval=True) for m in METHODS]
    executor = Executor(channel, methods, ALIASES, approve=approve, telemetry=telemetry)
    with pytest.raises(RuntimeError):
        executor.execute("accounts_create", create_json("A"))
    (span,) = recorded.ours()
    assert attributes(span)["error.type"] == "_OTHER"
    assert "rpc.response.status_code" not in attributes(span)  # not sent
    assert span.status.status_code is StatusCode.ERROR
    (point,) = recorded.metric("ai_tools.tool_call.duration").data.data_points
    assert (point.attributes or {})["error.type"] == "_OTHER"


async def test_a_call_cancelled_after_sending_is_a_cancelled_server_error(
    servers: Servers, recorded: Recorded, telemetry: Telemetry
) -> None:
    # As Go and TypeScript report it: the executor's ToolError for the
    # server's CANCELLED status. Cancelled before sending, it is _OTHER.
    asked = asyncio.Event()

    async def approve(_request: Any) -> bool:
        asked.set()
        await asyncio.Event().wait()
        return True

    methods = [dataclasses.replace(m, needs_approval=True) for m in METHODS]
    async with grpc.aio.insecure_channel(servers.target) as channel:
        executor = AsyncExecutor(channel, METHODS, ALIASES, telemetry=telemetry)
        call = asyncio.create_task(executor.execute("accounts_watch", '{"count":-1}'))
        held = await asyncio.to_thread(servers.accounts.holding.wait, 10)
        assert held
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        approving = AsyncExecutor(channel, methods, ALIASES, approve=approve, telemetry=telemetry)
        call = asyncio.create_task(approving.execute("accounts_create", create_json("A")))
        await asked.wait()
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
    assert outcomes(recorded) == [("server-error", "CANCELLED"), ("_OTHER", None)]


def test_a_stream_the_executor_cuts_is_cancelled_other_failures_after_it_ok(
    channel: grpc.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    executor = Executor(channel, METHODS, ALIASES, max_result_bytes=0, telemetry=telemetry)
    limited = Executor(channel, METHODS, ALIASES, max_result_bytes=600, telemetry=telemetry)
    calls = [
        (executor, "accounts_watch", '{"count":1001}'),  # over MAX_STREAM_MESSAGES
        (limited, "accounts_watch", '{"count":50}'),  # over the result's limit
        (limited, "accounts_list", '{"count":50,"contacts_per_account":0}'),  # unary, answered
    ]
    for runner, tool, args in calls:
        with pytest.raises(ToolError):
            runner.execute(tool, args)
    assert outcomes(recorded) == [
        ("invalid-response", "CANCELLED"),
        ("result-too-large", "CANCELLED"),
        ("result-too-large", "OK"),
    ]


async def test_a_full_conversation_over_mcp_reports_its_aliases(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    store = MemoryConversationStore(max_aliases=2)
    server = McpToolServer(name="vectors", conversation_store=store, telemetry=telemetry)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with Client(server.sdk_server) as client:
        args = json.loads(create_json("A", owner_id=new_uuid()))
        assert not (await client.call_tool("accounts_create", args)).is_error
        assert (await client.call_tool("accounts_create", args)).is_error
    _, full = recorded.ours()
    assert attributes(full)["error.type"] == "conversation-full"
    assert attributes(full)["ai_tools.conversation.aliases"] == 2
    assert len(servers.accounts.received) == 1


async def test_mcp_refusals_before_the_tool_name_their_reason(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    def no_credentials(_identity: Any) -> dict[str, str]:
        raise RuntimeError("token exchange down")

    def denied(_request: Any) -> bool:
        return False

    methods = [
        dataclasses.replace(m, needs_approval=m.tool.name == "accounts_merge") for m in mcp_tools()
    ]
    servers_and_calls: list[tuple[McpToolServer, str]] = [
        (McpToolServer(rate_limit=1, telemetry=telemetry), "too-many-calls"),
        (
            McpToolServer(
                forward_identity=ForwardIdentity(backend_credentials=no_credentials),
                telemetry=telemetry,
            ),
            "unavailable",
        ),
    ]
    for server, _ in servers_and_calls:
        server.add_tools(mcp_tools(), ALIASES, aio_channel)
    approving = McpToolServer(approve=denied, telemetry=telemetry)
    approving.add_tools(methods, ALIASES, aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    limited, credentials = (server for server, _ in servers_and_calls)
    async with Client(limited.sdk_server) as client:
        assert not (await client.call_tool("accounts_list", args)).is_error
        assert (await client.call_tool("accounts_list", args)).is_error
    async with Client(credentials.sdk_server) as client:
        assert (await client.call_tool("accounts_list", args)).is_error
    async with Client(approving.sdk_server) as client:
        merge = {"source_id": new_uuid(), "target_id": new_uuid(), "note": ""}
        assert (await client.call_tool("accounts_merge", merge)).is_error
        assert (await client.call_tool("accounts_list", {"count": "many"})).is_error
        with pytest.raises(MCPError):
            await client.call_tool("no_such_tool", {})
    assert outcomes(recorded) == [
        (None, "OK"),
        ("too-many-calls", None),
        ("unavailable", None),  # the backend credentials: nothing sent
        ("not-approved", None),
        ("invalid-arguments", None),
    ]
    assert servers.received() == 1


async def test_an_unknown_handle_over_mcp_is_conversation_expired(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    # Unknown, another caller's, or not of the minted form: the span's reason
    # is conversation-expired (as Go's and TS's); the audit keeps refusing it
    # as unauthorized (a subject) or invalid_arguments (none), as Go's.
    records: list[AuditRecord] = []
    server = McpToolServer(
        name="vectors",
        conversation_store=MemoryConversationStore(),
        telemetry=telemetry,
        audit=records.append,
    )
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    async with serving(server) as url:
        async with client_as(url, "alice", MODERN) as alice:
            first = await alice.call_tool("accounts_list", args)
            assert not first.is_error and first.meta is not None
            handle = first.meta[CONVERSATION_META_KEY]
            for given in ["A" * 22, f"{handle}.tag"]:
                meta = {CONVERSATION_META_KEY: given}
                assert (await alice.call_tool("accounts_list", args, meta=meta)).is_error
        async with client_as(url, "bob", MODERN) as bob:
            meta = {CONVERSATION_META_KEY: handle}
            assert (await bob.call_tool("accounts_list", args, meta=meta)).is_error
        async with client_as(url, None, MODERN) as anonymous:
            meta = {CONVERSATION_META_KEY: "A" * 22}
            assert (await anonymous.call_tool("accounts_list", args, meta=meta)).is_error
    assert outcomes(recorded) == [(None, "OK")] + [("conversation-expired", None)] * 4
    assert [r.outcome for r in records] == [
        "ok",
        "unauthorized",
        "unauthorized",
        "unauthorized",
        "invalid_arguments",
    ]
    assert servers.received() == 1


async def test_a_missing_scope_over_mcp_is_unauthorized(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    server = McpToolServer(required_scopes={"accounts_list": ["read"]}, telemetry=telemetry)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    args = {"count": 0, "contacts_per_account": 0}
    async with serving(server) as url:
        async with client_as(url, "alice", MODERN, scopes="write") as alice:
            assert (await alice.call_tool("accounts_list", args)).is_error
        async with client_as(url, "bob", MODERN, scopes="read") as bob:
            assert not (await bob.call_tool("accounts_list", args)).is_error
    assert outcomes(recorded) == [("unauthorized", None), (None, "OK")]
    assert "ai_tools.conversation.aliases" not in attributes(recorded.ours()[0])
    assert servers.received() == 1


async def test_a_conversation_lost_at_registration_keeps_the_answered_rpc_ok(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    # Stateless HTTP: one made for the call, then a passed handle, both
    # deleted from the store while the RPC ran (the registration of its ids).
    store = LossyStore()
    server = McpToolServer(name="vectors", conversation_store=store, telemetry=telemetry)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with serving(server) as url, client_as(url, None, MODERN) as client:
        store.lose = "register"
        assert (await client.call_tool("accounts_create", json.loads(create_json("A")))).is_error
        store.lose = ""
        first = await client.call_tool("accounts_create", json.loads(create_json("B")))
        assert first.meta is not None
        meta = {CONVERSATION_META_KEY: first.meta[CONVERSATION_META_KEY]}
        store.lose = "register"
        args = json.loads(create_json("C"))
        assert (await client.call_tool("accounts_create", args, meta=meta)).is_error
    assert outcomes(recorded) == [
        ("conversation-expired", "OK"),
        (None, "OK"),
        ("conversation-expired", "OK"),
    ]
    assert attributes(recorded.ours()[2])["ai_tools.conversation.aliases"] == 1
    assert servers.received() == 3


async def test_a_concurrency_refusal_in_a_conversation_reports_its_aliases(
    servers: Servers, aio_channel: grpc.aio.Channel, recorded: Recorded, telemetry: Telemetry
) -> None:
    # As Go and TS: the conversation is loaded before the limit is checked.
    server = McpToolServer(name="vectors", max_concurrent_calls=1, telemetry=telemetry)
    server.add_tools(mcp_tools(), ALIASES, aio_channel)
    async with Client(server.sdk_server) as client, anyio.create_task_group() as tg:
        assert not (
            await client.call_tool("accounts_create", json.loads(create_json("A")))
        ).is_error
        tg.start_soon(client.call_tool, "accounts_watch", HOLD)
        await wait_for("the call held", servers.accounts.holding.is_set)
        args = {"count": 0, "contacts_per_account": 0}
        assert (await client.call_tool("accounts_list", args)).is_error
        tg.cancel_scope.cancel()
    (refused,) = (s for s in recorded.ours() if s.name == "execute_tool accounts_list")
    assert attributes(refused)["error.type"] == "too-many-calls"
    assert attributes(refused)["ai_tools.conversation.aliases"] == 1
    assert "rpc.response.status_code" not in attributes(refused)


@pytest.mark.parametrize("meta_baggage", [False, True], ids=["default", "meta_baggage"])
@pytest.mark.parametrize("sync", [False, True], ids=["grpc.aio", "grpc"])
async def test_mcp_meta_baggage_reaches_the_backend_only_when_asked(
    servers: Servers,
    aio_channel: grpc.aio.Channel,
    recorded: Recorded,
    meta_baggage: bool,
    sync: bool,
) -> None:
    telemetry = create_open_telemetry(
        tracer_provider=recorded.provider,
        meter_provider=recorded.meters,
        meta_baggage=meta_baggage,
    )
    server = McpToolServer(name="vectors", telemetry=telemetry)
    parent = _remote_parent()
    meta = {"traceparent": _traceparent(parent), "baggage": "tenant=t1,user=u-7"}
    with grpc.insecure_channel(servers.target) as plain:
        server.add_tools(mcp_tools(), ALIASES, plain if sync else aio_channel)
        async with Client(server.sdk_server) as client:
            args = json.loads(create_json("A"))
            assert not (await client.call_tool("accounts_create", args, meta=meta)).is_error
    (span,) = recorded.ours()
    assert span.parent is not None and span.context.trace_id == parent.trace_id
    received = dict(servers.accounts.metadata[0])
    assert received["traceparent"] == _traceparent(span.context)
    if meta_baggage:
        assert received["baggage"] == "tenant=t1,user=u-7"
    else:
        assert "baggage" not in received
