// Shared by the e2e tests: the real linkhub.v1 test server started in this
// process (one per test file, so files run in parallel without sharing
// recordings), a gRPC transport to it, and a "model" that calls tools the
// way an application loop does: JSON text in, text out.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import {
  startServer,
  type RunningServer,
} from "@protoc-gen-ai-tools/e2e-server";
import { ToolError, type Executor } from "@protoc-gen-ai-tools/runtime";
import {
  create,
  equals,
  fromJsonString,
  type DescMessage,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, expect } from "vitest";
import { createExecutor } from "../src/gen/ai_tools.gen.js";
import { GetOperationRequestSchema } from "../src/gen/google/longrunning/operations_pb.js";
import {
  TestControlService,
  type RecordedRequest,
} from "../src/gen/linkhub/v1/control_pb.js";
import { ExportLinksRequestSchema } from "../src/gen/linkhub/v1/exports_pb.js";
import {
  CreateLinkRequestSchema,
  DeleteLinkRequestSchema,
  GetLinkRequestSchema,
  LinkService,
  ListLinksRequestSchema,
  UpdateLinkRequestSchema,
} from "../src/gen/linkhub/v1/links_pb.js";
import { SampleSchema } from "../src/gen/linkhub/v1/samples_pb.js";
import {
  CreatePageThemeRequestSchema,
  ListPageThemesRequestSchema,
  PageThemeService,
  UpdatePageThemeRequestSchema,
} from "../src/gen/linkhub/v1/themes_pb.js";
import {
  CreateStepRequestSchema,
  ListStepsRequestSchema,
  WorkflowService,
} from "../src/gen/linkhub/v1/workflows_pb.js";

/** UUIDs (8-4-4-4-12 hex) anywhere in a text. */
export const uuidRe =
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/** A string value that is exactly an alias of a declared prefix. */
export const aliasRe = /"(link|theme|step|operation)-[0-9]+"/;

export interface Env {
  readonly server: RunningServer;
  readonly transport: Transport;
  readonly control: ReturnType<typeof createClient<typeof TestControlService>>;
  readonly links: ReturnType<typeof createClient<typeof LinkService>>;
  readonly themes: ReturnType<typeof createClient<typeof PageThemeService>>;
  readonly workflows: ReturnType<typeof createClient<typeof WorkflowService>>;
}

/**
 * Start the test server for this file; the env is ready in the tests. In
 * this process by default; with `process: true`, as its own process
 * (e2e/server/dist/main.js, as the Go suite runs it).
 */
export function useServer(options: { process?: boolean } = {}): Env {
  const env = {} as { -readonly [K in keyof Env]: Env[K] };
  beforeAll(async () => {
    env.server = options.process ? await spawnServer() : await startServer();
    env.transport = createGrpcTransport({ baseUrl: env.server.baseUrl });
    env.control = createClient(TestControlService, env.transport);
    env.links = createClient(LinkService, env.transport);
    env.themes = createClient(PageThemeService, env.transport);
    env.workflows = createClient(WorkflowService, env.transport);
  });
  afterAll(async () => {
    await env.server?.close();
  });
  return env;
}

/** Run e2e/server/dist/main.js; resolves on its `ready 127.0.0.1:<port>` line. */
function spawnServer(): Promise<RunningServer> {
  const main = fileURLToPath(
    new URL("../../server/dist/main.js", import.meta.url),
  );
  const child = spawn(process.execPath, [main], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let buf = "";
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`test server exited (${code}) before its ready line`)),
    );
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      const m = /^ready (127\.0\.0\.1):([0-9]+)\n/.exec(buf);
      if (m === null) return;
      child.removeAllListeners("exit");
      const [host, port] = [m[1]!, Number(m[2])];
      resolve({
        host,
        port,
        address: `${host}:${port}`,
        baseUrl: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            child.once("exit", () => done());
            child.stdin.end(); // closing stdin stops the server
          }),
      });
    });
  });
}

export const newUUID = (): string => randomUUID();

export async function resetServer(env: Env): Promise<void> {
  await env.control.reset({});
}

export async function recorded(env: Env): Promise<RecordedRequest[]> {
  return (await env.control.getRecorded({})).requests;
}

/** A recorded procedure's request type. */
const requestTypes: Record<string, DescMessage> = {
  "linkhub.v1.LinkService/CreateLink": CreateLinkRequestSchema,
  "linkhub.v1.LinkService/GetLink": GetLinkRequestSchema,
  "linkhub.v1.LinkService/ListLinks": ListLinksRequestSchema,
  "linkhub.v1.LinkService/UpdateLink": UpdateLinkRequestSchema,
  "linkhub.v1.LinkService/DeleteLink": DeleteLinkRequestSchema,
  "linkhub.v1.PageThemeService/CreatePageTheme": CreatePageThemeRequestSchema,
  "linkhub.v1.PageThemeService/ListPageThemes": ListPageThemesRequestSchema,
  "linkhub.v1.PageThemeService/UpdatePageTheme": UpdatePageThemeRequestSchema,
  "linkhub.v1.WorkflowService/CreateStep": CreateStepRequestSchema,
  "linkhub.v1.WorkflowService/ListSteps": ListStepsRequestSchema,
  "linkhub.v1.WorkflowService/Ping": EmptySchema,
  "linkhub.v1.SampleService/EchoStrict": SampleSchema,
  "linkhub.v1.SampleService/EchoLoose": SampleSchema,
  "linkhub.v1.ExportService/ExportLinks": ExportLinksRequestSchema,
  "google.longrunning.Operations/GetOperation": GetOperationRequestSchema,
};

