package gentools_test

// Per registration (WithProvider, WithNamePrefix, issue 35 §1) on the
// generated file, against the shared test server on its real socket: a
// registration serving the OpenAI form lists each tool with the form
// OpenAIChatTools sends, and a call with that form's arguments (every
// property present, the optional ones null) reaches the server as the same
// request the default form's arguments make; one service registered twice
// with two prefixes and two gRPC clients calls each tool's own client.
// ForwardTo...Client takes a *mcp.Server as before (MCPServer).

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// A *mcp.Server of the go-sdk is an MCPServer: today's usage compiles.
var _ gentools.MCPServer = (*mcp.Server)(nil)

// serveInMemory connects an mcpClient to server over in-memory transports
// (one connection, as stdio).
func serveInMemory(t *testing.T, server *mcp.Server) *mcpClient {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return newMCPClient(t, ct, "")
}

// recordedIn returns the recorded requests of procedure whose JSON holds
// text (a test's own workspace), in order.
func recordedIn(t *testing.T, procedure, text string) []*linkhubv1.RecordedRequest {
	t.Helper()
	var out []*linkhubv1.RecordedRequest
	for _, r := range recorded(t) {
		if r.GetProcedure() == procedure && strings.Contains(r.GetRequestJson(), text) {
			out = append(out, r)
		}
	}
	return out
}

func TestMCPProviderOpenAIForm(t *testing.T) {
	c := needServer(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "linkhub", Version: "1.0.0"}, nil)
	gentools.ForwardToLinkServiceClient(server, linkhubv1.NewLinkServiceClient(c), gentools.WithProvider(gentools.ProviderOpenAI), gentools.WithNamePrefix("openai"))
	gentools.ForwardToLinkServiceClient(server, linkhubv1.NewLinkServiceClient(c))
	mc := serveInMemory(t, server)

	// Listed: the form OpenAIChatTools sends, for each tool (parsed).
	list, err := mc.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	openai, err := gentools.OpenAIChatTools(gentools.AllTools())
	if err != nil {
		t.Fatal(err)
	}
	form := map[string]json.RawMessage{}
	for _, tool := range openai {
		form[tool.Function.Name] = tool.Function.Parameters
	}
	served := 0
	for _, tool := range list.Tools {
		name, ok := strings.CutPrefix(tool.Name, "openai_")
		if !ok {
			continue
		}
		served++
		var got, want any
		b, _ := json.Marshal(tool.InputSchema)
		_ = json.Unmarshal(b, &got)
		_ = json.Unmarshal(form[name], &want)
		if want == nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: inputSchema %s, OpenAI form %s", tool.Name, b, form[name])
		}
	}
	if served == 0 || served*2 != len(list.Tools) {
		t.Fatalf("%d tools with the prefix of %d", served, len(list.Tools))
	}

	// The default form's arguments leave the optional properties out; the
	// OpenAI form's give each, null.
	ws := newUUID()
	byDefault := map[string]any{"workspace_id": ws, "target_url": "https://example.com/forms", "page_theme_id": "", "labels": []any{}}
	byOpenAI := map[string]any{"slug": nil, "title": nil, "expire_after": nil}
	for k, v := range byDefault {
		byOpenAI[k] = v
	}
	mc.ok("links_create", byDefault, nil, ws)
	mc.ok("openai_links_create", byOpenAI, nil, ws)
	got := recordedIn(t, "linkhub.v1.LinkService/CreateLink", ws)
	if len(got) != 2 {
		t.Fatalf("%d CreateLink requests of workspace %s reached the server, want 2", len(got), ws)
	}
	if a, b := decodeRecorded(t, got[0]), decodeRecorded(t, got[1]); !proto.Equal(a, b) {
		t.Errorf("the OpenAI form's call sent %s, the default form's %s", got[1].GetRequestJson(), got[0].GetRequestJson())
	}
}

// taggedClient is a gRPC client of the test server whose every call carries
// the metadata x-registration: tag.
func taggedClient(t *testing.T, tag string) linkhubv1.LinkServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(needServer(t).Target(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			return invoker(metadata.AppendToOutgoingContext(ctx, "x-registration", tag), method, req, reply, cc, opts...)
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return linkhubv1.NewLinkServiceClient(conn)
}

func TestMCPNamePrefixTwoClients(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "linkhub", Version: "1.0.0"}, nil)
	gentools.ForwardToLinkServiceClient(server, taggedClient(t, "east"), gentools.WithNamePrefix("east"))
	gentools.ForwardToLinkServiceClient(server, taggedClient(t, "west"), gentools.WithNamePrefix("west"))
	mc := serveInMemory(t, server)
	for _, name := range []string{"east_links_create", "west_links_create", "east_links_get"} {
		if mc.schemas[name] == nil {
			t.Fatalf("no tool %s among %d", name, len(mc.schemas))
		}
	}
	if mc.schemas["links_create"] != nil {
		t.Fatal("links_create is served without a prefix")
	}
	ws := newUUID()
	mc.ok("west_links_create", createLinkArgs(ws, 1), nil, ws)
	mc.ok("east_links_create", createLinkArgs(ws, 2), nil, ws)
	mc.ok("west_links_create", createLinkArgs(ws, 3), nil, ws)
	var tags []string
	for _, r := range recordedIn(t, "linkhub.v1.LinkService/CreateLink", ws) {
		tags = append(tags, r.GetMetadata()["x-registration"])
	}
	if got := strings.Join(tags, ","); got != "west,east,west" {
		t.Errorf("the calls came through the clients %q, want west,east,west", got)
	}
}
