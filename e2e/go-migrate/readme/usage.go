// Package readme is the Go usage shown in protoc-gen-go-mcp's README (at
// 954bf16, docs/migrate-go-mcp.md), each block in a function of its own whose
// parameters are the block's free variables. Only the import paths changed:
// "runtime" and "testdatamcp" are import names of the package our plugin
// generated (testdatamcp/, go_mcp_compat=true), "gosdk" and "mark3labs" are
// the adapters of our Go runtime. The lines between "README:" and "end"
// are theirs as they are (the name-prefix block with TestService for their
// example's SQLService, which the testdata protos do not have).
package readme

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/runtime/gosdk
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/gosdk"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/runtime/mark3labs
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mark3labs"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/runtime
	runtime "example.com/aitools/gomigrate/testdatamcp"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/testdata/gen/go/testdata/testdatamcp
	testdatamcp "example.com/aitools/gomigrate/testdatamcp"

	"example.com/aitools/gomigrate/gen/testdata"
	"example.com/aitools/gomigrate/gen/testdata/testdataconnect"
)

// testServer is "your gRPC implementation" of the README's `srv :=
// testServer{}`: a plain struct with the service's methods, as in
// protoc-gen-go-mcp's examples (no grpc-go embed); calls records what
// reached it (a pointer: the README copies the value).
type testServer struct {
	calls *Calls
}

// MyURLOverrideKey is the README's context key of its extra property.
type MyURLOverrideKey struct{}

// GoSDKStdio is "With the official go-sdk (recommended)": it serves until
// ctx ends or stdin closes.
func GoSDKStdio(ctx context.Context, srv testServer) error {
	// README:
	raw, s := gosdk.NewServer("my-server", "1.0.0")

	testdatamcp.RegisterTestServiceHandler(s, &srv)

	// Serve over stdio
	return raw.Run(ctx, &mcp.StdioTransport{})
	// end
}

// Mark3labsStdio is "With mark3labs/mcp-go".
func Mark3labsStdio(srv testServer) error {
	// README:
	raw, s := mark3labs.NewServer("my-server", "1.0.0")

	testdatamcp.RegisterTestServiceHandler(s, &srv)

	// Serve over stdio
	return server.ServeStdio(raw)
	// end
}

// Mark3labsServer is the same server as Mark3labsStdio, returned for
// mcp-go's in-process client.
func Mark3labsServer(srv testServer) *mcpserver.MCPServer {
	raw, s := mark3labs.NewServer("my-server", "1.0.0")
	testdatamcp.RegisterTestServiceHandler(s, &srv)
	return raw
}

// GoSDKServer is the same server as GoSDKStdio, returned for a client on
// in-memory transports.
func GoSDKServer(srv testServer) *mcp.Server {
	raw, s := gosdk.NewServer("my-server", "1.0.0")
	testdatamcp.RegisterTestServiceHandler(s, &srv)
	return raw
}

// WithProvider is "Runtime LLM Provider Selection", option 1.
func WithProvider(s runtime.MCPServer, srv testServer) {
	// README:
	testdatamcp.RegisterTestServiceHandlerWithProvider(s, &srv, runtime.LLMProviderOpenAI)
	// end
}

// Standard is option 2's first line.
func Standard(s runtime.MCPServer, srv testServer) {
	// README:
	testdatamcp.RegisterTestServiceHandler(s, &srv) // Standard MCP
	// end
}

// OpenAI is option 2's second line.
func OpenAI(s runtime.MCPServer, srv testServer) {
	// README:
	testdatamcp.RegisterTestServiceHandlerOpenAI(s, &srv) // OpenAI-compatible
	// end
}

// Forward is "Wiring up with grpc and connectrpc client", the gRPC line.
func Forward(s runtime.MCPServer, myGrpcClient testdata.TestServiceClient) {
	// README:
	testdatamcp.ForwardToTestServiceClient(s, myGrpcClient)
	// end
}

// ForwardConnect is the connectrpc line.
func ForwardConnect(s runtime.MCPServer, myConnectClient testdataconnect.TestServiceClient) {
	// README:
	testdatamcp.ForwardToConnectTestServiceClient(s, myConnectClient)
	// end
}

// ExtraProperties is "Extra properties", with both registrations on one
// server when client is not nil.
func ExtraProperties(s runtime.MCPServer, srv testServer, client testdata.TestServiceClient) {
	// README:
	// Enable URL override with custom field name and description
	option := runtime.WithExtraProperties(
		runtime.ExtraProperty{
			Name:        "base_url",
			Description: "Base URL for the API",
			Required:    true,
			ContextKey:  MyURLOverrideKey{},
		},
	)

	// Use with any generated function
	testdatamcp.RegisterTestServiceHandler(s, &srv, option)
	// end
	if client != nil {
		// README:
		testdatamcp.ForwardToTestServiceClient(s, client, option)
		// end
	}
}

// NamePrefix is "Tool name prefixing" (RegisterSQLServiceHandler there).
func NamePrefix(s runtime.MCPServer, postgresHandler, clickhouseHandler testServer) {
	// README:
	testdatamcp.RegisterTestServiceHandler(s, &postgresHandler, runtime.WithNamePrefix("postgres"))
	testdatamcp.RegisterTestServiceHandler(s, &clickhouseHandler, runtime.WithNamePrefix("clickhouse"))
	// end
}

// Migration is "Migrating from mark3labs-only (pre-v0.2)", steps 1 and 4:
// the servers and transports made there, not started.
func Migration() (*mcpserver.MCPServer, *mcp.Server, http.Handler) {
	// README:
	// After -- mark3labs
	raw, s := mark3labs.NewServer("name", "1.0", server.WithToolCapabilities(true))
	// end
	testdatamcp.RegisterTestServiceHandler(s, &testServer{calls: &Calls{}})
	// README:
	// mark3labs streamable HTTP
	handler := mcpserver.NewStreamableHTTPServer(raw)
	// end
	// README:
	// After -- official go-sdk
	rawSDK, _ := gosdk.NewServer("name", "1.0")
	// end
	return raw, rawSDK, handler
}
