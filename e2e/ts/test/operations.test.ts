// Long-running operations end to end (issue 31, CONTRACT31 L): links_export
// returns a google.longrunning.Operation whose name the model sees as the
// alias operation-1; the GetOperation tool the generator adds takes that
// alias, and the test server receives the real name. Through the generated
// executor and through the generated MCP server (stdio).
import { createConversationExecutor } from "@protoc-gen-ai-tools/runtime";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { startRedis } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../src/gen/ai_tools.gen.js";
import { GetOperationRequestSchema } from "../src/gen/google/longrunning/operations_pb.js";
import { ExportLinksRequestSchema } from "../src/gen/linkhub/v1/exports_pb.js";
import { callOk, callTool, connectStdio } from "./mcp-support.js";
import {
  Model,
  createLinks,
  expectRecordedFrom,
  recorded,
  resetServer,
  toolError,
  useServer,
  want,
} from "./support.js";

const env = useServer();
const getOperation = "google_longrunning_Operations_GetOperation";
const exportResponseType = "type.googleapis.com/linkhub.v1.ExportLinksResponse";

describe("long-running operations through the executor", () => {
  it("export → operation-1 → GetOperation reaches the server with the real name", async () => {
    await resetServer(env);
    const m = new Model(env);
    await createLinks(m, "w1", 2);
    const from = (await recorded(env)).length;
    const started = await m.call("links_export", { workspace_id: "w1" });
    expect(started).toEqual({ name: "operation-1" });
    const polled = await m.call(getOperation, { name: "operation-1" });
    expect(polled).toEqual({
      name: "operation-1",
      done: true,
      // The response's type is another file's (exports.proto): the
      // executor knows every tool's file, so the Any is written out.
      response: {
        "@type": exportResponseType,
        link_count: 2,
        uri: "https://exports.example.com/workspaces/w1/operations/1.csv",
      },
    });
    await expectRecordedFrom(env, from, [
      want("linkhub.v1.ExportService/ExportLinks", ExportLinksRequestSchema, {
        workspaceId: "w1",
      }),
      want(
        "google.longrunning.Operations/GetOperation",
        GetOperationRequestSchema,
        { name: "workspaces/w1/operations/1" },
      ),
    ]);
  });

  it("numbers a second operation operation-2 and keeps the first one's alias", async () => {
    await resetServer(env);
    const m = new Model(env);
    expect(await m.call("links_export", { workspace_id: "w1" })).toEqual({
      name: "operation-1",
    });
    expect(await m.call("links_export", { workspace_id: "w2" })).toEqual({
      name: "operation-2",
    });
    const from = (await recorded(env)).length;
    await m.call(getOperation, { name: "operation-2" });
    await m.call(getOperation, { name: "operation-1" });
    await expectRecordedFrom(env, from, [
      want(
        "google.longrunning.Operations/GetOperation",
        GetOperationRequestSchema,
        { name: "workspaces/w2/operations/2" },
      ),
      want(
        "google.longrunning.Operations/GetOperation",
        GetOperationRequestSchema,
        { name: "workspaces/w1/operations/1" },
      ),
    ]);
  });

  it("refuses an unknown operation alias, sending nothing", async () => {
    await resetServer(env);
    const m = new Model(env);
    await m.call("links_export", { workspace_id: "w1" });
    const from = (await recorded(env)).length;
    const err = await toolError(
      m.executor.execute(getOperation, '{"name":"operation-9"}'),
    );
    expect(err.message).toBe(
      'invalid arguments, nothing was sent:\n- "name": unknown alias "operation-9"; valid operation aliases: operation-1',
    );
    expect((await recorded(env)).length).toBe(from);
  });
});

describe("long-running operations in a conversation kept on Redis", () => {
  it("an operation name registered by one executor is resolved by another", async () => {
    await resetServer(env);
    const redis = await startRedis();
    const client = createClient({ url: redis.url, disableOfflineQueue: true });
    client.on("error", () => {}); // the store reports each failed call
    await client.connect();
    try {
      const store = createRedisConversationStore({ client });
      // Two executors, as two processes serving one conversation.
      const [a, b] = [1, 2].map(() =>
        createConversationExecutor(createExecutor(env.transport), store),
      );
      const handle = await a!.start();
      const started = await a!.execute(
        handle,
        "links_export",
        '{"workspace_id":"w4"}',
      );
      expect(JSON.parse(started)).toEqual({ name: "operation-1" });
      const from = (await recorded(env)).length;
      const polled = await b!.execute(
        handle,
        getOperation,
        '{"name":"operation-1"}',
      );
      expect(JSON.parse(polled)).toMatchObject({
        name: "operation-1",
        done: true,
      });
      await expectRecordedFrom(env, from, [
        want(
          "google.longrunning.Operations/GetOperation",
          GetOperationRequestSchema,
          { name: "workspaces/w4/operations/1" },
        ),
      ]);
      expect(
        JSON.parse((await store.load(handle)).state) as unknown,
      ).toMatchObject({
        aliases: { "operation-1": "workspaces/w4/operations/1" },
      });
    } finally {
      client.destroy();
      await redis.stop();
    }
  });
});

describe("long-running operations through the MCP server", () => {
  it("export → operation-1 → GetOperation reaches the server with the real name", async () => {
    await resetServer(env);
    const client = await connectStdio(env, "2026-07-28");
    const from = (await recorded(env)).length;
    const started = await callOk(client, "links_export", {
      workspace_id: "w3",
    });
    expect(started.structuredContent).toMatchObject({
      name: "operation-1",
      done: false,
    });
    const polled = await callOk(client, getOperation, { name: "operation-1" });
    expect(polled.structuredContent).toMatchObject({
      name: "operation-1",
      done: true,
      response: {
        "@type": exportResponseType,
        link_count: 0,
        uri: "https://exports.example.com/workspaces/w3/operations/1.csv",
      },
    });
    const unknown = await callTool(client, getOperation, {
      name: "operation-2",
    });
    expect(unknown.isError).toBe(true);
    await expectRecordedFrom(env, from, [
      want("linkhub.v1.ExportService/ExportLinks", ExportLinksRequestSchema, {
        workspaceId: "w3",
      }),
      want(
        "google.longrunning.Operations/GetOperation",
        GetOperationRequestSchema,
        { name: "workspaces/w3/operations/1" },
      ),
    ]);
  });
});
