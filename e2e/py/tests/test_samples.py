"""Scenario 4: every well-known type, map and oneof. Arguments generated from
each samples_echo_* schema (scripts/values.mjs, @protoc-gen-ai-tools/testkit) go through
the executor to the real server; what the server received, and what it
echoed, must equal the request the arguments mean, worked out independently
of the runtime by expected_json below (a FieldMask's paths by mask_wire,
from Sample's descriptor)."""

import json
import math
import os
from typing import Any

import grpc
import pytest
from ai_tools_runtime import ToolError
from google.protobuf import json_format
from helpers import (
    Driver,
    decode_recorded,
    mask_wire,
    recorded,
    reset_server,
    sample_refusal,
    tools_by_name,
    with_sample_mask,
)

from linkhub.v1 import samples_pb2


def load_values(tool: str) -> dict[str, Any]:
    directory = os.environ.get("E2E_VALUES_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "gen", "values"
    )
    with open(os.path.join(directory, f"{tool}.json"), encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def json_text(v: Any, strict: bool) -> Any:
    """A strict Value given as a string is JSON text (kept when not valid JSON)."""
    if not isinstance(v, str) or not strict:
        return v
    try:
        return json.loads(v)
    except ValueError:
        return v


def entries(v: Any, value_is_json_text: bool, strict: bool) -> Any:
    """A map (or Struct) given as key/value entries, as an object; later entries win."""
    if not isinstance(v, list):
        return v
    out: dict[str, Any] = {}
    for kv in v:
        key = kv["key"]
        if isinstance(key, bool):
            key = "true" if key else "false"
        value = kv["value"]
        out[str(key)] = json_text(value, strict) if value_is_json_text else value
    return out


def expected_json(args: str, strict: bool) -> str:
    """Sample arguments rewritten into plain protobuf JSON, from the schema rules
    of docs/compat.md: nulls mean unset (but a null Value is JSON null); maps and
    the Struct may come as entries; strict Value and ListValue items are JSON text."""
    obj = json.loads(args)
    out: dict[str, Any] = {}
    for k, v in obj.items():
        if v is None and k != "value":
            continue
        if k in ("meta", "attrs"):
            v = entries(v, True, strict)
        elif k in ("by_name", "by_num", "by_flag"):
            v = entries(v, False, strict)
        elif k == "value":
            v = json_text(v, strict)
        elif k == "list" and isinstance(v, list):
            v = [json_text(item, strict) for item in v]
        elif k == "mask" and isinstance(v, str):
            v = mask_wire(v, samples_pb2.Sample.DESCRIPTOR)
        out[k] = v
    return json.dumps(out)


def expected_sample(args: str, strict: bool) -> samples_pb2.Sample:
    s = samples_pb2.Sample()
    json_format.Parse(expected_json(args, strict), s, ignore_unknown_fields=True)
    return s


def without_negative_zero_score(want: samples_pb2.Sample) -> samples_pb2.Sample:
    """``want``, or a copy without its score when that is -0 (which a JSON
    reader may take for 0, the default)."""
    if want.score != 0 or math.copysign(1.0, want.score) > 0:
        return want
    w = samples_pb2.Sample()
    w.CopyFrom(want)
    w.ClearField("score")
    return w


def test_schema_values_reach_the_server_intact(driver: Driver, channel: grpc.Channel) -> None:
    tools = tools_by_name()
    for name in ("samples_echo_strict", "samples_echo_loose"):
        tool = tools[name]
        vf = load_values(name)
        assert json.loads(vf["schemaJson"]) == tool.schema(), "values of another schema"
        assert vf["strict"] == tool.strict and vf["requestType"] == "linkhub.v1.Sample"
        assert len(vf["values"]) >= 40  # 200 nightly, 40 in .ci/run
        reset_server(channel)
        e = driver.new()
        wants = []
        masks = 0
        for i, args in enumerate(vf["values"]):
            refusal = sample_refusal(args)
            if refusal:
                # The schema of an Empty admits any key, a FieldMask's any
                # string; the executor refuses keys (unknown fields) and
                # paths naming no field (on "mask"), sending nothing.
                with pytest.raises(ToolError) as info:
                    e.execute(name, args)
                got = info.value.violations
                assert {v.reason for v in got} == refusal, args
                assert all(v.field == "mask" for v in got if v.reason == "invalid-value")
                if refusal != {"invalid-value"}:
                    continue
                # The rest of the value still goes, with a mask of Sample.
                args = with_sample_mask(args, i)
            masks += bool(json.loads(args).get("mask"))
            want = expected_sample(args, tool.strict)
            wants.append(want)
            out = e.execute(name, args)
            echoed = samples_pb2.Sample()
            json_format.Parse(out, echoed)
            # The result writes a -0 score as Go does, "-0", which
            # json_format reads back as 0: compare such a score as unset.
            assert echoed == without_negative_zero_score(want), (
                f"value {i}: echoed {out}\n want {want}\n args {args}"
            )
        print(f"{name}: {len(wants)} of {len(vf['values'])} values sent, {masks} with a mask")
        sent = recorded(channel)
        assert len(sent) == len(wants)
        for i, rec in enumerate(sent):
            assert rec.procedure.startswith("linkhub.v1.SampleService/Echo"), rec.procedure
            # A float score of -0 is sent, but the server's JSON recording
            # cannot tell it from unset: compare such a score as unset.
            w = without_negative_zero_score(wants[i])
            assert decode_recorded(rec) == w, (
                f"value {i}: server received {rec.request_json}\n args {vf['values'][i]}"
            )
