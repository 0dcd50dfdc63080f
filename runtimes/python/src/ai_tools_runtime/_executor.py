"""Executors: run a tool call against a gRPC service (docs/runtime.md).

One call: the arguments decoded (one JSON object) → aliases resolved (an
unknown alias is a :class:`ToolError`) → argument fix-up and kind checks →
``json_format.Parse`` (unknown fields ignored) → the RPC → the response as
compact proto3 JSON → its ids registered by message type → aliasified.
Every message a :class:`ToolError` carries is aliasified too."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Literal, Self

import grpc
import grpc.aio
from google.protobuf import json_format
from google.protobuf.message import Message

from ._agent_tool import AgentTool
from ._aliases import AliasManager
from ._fixup import FixupError, fix_value_tree, parse_args
from ._json import encode_json
from ._proto_json import dict_json, message_dict, message_json
from ._tables import AliasConfig
from ._tool_error import ToolError, ToolErrorReason, status_details, status_text

__all__ = ["MAX_STREAM_MESSAGES", "AsyncExecutor", "Executor", "ResponseJson", "ToolMethod"]

MAX_STREAM_MESSAGES: Final = 1000
"""A server-streaming tool's answer holds at most this many messages."""

Metadata = Sequence[tuple[str, str | bytes]]

_TOO_DEEP: Final = "arguments nested too deeply"

ResponseJson = Literal["compact", "full"]
"""How an executor writes a response as JSON:

- ``"compact"`` (the default, what the model sees in every target): proto3
  JSON with lowerCamelCase names, fields at their default left out;
- ``"full"`` (what the MCP servers return, their ``outputSchema``): proto
  field names, every field without presence written, defaults included,
  written byte for byte as Go's protojson writes it (field order, sorted
  map keys, number format).

Either way 64-bit integers are strings and ids are aliases."""


@dataclass(frozen=True)
class ToolMethod:
    """One auto-executed tool: the RPC it calls and how."""

    tool: AgentTool
    method: str
    """The full method path: "/aitest.v1.AccountService/CreateAccount"."""
    request_type: type[Message]
    response_type: type[Message]
    server_streaming: bool = False


