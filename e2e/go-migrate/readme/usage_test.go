package readme

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/gosdk"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mcptest"

	"example.com/aitools/gomigrate/gen/testdata"
	"example.com/aitools/gomigrate/gen/testdata/testdataconnect"
	testdatamcp "example.com/aitools/gomigrate/testdatamcp"
)

// serveEnv makes the test binary, started again with it, serve the README's
// stdio server of that library instead of running the tests.
const serveEnv = "GOMIGRATE_SERVE"

func TestMain(m *testing.M) {
	switch os.Getenv(serveEnv) {
	case "":
		os.Exit(m.Run())
	case "gosdk":
		if err := GoSDKStdio(context.Background(), NewTestServer(&Calls{})); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	case "mark3labs":
		if err := Mark3labsStdio(NewTestServer(&Calls{})); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	}
	os.Exit(0)
}

// testServiceNames are protoc-gen-go-mcp's names of TestService's tools.
func testServiceNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, n := range upstreamNames(t) {
		if strings.HasPrefix(n, "testdata_TestService_") {
			names = append(names, n)
		}
	}
	if len(names) != 4 {
		t.Fatalf("%d TestService names in the upstream list, want 4", len(names))
	}
	return names
}

// connectSDK connects the official SDK's client to server in memory.
func connectSDK(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return mcptest.ConnectInMemory(t, server)
}

