package aitools

// Telemetry through the executors and the MCP server, observed by the
// OpenTelemetry adapter (otelaitools) on the SDK's in-memory recorders: one
// span per call with the contract's attributes and no argument value, id
// or handle in any of them, the metrics, the trace context received by the
// gRPC server on a real socket, and an MCP request's _meta as the parent.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/otelaitools"
)

// The adapter satisfies the runtime's interface, its optional MCP method
// included.
var (
	_ Telemetry = (*otelaitools.Telemetry)(nil)
	_ interface {
		ContextFromMeta(context.Context, map[string]any) context.Context
	} = (*otelaitools.Telemetry)(nil)
)

// telemetryRig is an adapter on in-memory recorders, with the W3C
// propagators global and the tables' methods of the account tools.
type telemetryRig struct {
	telemetry *otelaitools.Telemetry
	spans     *tracetest.SpanRecorder
	metrics   *sdkmetric.ManualReader
}

func newTelemetryRig(t testing.TB) *telemetryRig {
	t.Helper()
	saved, savedProp := toolMethods, otel.GetTextMapPropagator()
	t.Cleanup(func() { toolMethods = saved; otel.SetTextMapPropagator(savedProp) })
	toolMethods = map[string]string{
		"accounts_list":  "/aitest.v1.AccountService/ListAccounts",
		"accounts_merge": "/aitest.v1.AccountService/MergeAccounts",
		"accounts_watch": "/aitest.v1.AccountService/WatchAccounts",
	}
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	tel := otelaitools.New(
		otelaitools.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		otelaitools.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	return &telemetryRig{telemetry: tel, spans: spans, metrics: reader}
}

// last is the one span ended since the previous call.
func (r *telemetryRig) last(t *testing.T, seen *int) sdktrace.ReadOnlySpan {
	t.Helper()
	ended := r.spans.Ended()
	if len(ended) != *seen+1 {
		t.Fatalf("%d spans ended, want %d", len(ended), *seen+1)
	}
	*seen = len(ended)
	return ended[len(ended)-1]
}

func attrsOf(s sdktrace.ReadOnlySpan) map[string]any {
	m := map[string]any{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

// wantSpan checks a span's name, kind, status and every attribute.
func wantSpan(t *testing.T, s sdktrace.ReadOnlySpan, tool, method string, extra map[string]any) {
	t.Helper()
	want := map[string]any{
		"gen_ai.operation.name": "execute_tool",
		"gen_ai.tool.name":      tool,
		"gen_ai.tool.type":      "function",
		"rpc.system.name":       "grpc",
		"rpc.method":            method,
	}
	for k, v := range extra {
		want[k] = v
	}
	if s.Name() != "execute_tool "+tool || s.SpanKind() != trace.SpanKindInternal {
		t.Errorf("span %q kind %v", s.Name(), s.SpanKind())
	}
	if got := attrsOf(s); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s attributes\n got %v\nwant %v", s.Name(), got, want)
	}
	wantStatus := otelcodes.Unset
	if _, failed := want["error.type"]; failed {
		wantStatus = otelcodes.Error
	}
	if st := s.Status(); st.Code != wantStatus || st.Description != "" {
		t.Errorf("%s status %+v, want %v without a description", s.Name(), st, wantStatus)
	}
}

// noSecrets fails when an attribute of a span holds a UUID or one of texts.
func noSecrets(t *testing.T, spans []sdktrace.ReadOnlySpan, texts ...string) {
	t.Helper()
	for _, s := range spans {
		for _, kv := range s.Attributes() {
			v := kv.Value.Emit()
			if anyUUID.MatchString(v) {
				t.Errorf("%s: attribute %s holds a UUID: %s", s.Name(), kv.Key, v)
			}
			for _, text := range texts {
				if text != "" && strings.Contains(v, text) {
					t.Errorf("%s: attribute %s holds %q", s.Name(), kv.Key, text)
				}
			}
		}
	}
}

const (
	listMethod      = "aitest.v1.AccountService/ListAccounts"
	mergeCallMethod = "aitest.v1.AccountService/MergeAccounts"
)

func TestTelemetryExecutor(t *testing.T) {
	conn, srv := startServer(t)
	rig := newTelemetryRig(t)
	e := NewExecutor(conn)
	e.Telemetry = rig.telemetry
	ctx := context.Background()
	seen := 0

	if _, err := e.Execute(ctx, "accounts_list", `{"count":2,"contacts_per_account":1}`); err != nil {
		t.Fatal(err)
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(4),
	})

	source := e.GetAliasManager().ResolveAlias("acct-1")
	if _, err := e.Execute(ctx, "accounts_merge", `{"source_id":"acct-1","target_id":"acct-2","note":"a secret note"}`); err != nil {
		t.Fatal(err)
	}
	merge := rig.last(t, &seen)
	wantSpan(t, merge, "accounts_merge", mergeCallMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(2), "ai_tools.aliases.registered": int64(0),
	})
	// The server received the span's trace context.
	md := *srv.merged.Load()
	sc := merge.SpanContext()
	if want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"; strings.Join(md.Get("traceparent"), ",") != want {
		t.Errorf("server received traceparent %v, want %s", md.Get("traceparent"), want)
	}

	// Refused before sending: no status code.
	if _, err := e.Execute(ctx, "accounts_list", `{"count":"two"}`); err == nil {
		t.Fatal("bad arguments were accepted")
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"error.type": "invalid-arguments", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
	})
	if _, err := e.Execute(ctx, "accounts_merge", `{"source_id":"acct-99","target_id":"acct-2","note":""}`); err == nil {
		t.Fatal("an unknown alias was accepted")
	}
	wantSpan(t, rig.last(t, &seen), "accounts_merge", mergeCallMethod, map[string]any{
		"error.type": "unknown-alias", "ai_tools.aliases.resolved": int64(1), "ai_tools.aliases.registered": int64(0),
	})

	// The server's error: its code.
	srv.fail.Store(status.New(codes.NotFound, "account "+source+" not found"))
	_, err := e.Execute(ctx, "accounts_list", `{"count":1,"contacts_per_account":0}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "server-error" {
		t.Fatalf("want a server error, got %v", err)
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"rpc.response.status_code": "NOT_FOUND", "error.type": "server-error",
		"ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
	})

	// A stream.
	if _, err := e.Execute(ctx, "accounts_watch", `{"count":3}`); err != nil {
		t.Fatal(err)
	}
	wantSpan(t, rig.last(t, &seen), "accounts_watch", "aitest.v1.AccountService/WatchAccounts", map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(3),
	})

	// A stream the executor cuts (over the result limit): CANCELLED.
	e.MaxResultBytes = 300
	if _, err := e.Execute(ctx, "accounts_watch", `{"count":50}`); err == nil {
		t.Fatal("a stream over the limit was returned")
	}
	if a := attrsOf(rig.last(t, &seen)); a["rpc.response.status_code"] != "CANCELLED" || a["error.type"] != "result-too-large" {
		t.Errorf("a cut stream: %v", a)
	}

	// A tool no table lists is no span.
	if _, err := e.Execute(ctx, "invented_by_the_model", `{}`); err == nil {
		t.Fatal("an unknown tool ran")
	}
	if n := len(rig.spans.Ended()); n != seen {
		t.Errorf("an unknown tool made a span")
	}
	noSecrets(t, rig.spans.Ended(), source, "a secret note", "acct-1")
	wantMetrics(t, rig, map[string]int{listMethod: 3, mergeCallMethod: 2, "aitest.v1.AccountService/WatchAccounts": 2})
}

// wantMetrics checks the duration histogram's counts per method, every
// point with the tool and method (and error.type only when failed), and
// the sum of the registered aliases, the spans' sum.
func wantMetrics(t *testing.T, rig *telemetryRig, calls map[string]int) {
	t.Helper()
	var registered int64
	for _, s := range rig.spans.Ended() {
		registered += attrsOf(s)["ai_tools.aliases.registered"].(int64)
	}
	var rm metricdata.ResourceMetrics
	if err := rig.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	var sum int64
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != "protoc-gen-ai-tools" {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			switch m.Name {
			case "ai_tools.tool_call.duration":
				if m.Unit != "s" {
					t.Errorf("duration unit %q", m.Unit)
				}
				for _, p := range m.Data.(metricdata.Histogram[float64]).DataPoints {
					method, _ := p.Attributes.Value("rpc.method")
					if _, ok := p.Attributes.Value("gen_ai.tool.name"); !ok {
						t.Errorf("duration point without the tool: %v", p.Attributes)
					}
					if p.Attributes.Len() > 3 {
						t.Errorf("duration point attributes %v", p.Attributes.ToSlice())
					}
					got[method.AsString()] += int(p.Count)
				}
			case "ai_tools.aliases.registered":
				if m.Unit != "{alias}" {
					t.Errorf("registered unit %q", m.Unit)
				}
				for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
					if p.Attributes.Len() != 1 || !p.Attributes.HasValue("gen_ai.tool.name") {
						t.Errorf("registered point attributes %v", p.Attributes.ToSlice())
					}
					sum += p.Value
				}
			default:
				t.Errorf("unexpected metric %s", m.Name)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(calls) || sum != registered {
		t.Errorf("calls per method %v (want %v), registered %d (want %d)", got, calls, sum, registered)
	}
}

func TestTelemetryConversationExecutor(t *testing.T) {
	conn, _ := startServer(t)
	rig := newTelemetryRig(t)
	c := NewConversationExecutor(conn, NewMemoryConversationStore(0))
	c.Telemetry = rig.telemetry
	ctx := context.Background()
	handle, err := c.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	if _, err := c.Execute(ctx, handle, "accounts_list", `{"count":2,"contacts_per_account":0}`); err != nil {
		t.Fatal(err)
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(2),
		"ai_tools.conversation.aliases": int64(2),
	})
	if _, err := c.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-1","target_id":"acct-2","note":""}`); err != nil {
		t.Fatal(err)
	}
	wantSpan(t, rig.last(t, &seen), "accounts_merge", mergeCallMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(2), "ai_tools.aliases.registered": int64(0),
		"ai_tools.conversation.aliases": int64(2),
	})
	// A failure of the store, before anything is read or sent.
	if _, err := c.Execute(ctx, "gone-"+handle, "accounts_list", `{"count":1}`); err == nil {
		t.Fatal("an unknown conversation ran")
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"error.type": "conversation-expired", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
	})
	// A full conversation: refused after its load, nothing sent.
	full := NewConversationExecutor(conn, NewMemoryConversationStore(0, WithMaxAliases(2)))
	full.Telemetry = rig.telemetry
	small, err := full.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err = full.Execute(ctx, small, "accounts_list", `{"count":2,"contacts_per_account":0}`)
	}
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "conversation-full" {
		t.Fatalf("want conversation-full, got %v", err)
	}
	seen++
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"error.type": "conversation-full", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
		"ai_tools.conversation.aliases": int64(2),
	})
	noSecrets(t, rig.spans.Ended(), handle, small)
}

