package gentools

// go_mcp_compat=true: protoc-gen-go-mcp's names over ours, on a real go-sdk
// server and client with the service served in process (on bufconn). Each
// provider's registration lists the form the provider functions send (the
// generated data, parsed); OpenAI's and Anthropic's differ from the
// Parameters here (a strict tool on a message cycle). A call with the
// OpenAI form's arguments (the optional label null) reaches the server as
// the default form's (label left out) does, and one deeper than the
// default form's stop reaches it whole.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"example.com/aitools/testgo/internal/testkit"
	mcpcompatv1 "example.com/aitools/testgo/pb/mcpcompat/v1"
)

// protoc-gen-go-mcp's names, as code written for it uses them.
var (
	_ Option        = WithNamePrefix("x")
	_ ExtraProperty = ExtraProperty{Name: "tenant", Description: "The tenant.", Required: false, ContextKey: nil}
	_ LLMProvider   = LLMProviderStandard
	_ LLMProvider   = LLMProviderOpenAI
	_ MCPServer     = (*mcp.Server)(nil)
	// protoc-gen-go-mcp's client name is grpc-go's client; its server
	// interface takes a grpc-go implementation as well as a plain one.
	_ TreeServiceClient = mcpcompatv1.NewTreeServiceClient(nil)
	_ TreeServiceServer = (*grpcTreeServer)(nil)
	_ TreeServiceServer = (*treeServer)(nil)
	_ TreeServiceServer = (*watchingTreeServer)(nil)
)

// grpcTreeServer is a grpc-go implementation (the embed it requires).
type grpcTreeServer struct {
	mcpcompatv1.UnimplementedTreeServiceServer
}

// treeServer is an implementation written for protoc-gen-go-mcp: a plain
// struct with the methods of the unary tools, without grpc-go's embed,
// without WatchTrees (protoc-gen-go-mcp made no streaming method a tool)
// and without UploadTrees (no tool).
type treeServer struct {
	mu  sync.Mutex
	got []*mcpcompatv1.PlantTreeRequest
}

func (s *treeServer) PlantTree(_ context.Context, req *mcpcompatv1.PlantTreeRequest) (*mcpcompatv1.Tree, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, req)
	return &mcpcompatv1.Tree{Id: "t1", Root: req.Root, Label: req.GetLabel()}, nil
}

// watchingTreeServer is a plain struct that also has the server-streaming
// tool's method: the stream is served.
type watchingTreeServer struct {
	treeServer
}

func (s *watchingTreeServer) WatchTrees(req *mcpcompatv1.WatchTreesRequest, stream mcpcompatv1.TreeService_WatchTreesServer) error {
	for i := range req.Count {
		if err := stream.Send(&mcpcompatv1.Tree{Id: fmt.Sprintf("t%d", i+1)}); err != nil {
			return err
		}
	}
	return nil
}

// watchText calls trees_watch (which needs an approval: approved) with a
// count of 2 and returns its answer.
func watchText(t *testing.T, impl TreeServiceServer) (string, bool) {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "trees", Version: "1.0.0"}, nil)
	approve := func(context.Context, ApprovalRequest) (bool, error) { return true, nil }
	RegisterTreeServiceHandler(server, impl, WithApprove(approve))
	cs := testkit.ConnectMCP(t, server)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "trees_watch", Arguments: json.RawMessage(`{"count":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// A plain struct without the server-streaming tool's method compiles (it
// is no method of TreeServiceServer) and the tool answers UNIMPLEMENTED.
func TestMCPCompatStreamWithoutMethod(t *testing.T) {
	text, isError := watchText(t, &treeServer{})
	if !isError || !strings.Contains(text, "WatchTrees not implemented") {
		t.Fatalf("trees_watch answered (error %v) %s, want UNIMPLEMENTED", isError, text)
	}
}

// A plain struct with it serves the stream.
func TestMCPCompatStreamWithMethod(t *testing.T) {
	text, isError := watchText(t, &watchingTreeServer{})
	if isError || !strings.Contains(text, `"t1"`) || !strings.Contains(text, `"t2"`) {
		t.Fatalf("trees_watch answered (error %v) %s, want t1 and t2", isError, text)
	}
}

// parsed decodes JSON for a comparison by value.
func parsed(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestMCPCompatNames(t *testing.T) {
	ctx := context.Background()
	impl := &treeServer{}
	server := mcp.NewServer(&mcp.Implementation{Name: "trees", Version: "1.0.0"}, nil)
	RegisterTreeServiceHandlerWithProvider(server, impl, LLMProviderStandard, WithNamePrefix("standard"))
	RegisterTreeServiceHandlerOpenAI(server, impl, WithNamePrefix("openai"))
	RegisterTreeServiceHandlerWithProvider(server, impl, ProviderAnthropic, WithNamePrefix("anthropic"))
	RegisterTreeServiceHandlerWithProvider(server, impl, ProviderGemini, WithNamePrefix("gemini"))
	cs := testkit.ConnectMCP(t, server)

	openai, _ := OpenAIChatTools([]AgentTool{TreesPlant})
	anthropic, _ := AnthropicTools([]AgentTool{TreesPlant}, false)
	gemini, _ := GeminiFunctionDeclarations([]AgentTool{TreesPlant}, false)
	want := map[string]json.RawMessage{
		"standard_trees_plant":  TreesPlant.Parameters,
		"openai_trees_plant":    openai[0].Function.Parameters,
		"anthropic_trees_plant": anthropic[0].InputSchema,
		"gemini_trees_plant":    gemini[0].ParametersJSONSchema,
	}
	for _, form := range []string{"openai_trees_plant", "anthropic_trees_plant"} {
		if reflect.DeepEqual(parsed(t, want[form]), parsed(t, TreesPlant.Parameters)) {
			t.Fatalf("%s: the form is the Parameters; this case needs one that differs", form)
		}
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 2*len(want) { // and each trees_watch
		t.Fatalf("%d tools listed, want %d", len(list.Tools), 2*len(want))
	}
	for _, tool := range list.Tools {
		if strings.HasSuffix(tool.Name, "_trees_watch") {
			continue
		}
		got, _ := json.Marshal(tool.InputSchema)
		if !reflect.DeepEqual(parsed(t, got), parsed(t, want[tool.Name])) {
			t.Errorf("%s: inputSchema %s\nwant %s", tool.Name, got, want[tool.Name])
		}
	}

	call := func(name, args string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s: %s", name, res.Content[0].(*mcp.TextContent).Text)
		}
	}
	call("standard_trees_plant", `{"root":{"name":"oak","children":[]}}`)
	call("openai_trees_plant", `{"root":{"name":"oak","children":[]},"label":null}`)
	call("openai_trees_plant", `{"root":{"name":"oak","children":[{"name":"branch","children":[{"name":"twig","children":[]}]}]},"label":null}`)
	if len(impl.got) != 3 {
		t.Fatalf("%d requests reached the server", len(impl.got))
	}
	if !proto.Equal(impl.got[0], impl.got[1]) {
		t.Errorf("the OpenAI form's call sent %v, the default form's %v", impl.got[1], impl.got[0])
	}
	deep, _ := protojson.Marshal(impl.got[2])
	if !strings.Contains(string(deep), `"twig"`) || impl.got[2].Label != nil {
		t.Errorf("the OpenAI form's deep call sent %s", deep)
	}
}
