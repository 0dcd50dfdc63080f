package gentools_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// uuidRe finds UUIDs (8-4-4-4-12 hex) anywhere in a text.
var uuidRe = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// newUUID is a random version-4 UUID: a workspace id the "user" gives the model.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func control(c grpc.ClientConnInterface) linkhubv1.TestControlServiceClient {
	return linkhubv1.NewTestControlServiceClient(c)
}

// resetServer forgets every entity and recorded request.
func resetServer(t *testing.T) {
	t.Helper()
	if _, err := control(needServer(t)).Reset(ctxT(t), &linkhubv1.ResetRequest{}); err != nil {
		t.Fatalf("Reset: %v", err)
	}
}

// recorded returns what reached the server since the last reset.
func recorded(t *testing.T) []*linkhubv1.RecordedRequest {
	t.Helper()
	resp, err := control(needServer(t)).GetRecorded(ctxT(t), &linkhubv1.GetRecordedRequest{})
	if err != nil {
		t.Fatalf("GetRecorded: %v", err)
	}
	return resp.GetRequests()
}

// requestTypes maps a recorded procedure to its request type.
var requestTypes = map[string]func() proto.Message{
	"linkhub.v1.LinkService/CreateLink":           func() proto.Message { return &linkhubv1.CreateLinkRequest{} },
	"linkhub.v1.LinkService/GetLink":              func() proto.Message { return &linkhubv1.GetLinkRequest{} },
	"linkhub.v1.LinkService/ListLinks":            func() proto.Message { return &linkhubv1.ListLinksRequest{} },
	"linkhub.v1.LinkService/UpdateLink":           func() proto.Message { return &linkhubv1.UpdateLinkRequest{} },
	"linkhub.v1.LinkService/DeleteLink":           func() proto.Message { return &linkhubv1.DeleteLinkRequest{} },
	"linkhub.v1.PageThemeService/CreatePageTheme": func() proto.Message { return &linkhubv1.CreatePageThemeRequest{} },
	"linkhub.v1.PageThemeService/ListPageThemes":  func() proto.Message { return &linkhubv1.ListPageThemesRequest{} },
	"linkhub.v1.PageThemeService/UpdatePageTheme": func() proto.Message { return &linkhubv1.UpdatePageThemeRequest{} },
	"linkhub.v1.WorkflowService/CreateStep":       func() proto.Message { return &linkhubv1.CreateStepRequest{} },
	"linkhub.v1.WorkflowService/ListSteps":        func() proto.Message { return &linkhubv1.ListStepsRequest{} },
	"linkhub.v1.WorkflowService/Ping":             func() proto.Message { return &emptypb.Empty{} },
	"linkhub.v1.SampleService/EchoStrict":         func() proto.Message { return &linkhubv1.Sample{} },
	"linkhub.v1.SampleService/EchoLoose":          func() proto.Message { return &linkhubv1.Sample{} },
}

// decodeRecorded reads a recorded request_json into its request type.
func decodeRecorded(t *testing.T, r *linkhubv1.RecordedRequest) proto.Message {
	t.Helper()
	mk, ok := requestTypes[r.GetProcedure()]
	if !ok {
		t.Fatalf("recorded an unexpected procedure %q", r.GetProcedure())
	}
	msg := mk()
	if err := protojson.Unmarshal([]byte(r.GetRequestJson()), msg); err != nil {
		t.Fatalf("recorded %s request %s does not decode: %v", r.GetProcedure(), r.GetRequestJson(), err)
	}
	return msg
}

// want is one request the server should have recorded.
type want struct {
	procedure string
	request   proto.Message
}

// expectRecorded compares everything recorded since the last reset with
// wants, in order and exactly (proto.Equal).
func expectRecorded(t *testing.T, wants []want) {
	t.Helper()
	expectRecordedFrom(t, 0, wants)
}

