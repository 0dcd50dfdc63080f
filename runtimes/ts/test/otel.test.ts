// createOpenTelemetry with the SDK's in-memory exporter and a metric reader:
// spans and metrics of executor, conversation and MCP calls against the real
// aitest gRPC server (over a socket), which records the trace context it
// receives.
import { Code } from "@connectrpc/connect";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import {
  context,
  metrics,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from "@opentelemetry/core";
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createConversationExecutor,
  createExecutor,
  createMemoryConversationStore,
  ToolError,
  type Executor,
  type Telemetry,
  type ToolCallOutcome,
} from "../src/index.js";
import {
  createMcpToolServer,
  serveHttp,
  serveStdio,
  type McpToolServer,
  type McpToolServerOptions,
} from "../src/mcp/index.js";
import { createOpenTelemetry } from "../src/otel.js";
import { endCall, sent, streamCut, type CallStats } from "../src/telemetry.js";
import {
  startAitestServer,
  type AitestServer,
} from "./support/aitest-server.js";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";
import { callTool } from "./support/mcp-client.js";
import { aitestMcpMethods } from "./support/mcp-tools.js";

/** A reader collecting on demand. */
class TestReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** Telemetry on fresh providers, with what it recorded. */
interface Recorded {
  readonly telemetry: Telemetry;
  spans(): ReadableSpan[];
  /** Collect the metrics recorded so far. */
  collect(): Promise<void>;
  /** The data points of a metric, by name, as last collected. */
  points(name: string): DataPoint<unknown>[];
}

/** createOpenTelemetry on fresh SDK providers, given or made global. */
function record(global = false): Recorded {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  if (global) {
    trace.disable();
    metrics.disable();
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
  }
  let collected: Awaited<ReturnType<TestReader["collect"]>> | undefined;
  return {
    telemetry: global
      ? createOpenTelemetry()
      : createOpenTelemetry({ tracerProvider, meterProvider }),
    spans: () => exporter.getFinishedSpans(),
    points(name) {
      const all = collected?.resourceMetrics.scopeMetrics.flatMap((s) =>
        s.metrics.filter((m) => m.descriptor.name === name),
      );
      return (
        all?.flatMap((m): readonly DataPoint<unknown>[] => m.dataPoints) ?? []
      );
    },
    async collect() {
      collected = await reader.collect();
    },
  };
}

const uuidPattern =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Every attribute value of the spans and metric points, as text. */
function attributeTexts(r: Recorded): string[] {
  const all: Attributes[] = [
    ...r.spans().map((s) => s.attributes),
    ...r.points("ai_tools.tool_call.duration").map((p) => p.attributes),
    ...r.points("ai_tools.aliases.registered").map((p) => p.attributes),
  ];
  return all.flatMap((a) => Object.values(a).map((v) => String(v)));
}

let grpc: AitestServer;

beforeAll(async () => {
  context.setGlobalContextManager(
    new AsyncLocalStorageContextManager().enable(),
  );
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [
        new W3CTraceContextPropagator(),
        new W3CBaggagePropagator(),
      ],
    }),
  );
  grpc = await startAitestServer();
});

afterAll(async () => {
  await grpc.close();
  context.disable();
  propagation.disable();
  trace.disable();
  metrics.disable();
});

function newExecutor(telemetry?: Telemetry): Executor {
  return createExecutor(grpc.transport, {
    methods: aitestMethods,
    aliases: aitestAliases,
    telemetry,
  });
}

const secretName = "name-that-must-not-leak";

function createArgs(noteCount: number): string {
  return JSON.stringify({
    name: secretName,
    owner_id: "",
    note_count: noteCount,
    contact_count: 0,
  });
}

/** The traceparent header of a span's context. */
function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}

