package mark3labs

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// connect starts mcp-go's in-process client on raw.
func connect(t *testing.T, raw *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(raw)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// jsonValue parses b, failing the test when it is not JSON.
func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestListsTheToolAsGiven(t *testing.T) {
	raw, s := NewServer("adapter", "1.0.0")
	input := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)
	output := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	open := false
	s.AddTool(&gosdk.Tool{
		Name:         "links_get",
		Title:        "Get a link",
		Description:  "Gets one link.",
		InputSchema:  input,
		OutputSchema: output,
		Annotations:  &gosdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &open},
	}, func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) { return nil, nil })

	list, err := connect(t, raw).ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "links_get" {
		t.Fatalf("tools %+v, want the one tool \"links_get\"", list.Tools)
	}
	// The tool as the server writes it on the wire (mcp-go's client parses
	// the output schema into a struct of its own, which adds "required").
	reply := raw.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	wire, err := json.Marshal(reply)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Result struct{ Tools []json.RawMessage }
	}
	if err := json.Unmarshal(wire, &page); err != nil || len(page.Result.Tools) != 1 {
		t.Fatalf("tools/list answered %s (%v)", wire, err)
	}
	got := jsonValue(t, page.Result.Tools[0])
	want := map[string]any{
		"name":         "links_get",
		"title":        "Get a link",
		"description":  "Gets one link.",
		"inputSchema":  jsonValue(t, input),
		"outputSchema": jsonValue(t, []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`)),
		"annotations":  map[string]any{"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("listed\n%s\nwant\n%v", page.Result.Tools[0], want)
	}
}

func TestCallReachesTheHandlerAndItsResultComesBack(t *testing.T) {
	raw, s := NewServer("adapter", "1.0.0")
	var seen *gosdk.CallToolRequest
	s.AddTool(&gosdk.Tool{Name: "links_create", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
			seen = req
			if string(req.Params.Arguments) == `{"fail":true}` {
				return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: "invalid argument: fail"}}, IsError: true}, nil
			}
			return &gosdk.CallToolResult{
				Content:           []gosdk.Content{&gosdk.TextContent{Text: `{"id":"link-1"}`}},
				StructuredContent: json.RawMessage(`{"id":"link-1"}`),
			}, nil
		})
	c := connect(t, raw)
	call := mcp.CallToolRequest{}
	call.Params.Name = "links_create"
	call.Params.Arguments = map[string]any{"url": "https://example.com", "count": 9007199254740993}
	call.Params.Meta = &mcp.Meta{ProgressToken: "p1", AdditionalFields: map[string]any{"ai-tools/conversation": "c-1"}}
	res, err := c.CallTool(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}

	if seen == nil {
		t.Fatal("the handler was not called")
	}
	if seen.Session != nil || seen.Params.Name != "links_create" {
		t.Fatalf("request session %v name %q, want no session and \"links_create\"", seen.Session, seen.Params.Name)
	}
	// The arguments arrive as the JSON the client sent (9007199254740993
	// is no float64: a detour through any would have changed it).
	if !reflect.DeepEqual(jsonValue(t, seen.Params.Arguments), jsonValue(t, []byte(`{"url":"https://example.com","count":9007199254740993}`))) ||
		!strings.Contains(string(seen.Params.Arguments), "9007199254740993") {
		t.Fatalf("arguments %s", seen.Params.Arguments)
	}
	if seen.Params.Meta["ai-tools/conversation"] != "c-1" || seen.Params.Meta["progressToken"] != "p1" {
		t.Fatalf("_meta %v, want the conversation handle and the progress token", seen.Params.Meta)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(mcp.TextContent).Text != `{"id":"link-1"}` {
		t.Fatalf("result %+v", res)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	if !reflect.DeepEqual(jsonValue(t, structured), map[string]any{"id": "link-1"}) {
		t.Fatalf("structuredContent %s, want {\"id\":\"link-1\"}", structured)
	}

	call.Params.Arguments = map[string]any{"fail": true}
	call.Params.Meta = nil
	res, err = c.CallTool(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.Content[0].(mcp.TextContent).Text != "invalid argument: fail" {
		t.Fatalf("result %+v, want isError with the handler's text", res)
	}
	if _, ok := seen.Params.Meta["ai-tools/conversation"]; ok {
		t.Fatalf("_meta %v of a call without a handle", seen.Params.Meta)
	}
}