func TestTelemetryMCPMetaParent(t *testing.T) {
	conn, srv := startServer(t)
	rig := newTelemetryRig(t)
	tools := accountTools(aitestv1.NewAccountServiceClient(conn))
	for i := range tools {
		tools[i].Method = toolMethods[tools[i].tool.Name]
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, []MCPOption{WithTelemetry(rig.telemetry)}, tools)
	cs := connectInMemory(t, server)
	seen := 0

	wantSuccess(t, callTool(t, cs, "accounts_list", map[string]any{"count": 2, "contacts_per_account": 0}, nil))
	list := rig.last(t, &seen)
	if list.Parent().IsValid() {
		t.Errorf("a call without _meta has parent %v", list.Parent())
	}
	wantSpan(t, list, "accounts_list", listMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(2),
		"ai_tools.conversation.aliases": int64(2),
	})

	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	meta := mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01", "baggage": "tenant=t1"}
	wantSuccess(t, callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-2", "note": ""}, meta))
	merge := rig.last(t, &seen)
	if merge.SpanContext().TraceID().String() != traceID || merge.Parent().SpanID().String() != parentID || !merge.Parent().IsRemote() {
		t.Errorf("span %v parent %v: want the _meta trace context as its parent", merge.SpanContext(), merge.Parent())
	}
	wantSpan(t, merge, "accounts_merge", mergeCallMethod, map[string]any{
		"rpc.response.status_code": "OK", "ai_tools.aliases.resolved": int64(2), "ai_tools.aliases.registered": int64(0),
		"ai_tools.conversation.aliases": int64(2),
	})
	md := *srv.merged.Load()
	if want := "00-" + traceID + "-" + merge.SpanContext().SpanID().String() + "-01"; strings.Join(md.Get("traceparent"), ",") != want {
		t.Errorf("server received traceparent %v, want %s", md.Get("traceparent"), want)
	}
	// The MCP client's baggage is not taken without WithMetaBaggage.
	if got := md.Get("baggage"); len(got) != 0 {
		t.Errorf("server received the _meta's baggage %q by default", got)
	}

	// Refused by the executor: acct-2 resolved, acct-77 unknown.
	res := callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-77", "target_id": "acct-2", "note": ""}, nil)
	if !res.IsError {
		t.Fatal("an unknown alias was accepted")
	}
	wantSpan(t, rig.last(t, &seen), "accounts_merge", mergeCallMethod, map[string]any{
		"error.type": "unknown-alias", "ai_tools.aliases.resolved": int64(1), "ai_tools.aliases.registered": int64(0),
		"ai_tools.conversation.aliases": int64(2),
	})
	noSecrets(t, rig.spans.Ended())
}

