"""The Edition 2023 samples (e2e/editions/proto), generated into gen/ by
e2e/editions/generate.mjs with grpcio-tools' own protoc: their tools have
the schemas of their proto3 twins, the schema-generated values of the
samples_echo_* tools mean the same message through either executor, and the
features that change the wire (DELIMITED, EXPANDED, LEGACY_REQUIRED, a
closed enum) survive the protobuf runtime and grpcio on both ends of a real
socket (a server of this process, not the test server).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from ai_tools_runtime import ToolError
from edsamples.v1 import samples_pb2 as ed_samples_pb2
from edsamples.v1 import samples_pb2_grpc as ed_samples_pb2_grpc
from edsamples.v1 import shapes_pb2, shapes_pb2_grpc
from edtools import ai_tools_gen as editions
from google.protobuf import descriptor
from helpers import sample_refusal, with_sample_mask

import ai_tools_gen as proto3
from linkhub.v1 import samples_pb2, samples_pb2_grpc


class _Received:
    """What the echo server decoded last, per service."""

    def __init__(self) -> None:
        self.proto3: samples_pb2.Sample | None = None
        self.editions: ed_samples_pb2.Sample | None = None
        self.shape: shapes_pb2.Shape | None = None


class _Proto3(samples_pb2_grpc.SampleServiceServicer):
    def __init__(self, received: _Received) -> None:
        self.received = received

    def EchoStrict(self, request: samples_pb2.Sample, context: Any) -> samples_pb2.Sample:
        self.received.proto3 = request
        return request

    def EchoLoose(self, request: samples_pb2.Sample, context: Any) -> samples_pb2.Sample:
        return self.EchoStrict(request, context)


class _Editions(ed_samples_pb2_grpc.EdSampleServiceServicer):
    def __init__(self, received: _Received) -> None:
        self.received = received

    def EchoStrict(self, request: ed_samples_pb2.Sample, context: Any) -> ed_samples_pb2.Sample:
        self.received.editions = request
        return request

    def EchoLoose(self, request: ed_samples_pb2.Sample, context: Any) -> ed_samples_pb2.Sample:
        return self.EchoStrict(request, context)


class _Shapes(shapes_pb2_grpc.ShapeServiceServicer):
    def __init__(self, received: _Received) -> None:
        self.received = received

    def Echo(self, request: shapes_pb2.Shape, context: Any) -> shapes_pb2.Shape:
        self.received.shape = request
        return request


@pytest.fixture(scope="module")
def echo() -> Iterator[tuple[grpc.Channel, _Received]]:
    received = _Received()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    samples_pb2_grpc.add_SampleServiceServicer_to_server(_Proto3(received), server)
    ed_samples_pb2_grpc.add_EdSampleServiceServicer_to_server(_Editions(received), server)
    shapes_pb2_grpc.add_ShapeServiceServicer_to_server(_Shapes(received), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield channel, received
    finally:
        channel.close()
        server.stop(None)


def test_twins_have_the_proto3_schemas() -> None:
    pairs = [
        (proto3.SAMPLES_ECHO_STRICT, editions.ED_SAMPLES_ECHO_STRICT),
        (proto3.SAMPLES_ECHO_LOOSE, editions.ED_SAMPLES_ECHO_LOOSE),
    ]
    for p3, ed in pairs:
        assert ed.name == f"ed_{p3.name}"
        assert (ed.description, ed.strict, ed.schema()) == (p3.description, p3.strict, p3.schema())


def _values(tool: str) -> list[str]:
    directory = os.environ.get("E2E_VALUES_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "gen", "values"
    )
    with open(os.path.join(directory, f"{tool}.json"), encoding="utf-8") as f:
        values: list[str] = json.load(f)["values"]
    return values


def test_sample_values_mean_the_same(echo: tuple[grpc.Channel, _Received]) -> None:
    channel, received = echo
    p3, ed = proto3.Executor(channel), editions.Executor(channel)
    for tool in ("samples_echo_strict", "samples_echo_loose"):
        values = _values(tool)[:40]  # all of .ci/run's 40, 40 of nightly's 200
        assert len(values) == 40
        for i, args in enumerate(values):
            if sample_refusal(args) == {"invalid-value"}:  # a mask naming no field
                args = with_sample_mask(args, i)
            if sample_refusal(args):  # refused by both (unknown fields, mask paths)
                with pytest.raises(ToolError) as want_err:
                    p3.execute(tool, args)
                with pytest.raises(ToolError) as got_err:
                    ed.execute(f"ed_{tool}", args)
                assert str(got_err.value) == str(want_err.value)
                continue
            want = p3.execute(tool, args)
            got = ed.execute(f"ed_{tool}", args)
            assert json.loads(got) == json.loads(want), f"{tool} value {i}"
            assert received.editions is not None and received.proto3 is not None
            back = samples_pb2.Sample.FromString(received.editions.SerializeToString())
            assert back == received.proto3, f"{tool} value {i}: {args}"


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at pos, and the position after it."""
    value, shift = 0, 0
    while True:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return value, pos