class _Base:
    def __init__(
        self,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None,
        response_json: ResponseJson,
    ) -> None:
        if response_json not in ("compact", "full"):
            raise ValueError(f'response_json must be "compact" or "full", got {response_json!r}')
        self._full = response_json == "full"
        self._methods: dict[str, ToolMethod] = {}
        for m in methods:
            if m.tool.name in self._methods:
                raise ValueError(f"two executors for tool {m.tool.name!r}")
            self._methods[m.tool.name] = m
        if isinstance(aliases, AliasManager):
            self._aliases = aliases
        else:
            self._aliases = AliasManager(aliases)

    @property
    def aliases(self) -> AliasManager:
        """The executor's alias manager, to share with hand-written tools of the
        same conversation (and to export/restore)."""
        return self._aliases

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools this executor runs, in name order."""
        return sorted(self._methods)

    def can_execute(self, tool_name: str) -> bool:
        """Whether ``tool_name`` has an auto-executor here."""
        return tool_name in self._methods

    def _error(self, reason: ToolErrorReason, code: grpc.StatusCode, message: str) -> ToolError:
        """A ToolError whose message is aliasified, for the model (raise it
        ``from`` its cause)."""
        return ToolError(self._aliases.aliasify_json(message), reason=reason, code=code)

    def _method(self, tool_name: str) -> ToolMethod:
        method = self._methods.get(tool_name)
        if method is None:
            raise self._error(
                "unknown-tool", grpc.StatusCode.NOT_FOUND, f"no auto-executor for tool: {tool_name}"
            )
        return method

    def _decode(self, method: ToolMethod, args_json: str) -> Message:
        """The request: one JSON value, aliases resolved, then (an object)
        fix-up applied and kinds checked, then json_format; the order of Go
        and TypeScript. Nothing is sent on failure."""
        if not isinstance(args_json, str):
            raise self._invalid(
                f"arguments must be a JSON object as text, got {type(args_json).__name__}"
            )
        try:
            value = parse_args(args_json)
            value = self._aliases.resolve_value(value)
            fix_value_tree(value, method.request_type.DESCRIPTOR, method.tool.strict)
            text = encode_json(value)
        except FixupError as err:
            raise self._invalid(str(err)) from None
        except RecursionError as err:
            raise self._invalid(_TOO_DEEP) from err
        # (an unknown alias is the manager's ToolError, already aliasified)
        request = method.request_type()
        try:
            json_format.Parse(text, request, ignore_unknown_fields=True)
        except (json_format.ParseError, ValueError, TypeError, AttributeError, KeyError) as err:
            raise self._invalid(str(err)) from err
        except RecursionError as err:
            raise self._invalid(_TOO_DEEP) from err
        return request

    def _invalid(self, message: str) -> ToolError:
        return self._error(
            "invalid-arguments",
            grpc.StatusCode.INVALID_ARGUMENT,
            f"failed to parse arguments: {message}",
        )

    @contextmanager
    def _call_errors(self) -> Iterator[None]:
        """Failures of the call itself, as ToolErrors: the server's status, or
        grpc's ValueError for a closed channel."""
        try:
            yield
        except grpc.RpcError as err:
            raise self._server_error(err) from err
        except ValueError as err:
            raise self._status_error(grpc.StatusCode.UNAVAILABLE, str(err)) from err

    def _server_error(self, err: grpc.RpcError) -> ToolError:
        code = err.code() if callable(getattr(err, "code", None)) else None
        message = err.details() if callable(getattr(err, "details", None)) else None
        trailing: Any = None
        if callable(getattr(err, "trailing_metadata", None)):
            trailing = err.trailing_metadata()
        metadata = tuple((str(k), v) for k, v in trailing or ())
        return self._status_error(
            code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN,
            message if isinstance(message, str) else str(err),
            metadata,
        )

    def _status_error(
        self,
        code: grpc.StatusCode,
        message: str,
        metadata: tuple[tuple[str, str | bytes], ...] = (),
    ) -> ToolError:
        """The error of a failed call (raise it ``from`` the grpc error)."""
        raw = self._aliases.aliasify_json(message)
        return ToolError(
            status_text(code, raw),
            reason="unavailable" if code == grpc.StatusCode.UNAVAILABLE else "server-error",
            code=code,
            raw_message=raw,
            details=status_details(metadata),
            trailing_metadata=metadata,
        )

    def _to_json(self, message: Message) -> tuple[Any, str]:
        """The response as a JSON value (compact: lowerCamelCase names, unset
        fields left out, as Go's protojson writes it; what the registration
        tables name) and as the text of :data:`ResponseJson`."""
        try:
            value = message_dict(message)
            if self._full:
                return value, message_json(message)
            return value, dict_json(message, value, proto_names=False)
        except Exception as err:
            raise self._error(
                "invalid-response", grpc.StatusCode.INTERNAL, f"failed to marshal response: {err}"
            ) from err

    def _message(self, message: Message, seen: Callable[[Any], object]) -> str:
        """One response message as JSON text, not aliasified; ``seen`` gets
        its value (to register its ids, or to collect them)."""
        value, out = self._to_json(message)
        seen(value)
        return out

    def _collect(
        self,
        items: list[str],
        message: Message,
        cancel: Callable[[], object],
        seen: Callable[[Any], object],
    ) -> None:
        """Add one streamed message, seen as it arrives; past
        MAX_STREAM_MESSAGES, cancel and fail."""
        if len(items) == MAX_STREAM_MESSAGES:
            cancel()
            raise self._error(
                "invalid-response",
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"stream returned more than {MAX_STREAM_MESSAGES} messages: narrow the request",
            )
        items.append(self._message(message, seen))

    def _registering(self, tool_name: str) -> Callable[[Any], object]:
        """The ``seen`` of an in-memory call: register the ids as they come."""
        return partial(self._aliases.register_response_value, tool_name)

    def _with_aliases(self, aliases: AliasManager) -> Self:
        """This executor with another alias manager (one call of a
        conversation kept in a store): the methods and channel are shared."""
        other = copy.copy(self)
        other._aliases = aliases
        return other