/** Decode a recorded request_json into its request type. */
export function decodeRecorded(rec: RecordedRequest) {
  const schema = requestTypes[rec.procedure];
  if (schema === undefined) {
    throw new Error(`recorded an unexpected procedure ${rec.procedure}`);
  }
  return { schema, message: fromJsonString(schema, rec.requestJson) };
}

/** One request the server should have recorded. */
export interface Want<D extends DescMessage = DescMessage> {
  readonly procedure: string;
  readonly schema: D;
  readonly init: MessageInitShape<D>;
}

export function want<D extends DescMessage>(
  procedure: string,
  schema: D,
  init: MessageInitShape<D>,
): Want {
  return { procedure, schema, init };
}

/**
 * Everything recorded after the first `from` requests equals `wants`, in
 * order and exactly (protobuf equality), and carries no alias.
 */
export async function expectRecordedFrom(
  env: Env,
  from: number,
  wants: readonly Want[],
): Promise<void> {
  const got = (await recorded(env)).slice(from);
  expect(got.map((r) => r.procedure)).toEqual(wants.map((w) => w.procedure));
  got.forEach((rec, i) => {
    const w = wants[i]!;
    const { message } = decodeRecorded(rec);
    const expected = create(w.schema, w.init);
    expect(
      equals(w.schema, message, expected),
      `request ${i} (${w.procedure}): got ${rec.requestJson}`,
    ).toBe(true);
    expect(rec.requestJson, `request ${i} carries an alias`).not.toMatch(
      aliasRe,
    );
  });
}

/** A link as the model reads it: protobuf JSON in proto names, ids as aliases. */
export interface LinkResult {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly page_theme_id: string;
  readonly workspace_id: string;
}

/**
 * A tool result as the model reads it (protobuf JSON in proto names, the
 * schema's; ids as aliases), typed with the fields the tests read: each
 * tool's result has only its own.
 */
export interface ToolResult {
  readonly link: LinkResult;
  readonly links: readonly LinkResult[];
  readonly page_theme: { readonly id: string; readonly workspace_id: string };
  readonly step: {
    readonly id: string;
    readonly link_id: string;
    readonly open_link: { readonly link_id: string };
  };
  readonly steps: readonly { readonly id: string }[];
  readonly server_time: string;
  /** A google.longrunning.Operation's fields. */
  readonly name: string;
  readonly done: boolean;
  readonly response: { readonly [key: string]: unknown };
}

/** A conversation: one executor; the model sees only result text. */
export class Model {
  readonly executor: Executor;
  private readonly rawOk: Set<string>;

  constructor(env: Env, ...rawOk: string[]) {
    this.executor = createExecutor(env.transport);
    this.rawOk = new Set(rawOk);
  }

  /** A call that must succeed; its result shows no UUID but allowed ones. */
  async call(tool: string, args: unknown): Promise<ToolResult> {
    const text = typeof args === "string" ? args : JSON.stringify(args);
    const out = await this.executor.execute(tool, text);
    this.checkNoUUID(tool, out);
    return JSON.parse(out) as ToolResult;
  }

  checkNoUUID(tool: string, text: string): void {
    for (const id of text.match(uuidRe) ?? []) {
      expect(
        this.rawOk.has(id),
        `${tool}: the model saw the UUID ${id}: ${text}`,
      ).toBe(true);
    }
  }
}

/** The ToolError a call fails with (fails the test when it succeeds). */
export async function toolError(
  p: Promise<unknown>,
  what = "",
): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return e as ToolError;
  }
  throw new Error(`the call ${what} succeeded; a ToolError was expected`);
}

/** The model creates n links in ws; returns the aliases it saw. */
export async function createLinks(
  m: Model,
  ws: string,
  n: number,
): Promise<string[]> {
  const aliases: string[] = [];
  for (let i = 1; i <= n; i++) {
    const r = await m.call("links_create", {
      workspace_id: ws,
      target_url: `https://example.com/${i}`,
      slug: null,
      page_theme_id: "",
      labels: [],
      title: `link ${i}`,
      expire_after: null,
    });
    aliases.push(r.link.id);
  }
  return aliases;
}

/** What the server holds for ws, oldest first (the request is recorded). */
export async function linkIds(env: Env, ws: string): Promise<string[]> {
  return (await env.links.listLinks({ workspaceId: ws })).links.map(
    (l) => l.id,
  );
}