describe("createOpenTelemetry with an executor", () => {
  it("records one span and the metrics per call, propagates its context, and no value", async () => {
    const r = record(true);
    const e = newExecutor(r.telemetry);
    await e.execute("accounts_create", createArgs(2));
    await e.execute("accounts_create", createArgs(0));
    const metadata = grpc.metadata.at(-1);
    await e.execute(
      "accounts_merge",
      JSON.stringify({ source_id: "acct-1", target_id: "acct-2", note: "" }),
    );
    const [first, second, merge] = r.spans();
    expect(r.spans()).toHaveLength(3);
    expect(first?.name).toBe("execute_tool accounts_create");
    expect(first?.kind).toBe(SpanKind.INTERNAL);
    expect(first?.instrumentationScope.name).toBe("protoc-gen-ai-tools");
    expect(first?.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "accounts_create",
      "gen_ai.tool.type": "function",
      "rpc.system.name": "grpc",
      "rpc.method": "aitest.v1.AccountService/CreateAccount",
      "rpc.response.status_code": "OK",
      "ai_tools.aliases.resolved": 0,
      "ai_tools.aliases.registered": 3,
    });
    expect(first?.status.code).toBe(SpanStatusCode.UNSET);
    expect(second?.attributes["ai_tools.aliases.registered"]).toBe(1);
    expect(metadata?.traceparent).toBe(traceparentOf(second!));
    expect(merge?.attributes).toMatchObject({
      "rpc.method": "aitest.v1.AccountService/MergeAccounts",
      "ai_tools.aliases.resolved": 2,
      "ai_tools.aliases.registered": 0,
    });
    // A plain executor is no conversation: no table size.
    expect(merge?.attributes).not.toHaveProperty(
      "ai_tools.conversation.aliases",
    );
    expect(grpc.metadata.at(-1)?.traceparent).toBe(traceparentOf(merge!));

    await r.collect();
    const durations = r.points("ai_tools.tool_call.duration");
    expect(durations.map((p) => p.attributes)).toEqual([
      {
        "gen_ai.tool.name": "accounts_create",
        "rpc.method": "aitest.v1.AccountService/CreateAccount",
      },
      {
        "gen_ai.tool.name": "accounts_merge",
        "rpc.method": "aitest.v1.AccountService/MergeAccounts",
      },
    ]);
    expect(durations.map((p) => (p.value as Histogram).count)).toEqual([2, 1]);
    const registered = r.points("ai_tools.aliases.registered");
    expect(registered.map((p) => [p.attributes, p.value])).toEqual([
      [{ "gen_ai.tool.name": "accounts_create" }, 4],
    ]);
    const texts = attributeTexts(r);
    expect(texts.filter((t) => uuidPattern.test(t))).toEqual([]);
    expect(texts.filter((t) => t.includes(secretName))).toEqual([]);
    expect(texts.filter((t) => /acct-\d/.test(t))).toEqual([]);
  });

  it("gives a failure its reason and the gRPC code, status ERROR without text", async () => {
    const r = record();
    const e = newExecutor(r.telemetry);
    grpc.failNext(Code.NotFound, `account ${crypto.randomUUID()} not found`);
    await expect(
      e.execute(
        "accounts_merge",
        JSON.stringify({ source_id: "x", target_id: "y", note: "" }),
      ),
    ).rejects.toThrow("not found");
    const calls = grpc.calls.length;
    await expect(
      e.execute("accounts_merge", JSON.stringify({ source_id: 1 })),
    ).rejects.toThrow("invalid arguments");
    expect(grpc.calls.length).toBe(calls);
    // A name the executor does not know is the model's: no span, no metric.
    await expect(e.execute("nope", "{}")).rejects.toThrow("no auto-executor");
    expect(r.spans()).toHaveLength(2);
    const [rpc, invalid] = r.spans();
    expect(rpc?.attributes).toMatchObject({
      "rpc.response.status_code": "NOT_FOUND",
      "error.type": "server-error",
    });
    expect(rpc?.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(invalid?.attributes["error.type"]).toBe("invalid-arguments");
    expect(invalid?.attributes).not.toHaveProperty("rpc.response.status_code");
    expect(invalid?.status).toEqual({ code: SpanStatusCode.ERROR });
    await r.collect();
    expect(
      r
        .points("ai_tools.tool_call.duration")
        .map((p) => p.attributes["error.type"]),
    ).toEqual(["server-error", "invalid-arguments"]);
    expect(attributeTexts(r).filter((t) => uuidPattern.test(t))).toEqual([]);
  });

  it("records a stream's registrations and is the child of the active span", async () => {
    const r = record();
    const e = newExecutor(r.telemetry);
    const parent = trace.getTracer("test").startSpan("parent");
    await context.with(trace.setSpan(context.active(), parent), () =>
      e.execute("accounts_watch", JSON.stringify({ count: 2 })),
    );
    const [span] = r.spans();
    expect(span?.attributes).toMatchObject({
      "rpc.method": "aitest.v1.AccountService/WatchAccounts",
      "rpc.response.status_code": "OK",
      "ai_tools.aliases.registered": 4,
    });
    expect(span?.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it("CANCELLED only for a stream the runtime cut; OK for a ToolError after the answer", async () => {
    const r = record();
    const e = createExecutor(grpc.transport, {
      methods: aitestMethods,
      aliases: aitestAliases,
      telemetry: r.telemetry,
      maxResultBytes: 400,
    });
    // The stream goes over the result limit: cut, CANCELLED.
    await expect(
      e.execute("accounts_watch", JSON.stringify({ count: 20 })),
    ).rejects.toThrow();
    // A unary result over the limit: the RPC answered, OK.
    await expect(
      e.execute("accounts_create", createArgs(20)),
    ).rejects.toThrow();
    const [cut, large] = r.spans();
    expect(cut?.attributes).toMatchObject({
      "rpc.response.status_code": "CANCELLED",
      "error.type": "result-too-large",
    });
    expect(large?.attributes).toMatchObject({
      "rpc.response.status_code": "OK",
      "error.type": "result-too-large",
    });
    // A ToolError from inside a stream that was not cut (a message the
    // runtime cannot write): the server answered, OK.
    const stats = {
      call: { run: (w: () => unknown) => w(), inject() {}, end() {} },
      resolved: 0,
      registered: 0,
      rpcCode: undefined,
      conversation: false,
    } as CallStats;
    const invalid = new ToolError("failed to marshal response", {
      reason: "invalid-response",
      code: Code.Internal,
    });
    await expect(sent(stats, Promise.reject(invalid))).rejects.toBe(invalid);
    expect(stats.rpcCode).toBe(0); // OK
    const over = streamCut(
      new ToolError("over", { reason: "result-too-large", code: Code.Aborted }),
    );
    await expect(sent(stats, Promise.reject(over))).rejects.toBe(over);
    expect(stats.rpcCode).toBe(Code.Canceled);
  });

  it("an error that is not a ToolError is _OTHER", () => {
    const ended: ToolCallOutcome[] = [];
    const stats = {
      call: {
        run: (w: () => unknown) => w(),
        inject() {},
        end: (o: ToolCallOutcome) => ended.push(o),
      },
      resolved: 0,
      registered: 0,
      rpcCode: undefined,
      conversation: false,
    } as CallStats;
    endCall(stats, new TypeError("a bug"), undefined);
    expect(ended[0]?.errorType).toBe("_OTHER");
  });

  it("sends no trace context without telemetry", async () => {
    const parent = trace.getTracer("test").startSpan("parent");
    await context.with(trace.setSpan(context.active(), parent), () =>
      newExecutor().execute("accounts_create", createArgs(0)),
    );
    expect(grpc.metadata.at(-1)).not.toHaveProperty("traceparent");
  });
});

describe("a telemetry hook that throws", () => {
  const throwing = (where: "start" | "run" | "inject" | "end"): Telemetry => ({
    startToolCall() {
      if (where === "start") {
        throw new Error("start failed");
      }
      return {
        run(work) {
          if (where === "run") {
            throw new Error("run failed");
          }
          return work();
        },
        inject() {
          if (where === "inject") {
            throw new Error("inject failed");
          }
        },
        end() {
          if (where === "end") {
            throw new Error("end failed");
          }
        },
      };
    },
  });

  it("never changes a call's outcome, and is warned once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      for (const where of ["start", "run", "inject", "end"] as const) {
        const e = newExecutor(throwing(where));
        const sent = grpc.calls.length;
        expect(
          JSON.parse(await e.execute("accounts_create", createArgs(0))),
        ).toHaveProperty("account");
        // Run once, not twice.
        expect(grpc.calls.length).toBe(sent + 1);
        await expect(
          e.execute("accounts_merge", JSON.stringify({ source_id: 1 })),
        ).rejects.toThrow("invalid arguments");
        const conversations = createConversationExecutor(
          e,
          createMemoryConversationStore(),
        );
        const handle = await conversations.start();
        await conversations.execute(handle, "accounts_create", createArgs(0));
        await expect(
          conversations.execute(`${handle}x`, "accounts_create", createArgs(0)),
        ).rejects.toThrow("conversation");
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain(
        "the telemetry hook failed",
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("an MCP call still answers when end throws", async () => {
    const client = await connectStdio(mcpServer(throwing("end")));
    const r = await callTool(
      client,
      "accounts_create",
      JSON.parse(createArgs(0)) as Record<string, unknown>,
    );
    await client.close();
    expect(r.isError).not.toBe(true);
  });
});

describe("createOpenTelemetry with a conversation executor", () => {
  it("covers the load and registration, counts the conversation, never shows the handle", async () => {
    const r = record();
    const conversations = createConversationExecutor(
      newExecutor(r.telemetry),
      createMemoryConversationStore(),
    );
    const handle = await conversations.start();
    await conversations.execute(handle, "accounts_create", createArgs(1));
    await conversations.execute(handle, "accounts_create", createArgs(1));
    await conversations.execute(
      handle,
      "accounts_merge",
      JSON.stringify({ source_id: "acct-1", target_id: "acct-2", note: "" }),
    );
    await expect(
      conversations.execute(`${handle}x`, "accounts_create", createArgs(0)),
    ).rejects.toThrow("conversation");
    const spans = r.spans();
    expect(
      spans.map((s) => [
        s.attributes["ai_tools.aliases.resolved"],
        s.attributes["ai_tools.aliases.registered"],
        s.attributes["ai_tools.conversation.aliases"],
        s.attributes["error.type"],
      ]),
    ).toEqual([
      [0, 2, 2, undefined],
      [0, 2, 4, undefined],
      [2, 0, 4, undefined],
      // The load failed: no table, no size.
      [0, 0, undefined, "conversation-expired"],
    ]);
    expect(spans[3]?.attributes).not.toHaveProperty("rpc.response.status_code");
    expect(grpc.metadata.at(-1)?.traceparent).toBe(traceparentOf(spans[2]!));
    await r.collect();
    const texts = attributeTexts(r);
    expect(texts.filter((t) => t.includes(handle))).toEqual([]);
    expect(texts.filter((t) => uuidPattern.test(t))).toEqual([]);
  });

  it("conversation-full reports the table held; a failed register counts no alias", async () => {
    const r = record();
    const store = createMemoryConversationStore({ maxAliases: 2 });
    const conversations = createConversationExecutor(
      newExecutor(r.telemetry),
      store,
    );
    const handle = await conversations.start();
    await conversations.execute(handle, "accounts_create", createArgs(1));
    await expect(
      conversations.execute(handle, "accounts_create", createArgs(1)),
    ).rejects.toThrow("holds 2 aliases");
    const failing = createConversationExecutor(newExecutor(r.telemetry), {
      ...store,
      create: () => store.create(),
      load: (h) => store.load(h),
      delete: (h) => store.delete(h),
      register: () => Promise.reject(new Error("redis down")),
    });
    const other = await failing.start();
    await expect(
      failing.execute(other, "accounts_create", createArgs(1)),
    ).rejects.toThrow("conversation store unavailable");
    const [, full, unregistered] = r.spans();
    expect(full?.attributes).toMatchObject({
      "error.type": "conversation-full",
      "ai_tools.conversation.aliases": 2,
      "ai_tools.aliases.registered": 0,
    });
    expect(unregistered?.attributes).toMatchObject({
      "error.type": "store-unavailable",
      "rpc.response.status_code": "OK",
      "ai_tools.aliases.registered": 0,
      "ai_tools.conversation.aliases": 0,
    });
    await r.collect();
    expect(
      r
        .points("ai_tools.aliases.registered")
        .map((p) => [p.attributes, p.value]),
    ).toEqual([[{ "gen_ai.tool.name": "accounts_create" }, 2]]);
  });
});

/** An MCP server of the aitest tools, forwarding to the gRPC server. */
function mcpServer(
  telemetry: Telemetry,
  namePrefix?: string,
  options: McpToolServerOptions = {},
): McpToolServer {
  const server = createMcpToolServer({ ...options, telemetry });
  server.addTools({
    methods: aitestMcpMethods,
    aliases: aitestAliases,
    transport: grpc.transport,
    namePrefix,
  });
  return server;
}

/** An SDK client of server, connected as over stdio. */
async function connectStdio(server: McpToolServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(server, { transport: serverSide });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** Whether a call of tool ends in an error result. */
async function failed(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
): Promise<boolean> {
  return (await callTool(client, tool, args)).isError === true;
}

/** An SDK client of the MCP server at url, speaking 2026-07-28 (handles). */
async function connectHttp(url: string): Promise<Client> {
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("createOpenTelemetry with an MCP server", () => {
  it("continues the trace of a tools/call's _meta and sends it to the RPC", async () => {
    const r = record();
    const client = await connectStdio(mcpServer(r.telemetry));
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    const result = await callTool(
      client,
      "accounts_create",
      JSON.parse(createArgs(1)) as Record<string, unknown>,
      {
        traceparent: `00-${traceId}-${parentId}-01`,
        tracestate: "vendor=value",
        baggage: "tenant=t1",
      },
    );
    await client.close();
    expect(result.isError).not.toBe(true);
    const [span] = r.spans();
    expect(span?.name).toBe("execute_tool accounts_create");
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parentId);
    expect(span?.attributes["ai_tools.aliases.registered"]).toBe(2);
    const metadata = grpc.metadata.at(-1);
    expect(metadata?.traceparent).toBe(traceparentOf(span!));
    expect(metadata?.tracestate).toBe("vendor=value");
    // A client's baggage is not taken by default.
    expect(metadata).not.toHaveProperty("baggage");
    await r.collect();
    expect(attributeTexts(r).filter((t) => uuidPattern.test(t))).toEqual([]);
  });

  it("takes the client's baggage with metaBaggage", async () => {
    const r = record();
    const telemetry = createOpenTelemetry({
      tracerProvider: trace.getTracerProvider(),
      metaBaggage: true,
    });
    const client = await connectStdio(mcpServer(telemetry));
    await callTool(
      client,
      "accounts_create",
      JSON.parse(createArgs(0)) as Record<string, unknown>,
      {
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        baggage: "tenant=t1",
      },
    );
    await client.close();
    expect(r.spans()).toHaveLength(0);
    expect(grpc.metadata.at(-1)?.baggage).toBe("tenant=t1");
  });

  it("gives the server's refusals a span (rate limit, arguments), an unknown tool none", async () => {
    const r = record();
    const server = mcpServer(r.telemetry, undefined, {
      rateLimit: { callsPerMinute: 1 },
    });
    const client = await connectStdio(server);
    const args = JSON.parse(createArgs(0)) as Record<string, unknown>;
    expect(await failed(client, "accounts_create", args)).toBe(false);
    expect(await failed(client, "accounts_create", args)).toBe(true);
    await expect(callTool(client, "nope", {})).rejects.toThrow("unknown tool");
    await client.close();
    const second = await connectStdio(
      mcpServer(r.telemetry, undefined, { handleArgument: true }),
    );
    expect(
      (
        await callTool(second, "accounts_create", {
          ...args,
          conversation: 7,
        })
      ).isError,
    ).toBe(true);
    await second.close();
    const spans = r.spans();
    expect(spans.map((s) => [s.name, s.attributes["error.type"]])).toEqual([
      ["execute_tool accounts_create", undefined],
      ["execute_tool accounts_create", "too-many-calls"],
      ["execute_tool accounts_create", "invalid-arguments"],
    ]);
    expect(spans[1]?.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(spans[1]?.attributes).not.toHaveProperty("rpc.response.status_code");
    expect(spans[1]?.attributes).not.toHaveProperty(
      "ai_tools.conversation.aliases",
    );
  });
});

describe("createOpenTelemetry with an MCP server, a call that throws", () => {
  it("ends the span once, whatever throws in the call", async () => {
    const r = record();
    const server = createMcpToolServer({
      telemetry: r.telemetry,
      conversationStore: createMemoryConversationStore({ maxAliases: 2 }),
    });
    const set = {
      methods: aitestMcpMethods,
      aliases: aitestAliases,
      transport: grpc.transport,
    };
    server.addTools(set);
    const client = await connectStdio(server);
    const args = JSON.parse(createArgs(1)) as Record<string, unknown>;
    expect(await failed(client, "accounts_create", args)).toBe(false);
    // The connection's conversation holds 2: full, ended where refused.
    expect(await failed(client, "accounts_create", args)).toBe(true);
    await client.close();
    // An unexpected throw after the checks (making the executor).
    Object.defineProperty(set, "transport", {
      get() {
        throw new Error("unexpected");
      },
    });
    const other = await connectStdio(server);
    expect(await failed(other, "accounts_create", args)).toBe(true);
    await other.close();
    expect(r.spans().map((s) => s.attributes["error.type"])).toEqual([
      undefined,
      "conversation-full",
      "_OTHER",
    ]);
    await r.collect();
    // One measurement per call: no span ended twice.
    expect(
      r
        .points("ai_tools.tool_call.duration")
        .map((p) => [p.attributes["error.type"], (p.value as Histogram).count]),
    ).toEqual([
      [undefined, 1],
      ["conversation-full", 1],
      ["_OTHER", 1],
    ]);
  });
});

describe("createOpenTelemetry with an MCP server asking an approval", () => {
  it("ends the round that asked (input_required) without error; the approved retry is its own span", async () => {
    const r = record();
    const server = createMcpToolServer({ telemetry: r.telemetry });
    server.addTools({
      methods: aitestMcpMethods.map((m) =>
        m.tool.name === "accounts_create" ? { ...m, needsApproval: true } : m,
      ),
      aliases: aitestAliases,
      transport: grpc.transport,
    });
    const http = await serveHttp(server);
    const client = new Client(
      { name: "test", version: "1.0.0" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: "auto" }, // 2026-07-28: input_required
      },
    );
    client.setRequestHandler("elicitation/create", () =>
      Promise.resolve({ action: "accept", content: { approve: true } }),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const result = await callTool(
      client,
      "accounts_create",
      JSON.parse(createArgs(0)) as Record<string, unknown>,
    );
    await client.close();
    await http.close();
    expect(result.isError).not.toBe(true);
    expect(
      r
        .spans()
        .map((s) => [
          s.attributes["error.type"],
          s.attributes["rpc.response.status_code"],
          s.status.code,
        ]),
    ).toEqual([
      [undefined, undefined, SpanStatusCode.UNSET],
      [undefined, "OK", SpanStatusCode.UNSET],
    ]);
  });
});

describe("createOpenTelemetry with an MCP server, a prefixed tool set", () => {
  it("names the tool as the client calls it", async () => {
    const r = record();
    const client = await connectStdio(mcpServer(r.telemetry, "east_"));
    const args = JSON.parse(createArgs(0)) as Record<string, unknown>;
    expect(
      (await callTool(client, "east_accounts_create", args)).isError,
    ).not.toBe(true);
    await client.close();
    const [span] = r.spans();
    expect(span?.name).toBe("execute_tool east_accounts_create");
    expect(span?.attributes["gen_ai.tool.name"]).toBe("east_accounts_create");
    await r.collect();
    expect(
      r.points("ai_tools.tool_call.duration").map((p) => p.attributes),
    ).toEqual([
      {
        "gen_ai.tool.name": "east_accounts_create",
        "rpc.method": "aitest.v1.AccountService/CreateAccount",
      },
    ]);
  });
});

describe("createOpenTelemetry with an MCP server over HTTP, conversations by handle", () => {
  it("runs a call of a conversation in the _meta trace without showing the handle", async () => {
    const r = record();
    const http = await serveHttp(mcpServer(r.telemetry));
    const client = await connectHttp(http.url);
    const args = JSON.parse(createArgs(1)) as Record<string, unknown>;
    const first = await callTool(client, "accounts_create", args);
    const handle = String(first._meta?.["ai-tools/conversation"]);
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const parentId = "b7ad6b7169203331";
    const second = await callTool(
      client,
      "accounts_merge",
      {
        source_id: "acct-1",
        target_id: "acct-1",
        note: "",
      },
      {
        "ai-tools/conversation": handle,
        traceparent: `00-${traceId}-${parentId}-01`,
      },
    );
    await client.close();
    await http.close();
    expect(second.isError).not.toBe(true);
    const [create, merge] = r.spans();
    expect(create?.attributes["ai_tools.conversation.aliases"]).toBe(2);
    expect(merge?.spanContext().traceId).toBe(traceId);
    expect(merge?.parentSpanContext?.spanId).toBe(parentId);
    expect(merge?.attributes).toMatchObject({
      "ai_tools.aliases.resolved": 2,
      "ai_tools.conversation.aliases": 2,
    });
    expect(grpc.metadata.at(-1)?.traceparent).toBe(traceparentOf(merge!));
    await r.collect();
    const texts = attributeTexts(r);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(texts.filter((t) => t.includes(handle))).toEqual([]);
    expect(texts.filter((t) => uuidPattern.test(t))).toEqual([]);
  });

  it("a conversation made for a call that failed holds no alias", async () => {
    const r = record();
    const http = await serveHttp(mcpServer(r.telemetry));
    const client = await connectHttp(http.url);
    grpc.failNext(Code.NotFound, "no such owner");
    const result = await callTool(
      client,
      "accounts_create",
      JSON.parse(createArgs(1)) as Record<string, unknown>,
    );
    await client.close();
    await http.close();
    expect(result.isError).toBe(true);
    expect(result._meta?.["ai-tools/conversation"]).toBeUndefined();
    expect(r.spans()[0]?.attributes).toMatchObject({
      "error.type": "server-error",
      "rpc.response.status_code": "NOT_FOUND",
      "ai_tools.conversation.aliases": 0,
    });
  });

  it("names an unknown, expired or not minted handle conversation-expired; audits it invalid_arguments", async () => {
    const r = record();
    const outcomes: string[] = [];
    const http = await serveHttp(
      mcpServer(r.telemetry, undefined, {
        audit: (record) => outcomes.push(record.outcome),
      }),
    );
    const client = await connectHttp(http.url);
    const args = JSON.parse(createArgs(0)) as Record<string, unknown>;
    for (const handle of ["A".repeat(22), "not-minted.tag"]) {
      const result = await callTool(client, "accounts_create", args, {
        "ai-tools/conversation": handle,
      });
      expect(result.isError).toBe(true);
    }
    await client.close();
    await http.close();
    expect(r.spans().map((s) => s.attributes["error.type"])).toEqual([
      "conversation-expired",
      "conversation-expired",
    ]);
    expect(outcomes).toEqual(["invalid_arguments", "invalid_arguments"]);
  });
});
