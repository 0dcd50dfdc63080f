"""Issue 31, long-running operations: links_export returns a
google.longrunning.Operation whose name the model sees as ``operation-1``;
the GetOperation tool offered beside it takes that alias and the server
receives the operation's real name."""

import grpc
from google.longrunning import operations_pb2
from helpers import (
    Driver,
    expect_recorded,
    expect_rejected,
    new_model,
    new_uuid,
    recorded,
    reset_server,
)

from linkhub.v1 import exports_pb2

GET_OPERATION = "google_longrunning_Operations_GetOperation"
EXPORTED = "type.googleapis.com/linkhub.v1.ExportLinksResponse"


def test_an_export_is_followed_by_its_alias(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    start = len(recorded(channel))
    started = m.call("links_export", {"workspace_id": ws})
    assert started == {"name": "operation-1"}, started  # done: false is left out
    done = m.call(GET_OPERATION, {"name": "operation-1"})
    assert done["name"] == "operation-1" and done["done"] is True, done
    assert done["response"]["@type"] == EXPORTED, done
    name = f"workspaces/{ws}/operations/1"
    assert m.e.aliases.resolve_alias("operation-1") == name
    expect_recorded(
        channel,
        start,
        [
            (
                "linkhub.v1.ExportService/ExportLinks",
                exports_pb2.ExportLinksRequest(workspace_id=ws),
            ),
            (
                "google.longrunning.Operations/GetOperation",
                operations_pb2.GetOperationRequest(name=name),
            ),
        ],
    )
    expect_rejected(
        channel,
        m.e,
        GET_OPERATION,
        '{"name":"operation-2"}',
        "invalid arguments, nothing was sent:\n"
        '- "name": unknown alias "operation-2"; valid operation aliases: operation-1',
    )
