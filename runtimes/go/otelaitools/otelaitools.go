// Package otelaitools observes the tool calls of the files protoc-gen-ai-tools
// writes with OpenTelemetry (docs/production.md, "Telemetry"): a span per
// call, two metrics, and the trace context sent with the RPC. It uses the
// OpenTelemetry API only; the application brings the SDK.
//
//	t := otelaitools.New()
//	exec := linksv1.NewExecutor(conn)
//	exec.Telemetry = t                                     // an executor
//	linksv1.ForwardToLinkServiceClient(server, client, linksv1.WithTelemetry(t)) // an MCP server
//
// The value New returns satisfies the Telemetry interface of every generated
// package: its methods take only standard, grpc and unnamed struct types.
package otelaitools

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	grpccodes "google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// ScopeName is the name of the tracer and of the meter.
const ScopeName = "protoc-gen-ai-tools"

// ToolCallEnd is how a tool call ended: the same type as the ToolCallEnd
// of every generated package (an alias of one unnamed struct type). Its
// fields are frozen: another field would make it another type, and a
// program pairing generated code and otelaitools of different versions
// would no longer compile; what a later version adds goes to a new optional
// method, found by a type assertion as ContextFromMeta.
type ToolCallEnd = struct {
	// Sent is true when the RPC was sent, and Code its status then.
	Sent bool
	Code grpccodes.Code
	// Reason is the ToolError reason of a failed call ("_OTHER" for
	// another error), "" when it succeeded.
	Reason string
	// Resolved is the number of aliases of the arguments turned into ids,
	// Registered the number of aliases the result added.
	Resolved, Registered int
	// ConversationAliases is the number of aliases of the conversation
	// after the call; -1 for a call in no conversation.
	ConversationAliases int
}

// Option configures New.
type Option func(*config)

type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	metaBaggage    bool
}

// WithTracerProvider makes the spans with tp instead of the global tracer
// provider.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tracerProvider = tp }
}

// WithMeterProvider records the metrics with mp instead of the global meter
// provider.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.meterProvider = mp }
}

// WithMetaBaggage makes ContextFromMeta also take the "baggage" of an MCP
// request's _meta, which the RPC then carries to the backend (with the W3C
// baggage propagator). Without it only "traceparent" and "tracestate" are
// taken: baggage is whatever the MCP client wrote, and the backend may
// trust it.
func WithMetaBaggage() Option {
	return func(c *config) { c.metaBaggage = true }
}

// Telemetry is the OpenTelemetry observer of tool calls; set it as an
// executor's Telemetry or pass it to an MCP server's WithTelemetry. It is
// safe for concurrent use.
type Telemetry struct {
	tracer     trace.Tracer
	duration   metric.Float64Histogram
	registered metric.Int64Counter
	metaKeys   []string // the keys ContextFromMeta takes

	mu      sync.RWMutex
	options map[metricKey]metric.MeasurementOption // the attribute sets made so far
	starts  map[[2]string]spanStart                // per tool and method
}

// spanStart is the name and start options of the spans of a tool.
type spanStart struct {
	name string
	opts []trace.SpanStartOption
}

// metricKey names the attribute set of a measurement: the duration's of
// tool, method and reason, or (registered) the counter's of tool.
type metricKey struct {
	tool, method, reason string
	registered           bool
}

// New returns an observer of tool calls on the given providers, the global
// ones by default (otel.GetTracerProvider, otel.GetMeterProvider, as they
// are when New is called: the global no-op ones before the SDK is set up
// delegate to it once it is).
func New(opts ...Option) *Telemetry {
	var c config
	for _, opt := range opts {
		opt(&c)
	}
	if c.tracerProvider == nil {
		c.tracerProvider = otel.GetTracerProvider()
	}
	if c.meterProvider == nil {
		c.meterProvider = otel.GetMeterProvider()
	}
	meter := c.meterProvider.Meter(ScopeName)
	// The errors of the instruments' names are constants' (valid); a
	// failing meter gives no-op instruments with them.
	duration, _ := meter.Float64Histogram("ai_tools.tool_call.duration",
		metric.WithUnit("s"), metric.WithDescription("Duration of tool calls, conversation load and RPC included."))
	registered, _ := meter.Int64Counter("ai_tools.aliases.registered",
		metric.WithUnit("{alias}"), metric.WithDescription("Aliases minted from tool results."))
	metaKeys := []string{"traceparent", "tracestate"}
	if c.metaBaggage {
		metaKeys = append(metaKeys, "baggage")
	}
	return &Telemetry{tracer: c.tracerProvider.Tracer(ScopeName), duration: duration, registered: registered, metaKeys: metaKeys,
		options: map[metricKey]metric.MeasurementOption{}, starts: map[[2]string]spanStart{}}
}