// listSDK lists the tools of cs by name.
func listSDK(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// callSDK calls a tool and returns its one text block and isError.
func callSDK(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// parsed is the JSON value of s.
func parsed(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// createItem is a CreateItem call in our shape (the strict form: every
// property present, the optional ones null, the map as key/value pairs), its
// oneof's field set directly, "product", where protoc-gen-go-mcp's shape is
// {"item_type": {"which": "product", "product": {...}}}.
var createItem = map[string]any{
	"name": "lamp", "description": nil, "labels": []any{map[string]any{"key": "room", "value": "hall"}},
	"tags": []any{}, "thumbnail": "", "product": map[string]any{"price": 2.5, "quantity": 3}, "service": nil,
}

// wantCreateItem is the request createItem must make.
var wantCreateItem = &testdata.CreateItemRequest{
	Name:     "lamp",
	Labels:   map[string]string{"room": "hall"},
	ItemType: &testdata.CreateItemRequest_Product{Product: &testdata.ProductDetails{Price: 2.5, Quantity: 3}},
}

func lastRequest(t *testing.T, calls *Calls) proto.Message {
	t.Helper()
	reqs := calls.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the server")
	}
	return reqs[len(reqs)-1]
}

func TestGoSDKServerListsAndCalls(t *testing.T) {
	calls := &Calls{}
	cs := connectSDK(t, GoSDKServer(NewTestServer(calls)))
	if got, want := sortedKeys(listSDK(t, cs)), testServiceNames(t); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	text, isError := callSDK(t, cs, "testdata_TestService_CreateItem", createItem)
	if isError || !reflect.DeepEqual(parsed(t, text), map[string]any{"id": "item-lamp"}) {
		t.Fatalf("CreateItem: %q (isError %v)", text, isError)
	}
	if got := lastRequest(t, calls); !proto.Equal(got, wantCreateItem) {
		t.Fatalf("request %v, want %v", got, wantCreateItem)
	}
	// protoc-gen-go-mcp's oneof shape is refused with a text for the model,
	// and nothing is sent.
	before := len(calls.Requests())
	text, isError = callSDK(t, cs, "testdata_TestService_CreateItem",
		map[string]any{
			"name": "lamp", "description": nil, "labels": []any{}, "tags": []any{}, "thumbnail": "",
			"item_type": map[string]any{"which": "product", "product": map[string]any{"price": 2.5, "quantity": 3}},
		})
	if !isError || len(calls.Requests()) != before {
		t.Fatalf("their oneof shape: %q (isError %v), %d requests sent", text, isError, len(calls.Requests())-before)
	}
	t.Logf("their oneof shape answers: %s", text)
}

func TestGoSDKStdioProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=gosdk")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got, want := sortedKeys(listSDK(t, cs)), testServiceNames(t); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	text, isError := callSDK(t, cs, "testdata_TestService_GetItem", map[string]any{"id": "i-1"})
	item, _ := parsed(t, text).(map[string]any)["item"].(map[string]any)
	if isError || item["id"] != "i-1" || item["name"] != "first" {
		t.Fatalf("GetItem: %q (isError %v)", text, isError)
	}
}

// startMark3labs initializes an mcp-go client.
func startMark3labs(t *testing.T, c *mcpclient.Client) {
	t.Helper()
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
}

// listAndCallMark3labs lists c's tools (TestService's names) and calls
// CreateItem, which reaches calls when it is not nil.
func listAndCallMark3labs(t *testing.T, c *mcpclient.Client, calls *Calls) {
	t.Helper()
	ctx := context.Background()
	list, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := testServiceNames(t); !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "testdata_TestService_CreateItem"
	req.Params.Arguments = createItem
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(mcpgo.TextContent).Text
	if res.IsError || !reflect.DeepEqual(parsed(t, text), map[string]any{"id": "item-lamp"}) {
		t.Fatalf("CreateItem: %q (isError %v)", text, res.IsError)
	}
	if calls != nil {
		if got := lastRequest(t, calls); !proto.Equal(got, wantCreateItem) {
			t.Fatalf("request %v, want %v", got, wantCreateItem)
		}
	}
}

func TestMark3labsServerListsAndCalls(t *testing.T) {
	calls := &Calls{}
	c, err := mcpclient.NewInProcessClient(Mark3labsServer(NewTestServer(calls)))
	if err != nil {
		t.Fatal(err)
	}
	startMark3labs(t, c)
	listAndCallMark3labs(t, c, calls)
}

func TestMark3labsStdioProcess(t *testing.T) {
	c, err := mcpclient.NewStdioMCPClient(os.Args[0], []string{serveEnv + "=mark3labs"}, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	startMark3labs(t, c)
	listAndCallMark3labs(t, c, nil)
}

func TestProviderSelection(t *testing.T) {
	openAI, err := testdatamcp.OpenAIResponsesTools([]testdatamcp.AgentTool{testdatamcp.TestdataTestServiceCreateItem})
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]json.RawMessage{
		"WithProvider(LLMProviderOpenAI)": openAI[0].Parameters,
		"OpenAI":                          openAI[0].Parameters,
		"Standard":                        testdatamcp.TestdataTestServiceCreateItem.Parameters,
	}
	for name, register := range map[string]func(testdatamcp.MCPServer, testServer){
		"WithProvider(LLMProviderOpenAI)": WithProvider,
		"OpenAI":                          OpenAI,
		"Standard":                        Standard,
	} {
		raw, s := gosdk.NewServer("my-server", "1.0.0")
		calls := &Calls{}
		register(s, NewTestServer(calls))
		cs := connectSDK(t, raw)
		tool := listSDK(t, cs)["testdata_TestService_CreateItem"]
		got, _ := json.Marshal(tool.InputSchema)
		if !reflect.DeepEqual(parsed(t, string(got)), parsed(t, string(forms[name]))) {
			t.Fatalf("%s: input schema\n%s\nwant the generated form\n%s", name, got, forms[name])
		}
		text, isError := callSDK(t, cs, "testdata_TestService_CreateItem", createItem)
		if isError {
			t.Fatalf("%s: CreateItem: %s", name, text)
		}
		if got := lastRequest(t, calls); !proto.Equal(got, wantCreateItem) {
			t.Fatalf("%s: request %v, want %v", name, got, wantCreateItem)
		}
	}
}

// edgeCases serves nothing: EdgeCaseService's tools are only listed.
type edgeCases struct {
	testdata.UnimplementedEdgeCaseServiceServer
}

// On TestService the OpenAI form is the default one (every tool is strict
// already); on EdgeCaseService RecursiveTree's differs (recursion), so
// there the provider chosen shows.
func TestProviderSelectionServesTheGeneratedForm(t *testing.T) {
	all := testdatamcp.AllTools()
	openAI, err := testdatamcp.OpenAIResponsesTools(all)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(a testdatamcp.AgentTool) bool { return a.Name == "testdata_EdgeCaseService_RecursiveTree" })
	form, standard := openAI[i].Parameters, all[i].Parameters
	if reflect.DeepEqual(parsed(t, string(form)), parsed(t, string(standard))) {
		t.Fatal("RecursiveTree's OpenAI form is its default one: the test would show nothing")
	}
	for provider, want := range map[testdatamcp.LLMProvider]json.RawMessage{testdatamcp.LLMProviderOpenAI: form, testdatamcp.LLMProviderStandard: standard} {
		raw, s := gosdk.NewServer("my-server", "1.0.0")
		testdatamcp.RegisterEdgeCaseServiceHandlerWithProvider(s, &edgeCases{}, provider)
		got, _ := json.Marshal(listSDK(t, connectSDK(t, raw))["testdata_EdgeCaseService_RecursiveTree"].InputSchema)
		if !reflect.DeepEqual(parsed(t, string(got)), parsed(t, string(want))) {
			t.Fatalf("provider %q: input schema\n%s\nwant\n%s", provider, got, want)
		}
	}
}

