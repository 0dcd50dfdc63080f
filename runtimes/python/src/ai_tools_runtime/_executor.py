"""Executors: run a tool call against a gRPC service (docs/runtime.md).

One call: the arguments read as one JSON object → the structure check of
the tool's argument table (unknown keys, missing required fields) → aliases
resolved → argument fix-up and kind checks → ``json_format.Parse`` →
buf.validate rules (with a validator) → the RPC, under a deadline → the
response as JSON (proto names) → its ids registered by message type →
aliasified, its size checked. Arguments refused before the RPC are one
:class:`ToolError` listing the violations; nothing is sent. Every message a
:class:`ToolError` carries is aliasified too."""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Generic, Literal, Self, TypeVar

import grpc
import grpc.aio
from google.protobuf import json_format
from google.protobuf.message import Message

from ._agent_tool import AgentTool
from ._aliases import AliasManager
from ._approval import (
    ApprovalRequest,
    Approve,
    approval_refused,
    ask_approval,
    denied_text,
    no_approval_text,
)
from ._argument_check import ArgumentTable, check_argument_text, parse_argument_table
from ._fixup import FixupError, fix_value_tree
from ._json import encode_json
from ._proto_json import dict_json, message_dict
from ._result_limit import DEFAULT_MAX_RESULT_BYTES, StreamBudget, result_too_large, text_bytes
from ._tables import AliasConfig
from ._telemetry import Observed, Telemetry, rpc_method
from ._tool_error import (
    ToolError,
    ToolErrorReason,
    bad_request_violations,
    status_details,
    status_text,
)
from ._validation import RequestValidator, validation_violations
from ._violations import Violation, invalid_arguments_text, violation_lines

__all__ = [
    "DEFAULT_MAX_RESULT_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_STREAM_MESSAGES",
    "AsyncExecutor",
    "Executor",
    "ResponseJson",
    "ToolMethod",
]

MAX_STREAM_MESSAGES: Final = 1000
"""A server-streaming tool's answer holds at most this many messages."""

DEFAULT_TIMEOUT: Final = 30.0
"""The deadline of a tool call, in seconds, unless the tool or the executor
sets another."""

Metadata = Sequence[tuple[str, str | bytes]]
LateMetadata = Callable[[], Metadata | None]

_TOO_DEEP: Final = "arguments nested too deeply"


def _too_deep() -> Violation:
    return Violation("", "invalid-value", _TOO_DEEP)