// StartToolCall starts the span "execute_tool <tool>" (kind INTERNAL) and
// returns its context, whose outgoing gRPC metadata carries its trace
// context as the global propagator writes it (nothing with the default
// no-op propagator). end ends the span and records the metrics.
func (t *Telemetry) StartToolCall(ctx context.Context, tool, method string) (context.Context, func(ToolCallEnd)) {
	start := time.Now()
	s := t.spanStart(tool, method)
	ctx, span := t.tracer.Start(ctx, s.name, s.opts...)
	ctx = inject(ctx)
	return ctx, func(end ToolCallEnd) {
		t.end(ctx, span, start, tool, method, end)
	}
}

func (t *Telemetry) end(ctx context.Context, span trace.Span, start time.Time, tool, method string, end ToolCallEnd) {
	if span.IsRecording() {
		attrs := make([]attribute.KeyValue, 0, 5)
		if end.Sent {
			attrs = append(attrs, attribute.String("rpc.response.status_code", codeName(end.Code)))
		}
		if end.Reason != "" {
			attrs = append(attrs, attribute.String("error.type", end.Reason))
			span.SetStatus(codes.Error, "")
		}
		attrs = append(attrs,
			attribute.Int("ai_tools.aliases.resolved", end.Resolved),
			attribute.Int("ai_tools.aliases.registered", end.Registered))
		if end.ConversationAliases >= 0 {
			attrs = append(attrs, attribute.Int("ai_tools.conversation.aliases", end.ConversationAliases))
		}
		span.SetAttributes(attrs...)
	}
	span.End()
	t.duration.Record(ctx, time.Since(start).Seconds(), t.option(metricKey{tool: tool, method: method, reason: end.Reason}))
	if end.Registered > 0 {
		t.registered.Add(ctx, int64(end.Registered), t.option(metricKey{tool: tool, registered: true}))
	}
}

// spanStart is the name and start options of the spans of tool, made once
// per tool and method.
func (t *Telemetry) spanStart(tool, method string) spanStart {
	k := [2]string{tool, method}
	t.mu.RLock()
	s, ok := t.starts[k]
	t.mu.RUnlock()
	if ok {
		return s
	}
	s = spanStart{name: "execute_tool " + tool, opts: []trace.SpanStartOption{
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", tool),
			attribute.String("gen_ai.tool.type", "function"),
			attribute.String("rpc.system.name", "grpc"),
			attribute.String("rpc.method", method),
		),
	}}
	t.mu.Lock()
	t.starts[k] = s
	t.mu.Unlock()
	return s
}

// option is the attribute set of a measurement, made once per key (the
// keys are few: tools, their methods and the reasons of failures).
func (t *Telemetry) option(k metricKey) metric.MeasurementOption {
	t.mu.RLock()
	o, ok := t.options[k]
	t.mu.RUnlock()
	if ok {
		return o
	}
	attrs := []attribute.KeyValue{attribute.String("gen_ai.tool.name", k.tool)}
	if !k.registered {
		attrs = append(attrs, attribute.String("rpc.method", k.method))
		if k.reason != "" {
			attrs = append(attrs, attribute.String("error.type", k.reason))
		}
	}
	o = metric.WithAttributeSet(attribute.NewSet(attrs...))
	t.mu.Lock()
	t.options[k] = o
	t.mu.Unlock()
	return o
}

// ContextFromMeta returns ctx in the trace context of an MCP request's
// _meta ("traceparent", "tracestate", SEP-414; "baggage" too with
// WithMetaBaggage), read by the global propagator; ctx itself when _meta
// carries none.
func (t *Telemetry) ContextFromMeta(ctx context.Context, meta map[string]any) context.Context {
	carrier := propagation.MapCarrier{}
	for _, key := range t.metaKeys {
		if v, ok := meta[key].(string); ok {
			carrier[key] = v
		}
	}
	if len(carrier) == 0 {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, carrier)
}

// inject writes the trace context of ctx into its outgoing gRPC metadata
// with the global propagator, replacing earlier values of the same keys.
func inject(ctx context.Context) context.Context {
	prop := otel.GetTextMapPropagator()
	if len(prop.Fields()) == 0 {
		return ctx // the default no-op propagator
	}
	carrier := propagation.MapCarrier{}
	prop.Inject(ctx, carrier)
	if len(carrier) == 0 {
		return ctx
	}
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	for k, v := range carrier {
		md.Set(k, v)
	}
	return metadata.NewOutgoingContext(ctx, md)
}

// codeName is the name of a gRPC code as OpenTelemetry writes it:
// "NOT_FOUND".
func codeName(c grpccodes.Code) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "UNKNOWN"
}

var codeNames = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
