"""The one exception type of a failed tool call (docs/runtime.md, "Errors"),
and how a gRPC status becomes one: Go's status text, and the details of
``google.rpc.Status`` read from the ``grpc-status-details-bin`` trailing
metadata without googleapis-common-protos (a private descriptor pool, so an
application's own ``google.rpc`` modules never clash with it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import grpc
from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message

from ._violations import Violation

__all__ = [
    "STATUS_DETAILS_KEY",
    "Metadata",
    "ToolError",
    "ToolErrorReason",
    "bad_request_violations",
    "status_details",
    "status_text",
]

ToolErrorReason = Literal[
    "unknown-tool",
    "unknown-alias",
    "invalid-arguments",
    "failed-validation",
    "server-error",
    "unavailable",
    "invalid-response",
    "result-too-large",
    "conversation-expired",
    "conversation-corrupt",
    "conversation-full",
    "store-unavailable",
    "not-approved",
]
"""Why a tool call failed (docs/runtime.md, "Errors"):

- ``unknown-tool``: no auto-executor has that name (NOT_FOUND);
- ``unknown-alias``: an argument is an alias of a known prefix that was never
  registered (INVALID_ARGUMENT);
- ``invalid-arguments``: not JSON, not an object, unknown keys or missing
  required fields, a fix-up or kind error, or the decoder refused them
  (INVALID_ARGUMENT);
- ``failed-validation``: the request breaks ``buf.validate`` rules
  (protovalidate; INVALID_ARGUMENT);
- ``server-error``: the server answered with an error status (its code);
- ``unavailable``: the server could not be reached, or answered UNAVAILABLE;
- ``invalid-response``: a stream over 1,000 messages (RESOURCE_EXHAUSTED), or
  a response that cannot be written as JSON (INTERNAL);
- ``result-too-large``: the result's text is over the executor's
  ``max_result_bytes`` (RESOURCE_EXHAUSTED);
- ``conversation-expired``: the conversation store holds no conversation
  under the handle, or one of another epoch (NOT_FOUND; docs/store.md);
- ``conversation-corrupt``: the stored state is refused by
  ``restore_state`` (DATA_LOSS);
- ``conversation-full``: the conversation holds its store's
  ``max_aliases`` aliases, or a tool search would load more than
  ``DeferredTools``' ``max_loaded`` tools (RESOURCE_EXHAUSTED; nothing was
  sent, nothing loaded);
- ``store-unavailable``: the conversation store cannot be reached, timed
  out, or failed (UNAVAILABLE);
