"""Field paths of protovalidate's violations as the executors show them
(docs/runtime.md, "buf.validate"): proto names, ``[i]`` for list items,
``.key`` for map keys, "" for a message rule; checked with the real
protovalidate on a message built here with rules on a map, a list of
messages and the message itself."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from ai_tools_runtime._validation import validation_violations
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from test_case_values import load_case

F = descriptor_pb2.FieldDescriptorProto
OWNER = "0a1b2c3d-0000-4000-8000-00000000000a"
OTHER = "0a1b2c3d-0000-4000-8000-00000000000b"


@functools.cache
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
    owner = request.field.add(name="owner_id", number=4, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    getattr(owner.options.Extensions[validate_pb2.field].string, "in").append(OWNER)
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
    request.owner_id = OWNER
    found = validation_violations(protovalidate.Validator(), request)
    assert sorted((v.field, v.reason) for v in found) == [
        ("", "validation"),
        ("item_list[1].name", "validation"),
        ("labels.env", "validation"),
    ]
    assert [v.message for v in found if v.field == ""] == ["a must be set"]


def test_messages_show_aliases_not_the_uuids_behind_them() -> None:
    # The executor aliasifies every violation: an `in` rule's message lists
    # the UUID it allows, which the model knows as an alias.
    import grpc
    from ai_tools_runtime import AgentTool, Executor, ToolError, ToolMethod

    cls = _message_class()
    tool = AgentTool("pick_owner", "", False, {"type": "object"})
    method = ToolMethod(tool, "/pathtest.v1.S/Pick", cls, cls, validate=True)
    protovalidate: Any = importlib.import_module("protovalidate")
    with grpc.insecure_channel("127.0.0.1:9") as channel:
        executor = Executor(channel, [method], validator=protovalidate.Validator())
        owner, other = (executor.aliases.register("user", u) for u in (OWNER, OTHER))
        try:
            executor.execute("pick_owner", f'{{"a":"x","owner_id":"{other}"}}')
        except ToolError as err:
            assert str(err) == (
                f'invalid arguments, nothing was sent:\n- "owner_id": must be in list [{owner}]'
            )
            assert err.reason == "failed-validation"
        else:
            raise AssertionError("no error")
