package gentools_test

// Long-running operations (issue 31, CONTRACT31 L): links_export returns a
// google.longrunning.Operation whose name the model reads as an alias
// (operation-1); the GetOperation tool the generator adds takes it back, and
// the server receives the real name. Over the executor and over MCP.

import (
	"strings"
	"testing"

	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
	"google.golang.org/protobuf/proto"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// getOperation is the tool the generator adds for
// google.longrunning.Operations.GetOperation.
const getOperation = "google_longrunning_Operations_GetOperation"

func init() {
	requestTypes["linkhub.v1.ExportService/ExportLinks"] = func() proto.Message { return &linkhubv1.ExportLinksRequest{} }
	requestTypes["google.longrunning.Operations/GetOperation"] = func() proto.Message { return &longrunningpb.GetOperationRequest{} }
}

// exportWants are the requests an export followed once reaches the server.
func exportWants(ws string) []want {
	return []want{
		{"linkhub.v1.ExportService/ExportLinks", &linkhubv1.ExportLinksRequest{WorkspaceId: ws}},
		{"google.longrunning.Operations/GetOperation", &longrunningpb.GetOperationRequest{Name: "workspaces/" + ws + "/operations/1"}},
	}
}

func TestOperationFollowedByAlias(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	m := newModel(t, c, ws)
	createLinks(ctx, m, ws, 2)
	from := len(recorded(t))

	r := m.call(ctx, "links_export", js(map[string]any{"workspace_id": ws}))
	if str(t, r, "name") != "operation-1" || r["done"] == true {
		t.Fatalf("links_export: %v", r)
	}
	r = m.call(ctx, getOperation, js(map[string]any{"name": "operation-1"}))
	if str(t, r, "name") != "operation-1" || r["done"] != true || get(t, r, "response", "link_count") != float64(2) {
		t.Fatalf("%s: %v", getOperation, r)
	}
	expectRecordedFrom(t, from, exportWants(ws))

	// An operation never returned is refused, nothing sent.
	expectRejected(t, m.e, getOperation, `{"name":"operation-2"}`,
		"invalid arguments, nothing was sent:\n- \"name\": unknown alias \"operation-2\"; valid operation aliases: operation-1")
}

func TestMCPOperationFollowedByAlias(t *testing.T) {
	resetServer(t)
	c := stdioClient(t)
	ws := newUUID()
	from := len(recorded(t))
	r := c.ok("links_export", map[string]any{"workspace_id": ws}, nil, ws)
	if r["name"] != "operation-1" {
		t.Fatalf("links_export: %v", r)
	}
	r = c.ok(getOperation, map[string]any{"name": "operation-1"}, nil, ws)
	if r["name"] != "operation-1" || r["done"] != true {
		t.Fatalf("%s: %v", getOperation, r)
	}
	expectRecordedFrom(t, from, exportWants(ws))
}

// TestStoredOperationName: in a conversation kept in Redis, the operation's
// name (not a UUID) is stored under its alias, and another executor of the
// same store, as another process would, follows it.
func TestStoredOperationName(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	store := redisstore.New(redistest.Start(t).Client(nil), redisstore.Options{})
	first, second := gentools.NewConversationExecutor(c, store), gentools.NewConversationExecutor(c, store)
	handle, err := first.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ws := newUUID()
	from := len(recorded(t))
	out, err := first.Execute(ctx, handle, "links_export", js(map[string]any{"workspace_id": ws}))
	if err != nil || !strings.Contains(out, `"name":"operation-1"`) {
		t.Fatalf("links_export: %s %v", out, err)
	}
	out, err = second.Execute(ctx, handle, getOperation, `{"name":"operation-1"}`)
	if err != nil || !strings.Contains(out, `"name":"operation-1"`) || !strings.Contains(out, `"done":true`) {
		t.Fatalf("%s: %s %v", getOperation, out, err)
	}
	expectRecordedFrom(t, from, exportWants(ws))
}