- ``not-approved``: the tool needs an approval (no ``auto_execute``) and the
  approval hook said no, or there is none (PERMISSION_DENIED; nothing was
  sent)."""

Metadata = tuple[tuple[str, str | bytes], ...]


class ToolError(Exception):
    """The one exception a tool call fails with. ``str(err)`` is written for
    the model (hand it back as the tool result): no registered UUID appears
    in it, aliases are shown instead. ``__cause__`` is the underlying error,
    when there is one."""

    reason: ToolErrorReason
    """Why the call failed."""
    code: grpc.StatusCode
    """The gRPC code: the server's for ``server-error``; see :data:`ToolErrorReason`."""
    raw_message: str
    """For ``server-error`` and ``unavailable``: the server's own message
    (aliasified, without the ``rpc error: code = … desc = `` prefix); else
    the same as ``str(err)``."""
    details: tuple[any_pb2.Any, ...]
    """The status details as the server sent them (raw ids kept, for the
    application; never shown to the model); empty for the other reasons."""
    trailing_metadata: Metadata
    """The server's trailing metadata, as it sent it (raw ids kept)."""
    violations: tuple[Violation, ...]
    """What is wrong, one violation a field: the arguments' (reasons
    ``invalid-arguments``, ``unknown-alias``, ``failed-validation``), or
    the field violations of the server's ``google.rpc.BadRequest``
    (``server-error``); aliasified; empty otherwise."""

    def __init__(
        self,
        message: str,
        *,
        reason: ToolErrorReason,
        code: grpc.StatusCode,
        raw_message: str | None = None,
        details: tuple[any_pb2.Any, ...] = (),
        trailing_metadata: Metadata = (),
        violations: tuple[Violation, ...] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code
        self.raw_message = message if raw_message is None else raw_message
        self.details = details
        self.trailing_metadata = trailing_metadata
        self.violations = violations

    @property
    def message(self) -> str:
        """The text for the model (same as ``str(err)``)."""
        return str(self.args[0])


# Go's names of the gRPC codes, as its status errors print them.
_GO_CODE_NAMES: Final = {
    "OK": "OK",
    "CANCELLED": "Canceled",
    "UNKNOWN": "Unknown",
    "INVALID_ARGUMENT": "InvalidArgument",
    "DEADLINE_EXCEEDED": "DeadlineExceeded",
    "NOT_FOUND": "NotFound",
    "ALREADY_EXISTS": "AlreadyExists",
    "PERMISSION_DENIED": "PermissionDenied",
    "RESOURCE_EXHAUSTED": "ResourceExhausted",
    "FAILED_PRECONDITION": "FailedPrecondition",
    "ABORTED": "Aborted",
    "OUT_OF_RANGE": "OutOfRange",
    "UNIMPLEMENTED": "Unimplemented",
    "INTERNAL": "Internal",
    "UNAVAILABLE": "Unavailable",
    "DATA_LOSS": "DataLoss",
    "UNAUTHENTICATED": "Unauthenticated",
}


def status_text(code: grpc.StatusCode, message: str) -> str:
    """A status error as Go prints it: ``rpc error: code = NotFound desc = …``."""
    name = _GO_CODE_NAMES.get(code.name, f"Code({code.value[0]})")
    return f"rpc error: code = {name} desc = {message}"


STATUS_DETAILS_KEY: Final = "grpc-status-details-bin"


_F: Final = descriptor_pb2.FieldDescriptorProto


def _string_field(name: str, number: int) -> descriptor_pb2.FieldDescriptorProto:
    return _F(name=name, number=number, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)


def _rpc_classes() -> tuple[type[Message], type[Message]]:
    """``google.rpc.Status`` and ``google.rpc.BadRequest``, in a private pool."""
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(any_pb2.DESCRIPTOR.serialized_pb)
    F = _F
    pool.Add(
        descriptor_pb2.FileDescriptorProto(
            name="ai_tools_runtime/google_rpc_status.proto",
            package="google.rpc",
            syntax="proto3",
            dependency=["google/protobuf/any.proto"],
            message_type=[
                descriptor_pb2.DescriptorProto(
                    name="Status",
                    field=[
                        F(name="code", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL),
                        F(name="message", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL),
                        F(
                            name="details",
                            number=3,
                            type=F.TYPE_MESSAGE,
                            label=F.LABEL_REPEATED,
                            type_name=".google.protobuf.Any",
                        ),
                    ],
                ),
                descriptor_pb2.DescriptorProto(
                    name="BadRequest",
                    field=[
                        F(
                            name="field_violations",
                            number=1,
                            type=F.TYPE_MESSAGE,
                            label=F.LABEL_REPEATED,
                            type_name=".google.rpc.BadRequest.FieldViolation",
                        )
                    ],
                    nested_type=[
                        descriptor_pb2.DescriptorProto(
                            name="FieldViolation",
                            field=[_string_field("field", 1), _string_field("description", 2)],
                        )
                    ],
                ),
            ],
        )
    )
    return (
        message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.Status")),
        message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.BadRequest")),
    )


_STATUS, _BAD_REQUEST = _rpc_classes()
_BAD_REQUEST_URL: Final = "google.rpc.BadRequest"


def status_details(metadata: Sequence[tuple[str, str | bytes]]) -> tuple[any_pb2.Any, ...]:
    """The ``details`` of the ``google.rpc.Status`` a server sent in its
    trailing metadata, as ``google.protobuf.Any`` messages; ``()`` when there
    is none or it does not decode."""
    for key, value in metadata:
        if key != STATUS_DETAILS_KEY or not isinstance(value, bytes):
            continue
        try:
            status: Any = _STATUS.FromString(value)
        except DecodeError:
            return ()
        return tuple(any_pb2.Any(type_url=d.type_url, value=d.value) for d in status.details)
    return ()


def bad_request_violations(details: Sequence[any_pb2.Any]) -> list[tuple[str, str]]:
    """The ``(field, description)`` of every field violation of the
    ``google.rpc.BadRequest`` details, in order (details that do not decode
    are skipped)."""
    out: list[tuple[str, str]] = []
    for detail in details:
        if detail.type_url.rsplit("/", 1)[-1] != _BAD_REQUEST_URL:
            continue
        try:
            bad: Any = _BAD_REQUEST.FromString(detail.value)
        except DecodeError:
            continue
        out.extend((v.field, v.description) for v in bad.field_violations)
    return out
