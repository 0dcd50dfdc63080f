"""The details of a gRPC error status: ``google.rpc.Status`` in the
``grpc-status-details-bin`` trailing metadata, read without
googleapis-common-protos (a private descriptor pool, so an application's own
``google.rpc`` modules never clash with it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message

__all__ = ["STATUS_DETAILS_KEY", "status_details"]

STATUS_DETAILS_KEY: Final = "grpc-status-details-bin"


def _status_class() -> type[Message]:
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(any_pb2.DESCRIPTOR.serialized_pb)
    F = descriptor_pb2.FieldDescriptorProto
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
                )
            ],
        )
    )
    cls: type[Message] = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("google.rpc.Status")
    )
    return cls


_STATUS: Final = _status_class()


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
