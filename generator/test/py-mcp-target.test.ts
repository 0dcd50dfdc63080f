import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { modelOf } from "./support/model.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";
import { ruffCheckArgs } from "./support/ruff.js";
import { mypyArgs, mypyConfig } from "./support/mypy.js";

// The Python MCP file (mcp=true): for the MCP golden cases and the
// approvals and executors cases, ai_tools_mcp_gen.py is checked as generated (ruff format,
// ruff check with the strict rule set, mypy --strict with typed stubs of the
// grpcio-tools output, _pb2_grpc included), then imported next to
// ai_tools_gen.py by a real Python with ai_tools_runtime.mcp: its tools, as
// an McpToolServer lists them, must be the model's MCP tools with their
// schemas and hints, and carry its required scopes and approval flags. The
// mcp case's tools are also called (behaviourScript).

const repoRoot = resolve(paths.generator, "..");
const runtimeSrc = join(repoRoot, "runtimes", "python", "src");
const python =
  (process.env.AI_TOOLS_PYTHON ?? "") !== ""
    ? process.env.AI_TOOLS_PYTHON!
    : join(repoRoot, ".venv", "bin", "python");

const work = mkdtempSync(join(tmpdir(), "ai-tools-py-mcp-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function must(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const r = spawnSync(python, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) {
    throw new Error(
      `python ${args.join(" ")} (exit ${r.status}):\n${r.stdout}${r.stderr}`,
    );
  }
  return r.stdout;
}

/** Lists the tools through McpToolServer (run in the output root). */
const listScript = String.raw`
import json

import grpc

import ai_tools_mcp_gen as m
from ai_tools_runtime.mcp import McpToolServer

server = McpToolServer()
channel = grpc.insecure_channel("127.0.0.1:9")
for name in m.__all__:
    if name.startswith("forward_to_"):
        getattr(m, name)(server, channel)
print(json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in server.list_tools()]))
`;

/**
 * Each generated McpToolMethod's scopes and approval flag, by tool name
 * (run in the output root).
 */
const fieldsScript = String.raw`
import json

import ai_tools_mcp_gen as m

out = {}
for name in m.__all__:
    if name.endswith("_TOOLS"):
        for t in getattr(m, name):
            out[t.tool.name] = [list(t.required_scopes), t.needs_approval]
print(json.dumps(out))
`;

/**
 * The mcp case's services served in process (a grpc.aio server on a
 * loopback port) to the official client in memory: the tools without
 * auto_execute are approved by the server's hook, which sees each call's
 * tool, method and arguments, and register their responses' ids
 * (MCP_ALIAS_CONFIG), which the next call resolves. Prints "ok" (run in
 * the output root).
 */
const behaviourScript = String.raw`
import json
import re
import uuid

import anyio
import grpc
from mcp import Client

import ai_tools_mcp_gen as m
from ai_tools_runtime.mcp import McpToolServer
from mcpdemo.v1 import notes_pb2, notes_pb2_grpc

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
NOTES = {str(uuid.uuid4()): f"note {i}" for i in range(2)}
NOTE_IDS = list(NOTES)
TAG_IDS = [str(uuid.uuid4()) for _ in range(2)]
received = []
asked = []


class Notes(notes_pb2_grpc.NoteServiceServicer):
    async def GetNote(self, request, context):
        received.append(request.note_id)
        return notes_pb2.Note(id=request.note_id, text=NOTES[request.note_id])

    async def PutNote(self, request, context):
        received.append(request.id)
        NOTES[request.id] = request.text
        return request

    async def WatchNotes(self, request, context):
        for note_id in NOTE_IDS[: request.count]:
            yield notes_pb2.Note(id=note_id, text=NOTES[note_id])


class Tags(notes_pb2_grpc.TagServiceServicer):
    async def ListTags(self, request, context):
        tags = [notes_pb2.Tag(id=t, name=f"tag {i}") for i, t in enumerate(TAG_IDS)]
        return notes_pb2.ListTagsResponse(tags=tags)


async def call(client, name, args):
    result = await client.call_tool(name, args)
    text = result.content[0].text
    assert not result.is_error, (name, text)
    assert UUID.search(text) is None, (name, text)
    value = json.loads(text)
    assert result.structured_content == value, (name, result.structured_content)
    return value


def approve(request):
    asked.append((request.tool, request.method, dict(request.arguments)))
    return True


async def main():
    server = McpToolServer(approve=approve)
    m.register_note_service_handler(server, Notes())
    m.register_tag_service_handler(server, Tags())
    async with Client(server.sdk_server) as client:
        tags = await call(client, "tags_list", {})
        assert [t["id"] for t in tags["tags"]] == ["tag-1", "tag-2"], tags
        watched = await call(client, "notes_watch", {"count": 2})
        assert [n["id"] for n in watched["messages"]] == ["note-1", "note-2"], watched
        got = await call(client, "notes_get", {"note_id": "note-2"})
        assert got["id"] == "note-2" and received[-1] == NOTE_IDS[1], (got, received)
        put = await call(client, "notes_put", {"id": "note-1", "text": "changed"})
        assert put["id"] == "note-1" and received[-1] == NOTE_IDS[0], (put, received)
        assert NOTES[NOTE_IDS[0]] == "changed", NOTES
        result = await client.call_tool("notes_get", {"note_id": "note-3"})
        assert result.is_error and "note-3" in result.content[0].text, result
    # The tools without auto_execute were approved, with the model's
    # arguments (aliases); notes_get (auto_execute) was not asked about.
    assert asked == [
        ("tags_list", "/aitools.test.mcpdemo.v1.TagService/ListTags", {}),
        ("notes_watch", "/aitools.test.mcpdemo.v1.NoteService/WatchNotes", {"count": 2}),
        ("notes_put", "/aitools.test.mcpdemo.v1.NoteService/PutNote", {"id": "note-1", "text": "changed"}),
    ], asked
    print("ok")


anyio.run(main)
`;

