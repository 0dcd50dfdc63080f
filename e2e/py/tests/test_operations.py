"""Issue 31, long-running operations: links_export returns a
google.longrunning.Operation whose name the model sees as ``operation-1``;
the GetOperation tool offered beside it takes that alias and the server
receives the operation's real name; in a conversation kept in Redis too."""

import json

import grpc
import redis.asyncio
from ai_tools_runtime import ConversationExecutor
from ai_tools_runtime.redis import RedisConversationStore
from conftest import LoopThread
from google.longrunning import operations_pb2
from helpers import (
    Driver,
    decode_recorded,
    expect_recorded,
    expect_rejected,
    js,
    new_model,
    new_uuid,
    recorded,
    reset_server,
)

from ai_tools_gen import AsyncExecutor
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


def test_an_operation_name_kept_in_redis(
    aio: LoopThread, channel: grpc.Channel, redis_url: str
) -> None:
    """One replica starts the export, another follows it: the name is
    stored in the conversation's hash as it is, not as a UUID."""
    reset_server(channel)
    ws = new_uuid()
    name = f"workspaces/{ws}/operations/1"

    async def run() -> tuple[str, str, dict[bytes | str, bytes | str]]:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            store = RedisConversationStore(client)
            first = ConversationExecutor(AsyncExecutor(aio.channel), store)
            handle = await first.start()
            started = await first.execute(handle, "links_export", js({"workspace_id": ws}))
            other = ConversationExecutor(AsyncExecutor(aio.channel), store)
            done = await other.execute(handle, GET_OPERATION, '{"name":"operation-1"}')
            return started, done, await client.hgetall(store.key(handle))
        finally:
            await client.aclose()

    started, done, fields = aio.run(run())
    assert json.loads(started) == {"name": "operation-1"}
    assert json.loads(done)["name"] == "operation-1" and json.loads(done)["done"] is True
    assert fields[b"a:operation-1"] == name.encode() and fields[b"n:operation"] == b"1"
    got = [r for r in recorded(channel) if r.procedure.endswith("/GetOperation")]
    assert [decode_recorded(r) for r in got] == [operations_pb2.GetOperationRequest(name=name)]
