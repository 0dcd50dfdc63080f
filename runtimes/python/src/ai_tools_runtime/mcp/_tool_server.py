"""Tools served over MCP (docs/mcp.md): a low-level ``mcp`` server whose
``tools/list`` and ``tools/call`` serve the tools that a generated
``ai_tools_mcp_gen.py`` adds."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final

import anyio
import anyio.to_thread
import grpc
import grpc.aio
import mcp_types
from mcp.server import Server, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .._aliases import AliasManager
from .._approval import Approve
from .._conversation_executor import StoredConversation
from .._conversation_store import (
    DEFAULT_IDLE_TTL_SECONDS,
    ConversationStore,
    MemoryConversationStore,
)
from .._executor import AsyncExecutor, Executor, check_call_limits
from .._result_limit import DEFAULT_MAX_RESULT_BYTES
from .._tables import AliasConfig
from .._telemetry import Observed, Telemetry, rpc_method
from .._tool_error import ToolError
from .._validation import RequestValidator
from ._approval_flow import request_state_boundary, state_refusal
from ._audit import Audit
from ._call_arguments import CallArgumentError, take_call_arguments
from ._call_cancel import CallCanceller
from ._call_conversations import CallConversations, ConversationScope, session_lost
from ._call_policy import Caller, CallPolicy, Ending, PolicyAnswer, approved, error_outcome
from ._call_result import error_result, error_text, success_result
from ._call_telemetry import keeps_meta_baggage, meta_baggage, refusal_type
from ._conversation_handle import (
    CONVERSATION_ARGUMENT,
    unknown_conversation_message,
)
from ._default_validator import default_validator
from ._extra_properties import (
    _CURRENT,
    CallMetadata,
    ExtraProperty,
    McpCall,
)
from ._forward_identity import ForwardIdentity
from ._identity import identity_of
from ._in_process_transport import AddServicer, create_in_process_channel
from ._mcp_tool import McpToolMethod
from ._merge_alias_configs import merge_alias_configs
from ._non_object_arguments import mark_non_object_arguments, non_object_arguments
from ._provider_form import McpProvider, check_provider
from ._search_first import SearchFirst, SearchFirstMode, SearchFirstTools
from ._search_first_tools import CALL_TOOL, SEARCH_TOOLS, call_arguments, unknown_called_tool
from ._search_listen import ToolListens, serve_listen
from ._tool_listing import list_tool

__all__ = ["McpToolServer"]

logger = logging.getLogger("ai_tools_runtime.mcp")

_TOOL_NAME: Final = re.compile(r"[a-zA-Z_][a-zA-Z0-9_-]{0,63}")


@dataclass
class _Running:
    """What one run of the SDK server holds (its lifespan state): the
    channel to the in-process services, and the conversation of the
    connection when the transport is one connection (stdio, in memory)."""

    in_process: grpc.aio.Channel | None
    connection: ConversationScope = field(default_factory=ConversationScope)
    loaded: list[mcp_types.Tool] = field(default_factory=list)
    """The tools the connection's searches loaded (search_first)."""
    listens: ToolListens = field(default_factory=ToolListens)
    """The connection's 2026-07-28 listens for tool list changes."""


class _SdkServer(Server[_Running]):
    """The SDK's low-level server, declaring ``tools.listChanged`` when the
    tool set is search-first (its connections' lists change)."""

    tools_changed = False

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        if notification_options is None and self.tools_changed:
            notification_options = NotificationOptions(tools_changed=True)
        return super().create_initialization_options(
            notification_options, experimental_capabilities, extensions
        )


def _check_extra_properties(given: Sequence[ExtraProperty], handle_argument: bool) -> None:
    """Refuse an extra property declared twice, or named as the handle
    argument when there is one."""
    seen: set[str] = set()
    for e in given:
        if e.name in seen:
            raise ValueError(f"extra property {json.dumps(e.name)} is declared twice")
        if handle_argument and e.name == CONVERSATION_ARGUMENT:
            text = f"extra property {json.dumps(e.name)} is the handle argument: rename it"
            raise ValueError(text)
        seen.add(e.name)


