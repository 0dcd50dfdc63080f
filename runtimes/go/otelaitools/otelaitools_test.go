package otelaitools

// The adapter on its own, on the SDK's in-memory recorders: the span and
// its attributes per ending, the metrics, the trace context written into
// the outgoing gRPC metadata (and none with the default no-op propagator),
// and the trace context of an MCP request's _meta.

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/baggage"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

func newRecorded(t *testing.T) (*Telemetry, *tracetest.SpanRecorder, *sdkmetric.ManualReader) {
	t.Helper()
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	tel := New(WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	return tel, spans, reader
}

func useW3C(t *testing.T) {
	t.Helper()
	saved := otel.GetTextMapPropagator()
	t.Cleanup(func() { otel.SetTextMapPropagator(saved) })
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
}

func TestSpanOfAFailedCall(t *testing.T) {
	tel, spans, reader := newRecorded(t)
	_, end := tel.StartToolCall(context.Background(), "links_get", "linkhub.v1.LinkService/GetLink")
	end(ToolCallEnd{Sent: true, Code: codes.NotFound, Reason: "server-error", Resolved: 1, ConversationAliases: -1})
	s := spans.Ended()[0]
	if s.Name() != "execute_tool links_get" || s.SpanKind() != trace.SpanKindInternal || s.InstrumentationScope().Name != "protoc-gen-ai-tools" {
		t.Errorf("span %q kind %v scope %q", s.Name(), s.SpanKind(), s.InstrumentationScope().Name)
	}
	got := map[string]string{}
	for _, kv := range s.Attributes() {
		got[string(kv.Key)] = kv.Value.Emit()
	}
	want := map[string]string{
		"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "links_get", "gen_ai.tool.type": "function",
		"rpc.system.name": "grpc", "rpc.method": "linkhub.v1.LinkService/GetLink", "rpc.response.status_code": "NOT_FOUND",
		"error.type": "server-error", "ai_tools.aliases.resolved": "1", "ai_tools.aliases.registered": "0",
	}
	if len(got) != len(want) {
		t.Errorf("attributes %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if st := s.Status(); st.Code != otelcodes.Error || st.Description != "" {
		t.Errorf("status %+v: want Error without a description", st)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	m := rm.ScopeMetrics[0].Metrics
	if len(m) != 1 || m[0].Name != "ai_tools.tool_call.duration" {
		t.Fatalf("metrics %+v: want only the duration (nothing registered)", m)
	}
	p := m[0].Data.(metricdata.Histogram[float64]).DataPoints[0]
	if v, _ := p.Attributes.Value("error.type"); p.Count != 1 || v.AsString() != "server-error" || p.Attributes.Len() != 3 {
		t.Errorf("duration point %v count %d", p.Attributes.ToSlice(), p.Count)
	}
}

func TestRegisteredCounter(t *testing.T) {
	tel, spans, reader := newRecorded(t)
	for range 2 {
		_, end := tel.StartToolCall(context.Background(), "links_list", "linkhub.v1.LinkService/ListLinks")
		end(ToolCallEnd{Sent: true, Code: codes.OK, Registered: 3, ConversationAliases: 6})
	}
	for _, kv := range spans.Ended()[1].Attributes() {
		if kv.Key == "error.type" {
			t.Errorf("a successful call has error.type")
		}
		if kv.Key == "ai_tools.conversation.aliases" && kv.Value.AsInt64() != 6 {
			t.Errorf("conversation aliases %d", kv.Value.AsInt64())
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == "ai_tools.aliases.registered" {
			if p := m.Data.(metricdata.Sum[int64]).DataPoints; len(p) != 1 || p[0].Value != 6 || !m.Data.(metricdata.Sum[int64]).IsMonotonic {
				t.Errorf("registered %+v", p)
			}
			return
		}
	}
	t.Error("no ai_tools.aliases.registered")
}

func TestTraceContextInOutgoingMetadata(t *testing.T) {
	tel, spans, _ := newRecorded(t)
	// The default global propagator writes nothing.
	ctx, end := tel.StartToolCall(context.Background(), "links_get", "linkhub.v1.LinkService/GetLink")
	end(ToolCallEnd{})
	if md, ok := metadata.FromOutgoingContext(ctx); ok {
		t.Errorf("no-op propagator: metadata %v", md)
	}
	useW3C(t)
	parent := metadata.AppendToOutgoingContext(context.Background(), "traceparent", "stale", "x-app", "a")
	ctx, end = tel.StartToolCall(parent, "links_get", "linkhub.v1.LinkService/GetLink")
	end(ToolCallEnd{})
	md, _ := metadata.FromOutgoingContext(ctx)
	sc := spans.Ended()[1].SpanContext()
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	if got := md.Get("traceparent"); len(got) != 1 || got[0] != want || md.Get("x-app")[0] != "a" {
		t.Errorf("metadata %v: want one traceparent %s and x-app kept", md, want)
	}
}

func TestContextFromMeta(t *testing.T) {
	tel, spans, _ := newRecorded(t)
	useW3C(t)
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	ctx := tel.ContextFromMeta(context.Background(), map[string]any{"traceparent": "00-" + traceID + "-" + parentID + "-01", "ai-tools/conversation": "h"})
	_, end := tel.StartToolCall(ctx, "links_get", "linkhub.v1.LinkService/GetLink")
	end(ToolCallEnd{})
	s := spans.Ended()[0]
	if s.Parent().TraceID().String() != traceID || s.Parent().SpanID().String() != parentID || !s.Parent().IsRemote() {
		t.Errorf("parent %+v", s.Parent())
	}
	// Without a trace context, and with a value that is not a string: ctx.
	bg := context.Background()
	if tel.ContextFromMeta(bg, map[string]any{"traceparent": 7}) != bg || tel.ContextFromMeta(bg, nil) != bg {
		t.Error("a _meta without a trace context changed the context")
	}
}

// TestMetaBaggage: the baggage of an MCP request's _meta is the MCP
// client's text, taken only with WithMetaBaggage; the trace context is
// taken either way.
func TestMetaBaggage(t *testing.T) {
	useW3C(t)
	meta := map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "baggage": "tenant=t1"}
	for _, c := range []struct {
		tel  *Telemetry
		want string
	}{{New(), ""}, {New(WithMetaBaggage()), "t1"}} {
		ctx := c.tel.ContextFromMeta(context.Background(), meta)
		if got := baggage.FromContext(ctx).Member("tenant").Value(); got != c.want {
			t.Errorf("metaBaggage %v: baggage tenant %q, want %q", c.tel.metaKeys, got, c.want)
		}
		if !trace.SpanContextFromContext(ctx).IsRemote() {
			t.Errorf("metaBaggage %v: no remote span context", c.tel.metaKeys)
		}
	}
}

// BenchmarkToolCallHook is what the adapter adds to a call, its hook alone
// (StartToolCall and end): on the global no-op providers and no-op
// propagator (no SDK), and on an SDK recording in memory with the W3C
// propagators. BenchmarkTelemetryCall (runtimes/go) has the whole call.
func BenchmarkToolCallHook(b *testing.B) {
	ended := ToolCallEnd{Sent: true, Code: codes.OK, Resolved: 2, Registered: 1, ConversationAliases: 12}
	run := func(b *testing.B, tel *Telemetry) {
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			_, end := tel.StartToolCall(ctx, "links_get", "linkhub.v1.LinkService/GetLink")
			end(ended)
		}
	}
	b.Run("noop", func(b *testing.B) { run(b, New()) })
	b.Run("memory", func(b *testing.B) {
		saved := otel.GetTextMapPropagator()
		defer otel.SetTextMapPropagator(saved)
		otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
		exporter := tracetest.NewInMemoryExporter()
		tel := New(WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))),
			WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))
		run(b, tel)
		b.StopTimer()
		exporter.Reset()
	})
}
