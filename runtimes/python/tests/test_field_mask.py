"""FieldMask checks beyond the shared vectors (e2e/vectors/arguments/
field-masks.json): a mask given under its JSON name, in lenient mode and
not, map keys (the executors' path end to end is e2e/py tests/test_update_mask.py)."""

from __future__ import annotations

import json

from ai_tools_runtime._argument_check import check_arguments, parse_argument_table
from ai_tools_runtime._field_mask import check_field_mask, parse_mask_nodes
from ai_tools_runtime._json import decode_json, quote

TABLE = parse_argument_table(
    json.dumps(
        {
            "nodes": [{"fields": {"update_mask": {"mask": 0, "json": "updateMask"}}}],
            "masks": [{"fields": {"display_name": {"json": "displayName"}}}],
        }
    )
)


def args(text: str) -> dict[str, object]:
    value, ok = decode_json(text)
    assert ok and isinstance(value, dict)
    return value


def test_lenient_mask_under_its_json_name_is_rewritten_there() -> None:
    a = args('{"updateMask":"display_name"}')
    assert check_arguments(a, TABLE, lenient=True) == []
    assert a == {"updateMask": "displayName"}
    bad = args('{"updateMask":"dispaly"}')
    [v] = check_arguments(bad, TABLE, lenient=True)
    assert (v.field, v.reason) == ("update_mask", "invalid-value")
    assert v.message.startswith('unknown field "dispaly" in path "dispaly"; ')


def test_strict_mode_does_not_read_the_json_name() -> None:
    a = args('{"updateMask":"display_name"}')
    [v] = check_arguments(a, TABLE)
    assert (v.field, v.reason) == ("updateMask", "unknown-field")
    assert a == {"updateMask": "display_name"}  # not a mask here: left as written


MAP_MASKS = parse_mask_nodes([{"fields": {"labels": {"map": True}}}])


def test_map_key_of_lower_case_letters_and_digits_is_sent_as_written() -> None:
    assert check_field_mask("labels.a1,labels.z", MAP_MASKS, 0) == ("labels.a1,labels.z", [])


def test_other_map_keys_are_refused_before_what_follows_them() -> None:
    def refused(key: str, path: str) -> str:
        return (
            f"map key {quote(key)} in path {quote(path)} cannot be sent in a field mask:"
            " keys there take lower-case letters and digits only, starting with a letter"
        )

    _, problems = check_field_mask("labels.Env.x,labels.é,labels.env.x", MAP_MASKS, 0)
    assert problems == [
        refused("Env", "labels.Env.x"),
        refused("é", "labels.é"),
        'field "labels" has no fields, in path "labels.env.x"',
    ]