@dataclass(frozen=True)
class _Entry:
    method: McpToolMethod
    channel: grpc.Channel | grpc.aio.Channel | None
    """None: the in-process services."""
    aliases: AliasConfig
    """The alias tables of its set (its generated file)."""

    @property
    def conversations(self) -> bool:
        """Whether its calls belong to a conversation: only when its set
        declares alias prefixes. Without any, nothing is remembered between
        calls, and no handle is taken or shown (as the Go file without
        aliases has no conversations; docs/mcp.md)."""
        return bool(self.aliases.known_alias_prefixes)


class McpToolServer:
    """Tools served over MCP. The generated ``register_<service>_handler``
    and ``forward_to_<service>_client`` add tools; :func:`serve_stdio`,
    :func:`serve_http` and :func:`create_mcp_http_app` serve them.
    ``sdk_server`` is the SDK's low-level server (add prompts or resources
    to it).

    - ``extra_properties``: added to every tool's input schema (nullable
      strings: any other value, or a required one missing, is an
      ``isError`` result), taken out of the arguments and handed to the call
      (:class:`McpCall`; ``metadata`` turns it into the request's gRPC
      metadata).
    - ``handle_argument``: take the conversation handle as the tool argument
      ``conversation`` (listed in every input schema) as well as in the
      request's ``_meta`` (which wins when both are given).
    - ``conversation_store``: where conversations live; in memory by
      default, idle for ``idle_ttl_seconds`` at most (also the idle time of
      an HTTP session).
    - ``timeout``: the deadline of a gRPC call in seconds when the tool's
      annotation sets none (default 30; 0: no deadline).
    - ``max_result_bytes``: the largest result text handed to the model
      (UTF-8 bytes; 0: no limit); a stream stops being read past it.
    - ``lenient_arguments``: unknown argument keys dropped, not refused.
    - ``validator``: checks the requests of tools whose messages carry
      buf.validate rules; by default ``protovalidate.Validator()`` when a
      tool needs one (``pip install protovalidate``).

    Safe on a network (docs/production.md):

    - ``approve``: asked (sync or async) before a tool with
      ``needs_approval`` is sent; without it the client is asked through
      elicitation when it can answer forms, else the call is refused.
    - ``approval_secret``: the key (32 bytes or more) sealing the
      ``requestState`` of an approval asked on 2026-07-28; random per
      process when not given (set it when several replicas serve one URL).
    - ``required_scopes``: tool name → scopes its token needs, added to the
      tool's annotation (:meth:`required_scopes`; the HTTP gate checks them).
    - ``forward_identity``: the caller's subject or claims as gRPC metadata,
      and metadata from a hook (:class:`ForwardIdentity`); never the
      client's token.
    - ``rate_limit``: calls per minute per subject (in this process).
    - ``max_concurrent_calls``: calls at once per conversation (default
      16): a handle, a 2025-11-25 session or the stdio connection, for a
      tool set without aliases too; a call with none (2026-07-28 without a
      handle) counts per subject. More conversations run more calls at
      once: ``rate_limit`` bounds a subject.
    - ``audit``: called with an :class:`AuditRecord` per call
      (:func:`json_lines_audit_writer` writes them as JSON lines).
    - ``telemetry``: observes every call (docs/production.md,
      "Telemetry"), e.g. :func:`ai_tools_runtime.otel.create_open_telemetry`;
      its span is a child of the SDK's ``tools/call`` span, which takes the
      trace context of the request's ``_meta`` (not its ``baggage``: a
      client's baggage is not sent on to the backend unless the telemetry
      asks for it, ``create_open_telemetry(meta_baggage=True)``).

    - ``search_first``: a search-first tool set (:class:`SearchFirst`,
      docs/mcp.md "Search-first tool sets"): ``tools/list`` gives
      ``search_tools``, the always-loaded tools and those the connection's
      searches found (stdio and 2025-11-25 sessions, told with
      ``notifications/tools/list_changed``), or ``search_tools``,
      ``call_tool`` and the always-loaded tools (2026-07-28). Any tool can
      still be called by name. Off by default: every tool is listed.

    A ``notifications/cancelled`` of a call, or the client going away,
    cancels its gRPC call."""

    def __init__(
        self,
        *,
        name: str = "ai-tools",
        version: str = "0.0.0",
        instructions: str | None = None,
        extra_properties: Sequence[ExtraProperty] = (),
        handle_argument: bool = False,
        conversation_store: ConversationStore | None = None,
        idle_ttl_seconds: float = DEFAULT_IDLE_TTL_SECONDS,
        metadata: CallMetadata | None = None,
        timeout: float | None = None,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        lenient_arguments: bool = False,
        validator: RequestValidator | None = None,
        approve: Approve | None = None,
        approval_secret: str | bytes | None = None,
        required_scopes: Mapping[str, Sequence[str]] | None = None,
        forward_identity: ForwardIdentity | None = None,
        rate_limit: int | None = None,
        max_concurrent_calls: int = 16,
        audit: Audit | None = None,
        telemetry: Telemetry | None = None,
        search_first: SearchFirst | None = None,
    ) -> None:
        _check_extra_properties(extra_properties, handle_argument)
        self._search_first = SearchFirstTools(search_first) if search_first is not None else None
        if not idle_ttl_seconds > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        check_call_limits(max_result_bytes, timeout)
        self.extra_properties = tuple(extra_properties)
        self.handle_argument = handle_argument
        self.idle_ttl_seconds = float(idle_ttl_seconds)
        self._store = conversation_store
        self._metadata = metadata
        self._options: dict[str, Any] = {
            "timeout": timeout,
            "max_result_bytes": max_result_bytes,
            "lenient_arguments": lenient_arguments,
        }
        self._validator = validator
        self._telemetry = telemetry
        self._meta_baggage = keeps_meta_baggage(telemetry)
        self._policy = CallPolicy(
            approve=approve,
            required_scopes=required_scopes,
            forward_identity=forward_identity,
            rate_limit=rate_limit,
            max_concurrent_calls=max_concurrent_calls,
            audit=audit,
        )
        self._configs: list[AliasConfig] = []
        self._merged: AliasConfig | None = None
        self._entries: dict[str, _Entry] = {}
        self._listing: list[mcp_types.Tool] = []
        self._servicers: list[AddServicer] = []
        self._conversations = CallConversations()
        sdk = _SdkServer(
            name,
            version=version,
            instructions=instructions,
            lifespan=self._lifespan,
            on_list_tools=self._on_list_tools,
            on_call_tool=self._on_call_tool,
            on_subscriptions_listen=self._on_listen if self._search_first is not None else None,
        )
        sdk.tools_changed = self._search_first is not None
        self.sdk_server: Server[_Running] = sdk
        self.sdk_server.middleware.append(mark_non_object_arguments)
        self.sdk_server.middleware.append(state_refusal(self._state_refused))
        self.sdk_server.middleware.append(request_state_boundary(approval_secret, name))

    # -- tools ----------------------------------------------------------------

    def add_tools(
        self,
        methods: Sequence[McpToolMethod],
        aliases: AliasConfig,
        channel: grpc.Channel | grpc.aio.Channel,
        *,
        name_prefix: str = "",
        provider: McpProvider | None = None,
    ) -> None:
        """Add tools whose calls go over ``channel``: a ``grpc.aio.Channel``
        (made in the event loop the server runs in) or a ``grpc.Channel``
        (its calls run on a worker thread). ``aliases`` is the generated
        MCP file's ``MCP_ALIAS_CONFIG`` (every tool executed, whatever its
        ``auto_execute``); ``name_prefix`` prefixes the tool names (one
        service registered twice); ``provider`` lists each tool's generated
        form for that provider as its input schema (docs/mcp.md, "Serving a
        provider's form"). A ``ValueError`` for a name taken, a name too
        long, an extra property that is already a property of a tool, an
        unknown provider, or a provider given for a tool without generated
        forms."""
        if not isinstance(channel, grpc.aio.Channel | grpc.Channel):
            raise TypeError(
                "channel must be a grpc.aio.Channel or a grpc.Channel, "
                f"got {type(channel).__name__}"
            )
        self._add(methods, aliases, channel, name_prefix, provider)

    def add_in_process_tools(
        self,
        methods: Sequence[McpToolMethod],
        aliases: AliasConfig,
        add_servicer: AddServicer,
        *,
        name_prefix: str = "",
        provider: McpProvider | None = None,
    ) -> None:
        """Add tools served by a servicer, which ``add_servicer`` adds to a
        ``grpc.aio`` server on a loopback port that runs while the SDK server
        does (its lifespan): calls take the same path as forwarded ones."""
        self._add(methods, aliases, None, name_prefix, provider)
        self._servicers.append(add_servicer)

    def _add(
        self,
        methods: Sequence[McpToolMethod],
        aliases: AliasConfig,
        channel: grpc.Channel | grpc.aio.Channel | None,
        name_prefix: str,
        provider: McpProvider | None,
    ) -> None:
        check_provider(provider)
        listed: list[mcp_types.Tool] = []
        entries: list[_Entry] = []
        if self._validator is None and any(m.validate for m in methods):
            self._validator = default_validator()
        for m in methods:
            name = name_prefix + m.tool.name
            if _TOOL_NAME.fullmatch(name) is None:
                raise ValueError(
                    f"tool name {json.dumps(name)} is not 1 to 64 letters, digits, '_' or '-' "
                    "starting with a letter or '_': shorten the name prefix"
                )
            if name in self._entries or any(t.name == name for t in listed):
                raise ValueError(f"tool {json.dumps(name)} is added twice")
            if self._search_first is not None and SearchFirstTools.reserved(name):
                raise ValueError(
                    f"tool {json.dumps(name)} has the name of a search-first tool: "
                    "add it with a name prefix"
                )
            if self._search_first is not None:
                self._search_first.check_served(m.tool.name)
            entry = _Entry(m, channel, aliases)
            listed.append(
                list_tool(
                    name,
                    m,
                    self.extra_properties,
                    self.handle_argument and entry.conversations,
                    provider,
                )
            )
            entries.append(entry)
        merged = merge_alias_configs([*self._configs, aliases])
        for tool, entry in zip(listed, entries, strict=True):
            self._entries[tool.name] = entry
        self._configs.append(aliases)
        self._merged = merged
        self._listing = sorted([*self._listing, *listed], key=lambda t: t.name.encode())
        if self._search_first is not None:
            by_name = {t.name: t for t in self._listing}
            self._search_first.set_tools(
                [(e.method.tool.name, by_name[n]) for n, e in self._entries.items()]
            )

    @property
    def search_first(self) -> SearchFirst | None:
        """The ``search_first`` option, None when off."""
        return self._search_first.option if self._search_first is not None else None

    def list_tools(self) -> list[mcp_types.Tool]:
        """The tools as ``tools/list`` lists them, sorted by name."""
        return list(self._listing)

    def tool_names(self) -> tuple[str, ...]:
        """The names of the tools, sorted as listed."""
        return tuple(t.name for t in self._listing)

    def required_scopes(self, tool: str) -> tuple[str, ...]:
        """The scopes a token needs to call ``tool``: its annotation's and
        the ``required_scopes`` option's, sorted, once each; ``()`` for an
        unknown tool."""
        entry = self._entries.get(tool)
        if entry is None:
            return ()
        return self._policy.required_scopes(tool, entry.method.required_scopes)

    def create_alias_manager(self) -> AliasManager:
        """A fresh alias manager knowing every added tool (one conversation)."""
        return AliasManager(self._merged)

    @property
    def conversation_store(self) -> ConversationStore:
        """Where conversations live (in memory unless given, made on first
        use)."""
        if self._store is None:
            self._store = MemoryConversationStore(idle_ttl_seconds=self.idle_ttl_seconds)
        return self._store

    # -- the SDK server's handlers ----------------------------------------------

    @asynccontextmanager
    async def _lifespan(self, _server: Server[_Running]) -> AsyncIterator[_Running]:
        async with AsyncExitStack() as stack:
            channel = None
            if self._servicers:
                channel = await stack.enter_async_context(
                    create_in_process_channel(self._servicers)
                )
            running = _Running(channel)
            try:
                yield running
            finally:
                # One run is one connection (stdio, in memory): its
                # conversation ends with it. Over HTTP the run is the app's,
                # and a session's conversation is left to the store's TTL.
                handle = running.connection.handle
                if handle is not None:
                    with anyio.CancelScope(shield=True), suppress(Exception):
                        await self.conversation_store.delete(handle)

    async def _on_list_tools(
        self,
        ctx: ServerRequestContext[_Running],
        params: mcp_types.PaginatedRequestParams | None,
    ) -> mcp_types.ListToolsResult:
        if self._search_first is not None:
            mode, loaded = self._search_scope(ctx)
            return mcp_types.ListToolsResult(tools=self._search_first.listing(mode, loaded))
        return mcp_types.ListToolsResult(tools=self.list_tools())

    def _search_scope(
        self, ctx: ServerRequestContext[_Running]
    ) -> tuple[SearchFirstMode, list[mcp_types.Tool]]:
        """How a search-first request sees the tools found, and the list of
        its connection's: the list view where it can be told of a change
        now. Stdio (in memory) is one connection: at 2025-11-25, or at
        2026-07-28 while it listens for tool list changes; a 2025-11-25 HTTP
        session is known by its header; a 2026-07-28 HTTP request has no list
        of its own."""
        headers = getattr(ctx.request, "headers", None)
        if headers is None:
            running = ctx.lifespan_context
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and not running.listens.streams:
                return "call", []
            return "list", running.loaded
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return "call", []
        session = headers.get("mcp-session-id")
        if session is None or self._search_first is None:
            return "call", []
        return "list", self._search_first.loaded(session)

    async def _search_first_call(
        self, ctx: ServerRequestContext[_Running], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolRequestParams | mcp_types.CallToolResult:
        """A call of a search-first tool: ``search_tools``' result, or the
        call ``call_tool`` names (an ``isError`` result for a bad one)."""
        assert self._search_first is not None
        args = dict(params.arguments or {})
        refused = non_object_arguments(args)
        if refused is not None:
            return error_result(refused)
        if params.name == SEARCH_TOOLS:
            mode, loaded = self._search_scope(ctx)
            result, added = self._search_first.search(mode, loaded, args)
            if added and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                # On the connection's listen streams (it is in the list view only
                # while it has one).
                ctx.lifespan_context.listens.tell()
            elif added:
                # On the call's own stream: the client hears it before the result.
                await ctx.session.send_notification(
                    mcp_types.ToolListChangedNotification(), related_request_id=ctx.request_id
                )
            return result
        target = call_arguments(args)
        if isinstance(target, str):
            return error_result(target)
        name, inner = target
        if name not in self._entries:
            return error_result(unknown_called_tool(name))
        return params.model_copy(update={"name": name, "arguments": inner})

    async def _on_listen(
        self,
        ctx: ServerRequestContext[_Running],
        params: mcp_types.SubscriptionsListenRequestParams,
    ) -> mcp_types.SubscriptionsListenResult:
        """A 2026-07-28 ``subscriptions/listen`` (search_first only): a
        connection's is told of its tool list changes."""
        connection = getattr(ctx.request, "headers", None) is None
        return await serve_listen(ctx, params, ctx.lifespan_context.listens if connection else None)

    async def _on_call_tool(
        self, ctx: ServerRequestContext[_Running], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult | mcp_types.InputRequiredResult:
        if self._search_first is not None and params.name in (SEARCH_TOOLS, CALL_TOOL):
            called = await self._search_first_call(ctx, params)
            if isinstance(called, mcp_types.CallToolResult):
                return called
            params = called  # call_tool's: the same path as a direct call
        entry = self._entries.get(params.name)
        if entry is None:
            raise MCPError(mcp_types.INVALID_PARAMS, f"unknown tool {json.dumps(params.name)}")
        caller = Caller(ctx, params, identity_of(ctx))
        began, clock = datetime.now(UTC), time.monotonic()
        ending = Ending()
        with meta_baggage(caller.ctx.meta if self._meta_baggage else None):
            if self._telemetry is None:
                result = await self._call_tool(entry, caller, ending, None)
            else:
                method = rpc_method(entry.method.method)
                with Observed(self._telemetry, params.name, method) as observed:
                    result = await self._call_tool(entry, caller, ending, observed)
                    if observed.outcome.error_type is None:
                        observed.outcome.error_type = refusal_type(ending.outcome)
        if not isinstance(result, mcp_types.InputRequiredResult):
            self._policy.record(caller, entry.method.method, ending, began, clock)
        return result

    async def _call_tool(
        self, entry: _Entry, caller: Caller, ending: Ending, observed: Observed | None
    ) -> mcp_types.CallToolResult | mcp_types.InputRequiredResult:
        """The call's result; ``ending`` and ``observed`` learn how it ended."""
        params = caller.params
        aliases: AliasManager | None = None
        try:
            self._policy.admit(caller, self.required_scopes(params.name))
            args = dict(params.arguments or {})
            refused = non_object_arguments(args)
            if refused is not None:
                ending.outcome = "invalid_arguments"
                return error_result(refused)
            taken = take_call_arguments(
                args,
                self.extra_properties,
                handle_argument=self.handle_argument and entry.conversations,
                meta=caller.ctx.meta if entry.conversations else None,
            )
            caller = dataclasses.replace(caller, handle=taken.handle)
            if entry.conversations:
                return await self._in_conversation(
                    entry, caller, taken.extras, args, ending, observed
                )
            with self._policy.limited(caller):
                aliases = AliasManager(entry.aliases)
                call = McpCall(params.name, taken.extras, None)
                out, model_text = await self._run(entry, caller, call, aliases, args, [], observed)
                return success_result(model_text(out), entry.method.output_wrap_key, None)
        except PolicyAnswer as answer:
            ending.outcome, ending.code = answer.outcome, answer.code
            return answer.result
        except CallArgumentError as err:
            ending.outcome = "invalid_arguments"
            return error_result(str(err))
        except Exception as err:
            # Nothing but an unknown tool is a protocol error.
            if not isinstance(err, ToolError):
                logger.exception("tool %s failed", params.name)
            ending.outcome, ending.code = error_outcome(err)
            if observed is not None:
                observed.failed(err)
            return error_result(error_text(err, aliases or ending.aliases))

    async def _in_conversation(
        self,
        entry: _Entry,
        caller: Caller,
        extras: Mapping[str, str],
        args: dict[str, Any],
        ending: Ending,
        observed: Observed | None,
    ) -> mcp_types.CallToolResult:
        """The call in its conversation (loaded, or made for it, then
        counted against the concurrency limit, as Go's and TS's)."""
        ctx = caller.ctx
        connection = ctx.lifespan_context.connection
        store = self.conversation_store
        found = await self._conversations.find(
            ctx, connection, caller.handle, caller.subject, store, self._merged
        )
        if isinstance(found, str):
            return _unknown_handle(found, caller, ending, observed)
        conversation, shown = found
        ending.aliases = conversation.aliases
        if observed is not None:
            observed.outcome.conversation_aliases = conversation.aliases.alias_count()
        # Named by the handle the model sees; a connection's or session's: none.
        conversation.check_room(shown)
        call = McpCall(caller.params.name, extras, shown)
        try:
            with self._policy.limited(caller):
                text = await self._execute(entry, caller, call, conversation, args, observed)
        except Exception as err:
            minted = shown is not None and caller.handle is None
            if minted:
                # Minted for this call: the model never sees its handle.
                with suppress(Exception):
                    await conversation.store.delete(conversation.handle)
            if not isinstance(err, ToolError) or err.reason != "conversation-expired":
                raise
            # Its registration found it gone: named as the model knows it.
            if shown is not None and not minted:
                if observed is not None:
                    observed.failed(err)  # the RPC answered: OK
                return _unknown_handle(
                    unknown_conversation_message(shown), caller, ending, observed
                )
            if shown is None:
                self._conversations.forget(ctx, connection, conversation.handle)
            raise session_lost(err) from err.__cause__
        return success_result(text, entry.method.output_wrap_key, shown)

    def _state_refused(self, ctx: ServerRequestContext[Any, Any], name: str) -> None:
        """A call whose approval state the SDK's boundary refused."""
        entry = self._entries.get(name)
        self._policy.state_refused(ctx, name, entry.method.method if entry is not None else "")

    async def _execute(
        self,
        entry: _Entry,
        caller: Caller,
        call: McpCall,
        conversation: StoredConversation,
        args: dict[str, Any],
        observed: Observed | None,
    ) -> str:
        """The call through the conversation's store (docs/store.md, "A
        call through a store"): the response's ids are stored before it is
        returned."""
        values: list[Any] = []
        aliases = conversation.aliases
        out, shown = await self._run(entry, caller, call, aliases, args, values, observed)
        registered = await conversation.confirm(entry.method.tool.name, values)
        if observed is not None:
            observed.outcome.aliases_registered = registered
            observed.outcome.conversation_aliases = aliases.alias_count()
        return shown(out)

    async def _run(
        self,
        entry: _Entry,
        caller: Caller,
        call: McpCall,
        aliases: AliasManager,
        args: dict[str, Any],
        values: list[Any],
        observed: Observed | None,
    ) -> tuple[str, Callable[[str], str]]:
        """The call's result with ``aliases``, not aliasified, and what
        makes it the model's text (aliasified, size checked); the values of
        the responses go to ``values``; ``observed`` learns how it went."""
        method = entry.method
        args_json = json.dumps(args, ensure_ascii=False)
        running = caller.ctx.lifespan_context
        channel = entry.channel if entry.channel is not None else running.in_process
        # The executor runs the tool under its own name, whatever the prefix.
        name = method.tool.name
        extra = self._extra_root
        # The approval, when the tool needs one, is asked here, not by the executor.
        options = {**self._options, "validator": self._validator, "approve": approved}
        token = _CURRENT.set(call)
        try:
            if isinstance(channel, grpc.aio.Channel):
                executor = AsyncExecutor(
                    channel, [method], aliases, response_json="full", **options
                )
                metadata = await self._before_sending(executor, entry, caller, call, args)
                # Cancelling this task (notifications/cancelled, the client
                # gone) cancels the grpc.aio call.
                out = await executor._run(
                    name, args_json, None, metadata, values.append, extra, observed=observed
                )
                return out, executor._shown
            if channel is None:
                raise RuntimeError("the in-process services are not running")
            sync = Executor(channel, [method], aliases, response_json="full", **options)
            metadata = await self._before_sending(sync, entry, caller, call, args)
            cancel = CallCanceller()
            run = partial(
                sync._run,
                name,
                args_json,
                None,
                metadata,
                values.append,
                cancel.started,
                extra,
                observed=observed,
            )
            try:
                out = await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                cancel.cancel()
                raise
            return out, sync._shown
        finally:
            _CURRENT.reset(token)

    async def _before_sending(
        self,
        executor: Executor | AsyncExecutor,
        entry: _Entry,
        caller: Caller,
        call: McpCall,
        args: dict[str, Any],
    ) -> Callable[[], list[tuple[str, str | bytes]] | None]:
        """The approval of a tool that needs one (its arguments checked
        first), and the call's metadata, made once the executor's checks
        passed (nothing is sent otherwise, and the call's context is not
        handed out): the ``metadata`` option's, then the forwarded
        identity's."""
        method = entry.method
        if method.needs_approval or self._policy.forwards:
            executor._decode(method, json.dumps(args, ensure_ascii=False), self._extra_root)
        if method.needs_approval:
            await self._policy.approve(caller, method.method, args)
        forwarded = await self._policy.forwarded(caller)
        made = self._metadata

        def metadata() -> list[tuple[str, str | bytes]] | None:
            own = list(made(call)) if made is not None else []
            return [*own, *forwarded] or None

        return metadata

    @property
    def _extra_root(self) -> frozenset[str]:
        """The root keys of the arguments that are never unknown: the
        extra properties and the handle argument."""
        return frozenset([CONVERSATION_ARGUMENT, *(e.name for e in self.extra_properties)])


def _unknown_handle(
    message: str, caller: Caller, ending: Ending, observed: Observed | None
) -> mcp_types.CallToolResult:
    """The result of a handle the store does not hold under the caller's
    key: audited as Go's and TS's servers do; the span's reason is theirs too."""
    ending.outcome = "unauthorized" if caller.subject else "invalid_arguments"
    if observed is not None:
        observed.outcome.error_type = "conversation-expired"
    return error_result(message)
