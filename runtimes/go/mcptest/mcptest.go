// Package mcptest connects an MCP client to a server of the official Go
// SDK in memory, for the tests of this module, of the generated files
// (generator/test-go) and of the migration test (e2e/go-migrate), which
// require this module through a replace directive. It is not inlined into
// generated files.
package mcptest

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConnectInMemory connects a go-sdk client to server over in-memory
// transports (one connection, as stdio); both close when the test ends.
func ConnectInMemory(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return ConnectInMemoryWith(t, server, nil, nil)
}

// ConnectInMemoryWith is ConnectInMemory with the client's options (its
// notification handlers) and the session's (its protocol version).
func ConnectInMemoryWith(t testing.TB, server *mcp.Server, opts *mcp.ClientOptions, session *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, opts).Connect(context.Background(), ct, session)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}