def _wire_fields(data: bytes) -> list[tuple[int, int]]:
    """(field number, wire type) of each top-level field of a message."""
    fields: list[tuple[int, int]] = []
    pos = 0
    while pos < len(data):
        tag, pos = _varint(data, pos)
        number, wire_type = tag >> 3, tag & 7
        fields.append((number, wire_type))
        if wire_type == 0:
            _, pos = _varint(data, pos)
        elif wire_type == 2:
            length, pos = _varint(data, pos)
            pos += length
        elif wire_type == 3:
            depth = 1
            while depth > 0:  # a group: nested tags up to its end tag
                inner, pos = _varint(data, pos)
                if inner & 7 == 3:
                    depth += 1
                elif inner & 7 == 4:
                    depth -= 1
                elif inner & 7 == 0:
                    _, pos = _varint(data, pos)
                elif inner & 7 == 2:
                    length, pos = _varint(data, pos)
                    pos += length
                else:
                    pos += 4 if inner & 7 == 5 else 8
        else:
            pos += 4 if wire_type == 5 else 8
    return fields


def test_features_on_the_wire(echo: tuple[grpc.Channel, _Received]) -> None:
    channel, received = echo
    ed = editions.Executor(channel)
    out = ed.execute(
        editions.ED_SHAPES_ECHO.name,
        json.dumps(
            {
                "name": "n",
                "label": None,
                "count": None,
                "size": "SIZE_LARGE",
                "box": {"width": 2, "height": None},
                "boxes": [{"width": 3, "height": 4}],
                "expanded": [5, 6],
                "raw": "ré",
                "sizes": ["SIZE_SMALL"],
                "by_name": None,
                "by_box": {"width": 7, "height": None},
            }
        ),
    )
    shape = received.shape
    assert shape is not None
    assert shape.name == "n" and shape.raw == "ré"
    # Explicit presence: unset stays unset, and reads as its default.
    assert not shape.HasField("label") and not shape.HasField("count") and shape.count == 7
    assert shape.size == shapes_pb2.SIZE_LARGE
    assert shape.box.width == 2 and not shape.box.HasField("height")
    assert [(b.width, b.height) for b in shape.boxes] == [(3, 4)]
    assert list(shape.expanded) == [5, 6]
    assert shape.WhichOneof("pick") == "by_box" and shape.by_box.width == 7
    # Groups (wire type 3) for box, boxes and by_box; expanded one varint each.
    fields = _wire_fields(shape.SerializeToString())
    assert [n for n, t in fields if t == 3] == [5, 6, 11]
    assert [t for n, t in fields if n == 7] == [0, 0]
    field = shapes_pb2.Shape.DESCRIPTOR.fields_by_name["size"]
    assert field.enum_type is not None and field.enum_type.is_closed
    assert (
        shapes_pb2.Shape.DESCRIPTOR.fields_by_name["box"].type
        == descriptor.FieldDescriptor.TYPE_GROUP
    )
    assert json.loads(out) == {
        "name": "n",
        "size": "SIZE_LARGE",
        "box": {"width": 2},
        "boxes": [{"width": 3, "height": 4}],
        "expanded": [5, 6],
        "raw": "ré",
        "sizes": ["SIZE_SMALL"],
        "by_box": {"width": 7},
    }


def test_an_undeclared_closed_enum_number_is_an_unknown_field() -> None:
    # name = "n" (field 1), size = 9 (field 4): 9 is no Size value.
    data = bytes([0x0A, 0x01, 0x6E, 0x20, 0x09])
    shape = shapes_pb2.Shape.FromString(data)
    assert not shape.HasField("size")
    assert shape.size == shapes_pb2.SIZE_SMALL  # a closed enum's default: its first value
    assert shape.SerializeToString() == data


def test_legacy_required_is_checked_before_the_call(echo: tuple[grpc.Channel, _Received]) -> None:
    channel, received = echo
    received.shape = None
    ed = editions.Executor(channel)
    args: dict[str, Any] = {
        "name": "n",
        "label": None,
        "count": None,
        "size": None,
        "box": {"width": None, "height": 1},
        "boxes": [],
        "expanded": [],
        "raw": None,
        "sizes": [],
        "by_name": None,
        "by_box": None,
    }
    # LEGACY_REQUIRED: refused before sending, named like any missing field.
    with pytest.raises(ToolError) as info:
        ed.execute(editions.ED_SHAPES_ECHO.name, json.dumps(args))
    assert str(info.value) == (
        'invalid arguments, nothing was sent:\n- "box.width": missing required field'
    )
    assert info.value.reason == "invalid-arguments"
    assert received.shape is None
