package gentools_test

// Telemetry against the real linkhub.v1 test server: one otelaitools value
// serves the executors of two generated packages (gentools and edtools
// each declare their own Telemetry interface), and the server records the
// traceparent of the tool call's span in the request's metadata.

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	edtools "example.com/aitools/e2e/edtools"
	"example.com/aitools/e2e/gentools"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/otelaitools"
)

func TestTelemetryOneValueTwoPackages(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	saved := otel.GetTextMapPropagator()
	t.Cleanup(func() { otel.SetTextMapPropagator(saved) })
	otel.SetTextMapPropagator(propagation.TraceContext{})
	spans := tracetest.NewSpanRecorder()
	tel := otelaitools.New(otelaitools.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))

	// The same value in both packages' fields: it compiles only if it
	// satisfies each package's interface.
	ed := edtools.NewExecutor(c)
	ed.Telemetry = tel
	e := gentools.NewExecutor(c)
	e.Telemetry = tel

	ws := newUUID()
	if _, err := e.Execute(ctxT(t), "links_list", `{"workspace_id":"`+ws+`","page_theme_id":null}`); err != nil {
		t.Fatal(err)
	}
	ended := spans.Ended()
	if len(ended) != 1 || ended[0].Name() != "execute_tool links_list" {
		t.Fatalf("spans %v", ended)
	}
	sc := ended[0].SpanContext()
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	var got string
	for _, r := range recorded(t) {
		if r.GetProcedure() == "linkhub.v1.LinkService/ListLinks" {
			got = r.GetMetadata()["traceparent"]
		}
	}
	if got != want {
		t.Errorf("the server received traceparent %q, want %q", got, want)
	}
	for _, kv := range ended[0].Attributes() {
		if strings.Contains(kv.Value.Emit(), ws) {
			t.Errorf("attribute %s holds the workspace id", kv.Key)
		}
	}
}