class Executor(_Base):
    """Runs the auto-executed tools over a ``grpc.Channel``. Thread-safe; use
    one per conversation (the alias manager is the conversation's)."""

    def __init__(
        self,
        channel: grpc.Channel,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None = None,
        *,
        response_json: ResponseJson = "compact",
    ) -> None:
        super().__init__(methods, aliases, response_json)
        self._channel = channel
        self._calls: dict[str, Any] = {}
        for m in methods:
            factory = channel.unary_stream if m.server_streaming else channel.unary_unary
            self._calls[m.tool.name] = factory(
                m.method,
                request_serializer=m.request_type.SerializeToString,
                response_deserializer=m.response_type.FromString,
            )

    def execute(
        self,
        tool_name: str,
        args_json: str,
        *,
        timeout: float | None = None,
        metadata: Metadata | None = None,
    ) -> str:
        """Run ``tool_name`` with the model's arguments; the result (JSON text,
        ids as aliases) is for the model. Raises :class:`ToolError` only."""
        out = self._run(tool_name, args_json, timeout, metadata, self._registering(tool_name))
        return self._aliases.aliasify_json(out)

    def _run(
        self,
        tool_name: str,
        args_json: str,
        timeout: float | None,
        metadata: Metadata | None,
        seen: Callable[[Any], object],
    ) -> str:
        """The call up to its JSON text, not aliasified (a stream's messages
        as one array); ``seen`` gets each response value as it arrives."""
        method = self._method(tool_name)
        request = self._decode(method, args_json)
        call = self._calls[tool_name]
        if not method.server_streaming:
            with self._call_errors():
                response = call(request, timeout=timeout, metadata=metadata)
            return self._message(response, seen)
        items: list[str] = []
        with self._call_errors():
            stream = call(request, timeout=timeout, metadata=metadata)
            for message in stream:
                self._collect(items, message, stream.cancel, seen)
        return "[" + ",".join(items) + "]"


class AsyncExecutor(_Base):
    """:class:`Executor` for a ``grpc.aio.Channel``: ``execute`` is awaitable.
    Safe to use from several tasks of one event loop."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None = None,
        *,
        response_json: ResponseJson = "compact",
    ) -> None:
        super().__init__(methods, aliases, response_json)
        self._channel = channel
        self._calls: dict[str, Any] = {}
        for m in methods:
            factory = channel.unary_stream if m.server_streaming else channel.unary_unary
            self._calls[m.tool.name] = factory(
                m.method,
                request_serializer=m.request_type.SerializeToString,
                response_deserializer=m.response_type.FromString,
            )

    async def execute(
        self,
        tool_name: str,
        args_json: str,
        *,
        timeout: float | None = None,
        metadata: Metadata | None = None,
    ) -> str:
        """Run ``tool_name`` with the model's arguments; the result (JSON text,
        ids as aliases) is for the model. Raises :class:`ToolError` only."""
        seen = self._registering(tool_name)
        out = await self._run(tool_name, args_json, timeout, metadata, seen)
        return self._aliases.aliasify_json(out)

    async def _run(
        self,
        tool_name: str,
        args_json: str,
        timeout: float | None,
        metadata: Metadata | None,
        seen: Callable[[Any], object],
    ) -> str:
        """The call up to its JSON text, not aliasified (a stream's messages
        as one array); ``seen`` gets each response value as it arrives."""
        method = self._method(tool_name)
        request = self._decode(method, args_json)
        call_metadata = grpc.aio.Metadata(*metadata) if metadata else None
        call = self._calls[tool_name]
        if not method.server_streaming:
            with self._call_errors():
                response = await call(request, timeout=timeout, metadata=call_metadata)
            return self._message(response, seen)
        items: list[str] = []
        with self._call_errors():
            stream = call(request, timeout=timeout, metadata=call_metadata)
            async for message in stream:
                self._collect(items, message, stream.cancel, seen)
        return "[" + ",".join(items) + "]"