// startGRPC serves a testServer on a real socket of 127.0.0.1.
func startGRPC(t *testing.T, calls *Calls) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	impl := NewTestServer(calls)
	testdata.RegisterTestServiceServer(srv, &grpcServer{srv: &impl})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func TestForwardToClients(t *testing.T) {
	calls := &Calls{}
	addr := startGRPC(t, calls)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// connect-go over gRPC on HTTP/2 without TLS, to the same server.
	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	httpClient := &http.Client{Transport: &http.Transport{Protocols: protocols}}
	connectClient := testdataconnect.NewTestServiceClient(httpClient, "http://"+addr, connect.WithGRPC())

	results := map[string]string{}
	for name, forward := range map[string]func(testdatamcp.MCPServer){
		"ForwardToTestServiceClient":        func(s testdatamcp.MCPServer) { Forward(s, testdata.NewTestServiceClient(conn)) },
		"ForwardToConnectTestServiceClient": func(s testdatamcp.MCPServer) { ForwardConnect(s, connectClient) },
	} {
		raw, s := gosdk.NewServer("my-server", "1.0.0")
		forward(s)
		cs := connectSDK(t, raw)
		if got, want := sortedKeys(listSDK(t, cs)), testServiceNames(t); !slices.Equal(got, want) {
			t.Fatalf("%s: tools %v, want %v", name, got, want)
		}
		before := len(calls.Requests())
		text, isError := callSDK(t, cs, "testdata_TestService_CreateItem", createItem)
		if isError || len(calls.Requests()) != before+1 || !proto.Equal(lastRequest(t, calls), wantCreateItem) {
			t.Fatalf("%s: CreateItem %q (isError %v), requests %v", name, text, isError, calls.Requests()[before:])
		}
		// An RPC the server does not implement: the same text both ways.
		results[name], isError = callSDK(t, cs, "testdata_TestService_ProcessWellKnownTypes",
			map[string]any{"metadata": []any{}, "config": "1", "timestamp": "2026-01-01T00:00:00Z"})
		if !isError || !strings.Contains(results[name], "Unimplemented") {
			t.Fatalf("%s: ProcessWellKnownTypes (not implemented): %q (isError %v)", name, results[name], isError)
		}
	}
	t.Logf("UNIMPLEMENTED answers: %s", results["ForwardToTestServiceClient"])
	if results["ForwardToTestServiceClient"] != results["ForwardToConnectTestServiceClient"] {
		t.Fatalf("an UNIMPLEMENTED error differs: gRPC %q, connect %q", results["ForwardToTestServiceClient"], results["ForwardToConnectTestServiceClient"])
	}
}

