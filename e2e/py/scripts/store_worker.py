"""A worker of an agent backend: the generated executor of the test API
(gen/ai_tools_gen.py) running calls in conversations kept in Redis
(docs/store.md), so that any worker, of any language, sharing the Redis
server continues any conversation.

    python scripts/store_worker.py --grpc 127.0.0.1:8080 --redis redis://127.0.0.1:6379/0

Reads commands from stdin, one JSON object a line, runs them at once (a
line does not wait for the ones before it: send a conversation's next call
after the answer to its last), and prints one JSON line per command, in
the order they finish, with the command's ``id``:

    {"id": 1, "op": "start"}                        -> {"id": 1, "handle": "…"}
    {"id": 2, "op": "execute", "handle": "…", "tool": "links_create", "args": {…}}
                                                    -> {"id": 2, "result": {…}}
    {"id": 3, "op": "end", "handle": "…"}           -> {"id": 3, "ended": true}

A failed command answers ``{"id": …, "error": {"reason": "…", "code":
"NOT_FOUND", "message": "…"}}``; a line that is not such a command,
``{"id": null, "error": {"reason": "bad-command", …}}``. An answer is
printed only once its aliases are stored. Exits 0 at the end of stdin, once
every command has answered.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gen"))

import grpc
import redis.asyncio
from ai_tools_runtime import ConversationExecutor, ToolError
from ai_tools_runtime.redis import RedisConversationStore

from ai_tools_gen import AsyncExecutor


async def answer(executor: ConversationExecutor, command: Any) -> dict[str, Any]:
    """The answer to one command (without its id)."""
    if not isinstance(command, dict) or command.get("op") not in ("start", "execute", "end"):
        raise ValueError('a command is an object with "op": "start", "execute" or "end"')
    try:
        if command["op"] == "start":
            return {"handle": await executor.start()}
        handle = command.get("handle")
        if not isinstance(handle, str):
            raise ValueError(f'{command["op"]}: "handle" must be a string')
        if command["op"] == "end":
            await executor.end(handle)
            return {"ended": True}
        tool, args = command.get("tool"), command.get("args", {})
        if not isinstance(tool, str):
            raise ValueError('execute: "tool" must be a string')
        out = await executor.execute(handle, tool, json.dumps(args, ensure_ascii=False))
        return {"result": json.loads(out)}
    except ToolError as err:
        return {"error": {"reason": err.reason, "code": err.code.name, "message": str(err)}}


async def main(args: argparse.Namespace) -> None:
    client = redis.asyncio.Redis.from_url(args.redis)
    store = RedisConversationStore(client, key_prefix=args.key_prefix)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task[None]] = set()
    async with grpc.aio.insecure_channel(args.grpc) as channel:
        executor = ConversationExecutor(AsyncExecutor(channel), store)

        async def run(line: bytes) -> None:
            command: Any = None
            try:
                command = json.loads(line)
                reply = {"id": command.get("id")} | await answer(executor, command)
            except (ValueError, AttributeError) as err:
                ident = command.get("id") if isinstance(command, dict) else None
                reply = {"id": ident, "error": {"reason": "bad-command", "message": str(err)}}
            sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            sys.stdout.flush()

        while line := await reader.readline():
            if line.strip():
                task = asyncio.create_task(run(line))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        while tasks:
            await asyncio.gather(*tasks)
    await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grpc", required=True, help="the linkhub.v1 gRPC server, host:port")
    parser.add_argument("--redis", required=True, help="the Redis URL, redis://host:port/db")
    parser.add_argument("--key-prefix", default="ai-tools:", help='the key prefix ("ai-tools:")')
    asyncio.run(main(parser.parse_args()))
