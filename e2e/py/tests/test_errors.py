"""Scenario 5 (server errors keep their gRPC code, message and details, UUIDs
shown as aliases) and bad input (non-JSON, wrong shape, unknown tool, two
oneof members: a ToolError, and no request sent)."""

import grpc
import pytest
from ai_tools_runtime import ToolError
from google.protobuf import duration_pb2
from helpers import (
    Driver,
    Exec,
    create_links,
    expect_recorded,
    expect_rejected,
    js,
    link_ids,
    new_model,
    new_uuid,
    recorded,
    refusal_code,
    reset_server,
    status_details,
)

from linkhub.v1 import control_pb2, links_pb2, workflows_pb2


def expect_status(
    e: Exec, tool: str, args: str, code: grpc.StatusCode, msg: str
) -> list[tuple[str, bytes]]:
    with pytest.raises(ToolError) as info:
        e.execute(tool, args)
    err = info.value
    assert err.code == code, f"{tool}: {err.code}, want {code}: {err}"
    assert err.reason == "server-error", f"{tool}: {err.reason}"
    assert err.raw_message == msg, f"{tool}: {err.raw_message!r}, want {msg!r}"
    return status_details(err)


def test_server_errors_keep_code_message_and_details(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    create_links(m, ws, 2)
    ids = link_ids(channel, ws)

    # A deleted link's alias still resolves; NOT_FOUND names the alias, the
    # detail keeps the raw id for the application.
    m.call("links_delete", '{"id":"link-2"}')
    start = len(recorded(channel))
    details = expect_status(
        m.e, "links_get", '{"id":"link-2"}', grpc.StatusCode.NOT_FOUND, 'link "link-2" not found'
    )
    assert details == [
        (
            "type.googleapis.com/linkhub.v1.ResourceInfo",
            control_pb2.ResourceInfo(resource_type="link", resource_id=ids[1]).SerializeToString(),
        )
    ]
    with pytest.raises(ToolError) as info:
        m.e.execute(
            "steps_create",
            '{"link_id":"link-2","send_email":null,"open_link":null,"wait":{"duration":"60s"}}',
        )
    assert info.value.code == grpc.StatusCode.NOT_FOUND
    assert str(info.value) == 'rpc error: code = NotFound desc = link "link-2" not found'
    expect_recorded(
        channel,
        start,
        [
            ("linkhub.v1.LinkService/GetLink", links_pb2.GetLinkRequest(id=ids[1])),
            (
                "linkhub.v1.WorkflowService/CreateStep",
                workflows_pb2.CreateStepRequest(
                    link_id=ids[1],
                    wait=workflows_pb2.Wait(duration=duration_pb2.Duration(seconds=60)),
                ),
            ),
        ],
    )

    msg = 'target_url "ftp://example.com/file" is not an absolute http(s) URL'
    details = expect_status(
        m.e,
        "links_create",
        js(
            {
                "workspace_id": ws,
                "target_url": "ftp://example.com/file",
                "slug": None,
                "page_theme_id": "",
                "labels": [],
                "title": None,
                "expire_after": None,
            }
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
        msg,
    )
    violation = control_pb2.FieldViolation(field="target_url", description=msg)
    assert details == [
        ("type.googleapis.com/linkhub.v1.FieldViolation", violation.SerializeToString())
    ]
    msg = 'target_url "not a url" is not an absolute http(s) URL'
    expect_status(
        m.e,
        "links_update",
        '{"id":"link-1","target_url":"not a url","update_mask":"targetUrl"}',
        grpc.StatusCode.INVALID_ARGUMENT,
        msg,
    )
    # A step without an action: INVALID_ARGUMENT with one FieldViolation.
    with pytest.raises(ToolError) as info:
        m.e.execute(
            "steps_create", '{"link_id":"link-1","send_email":null,"open_link":null,"wait":null}'
        )
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    (detail,) = status_details(info.value)
    fv = control_pb2.FieldViolation.FromString(detail[1])
    assert fv.description == info.value.raw_message

    # The executor's own refusals send nothing; a oneof clash names the
    # members by proto name, as the schema does.
    expect_rejected(
        channel,
        m.e,
        "steps_create",
        '{"link_id":"link-1","send_email":{"to":"a@example.com","subject":"s"},'
        '"open_link":{"link_id":"link-1"},"wait":null}',
        "invalid arguments, nothing was sent:\n"
        '- "open_link": "send_email" and "open_link" are members of oneof "action": set only one',
    )


@pytest.mark.parametrize(
    ("tool", "args", "prefix"),
    [
        ("links_get", "not json", "invalid arguments, nothing was sent:\n- "),
        ("links_get", '{"id": "link-1"', "invalid arguments, nothing was sent:\n- "),
        ("links_get", "[1, 2]", "invalid arguments, nothing was sent:\n- "),
        ("links_get", '"link-1"', "invalid arguments, nothing was sent:\n- "),
        ("links_get", '{"id": 5}', "invalid arguments, nothing was sent:\n- "),
        ("links_create", '{"workspace_id": ["x"]}', "invalid arguments, nothing was sent:\n- "),
        (
            "links_update",
            # (An unknown enum name is dropped, as Go's DiscardUnknown does: no error.)
            '{"id": "link-1", "title": ["x"]}',
            "invalid arguments, nothing was sent:\n- ",
        ),
        ("links_nope", '{"id": "link-1"}', "no auto-executor for tool: links_nope"),
        ("", "{}", "no auto-executor for tool: "),
    ],
)
def test_bad_input_is_refused_before_any_request(
    driver: Driver, channel: grpc.Channel, tool: str, args: str, prefix: str
) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    create_links(m, ws, 1)
    before = len(recorded(channel))
    with pytest.raises(ToolError) as info:
        m.e.execute(tool, args)
    assert str(info.value).startswith(prefix), str(info.value)
    assert info.value.code == refusal_code(prefix)
    assert len(recorded(channel)) == before, "a request reached the server"
    assert not m.e.aliases.resolve_alias("link-1").startswith("link-")
