// @protoc-gen-ai-tools/runtime/otel: the telemetry hook on the OpenTelemetry
// API (docs/production.md, "Telemetry"). The application brings the SDK;
// without one, the global providers are no-ops.
import {
  context,
  metrics,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import type {
  Telemetry,
  ToolCallOutcome,
  ToolCallStart,
  ToolCallTelemetry,
} from "./telemetry.js";

/** Options of {@link createOpenTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where the spans go: the global tracer provider by default. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Where the metrics go: the global meter provider by default. */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Take `baggage` from an MCP request's `_meta` too, and from any
   * `ExecuteOptions.traceContext` (it then reaches the backend through the
   * global propagator). Off by default: a client's baggage is not trusted;
   * only `traceparent` and `tracestate` are read (an application's own
   * baggage travels in its active context: `context.with`).
   */
  readonly metaBaggage?: boolean | undefined;
}

/** The tracer's and the meter's name. */
export const instrumentationName = "protoc-gen-ai-tools";

/**
 * Telemetry of tool calls on the OpenTelemetry API, for the `telemetry`
 * option of the executors and MCP servers. Each call is one INTERNAL span
 * `execute_tool <tool>` (child of the active context, or of an MCP
 * request's `_meta` trace context) with the GenAI and gRPC attributes, no
 * argument value, id or message; the RPC carries the span's context in its
 * headers through the global propagator. Metrics: the histogram
 * `ai_tools.tool_call.duration` (s) and the counter
 * `ai_tools.aliases.registered`.
 */
export function createOpenTelemetry(
  options: OpenTelemetryOptions = {},
): Telemetry {
  const tracer = (
    options.tracerProvider ?? trace.getTracerProvider()
  ).getTracer(instrumentationName);
  const instruments = createInstruments(options.meterProvider);
  const getter = options.metaBaggage === true ? metaGetter : traceGetter;
  return {
    startToolCall: (start) => startSpan(tracer, instruments(), getter, start),
  };
}

interface Instruments {
  readonly duration: Histogram;
  readonly registered: Counter;
}

/**
 * The instruments of the given meter provider, else of the global one as
 * it is at each call (the global meter provider has no proxy: one set
 * after the first call must still be used).
 */
function createInstruments(
  provider: MeterProvider | undefined,
): () => Instruments {
  let made: Instruments | undefined;
  let madeFor: MeterProvider | undefined;
  return () => {
    const p = provider ?? metrics.getMeterProvider();
    if (made === undefined || madeFor !== p) {
      const meter = p.getMeter(instrumentationName);
      made = {
        duration: meter.createHistogram("ai_tools.tool_call.duration", {
          description: "Duration of tool calls.",
          unit: "s",
          advice: { explicitBucketBoundaries: durationBuckets },
        }),
        registered: meter.createCounter("ai_tools.aliases.registered", {
          description: "Aliases minted from tool results.",
          unit: "{alias}",
        }),
      };
      madeFor = p;
    }
    return made;
  };
}

/** The semantic conventions' buckets of durations in seconds. */
const durationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

function startSpan(
  tracer: Tracer,
  instruments: Instruments,
  getter: TextMapGetter<Readonly<Record<string, unknown>>>,
  start: ToolCallStart,
): ToolCallTelemetry {
  const began = performance.now();
  const parent =
    start.traceContext === undefined
      ? context.active()
      : propagation.extract(context.active(), start.traceContext, getter);
  const attributes: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": start.tool,
    "gen_ai.tool.type": "function",
    "rpc.system.name": "grpc",
    "rpc.method": start.method,
  };
  const span = tracer.startSpan(
    `execute_tool ${start.tool}`,
    { kind: SpanKind.INTERNAL, attributes },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  return {
    run: (work) => context.with(ctx, work),
    inject: (headers) => propagation.inject(ctx, headers, headerSetter),
    end(outcome) {
      endSpan(span, outcome);
      if (outcome.aliasesRegistered > 0) {
        instruments.registered.add(outcome.aliasesRegistered, {
          "gen_ai.tool.name": start.tool,
        });
      }
      // A new object: the SDK keeps the one a measurement was given.
      const metric: Attributes = {
        "gen_ai.tool.name": start.tool,
        "rpc.method": start.method,
      };
      if (outcome.errorType !== undefined) {
        metric["error.type"] = outcome.errorType;
      }
      instruments.duration.record((performance.now() - began) / 1000, metric);
    },
  };
}

function endSpan(span: Span, outcome: ToolCallOutcome): void {
  if (span.isRecording()) {
    const attributes: Attributes = {
      "ai_tools.aliases.resolved": outcome.aliasesResolved,
      "ai_tools.aliases.registered": outcome.aliasesRegistered,
    };
    if (outcome.rpcCode !== undefined) {
      attributes["rpc.response.status_code"] =
        grpcCodeNames[outcome.rpcCode] ?? "UNKNOWN";
    }
    if (outcome.conversationAliases !== undefined) {
      attributes["ai_tools.conversation.aliases"] = outcome.conversationAliases;
    }
    if (outcome.errorType !== undefined) {
      attributes["error.type"] = outcome.errorType;
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.setAttributes(attributes);
  }
  span.end();
}

/** The gRPC status code names, by number. */
const grpcCodeNames = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** Reads the string values of an MCP request's `_meta`. */
const metaGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const v = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof v === "string" ? v : undefined;
  },
};

/** Reads `traceparent` and `tracestate` of an MCP request's `_meta`. */
const traceGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => metaGetter.keys(carrier).filter((k) => traceKeys.has(k)),
  get: (carrier, key) =>
    traceKeys.has(key) ? metaGetter.get(carrier, key) : undefined,
};

const traceKeys = new Set(["traceparent", "tracestate"]);

/** Writes into a request's headers. */
const headerSetter: TextMapSetter<Headers> = {
  set: (headers, key, value) => headers.set(key, value),
};