// mcpClientOf is a client of an MCP server of the account tools, their
// methods set, made with opts.
func mcpClientOf(t *testing.T, conn grpc.ClientConnInterface, opts ...MCPOption) *mcp.ClientSession {
	t.Helper()
	tools := accountTools(aitestv1.NewAccountServiceClient(conn))
	for i := range tools {
		tools[i].Method = toolMethods[tools[i].tool.Name]
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "aitest", Version: "1.0.0"}, nil)
	addMCPTools(server, opts, tools)
	return connectInMemory(t, server)
}

// TestTelemetryMCPMetaBaggage: with otelaitools.WithMetaBaggage the
// baggage of a request's _meta reaches the gRPC server.
func TestTelemetryMCPMetaBaggage(t *testing.T) {
	conn, srv := startServer(t)
	newTelemetryRig(t) // the W3C propagators and the tables' methods
	cs := mcpClientOf(t, conn, WithTelemetry(otelaitools.New(otelaitools.WithMetaBaggage())))
	wantSuccess(t, callTool(t, cs, "accounts_list", map[string]any{"count": 2, "contacts_per_account": 0}, nil))
	meta := mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "baggage": "tenant=t1"}
	wantSuccess(t, callTool(t, cs, "accounts_merge", map[string]any{"source_id": "acct-1", "target_id": "acct-2", "note": ""}, meta))
	if got := strings.Join(srv.merged.Load().Get("baggage"), ","); got != "tenant=t1" {
		t.Errorf("server received baggage %q, want tenant=t1", got)
	}
}