// expectRecordedFrom is expectRecorded for the requests after the first from.
func expectRecordedFrom(t *testing.T, from int, wants []want) {
	t.Helper()
	got := recorded(t)
	if len(got) < from {
		t.Fatalf("%d requests recorded, fewer than the %d before", len(got), from)
	}
	got = got[from:]
	for i := 0; i < len(got) || i < len(wants); i++ {
		switch {
		case i >= len(got):
			t.Errorf("request %d: %s %v never reached the server", i, wants[i].procedure, wants[i].request)
		case i >= len(wants):
			t.Errorf("request %d: unexpected %s %s", i, got[i].GetProcedure(), got[i].GetRequestJson())
		case got[i].GetProcedure() != wants[i].procedure:
			t.Errorf("request %d: procedure %s, want %s", i, got[i].GetProcedure(), wants[i].procedure)
		default:
			if msg := decodeRecorded(t, got[i]); !proto.Equal(msg, wants[i].request) {
				t.Errorf("request %d (%s):\n got  %s\n want %s", i, wants[i].procedure, got[i].GetRequestJson(), protojson.Format(wants[i].request))
			}
			if a := aliasRe.FindString(got[i].GetRequestJson()); a != "" {
				t.Errorf("request %d (%s) carries the alias %q: %s", i, wants[i].procedure, a, got[i].GetRequestJson())
			}
		}
	}
}

// aliasRe finds a string value that is exactly an alias of a declared prefix.
var aliasRe = regexp.MustCompile(`"(link|theme|step)-[0-9]+"`)

// model runs tool calls the way the application loop does for a model: the
// arguments are JSON text, and the model only sees the result text.
type model struct {
	t  *testing.T
	e  *gentools.Executor
	ok map[string]bool // UUIDs the model may see raw (its workspace)
}

func newModel(t *testing.T, c grpc.ClientConnInterface, rawOK ...string) *model {
	m := &model{t: t, e: gentools.NewExecutor(c), ok: map[string]bool{}}
	for _, id := range rawOK {
		m.ok[id] = true
	}
	return m
}

// call runs a tool call that must succeed, checks that its result shows no
// UUID but the allowed ones, and returns the result decoded.
func (m *model) call(ctx context.Context, tool, args string) map[string]any {
	m.t.Helper()
	out, err := m.e.Execute(ctx, tool, args)
	if err != nil {
		m.t.Fatalf("%s %s: %v", tool, args, err)
	}
	m.checkNoUUID(tool, out)
	return decodeObject(m.t, out)
}

// checkNoUUID fails when text shows a UUID the model must not see.
func (m *model) checkNoUUID(tool, text string) {
	m.t.Helper()
	for _, id := range uuidRe.FindAllString(text, -1) {
		if !m.ok[id] {
			m.t.Errorf("%s: the model saw the UUID %s: %s", tool, id, text)
		}
	}
}

func decodeObject(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("result is not a JSON object: %v: %s", err, s)
	}
	return v
}

// get walks a decoded JSON value: get(v, "link", "id"), get(v, "links", 2, "id").
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	cur := v
	for _, p := range path {
		switch k := p.(type) {
		case string:
			obj, ok := cur.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q in %v", path, k, v)
			}
			cur = obj[k]
		case int:
			arr, ok := cur.([]any)
			if !ok || k >= len(arr) {
				t.Fatalf("%v: no item %d in %v", path, k, v)
			}
			cur = arr[k]
		}
	}
	return cur
}

func str(t *testing.T, v any, path ...any) string {
	t.Helper()
	s, ok := get(t, v, path...).(string)
	if !ok {
		t.Fatalf("%v: not a string in %v", path, v)
	}
	return s
}

// js writes a Go value as JSON text, the way a model writes arguments.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func durationOf(seconds int64) *durationpb.Duration { return &durationpb.Duration{Seconds: seconds} }

// emptyMessageKeys reports whether err refuses arguments only for keys in
// a message without fields (the shared schema-generated values put some
// in an empty message, whose loose schema does not close it): unknown
// fields, refused before sending (docs/runtime.md, "Argument checks").
func emptyMessageKeys(err error) bool {
	var te *gentools.ToolError
	if !errors.As(err, &te) || te.Reason != "invalid-arguments" || len(te.Violations) == 0 {
		return false
	}
	for _, v := range te.Violations {
		if v.Reason != "unknown-field" || v.Message != "unknown field; no fields are valid here" {
			return false
		}
	}
	return true
}
