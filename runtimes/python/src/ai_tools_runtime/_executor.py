"""Executors: run a tool call against a gRPC service (docs/runtime.md).

One call: aliases resolved (an unknown alias is a :class:`ToolError`) →
argument fix-up → ``json_format.Parse`` (unknown fields ignored) → the RPC →
the response as compact proto3 JSON → its ids registered → aliasified."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import grpc
import grpc.aio
from google.protobuf import json_format
from google.protobuf.message import Message

from ._aliases import AliasManager
from ._fixup import FixupError, fix_args
from ._types import AliasConfig, ToolError, ToolMethod

__all__ = ["MAX_STREAM_MESSAGES", "AsyncExecutor", "Executor"]

MAX_STREAM_MESSAGES: Final = 1000
"""A server-streaming tool's answer holds at most this many messages."""

Metadata = Sequence[tuple[str, str | bytes]]


class _Base:
    def __init__(
        self,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None,
    ) -> None:
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

    def _method(self, tool_name: str) -> ToolMethod:
        method = self._methods.get(tool_name)
        if method is None:
            raise ToolError(
                f"no auto-executor for tool: {tool_name}", code=grpc.StatusCode.NOT_FOUND
            )
        return method

    def _decode(self, method: ToolMethod, args_json: str) -> Message:
        """The request: aliases resolved, fix-up applied, then json_format."""
        if not isinstance(args_json, str):
            raise ToolError(
                "failed to parse arguments: arguments must be a JSON object as text, "
                f"got {type(args_json).__name__}",
                code=grpc.StatusCode.INVALID_ARGUMENT,
            )
        resolved = self._aliases.resolve_json(args_json)
        try:
            fixed = fix_args(resolved, method.request_type.DESCRIPTOR, method.tool.strict)
        except FixupError as err:
            raise ToolError(
                f"failed to parse arguments: {err}", code=grpc.StatusCode.INVALID_ARGUMENT
            ) from None
        try:
            value = json.loads(fixed)
        except (ValueError, RecursionError) as err:
            raise ToolError(
                f"failed to parse arguments: invalid JSON: {err}",
                code=grpc.StatusCode.INVALID_ARGUMENT,
            ) from None
        if not isinstance(value, dict):
            raise ToolError(
                f"failed to parse arguments: expected a JSON object, got {_json_kind(value)}",
                code=grpc.StatusCode.INVALID_ARGUMENT,
            )
        request = method.request_type()
        try:
            json_format.Parse(fixed, request, ignore_unknown_fields=True)
        except json_format.ParseError as err:
            raise ToolError(
                f"failed to parse arguments: {err}", code=grpc.StatusCode.INVALID_ARGUMENT
            ) from None
        except (ValueError, TypeError, AttributeError, KeyError, RecursionError) as err:
            raise ToolError(
                f"failed to parse arguments: {err}", code=grpc.StatusCode.INVALID_ARGUMENT
            ) from None
        return request

    @contextmanager
    def _call_errors(self) -> Iterator[None]:
        """Failures of the call itself, as ToolErrors: the server's status, or
        grpc's ValueError for a closed channel."""
        try:
            yield
        except grpc.RpcError as err:
            raise self._server_error(err) from None
        except ValueError as err:
            raise _channel_error(err) from None

    def _server_error(self, err: grpc.RpcError) -> ToolError:
        code = err.code() if callable(getattr(err, "code", None)) else grpc.StatusCode.UNKNOWN
        details = err.details() if callable(getattr(err, "details", None)) else str(err)
        trailing: Any = ()
        if callable(getattr(err, "trailing_metadata", None)):
            trailing = err.trailing_metadata() or ()
        return ToolError.from_status(
            code if code is not None else grpc.StatusCode.UNKNOWN,
            self._aliases.aliasify_json(details or ""),
            tuple((str(k), v) for k, v in trailing),
        )

    def _finish(self, method: ToolMethod, response: Message) -> str:
        out = _to_json(response)
        self._aliases.register_fields_from_json(method.output_prefix, out)
        return self._aliases.aliasify_json(out)

    def _finish_stream(self, method: ToolMethod, items: list[str]) -> str:
        for item in items:
            self._aliases.register_fields_from_json(method.output_prefix, item)
        return self._aliases.aliasify_json("[" + ",".join(items) + "]")


def _json_kind(v: Any) -> str:
    if isinstance(v, list):
        return "an array"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, bool):
        return "a boolean"
    if v is None:
        return "null"
    return "a number"


def _to_json(message: Message) -> str:
    """Compact proto3 JSON (lowerCamelCase names, unset fields left out), as
    Go's protojson writes it."""
    try:
        value = json_format.MessageToDict(message)
    except Exception as err:
        raise ToolError(
            f"failed to marshal response: {err}", code=grpc.StatusCode.INTERNAL
        ) from None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Executor(_Base):
    """Runs the auto-executed tools over a ``grpc.Channel``. Thread-safe; use
    one per conversation (the alias manager is the conversation's)."""

    def __init__(
        self,
        channel: grpc.Channel,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None = None,
    ) -> None:
        super().__init__(methods, aliases)
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
        method = self._method(tool_name)
        request = self._decode(method, args_json)
        call = self._calls[tool_name]
        if not method.server_streaming:
            with self._call_errors():
                response = call(request, timeout=timeout, metadata=metadata)
            return self._finish(method, response)
        items: list[str] = []
        with self._call_errors():
            stream = call(request, timeout=timeout, metadata=metadata)
            for message in stream:
                _collect(items, message, stream.cancel)
        return self._finish_stream(method, items)


class AsyncExecutor(_Base):
    """:class:`Executor` for a ``grpc.aio.Channel``: ``execute`` is awaitable.
    Safe to use from several tasks of one event loop."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None = None,
    ) -> None:
        super().__init__(methods, aliases)
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
        method = self._method(tool_name)
        request = self._decode(method, args_json)
        call_metadata = grpc.aio.Metadata(*metadata) if metadata else None
        call = self._calls[tool_name]
        if not method.server_streaming:
            with self._call_errors():
                response = await call(request, timeout=timeout, metadata=call_metadata)
            return self._finish(method, response)
        items: list[str] = []
        with self._call_errors():
            stream = call(request, timeout=timeout, metadata=call_metadata)
            async for message in stream:
                _collect(items, message, stream.cancel)
        return self._finish_stream(method, items)


def _collect(items: list[str], message: Message, cancel: Callable[[], object]) -> None:
    """Add one streamed message; past MAX_STREAM_MESSAGES, cancel and fail."""
    if len(items) == MAX_STREAM_MESSAGES:
        cancel()
        raise ToolError(
            f"stream returned more than {MAX_STREAM_MESSAGES} messages: narrow the request",
            code=grpc.StatusCode.RESOURCE_EXHAUSTED,
        )
    items.append(_to_json(message))


def _channel_error(err: ValueError) -> ToolError:
    """A call grpc refused to start (a closed channel), as a ToolError."""
    return ToolError(
        f"rpc error: code = Unavailable desc = {err}",
        code=grpc.StatusCode.UNAVAILABLE,
        details=str(err),
    )