// TestTelemetryMCPRefusalReasons: a call refused because its conversation
// is full reports the conversation's size, as the ConversationExecutor
// does (its table was loaded); backend credentials that cannot be obtained
// are error.type "unavailable", as in TypeScript and Python. Nothing sent.
func TestTelemetryMCPRefusalReasons(t *testing.T) {
	conn, srv := startServer(t)
	rig := newTelemetryRig(t)
	sealed := ForwardIdentity{BackendCredentials: func(context.Context, *Identity) (map[string]string, error) {
		return nil, errors.New("the vault is sealed")
	}}
	list := map[string]any{"count": 2, "contacts_per_account": 0}
	for _, c := range []struct {
		option    MCPOption
		calls     int // before the refused one
		reason    string
		conversed int64
	}{
		{WithConversationStore(NewMemoryConversationStore(0, WithMaxAliases(2))), 1, "conversation-full", 2},
		{WithForwardIdentity(sealed), 0, "unavailable", 0},
	} {
		cs := mcpClientOf(t, conn, WithTelemetry(rig.telemetry), c.option)
		for range c.calls {
			wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
		}
		seen, sent := len(rig.spans.Ended()), srv.calls.Load()
		if res := callTool(t, cs, "accounts_list", list, nil); !res.IsError || srv.calls.Load() != sent {
			t.Fatalf("%s: the call ran", c.reason)
		}
		wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
			"error.type": c.reason, "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
			"ai_tools.conversation.aliases": c.conversed,
		})
	}
}

// TestTelemetryEndOnce: an end that panics is called once, and its panic
// goes on to the caller.
func TestTelemetryEndOnce(t *testing.T) {
	conn, _ := startServer(t)
	newTelemetryRig(t)
	e := NewExecutor(conn)
	ends := 0
	e.Telemetry = panickingTelemetry{&ends}
	func() {
		defer func() {
			if r := recover(); r != "end" {
				t.Errorf("recovered %v, want the end's panic", r)
			}
		}()
		_, _ = e.Execute(context.Background(), "accounts_list", `{"count":1,"contacts_per_account":0}`)
	}()
	if ends != 1 {
		t.Errorf("end called %d times, want once", ends)
	}
}

// panickingTelemetry is a Telemetry whose end panics, counting its calls.
type panickingTelemetry struct{ ends *int }

func (p panickingTelemetry) StartToolCall(ctx context.Context, _, _ string) (context.Context, func(ToolCallEnd)) {
	return ctx, func(ToolCallEnd) { *p.ends++; panic("end") }
}

