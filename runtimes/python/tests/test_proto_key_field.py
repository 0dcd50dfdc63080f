"""A request field named ``__proto__`` (issue 11, point 6): the schema lists
it like any other property, and the argument fix-up and ``json_format``
decode it, strict or not (docs/runtime.md, "Argument fix-up")."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.message import Message

from ai_tools_runtime._fixup import FixupError, fix_args


def _request_class() -> type[Message]:
    file = descriptor_pb2.FileDescriptorProto(
        name="protokey/v1/protokey.proto", package="protokey.v1", syntax="proto3"
    )
    message = file.message_type.add(name="ProtoKeyRequest")
    message.field.add(
        name="__proto__",
        number=1,
        json_name="Proto",
        type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
        label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
    )
    message.field.add(
        name="count",
        number=2,
        json_name="count",
        type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
        label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(
        pool.FindMessageTypeByName("protokey.v1.ProtoKeyRequest")
    )


@pytest.mark.parametrize("strict", [True, False])
def test_proto_key_field_decodes(strict: bool) -> None:
    cls = _request_class()
    fixed = fix_args('{"__proto__":"x","count":2}', cls.DESCRIPTOR, strict)
    request = json_format.Parse(fixed, cls())
    assert json_format.MessageToDict(request, preserving_proto_field_name=True) == {
        "__proto__": "x",
        "count": 2,
    }


def test_proto_key_field_kind_is_checked() -> None:
    cls = _request_class()
    with pytest.raises(FixupError, match="__proto__"):
        fix_args('{"__proto__":1}', cls.DESCRIPTOR, True)
