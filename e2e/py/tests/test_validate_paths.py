"""Field paths of protovalidate's violations as the executors show them
(docs/runtime.md, "buf.validate"): proto names, ``[i]`` for list items,
``.key`` for map keys, "" for a message rule; checked with the real
protovalidate on a message built here with rules on a map, a list of
messages and the message itself."""

from __future__ import annotations

import importlib
from typing import Any

from ai_tools_runtime._validation import validation_violations
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from test_case_values import load_case

F = descriptor_pb2.FieldDescriptorProto


def _message_class() -> Any:
    load_case("validate")  # its directory on sys.path: buf.validate's generated module
    validate_pb2: Any = importlib.import_module("buf.validate.validate_pb2")

    item = descriptor_pb2.DescriptorProto(name="Item")
    name = item.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    name.options.Extensions[validate_pb2.field].string.min_len = 2
    entry = descriptor_pb2.DescriptorProto(name="LabelsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    request = descriptor_pb2.DescriptorProto(name="Request", nested_type=[entry])
    labels = request.field.add(
        name="labels",
        number=1,
        type=F.TYPE_MESSAGE,
        label=F.LABEL_REPEATED,
        type_name=".pathtest.v1.Request.LabelsEntry",
    )
    labels.options.Extensions[validate_pb2.field].map.values.string.min_len = 3
    request.field.add(
        name="item_list",
        number=2,
        type=F.TYPE_MESSAGE,
        label=F.LABEL_REPEATED,
        type_name=".pathtest.v1.Item",
    )
    request.field.add(name="a", number=3, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    rule = request.options.Extensions[validate_pb2.message].cel.add()
    rule.id, rule.message, rule.expression = "a_set", "a must be set", "this.a != ''"
    file = descriptor_pb2.FileDescriptorProto(
        name="pathtest/v1/request.proto",
        package="pathtest.v1",
        syntax="proto3",
        dependency=["buf/validate/validate.proto"],
        message_type=[item, request],
    )
    pool = descriptor_pool.Default()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("pathtest.v1.Request"))


def test_paths_in_proto_names_with_indexes_and_keys() -> None:
    request = _message_class()()
    protovalidate: Any = importlib.import_module("protovalidate")

    request.labels["env"] = "ok"  # too short: 2 < 3
    request.labels["team"] = "core"
    request.item_list.add(name="ab")
    request.item_list.add(name="x")  # too short
    found = validation_violations(protovalidate.Validator(), request)
    assert sorted((v.field, v.reason) for v in found) == [
        ("", "validation"),
        ("item_list[1].name", "validation"),
        ("labels.env", "validation"),
    ]
    assert [v.message for v in found if v.field == ""] == ["a must be set"]
