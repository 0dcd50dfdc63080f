// The per-call cost of telemetry: one tool call (an alias resolved in the
// arguments, the response's id registered) through createExecutor without
// telemetry, with createOpenTelemetry() on the no-op global providers (no
// SDK), and with createOpenTelemetry() on the SDK (in-memory span exporter,
// a metric reader, the async-hooks context manager and the W3C
// propagators, registered only while its batch runs). The three run
// alternately (which goes first rotates each round); the median of the
// rounds' per-call means, in µs of CPU time (user + system: what the
// process spent, less disturbed by other processes on a busy machine than
// wall time, also shown), and the ratio to no telemetry. Twice: over
// Connect's in-process router transport (the runtime's own cost), and over
// gRPC to an HTTP/2 server on a loopback socket (client and server in this
// process).
// Run after `build` (imports dist/).
import { create, createFileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createRouterTransport } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createGrpcTransport,
} from "@connectrpc/connect-node";
import { context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from "@opentelemetry/core";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { randomUUID } from "node:crypto";
import http2 from "node:http2";
import { createExecutor } from "../dist/index.js";
import { createOpenTelemetry } from "../dist/otel.js";

const string = 9;
const message = 11;
const field = (name, number, type, typeName) => ({
  name,
  number,
  label: 1,
  type,
  typeName,
  jsonName: name,
});
const file = create(FileDescriptorProtoSchema, {
  name: "bench/v1/items.proto",
  package: "bench.v1",
  syntax: "proto3",
  messageType: [
    { name: "Item", field: [field("id", 1, string), field("name", 2, string)] },
    { name: "GetItemRequest", field: [field("id", 1, string)] },
    {
      name: "GetItemResponse",
      field: [field("item", 1, message, ".bench.v1.Item")],
    },
  ],
  service: [
    {
      name: "ItemService",
      method: [
        {
          name: "GetItem",
          inputType: ".bench.v1.GetItemRequest",
          outputType: ".bench.v1.GetItemResponse",
        },
      ],
    },
  ],
});
const service = createFileRegistry(file, () => undefined).getService(
  "bench.v1.ItemService",
);
const routes = (router) =>
  router.service(service, {
    getItem: (req) => ({ item: { id: req.id, name: "item" } }),
  });
const methods = [
  {
    tool: {
      name: "items_get",
      description: "Get an item.",
      strict: false,
      parameters: { type: "object", properties: { id: { type: "string" } } },
    },
    method: service.method.getItem,
  },
];
const aliases = {
  knownAliasPrefixes: ["item"],
  responseAliases: {
    types: {
      "bench.v1.GetItemResponse": [{ field: "item", message: "bench.v1.Item" }],
      "bench.v1.Item": [{ field: "id", prefix: "item" }],
    },
    tools: {
      items_get: {
        message: "bench.v1.GetItemResponse",
        idPrefix: "",
        idField: "",
      },
    },
  },
};

/** The SDK set-up of the in-memory variant. */
class Reader extends MetricReader {
  onShutdown() {
    return Promise.resolve();
  }
  onForceFlush() {
    return Promise.resolve();
  }
}
const exporter = new InMemorySpanExporter();
const reader = new Reader();
const sdk = createOpenTelemetry({
  tracerProvider: new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }),
  meterProvider: new MeterProvider({ readers: [reader] }),
});
const contextManager = new AsyncLocalStorageContextManager();
const propagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});
const sdkOn = () => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(propagator);
};
const sdkOff = () => {
  context.disable();
  propagation.disable();
  contextManager.disable();
  exporter.reset();
};

/** The three executors on transport, each with the item registered. */
async function variants(transport) {
  const made = [
    { name: "no telemetry", telemetry: undefined },
    { name: "no-op global provider", telemetry: createOpenTelemetry() },
    {
      name: "in-memory exporter",
      telemetry: sdk,
      before: sdkOn,
      after: sdkOff,
    },
  ];
  const uuid = randomUUID();
  for (const v of made) {
    v.executor = createExecutor(transport, {
      methods,
      aliases,
      telemetry: v.telemetry,
    });
    v.executor.aliases.register("item", uuid);
    const out = await v.executor.execute("items_get", '{"id":"item-1"}');
    if (!out.includes('"item-1"')) throw new Error(`unexpected result ${out}`);
    v.cpu = [];
    v.wall = [];
  }
  return made;
}

/** Run calls of every variant per round, alternating; print the medians. */
async function measure(label, transport, rounds, calls) {
  const vs = await variants(transport);
  for (let round = -2; round < rounds; round++) {
    for (let k = 0; k < vs.length; k++) {
      const v = vs[(round + 3 + k) % vs.length];
      v.before?.();
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) {
        await v.executor.execute("items_get", '{"id":"item-1"}');
      }
      const wall = Number(process.hrtime.bigint() - start) / 1000;
      const used = process.cpuUsage(cpu);
      v.after?.();
      if (round >= 0) {
        // Two warm-up rounds.
        v.cpu.push((used.user + used.system) / calls);
        v.wall.push(wall / calls);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const base = median(vs[0].cpu);
  const baseWall = median(vs[0].wall);
  console.log(`${label} (${rounds} rounds x ${calls} calls, medians):`);
  for (const v of vs) {
    const m = median(v.cpu);
    const w = median(v.wall);
    console.log(
      `  ${v.name.padEnd(22)} cpu ${m.toFixed(1).padStart(6)} µs/call x${(m / base).toFixed(2)} (${m >= base ? "+" : ""}${(m - base).toFixed(1)} µs)   wall ${w.toFixed(1).padStart(6)} µs x${(w / baseWall).toFixed(2)}`,
    );
  }
}

await measure(
  "telemetry, in-process transport",
  createRouterTransport(routes),
  31,
  300,
);

const server = http2.createServer(connectNodeAdapter({ routes }));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const sessions = new Set();
server.on("session", (s) => sessions.add(s));
await measure(
  "telemetry, gRPC over a loopback socket",
  createGrpcTransport({
    baseUrl: `http://127.0.0.1:${server.address().port}`,
  }),
  21,
  100,
);
for (const s of sessions) s.destroy();
server.close();
