// Package testkit holds what the golden packages' tests share: the shared
// vectors of e2e/vectors (loaded by the Go runtime's vectortest package),
// recognisable test ids, a gRPC server on a real socket and an MCP client
// of a server in memory.
package testkit

import (
	"fmt"
	"net"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mcptest"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/vectortest"
)

// LoadVectors decodes every e2e/vectors/<sub>/*.json file, by base name.
// It fails the test when there is none.
func LoadVectors[T any](t *testing.T, sub string) map[string]T {
	t.Helper()
	return vectortest.Load[T](t, sub)
}

// UUID is a valid, recognisable UUID for test entity n.
func UUID(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }

// Serve starts a gRPC server on 127.0.0.1 with the services `register`
// adds, and returns a connection to it; both close when the test ends.
func Serve(t testing.TB, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	register(srv)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return conn
}

// ConnectMCP connects a go-sdk client to server over in-memory transports
// (one connection, as stdio); both close when the test ends.
func ConnectMCP(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return mcptest.ConnectInMemory(t, server)
}