// [case, parameter]: the MCP golden cases set mcp=true in their options.txt.
const cases: [string, string][] = [
  ...goldenCases()
    .filter((c) => c.startsWith("mcp"))
    .map((c): [string, string] => [c, "target=py"]),
  ["approvals", "target=py"],
  ["executors", "target=py,mcp=true"],
];

if (!existsSync(python)) {
  describe("python target: the MCP file (no .venv)", () => {
    it("needs <repo>/.venv: run bash scripts/python-env.sh", () => {
      throw new Error(`no Python environment at ${python}`);
    });
  });
}

describe.runIf(existsSync(python))("python target: the MCP file", () => {
  for (const [caseName, parameter] of cases) {
    it(
      caseName,
      async () => {
        const request = await buildRequest(caseName, { parameter });
        const files = generate(request);
        expect(files.map((f) => f.name)).toEqual([
          "ai_tools_gen.py",
          "ai_tools_mcp_gen.py",
        ]);
        const dir = join(work, caseName);
        mkdirSync(dir, { recursive: true });
        must(
          [
            "-m",
            "grpc_tools.protoc",
            `-I${join(repoRoot, "proto")}`,
            `-I${paths.include}`,
            `-I${join(paths.protos, caseName)}`,
            `--plugin=protoc-gen-mypy=${join(dirname(python), "protoc-gen-mypy")}`,
            `--plugin=protoc-gen-mypy_grpc=${join(dirname(python), "protoc-gen-mypy_grpc")}`,
            `--python_out=${dir}`,
            `--mypy_out=${dir}`,
            `--grpc_python_out=${dir}`,
            `--mypy_grpc_out=${dir}`,
            ...request.protoFile
              .map((f) => f.name)
              .filter((n) => !n.startsWith("google/protobuf/")),
          ],
          { cwd: dir },
        );
        for (const f of files) writeFileSync(join(dir, f.name), f.content);
        writeFileSync(join(dir, "list.py"), listScript);
        writeFileSync(join(dir, "fields.py"), fieldsScript);
        writeFileSync(join(dir, "mypy.ini"), mypyConfig);
        const env = {
          PYTHONPATH: [dir, runtimeSrc].join(":"),
          PYTHONDONTWRITEBYTECODE: "1",
          RUFF_NO_CACHE: "true",
        };
        const only = ["ai_tools_mcp_gen.py"];
        must(
          ["-m", "ruff", "format", "--isolated", "--check", "--diff", ...only],
          {
            cwd: dir,
            env,
          },
        );
        must([...ruffCheckArgs, ...only], { cwd: dir, env });
        // The grpcio-tools output on PYTHONPATH is checked as installed code
        // (mypy-protobuf's _pb2_grpc stubs carry ignores for types-grpcio);
        // the MCP file itself strictly.
        must(mypyArgs(join(work, "mypy-cache"), only), { cwd: dir, env });

        if (caseName === "mcp") {
          writeFileSync(join(dir, "behaviour.py"), behaviourScript);
          expect(must(["behaviour.py"], { cwd: dir, env })).toBe("ok\n");
        }

        const listed = JSON.parse(must(["list.py"], { cwd: dir, env })) as {
          name: string;
          description: string;
          inputSchema: unknown;
          outputSchema: unknown;
          annotations?: unknown;
        }[];
        const model = modelOf(request);
        const tools = model.mcpServices
          .flatMap((s) => s.tools)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
        const fields = JSON.parse(must(["fields.py"], { cwd: dir, env })) as {
          [tool: string]: [string[], boolean];
        };
        expect(fields).toEqual(
          Object.fromEntries(
            tools.map((t) => [t.name, [t.requiredScopes, t.needsApproval]]),
          ),
        );
        for (const [i, t] of tools.entries()) {
          const l = listed[i]!;
          expect(l.description).toBe(t.description);
          expect(l.inputSchema).toEqual(JSON.parse(t.schemaJson));
          expect(l.outputSchema).toEqual(JSON.parse(t.outputSchemaJson));
          // Every generated tool sets the four hints, so all are listed.
          expect(l.annotations).toEqual({
            readOnlyHint: t.hints.readOnly,
            destructiveHint: t.hints.destructive,
            idempotentHint: t.hints.idempotent,
            openWorldHint: t.hints.openWorld,
          });
        }
      },
      180_000,
    );
  }
});