// TestTelemetryMCPRefusal: a call the server refuses before the executor
// runs (its rate) is a span with its reason, nothing sent.
func TestTelemetryMCPRefusal(t *testing.T) {
	conn, _ := startServer(t)
	rig := newTelemetryRig(t)
	cs := mcpClientOf(t, conn, WithTelemetry(rig.telemetry), WithRateLimit(1))
	seen := 0
	wantSuccess(t, callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil))
	rig.last(t, &seen)
	if res := callTool(t, cs, "accounts_list", map[string]any{"count": 1, "contacts_per_account": 0}, nil); !res.IsError {
		t.Fatal("a call over the rate ran")
	}
	wantSpan(t, rig.last(t, &seen), "accounts_list", listMethod, map[string]any{
		"error.type": "too-many-calls", "ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0),
	})
}

// BenchmarkTelemetryCall is the cost of a tool call (accounts_list over a
// real socket) without Telemetry, with the adapter on the global no-op
// providers (no SDK, the default no-op propagator), and with it on an SDK
// with in-memory span and metric recording (W3C propagators), alternating
// blocks of calls so that the three share the machine's drift, in each of
// the six orders in turn (the garbage a block leaves is collected in the
// next one, whichever it is). It reports ns per call of each and the
// ratios to the call without Telemetry.
func BenchmarkTelemetryCall(b *testing.B) {
	conn, _ := startServer(b)
	newTelemetryRig(b) // the tables' methods and the W3C propagators
	w3c, noProp := otel.GetTextMapPropagator(), propagation.NewCompositeTextMapPropagator()
	exporter := tracetest.NewInMemoryExporter()
	memory := otelaitools.New(
		otelaitools.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))),
		otelaitools.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))
	variants := []struct {
		name      string
		telemetry Telemetry
		prop      propagation.TextMapPropagator
	}{
		{"none", nil, noProp},
		{"noop", otelaitools.New(), noProp},
		{"memory", memory, w3c},
	}
	executors := make([]*Executor, len(variants))
	for i, v := range variants {
		executors[i] = NewExecutor(conn)
		executors[i].Telemetry = v.telemetry
	}
	var spent [3]time.Duration
	var calls [3]int
	const block = 20
	ctx := context.Background()
	b.ResetTimer()
	orders := [6][3]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}
	for i := 0; i < b.N; {
		k := i / block
		v := orders[k/3%6][k%3]
		otel.SetTextMapPropagator(variants[v].prop)
		n := min(block, b.N-i)
		start := time.Now()
		for range n {
			if _, err := executors[v].Execute(ctx, "accounts_list", `{"count":1,"contacts_per_account":1}`); err != nil {
				b.Fatal(err)
			}
		}
		spent[v] += time.Since(start)
		calls[v] += n
		i += n
		if v == 2 {
			b.StopTimer()
			exporter.Reset()
			b.StartTimer()
		}
	}
	b.StopTimer()
	if calls[2] == 0 {
		return // b.N too small to reach every variant
	}
	per := func(v int) float64 { return float64(spent[v].Nanoseconds()) / float64(calls[v]) }
	for v := range variants {
		b.ReportMetric(per(v), "ns/call-"+variants[v].name)
	}
	b.ReportMetric(per(1)/per(0), "x-noop")
	b.ReportMetric(per(2)/per(0), "x-memory")
}

// TestTelemetryPanic: a call that panics (here its approval hook) ends its
// span with error.type _OTHER, and the panic goes on.
func TestTelemetryPanic(t *testing.T) {
	conn, _ := startServer(t)
	rig := newTelemetryRig(t)
	saved := toolNeedsApproval
	t.Cleanup(func() { toolNeedsApproval = saved })
	toolNeedsApproval = map[string]bool{"accounts_merge": true}
	e := NewExecutor(conn)
	e.Telemetry = rig.telemetry
	e.Approve = func(context.Context, ApprovalRequest) (bool, error) { panic("hook") }
	e.GetAliasManager().Register("acct", testUUID(1))
	e.GetAliasManager().Register("acct", testUUID(2))
	func() {
		defer func() {
			if r := recover(); r != "hook" {
				t.Errorf("recovered %v, want the hook's panic", r)
			}
		}()
		_, _ = e.Execute(context.Background(), "accounts_merge", `{"source_id":"acct-1","target_id":"acct-2","note":""}`)
	}()
	seen := 0
	if a := attrsOf(rig.last(t, &seen)); a["error.type"] != "_OTHER" || a["rpc.response.status_code"] != nil {
		t.Errorf("a panicking call: %v", a)
	}
}
