package gosdk

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestNewServerReturnsOneServerTwice(t *testing.T) {
	raw, s := NewServer("migrated", "2.3.4")
	if raw == nil || raw != s {
		t.Fatalf("NewServer returned %p and %p, want one non-nil server twice", raw, s)
	}
	if Wrap(raw) != raw {
		t.Fatal("Wrap did not return the server it was given")
	}
	// A tool added on the second value is listed by a client of the first,
	// which also reports the name and version given.
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := raw.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	info := cs.InitializeResult().ServerInfo
	if info.Name != "migrated" || info.Version != "2.3.4" {
		t.Fatalf("server info %q %q, want \"migrated\" \"2.3.4\"", info.Name, info.Version)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "echo" {
		t.Fatalf("tools %+v, want the one tool \"echo\"", list.Tools)
	}
}
