"""Kind checks and base64 validation of the argument fix-up beyond the
shared vectors (docs/runtime.md, "Argument fix-up", rule 7)."""

from __future__ import annotations

import base64
import json

import pytest
from aitest.v1 import vectors_pb2
from google.protobuf import json_format

from ai_tools_runtime._fixup import FixupError, _is_base64, fix_args

REQUEST = vectors_pb2.FixupRequest.DESCRIPTOR


@pytest.mark.parametrize(
    "s",
    ["", "YQ==", "YQ", "YWI=", "YWI", "YWJj", "_-8", "+/8=", "+/8", "_-8="],
)
def test_base64_go_accepts(s: str) -> None:
    assert _is_base64(s)
    # What json_format then decodes is what Go's decoder gives.
    want = base64.urlsafe_b64decode(s.replace("+", "-").replace("/", "_") + "==")
    got = json_format.Parse(json.dumps({"data": s}), vectors_pb2.FixupRequest()).data
    assert got == want


@pytest.mark.parametrize(
    "s",
    [
        "***",
        "ab*cd",
        "hello world!",
        "YQ=",
        "Y",
        "+_8=",
        "YQ==YQ==",
        "Y===",
        "=",
        "YQ= ",
        " YQ",
        "YQ==\n",
        "YWJj\n",
        "YW\r\nJj",
    ],
)
def test_base64_go_refuses(s: str) -> None:
    assert not _is_base64(s)
    with pytest.raises(FixupError) as caught:
        fix_args(json.dumps({"data": s}), REQUEST, False)
    assert str(caught.value) == f'field "data": invalid base64 {json.dumps(s)}'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ('{"count":"1e3"}', None),
        ('{"count":"-0.5"}', None),  # the decoder's to refuse
        ('{"count":"01"}', 'field "count": expected an integer, got "01"'),
        ('{"count":" 1"}', 'field "count": expected an integer, got " 1"'),
        ('{"count":true}', 'field "count": expected an integer, got true'),
        ('{"enabled":"true"}', 'field "enabled": expected a boolean, got "true"'),
        ('{"enabled":0}', 'field "enabled": expected a boolean, got 0'),
        ('{"timeout":"1.5s"}', None),
        ('{"timeout":"-3s"}', None),
        ('{"timeout":"1.5"}', 'field "timeout": expected a duration such as "1.5s", got "1.5"'),
        (
            '{"timeout":"1.5s\\n"}',
            'field "timeout": expected a duration such as "1.5s", got "1.5s\\n"',
        ),
        (
            '{"timeout":{"seconds":1}}',
            'field "timeout": expected a duration such as "1.5s", got an object',
        ),
        ('{"items":[null,{"name":"a"}]}', None),  # a null item is left for the decoder
        ('{"items":{"name":"a"}}', 'field "items": expected an array, got an object'),
        ('{"labels":[]}', None),
        ('{"labels":"x"}', 'field "labels": expected an object, got "x"'),
        ('{"list":{"a":1}}', 'field "list": expected an array, got an object'),
        ('{"attrs":"x"}', 'field "attrs": expected an object, got "x"'),
        (
            '{"attrs":[{"key":1,"value":"x"}]}',
            'field "attrs": entry 0 is not a {"key": …, "value": …} object',
        ),
        ('{"extra":[1,{"a":"b"}]}', None),  # a Value takes anything
        (
            '{"item":{"counts":{"a":"NaN"}}}',
            'field "item.counts.a": expected an integer, got "NaN"',
        ),
        (
            '{"item":{"children":[{"owner_id":1}]}}',
            'field "item.children[0].owner_id": expected a string, got 1',
        ),
        (
            '{"itemsByNum":{"1":{"ownerId":[]}}}',
            'field "itemsByNum.1.ownerId": expected a string, got an array',
        ),
        ('{"number":"12345678901234567890"}', None),
        ('{"number":null,"text":"a","nested":null}', None),
    ],
)
def test_kinds(args: str, message: str | None) -> None:
    if message is None:
        fix_args(args, REQUEST, False)
        return
    with pytest.raises(FixupError) as caught:
        fix_args(args, REQUEST, False)
    assert str(caught.value) == message