func TestExtraProperties(t *testing.T) {
	calls := &Calls{}
	raw, s := gosdk.NewServer("my-server", "1.0.0")
	ExtraProperties(s, NewTestServer(calls), nil)
	cs := connectSDK(t, raw)
	schema, _ := json.Marshal(listSDK(t, cs)["testdata_TestService_GetItem"].InputSchema)
	var input struct {
		Properties map[string]struct{ Description string }
		Required   []string
	}
	if err := json.Unmarshal(schema, &input); err != nil {
		t.Fatal(err)
	}
	if input.Properties["base_url"].Description != "Base URL for the API" || !slices.Contains(input.Required, "base_url") {
		t.Fatalf("input schema without the required base_url: %s", schema)
	}
	text, isError := callSDK(t, cs, "testdata_TestService_GetItem", map[string]any{"id": "i-1", "base_url": "https://eu.example.com"})
	if isError {
		t.Fatalf("GetItem: %s", text)
	}
	if got := calls.BaseURLs(); len(got) != 1 || got[0] != "https://eu.example.com" {
		t.Fatalf("ctx.Value(MyURLOverrideKey{}) in the server: %v, want the argument's value", got)
	}
	if got := lastRequest(t, calls); !proto.Equal(got, &testdata.GetItemRequest{Id: "i-1"}) {
		t.Fatalf("request %v: base_url reached it", got)
	}
	if text, isError = callSDK(t, cs, "testdata_TestService_GetItem", map[string]any{"id": "i-1"}); !isError || len(calls.Requests()) != 1 {
		t.Fatalf("without the required base_url: %q (isError %v)", text, isError)
	}

	// Both lines of the block on one server: registration and forward share
	// the option.
	addr := startGRPC(t, &Calls{})
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	raw, s = gosdk.NewServer("my-server", "1.0.0")
	ExtraProperties(s, NewTestServer(&Calls{}), testdata.NewTestServiceClient(conn))
	if got := len(listSDK(t, connectSDK(t, raw))); got != 4 {
		t.Fatalf("%d tools, want 4", got)
	}
}

func TestNamePrefix(t *testing.T) {
	postgres, clickhouse := &Calls{}, &Calls{}
	raw, s := gosdk.NewServer("my-server", "1.0.0")
	NamePrefix(s, NewTestServer(postgres), NewTestServer(clickhouse))
	cs := connectSDK(t, raw)
	var want []string
	for _, prefix := range []string{"clickhouse", "postgres"} {
		for _, n := range testServiceNames(t) {
			want = append(want, prefix+"_"+n)
		}
	}
	if got := sortedKeys(listSDK(t, cs)); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	callSDK(t, cs, "postgres_testdata_TestService_GetItem", map[string]any{"id": "p"})
	callSDK(t, cs, "clickhouse_testdata_TestService_GetItem", map[string]any{"id": "c"})
	if !proto.Equal(lastRequest(t, postgres), &testdata.GetItemRequest{Id: "p"}) || len(postgres.Requests()) != 1 ||
		!proto.Equal(lastRequest(t, clickhouse), &testdata.GetItemRequest{Id: "c"}) || len(clickhouse.Requests()) != 1 {
		t.Fatalf("postgres got %v, clickhouse got %v", postgres.Requests(), clickhouse.Requests())
	}
}

// TestMigrationSection: the README's mark3labs streamable HTTP handler,
// served on a real socket, lists and calls the generated tools for
// mcp-go's streamable HTTP client; the go-sdk server it makes is one.
func TestMigrationSection(t *testing.T) {
	_, rawSDK, handler := Migration()
	if rawSDK == nil {
		t.Fatal("Migration returned no go-sdk server")
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	c, err := mcpclient.NewStreamableHttpClient(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	startMark3labs(t, c)
	listAndCallMark3labs(t, c, nil)
}