ResponseJson = Literal["compact", "full"]
"""How an executor writes a response as JSON:

- ``"compact"`` (the default, what the model sees in every target): proto3
  JSON with proto field names (lowerCamelCase JSON names with
  ``json_names=True``), fields at their default left out;
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
    arguments: str | None = None
    """The tool's argument table, JSON text the generator writes: the fields
    its schema shows and which are required (docs/runtime.md, "Argument
    checks"); None (a hand-written method): no structure check."""
    timeout: float | None = None
    """The deadline of the tool's calls in seconds (its ``timeout``
    annotation); None: the executor's."""
    validate: bool = False
    """Whether the request (transitively) carries buf.validate rules, which
    the executor's validator checks before sending."""
    needs_approval: bool = False
    """Whether a call asks for an approval before it is sent (the tool's
    annotation does not set ``auto_execute``; docs/production.md,
    "Approvals")."""


ChannelT = TypeVar("ChannelT")


def check_call_limits(max_result_bytes: int, timeout: float | None) -> None:
    """Refuse a ``max_result_bytes`` below 0 (0: no limit) or a ``timeout``
    below 0 (0: no deadline) with a ``ValueError`` naming the option."""
    if isinstance(max_result_bytes, bool) or not isinstance(max_result_bytes, int):
        raise ValueError(f"max_result_bytes must be a whole number, got {max_result_bytes!r}")
    if max_result_bytes < 0:
        raise ValueError(f"max_result_bytes must be 0 (no limit) or more, got {max_result_bytes!r}")
    if timeout is not None and not timeout >= 0:
        raise ValueError(
            f"timeout must be 0 (no deadline) or a positive number of seconds, got {timeout!r}"
        )


class _Base(Generic[ChannelT]):
    def __init__(
        self,
        channel: ChannelT,
        methods: Sequence[ToolMethod],
        aliases: AliasConfig | AliasManager | None = None,
        *,
        response_json: ResponseJson = "compact",
        lenient_arguments: bool = False,
        json_names: bool = False,
        validator: RequestValidator | None = None,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        timeout: float | None = None,
        approve: Approve | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        """Run ``methods`` over ``channel``, with ``aliases`` (a
        configuration, or a manager to share).

        - ``response_json``: see :data:`ResponseJson`;
        - ``lenient_arguments``: unknown argument keys are dropped instead of
          refused (JSON names accepted), as the original Go plugin did;
        - ``json_names``: results with lowerCamelCase JSON names instead of
          proto names;
        - ``validator``: checks the requests of tools with ``validate`` set
          (``protovalidate.Validator()``); the generated subclass passes one
          when a tool needs it;
        - ``max_result_bytes``: the largest result text (UTF-8 bytes) handed
          to the model, 0 for no limit;
        - ``timeout``: the deadline of a call in seconds when the tool sets
          none (default :data:`DEFAULT_TIMEOUT`; 0 for none);
        - ``approve``: asked before a tool with ``needs_approval`` is sent
          (its arguments checked); without it such a tool is refused
          (``not-approved``), nothing sent. :class:`Executor` takes a plain
          function only; :class:`AsyncExecutor` awaits a coroutine one;
        - ``telemetry``: observes every call (a span from the arguments to
          the result, the trace context sent with the RPC; docs/production.md,
          "Telemetry"), e.g. :func:`ai_tools_runtime.otel.create_open_telemetry`."""
        if response_json not in ("compact", "full"):
            raise ValueError(f'response_json must be "compact" or "full", got {response_json!r}')
        check_call_limits(max_result_bytes, timeout)
        self._full = response_json == "full"
        self._lenient = lenient_arguments
        self._json_names = json_names
        self._validator = validator
        self._max_result_bytes = max_result_bytes
        self._timeout = DEFAULT_TIMEOUT if timeout is None else float(timeout) or None
        self._approve = approve
        self._telemetry = telemetry
        self._methods: dict[str, ToolMethod] = {}
        self._tables: dict[str, ArgumentTable] = {}
        for m in methods:
            if m.tool.name in self._methods:
                raise ValueError(f"two executors for tool {m.tool.name!r}")
            self._methods[m.tool.name] = m
            if m.arguments:  # "" or None: no table (an open-object request)
                try:
                    self._tables[m.tool.name] = parse_argument_table(m.arguments)
                except ValueError as err:
                    raise ValueError(f"tool {m.tool.name!r}: {err}") from None
        if isinstance(aliases, AliasManager):
            self._aliases = aliases
        else:
            self._aliases = AliasManager(aliases)
        self._channel = channel
        self._calls: dict[str, Any] = {}
        for m in methods:
            factory: Any = getattr(channel, "unary_stream" if m.server_streaming else "unary_unary")
            self._calls[m.tool.name] = factory(
                m.method,
                request_serializer=m.request_type.SerializeToString,
                response_deserializer=m.response_type.FromString,
            )

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

    def _observer(self, tool_name: str) -> Telemetry | None:
        """What observes a call of ``tool_name``: None without telemetry, and
        for a tool it does not run (a name the model made up is no span's
        or metric's name)."""
        return self._telemetry if tool_name in self._methods else None

    def _observed(self, telemetry: Telemetry, tool_name: str) -> Observed:
        """The span of a call of ``tool_name`` (one it runs), started."""
        return Observed(telemetry, tool_name, rpc_method(self._methods[tool_name].method))

    def _method(self, tool_name: str) -> ToolMethod:
        method = self._methods.get(tool_name)
        if method is None:
            raise self._error(
                "unknown-tool", grpc.StatusCode.NOT_FOUND, f"no auto-executor for tool: {tool_name}"
            )
        return method

    def _decode(
        self,
        method: ToolMethod,
        args_json: str,
        extra_root: Collection[str] = (),
        observed: Observed | None = None,
    ) -> Message:
        """The request (stages 1 to 6 of docs/runtime.md, "Argument
        checks"): one JSON object, its structure checked, aliases resolved,
        fix-up applied and kinds checked, json_format, buf.validate rules.
        Nothing is sent on failure."""
        if not isinstance(args_json, str):
            kind = type(args_json).__name__
            message = f"arguments must be a JSON object as text, got {kind}"
            raise self._refused("invalid-arguments", [Violation("", "invalid-json", message)])
        try:
            value, found = check_argument_text(
                args_json,
                self._tables.get(method.tool.name),
                extra_root=extra_root,
                lenient=self._lenient,
            )
        except RecursionError as err:
            raise self._refused("invalid-arguments", [_too_deep()]) from err
        if found or value is None:
            raise self._refused("invalid-arguments", found)
        text = self._fixed(method, value, observed)
        request = method.request_type()
        try:
            json_format.Parse(text, request, ignore_unknown_fields=True)
        except (json_format.ParseError, ValueError, TypeError, AttributeError, KeyError) as err:
            violation = Violation("", "invalid-value", str(err))
            raise self._refused("invalid-arguments", [violation]) from err
        except RecursionError as err:
            raise self._refused("invalid-arguments", [_too_deep()]) from err
        if method.validate and self._validator is not None:
            self._validate(request)
        return request

    def _approval(self, method: ToolMethod, args_json: str) -> ApprovalRequest | None:
        """What to ask the hook before sending a call of ``method`` (None:
        nothing to ask); a ``not-approved`` error when there is no hook."""
        if not method.needs_approval:
            return None
        name = method.tool.name
        if self._approve is None:
            raise approval_refused(no_approval_text(name, "no approval hook"))
        return ApprovalRequest("", name, method.method, json.loads(args_json))

    def _fixed(
        self, method: ToolMethod, value: dict[str, Any], observed: Observed | None = None
    ) -> str:
        """The arguments with aliases resolved and fix-up applied, as text."""
        try:
            if observed is not None:
                observed.resolving(self._aliases, value)
            value = self._aliases.resolve_value(value)
            fix_value_tree(value, method.request_type.DESCRIPTOR, method.tool.strict)
            return encode_json(value)
        except FixupError as err:
            violation = Violation(err.field, err.reason, err.detail)
            raise self._refused("invalid-arguments", [violation]) from None
        except RecursionError as err:
            raise self._refused("invalid-arguments", [_too_deep()]) from err
        except ToolError as err:  # the manager's unknown alias
            raise self._refused("unknown-alias", err.violations) from None

    def _validate(self, request: Message) -> None:
        assert self._validator is not None
        try:
            found = validation_violations(self._validator, request)
        except Exception as err:  # protovalidate's CompilationError: rules it cannot run
            raise self._error(
                "failed-validation",
                grpc.StatusCode.INTERNAL,
                f"cannot check the request's rules: {err}",
            ) from err
        if found:
            raise self._refused("failed-validation", found)

    def _refused(self, reason: ToolErrorReason, violations: Sequence[Violation]) -> ToolError:
        """The error of arguments refused before sending: every violation,
        aliasified."""
        aliasify = self._aliases.aliasify_json
        shown = tuple(
            Violation(aliasify(v.field), v.reason, aliasify(v.message)) for v in violations
        )
        return ToolError(
            invalid_arguments_text(shown),
            reason=reason,
            code=grpc.StatusCode.INVALID_ARGUMENT,
            violations=shown,
        )

    def _deadline(self, method: ToolMethod, timeout: float | None) -> float | None:
        """The call's deadline in seconds: the tool's, else the executor's
        (None: no deadline); the caller's when shorter."""
        own = method.timeout if method.timeout is not None else self._timeout
        if own is None or timeout is None:
            return own if timeout is None else timeout
        return min(own, timeout)

    def _shown(self, out: str) -> str:
        """The result as the model reads it: aliasified, refused when over
        ``max_result_bytes``."""
        text = self._aliases.aliasify_json(out)
        limit = self._max_result_bytes
        if limit:
            size = text_bytes(text, limit)
            if size > limit:
                raise self._too_large(size)
        return text

    def _too_large(self, size: int | None) -> ToolError:
        return ToolError(
            result_too_large(size, self._max_result_bytes),
            reason="result-too-large",
            code=grpc.StatusCode.RESOURCE_EXHAUSTED,
        )

    def _budget(self) -> StreamBudget:
        return StreamBudget(self._max_result_bytes, self._aliases.aliasify_json)

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
        """The error of a failed call (raise it ``from`` the grpc error):
        Go's status text, then a line per field violation of a
        ``google.rpc.BadRequest`` in the details."""
        aliasify = self._aliases.aliasify_json
        raw = aliasify(message)
        details = status_details(metadata)
        violations = tuple(
            Violation(aliasify(field), "server", aliasify(description))
            for field, description in bad_request_violations(details)
        )
        text = status_text(code, raw)
        if violations:
            text += "\n" + violation_lines(violations)
        return ToolError(
            text,
            reason="unavailable" if code == grpc.StatusCode.UNAVAILABLE else "server-error",
            code=code,
            raw_message=raw,
            details=details,
            trailing_metadata=metadata,
            violations=violations,
        )

    def _to_json(self, message: Message) -> tuple[Any, str]:
        """The response as a JSON value (to register its ids) and as the
        text of :data:`ResponseJson`, written as Go's protojson writes it."""
        try:
            names = self._full or not self._json_names
            value = message_dict(message, proto_names=names, defaults=self._full)
            return value, dict_json(message, value, proto_names=names)
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
        budget: StreamBudget,
        observed: Observed | None,
    ) -> None:
        """Add one streamed message, seen as it arrives; past
        MAX_STREAM_MESSAGES or the result's limit, cancel and fail."""
        if len(items) == MAX_STREAM_MESSAGES:
            _cut(cancel, observed)
            raise self._error(
                "invalid-response",
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"stream returned more than {MAX_STREAM_MESSAGES} messages: narrow the request",
            )
        items.append(self._message(message, seen))
        if budget.over(items):
            _cut(cancel, observed)
            raise self._too_large(None)

    def _registering(self, tool_name: str) -> Callable[[Any], object]:
        """The ``seen`` of an in-memory call: register the ids as they come."""
        return partial(self._aliases.register_response_value, tool_name)

    def _with_aliases(self, aliases: AliasManager) -> Self:
        """This executor with another alias manager (one call of a
        conversation kept in a store): the methods and channel are shared."""
        other = copy.copy(self)
        other._aliases = aliases
        return other


def _cut(cancel: Callable[[], object], observed: Observed | None) -> None:
    """Cancel a stream the executor stops reading (its call ends
    ``CANCELLED``)."""
    cancel()
    if observed is not None:
        observed.cut()


class Executor(_Base[grpc.Channel]):
    """Runs the auto-executed tools over a ``grpc.Channel``. Thread-safe; use
    one per conversation (the alias manager is the conversation's).
    """

    def execute(
        self,
        tool_name: str,
        args_json: str,
        *,
        timeout: float | None = None,
        metadata: Metadata | None = None,
    ) -> str:
        """Run ``tool_name`` with the model's arguments; the result (JSON text,
        ids as aliases) is for the model. ``timeout`` (seconds) shortens the
        call's deadline. Raises :class:`ToolError` only."""
        seen = self._registering(tool_name)
        telemetry = self._observer(tool_name)
        if telemetry is None:
            return self._shown(self._run(tool_name, args_json, timeout, metadata, seen))
        with self._observed(telemetry, tool_name) as observed:
            before = self._aliases.alias_count()
            out = self._run(tool_name, args_json, timeout, metadata, seen, observed=observed)
            observed.outcome.aliases_registered = self._aliases.alias_count() - before
            return self._shown(out)

    def _run(
        self,
        tool_name: str,
        args_json: str,
        timeout: float | None,
        metadata: Metadata | LateMetadata | None,
        seen: Callable[[Any], object],
        started: Callable[[Any], object] | None = None,
        extra_root: Collection[str] = (),
        *,
        observed: Observed | None = None,
    ) -> str:
        """The call up to its JSON text, not aliasified (a stream's messages
        as one array); ``seen`` gets each response value as it arrives,
        ``started`` the running call (to cancel it from another thread);
        ``extra_root`` names root keys that are not unknown (MCP's);
        ``metadata`` may be made once the arguments passed; ``observed``
        learns how the call went and adds the trace context."""
        method = self._method(tool_name)
        request = self._decode(method, args_json, extra_root, observed)
        asked = self._approval(method, args_json)
        if asked is not None:
            assert self._approve is not None
            answer = self._approve(asked)
            if inspect.iscoroutine(answer):
                answer.close()
            if inspect.isawaitable(answer):
                raise TypeError("an Executor's approve hook must not be a coroutine function")
            if answer is not True:
                raise approval_refused(denied_text(tool_name))
        metadata = metadata() if callable(metadata) else metadata
        if observed is not None:
            metadata = observed.sending(metadata)
        call = self._calls[tool_name]
        deadline = self._deadline(method, timeout)
        if not method.server_streaming:
            with self._call_errors():
                if started is None:
                    response = call(request, timeout=deadline, metadata=metadata)
                else:
                    future = call.future(request, timeout=deadline, metadata=metadata)
                    started(future)
                    response = future.result()
            return self._message(response, seen)
        items: list[str] = []
        budget = self._budget()
        with self._call_errors():
            stream = call(request, timeout=deadline, metadata=metadata)
            if started is not None:
                started(stream)
            for message in stream:
                self._collect(items, message, stream.cancel, seen, budget, observed)
        return "[" + ",".join(items) + "]"


class AsyncExecutor(_Base[grpc.aio.Channel]):
    """:class:`Executor` for a ``grpc.aio.Channel``: ``execute`` is awaitable.
    Safe to use from several tasks of one event loop; cancelling the task
    cancels the call.
    """

    async def execute(
        self,
        tool_name: str,
        args_json: str,
        *,
        timeout: float | None = None,
        metadata: Metadata | None = None,
    ) -> str:
        """Run ``tool_name`` with the model's arguments; the result (JSON text,
        ids as aliases) is for the model. ``timeout`` (seconds) shortens the
        call's deadline. Raises :class:`ToolError` only."""
        seen = self._registering(tool_name)
        telemetry = self._observer(tool_name)
        if telemetry is None:
            return self._shown(await self._run(tool_name, args_json, timeout, metadata, seen))
        with self._observed(telemetry, tool_name) as observed:
            before = self._aliases.alias_count()
            out = await self._run(tool_name, args_json, timeout, metadata, seen, observed=observed)
            observed.outcome.aliases_registered = self._aliases.alias_count() - before
            return self._shown(out)

    async def _run(
        self,
        tool_name: str,
        args_json: str,
        timeout: float | None,
        metadata: Metadata | LateMetadata | None,
        seen: Callable[[Any], object],
        extra_root: Collection[str] = (),
        *,
        observed: Observed | None = None,
    ) -> str:
        """The call up to its JSON text, not aliasified (a stream's messages
        as one array); ``seen`` gets each response value as it arrives;
        ``extra_root`` names root keys that are not unknown (MCP's);
        ``metadata`` may be made once the arguments passed; ``observed``
        learns how the call went and adds the trace context."""
        method = self._method(tool_name)
        request = self._decode(method, args_json, extra_root, observed)
        asked = self._approval(method, args_json)
        if asked is not None:
            assert self._approve is not None
            if not await ask_approval(self._approve, asked):
                raise approval_refused(denied_text(tool_name))
        metadata = metadata() if callable(metadata) else metadata
        if observed is not None:
            metadata = observed.sending(metadata)
        call_metadata = grpc.aio.Metadata(*metadata) if metadata else None
        call = self._calls[tool_name]
        deadline = self._deadline(method, timeout)
        if not method.server_streaming:
            with self._call_errors():
                response = await call(request, timeout=deadline, metadata=call_metadata)
            return self._message(response, seen)
        items: list[str] = []
        budget = self._budget()
        with self._call_errors():
            stream = call(request, timeout=deadline, metadata=call_metadata)
            async for message in stream:
                self._collect(items, message, stream.cancel, seen, budget, observed)
        return "[" + ",".join(items) + "]"
