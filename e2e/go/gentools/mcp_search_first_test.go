package gentools_test

// cmd/linkhub-mcp --search-first (gentools.WithSearchFirst over the
// generated ToolSearchData) as a real process against the shared test
// server, driven by the go-sdk client: over stdio (2025-11-25) the list
// grows with a search and the client is told; over streamable HTTP
// 2026-07-28 call_tool calls the found tools, link-1 resolved to the
// link's UUID by the server's answer.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchFirstClient connects a go-sdk client of version to transport; a
// tools/list_changed notification arrives on the channel.
func searchFirstClient(t *testing.T, transport mcp.Transport, version string) (*mcpClient, chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-go", Version: "1.0.0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpClient{t: t, cs: cs}, changed
}

// listed is the names tools/list gives, in its order.
func (c *mcpClient) listed() string {
	c.t.Helper()
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return strings.Join(names, ",")
}

// found calls search_tools and returns the tools of its result.
func (c *mcpClient) found(args map[string]any) []map[string]any {
	c.t.Helper()
	res, text := c.call("search_tools", args, nil)
	var got struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(text), &got); res.IsError || err != nil {
		c.t.Fatalf("search_tools %v: %s", args, text)
	}
	return got.Tools
}

func TestMCPSearchFirstStdio(t *testing.T) {
	cmd := exec.Command(mcpBinary(t), "--grpc", needServer(t).Target(), "--search-first", "--always-loaded", "ping")
	cmd.Stderr = os.Stderr
	c, changed := searchFirstClient(t, &mcp.CommandTransport{Command: cmd}, "2025-11-25")
	if got := c.listed(); got != "search_tools,ping" {
		t.Fatalf("before a search: %s", got)
	}
	found := c.found(map[string]any{"query": "create a short link", "limit": 1})
	if len(found) != 1 || found[0]["name"] != "links_create" || found[0]["inputSchema"] != nil {
		t.Fatalf("found %v", found)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	if got := c.listed(); got != "search_tools,ping,links_create" {
		t.Fatalf("after a search: %s", got)
	}
	// The found tool is called as any other; one not listed is too.
	ws := newUUID()
	c.call("links_create", createLinkArgs(ws, 1), nil)
	if res, text := c.call("links_get", map[string]any{"id": "link-1"}, nil); res.IsError || !strings.Contains(text, `"target_url":"https://example.com/1"`) {
		t.Fatalf("links_get link-1: %s", text)
	}
}

func TestMCPSearchFirstHTTP(t *testing.T) {
	url := httpServer(t, "--search-first")
	ws := newUUID()

	t.Run("2025-11-25 sessions", func(t *testing.T) {
		c, changed := searchFirstClient(t, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, "2025-11-25")
		if got := c.listed(); got != "search_tools" {
			t.Fatalf("before a search: %s", got)
		}
		c.found(map[string]any{"query": "get a link", "limit": 2})
		<-changed
		if got := c.listed(); !strings.HasPrefix(got, "search_tools,links_get,") {
			t.Fatalf("after a search: %s", got)
		}
	})

	t.Run("2026-07-28 call_tool", func(t *testing.T) {
		c, _ := searchFirstClient(t, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, "2026-07-28")
		if got := c.listed(); got != "search_tools,call_tool" {
			t.Fatalf("2026-07-28 list: %s", got)
		}
		found := c.found(map[string]any{"query": "get a link", "limit": 1})
		schema, _ := found[0]["inputSchema"].(map[string]any)
		if found[0]["name"] != "links_get" || schema["properties"].(map[string]any)["id"] == nil {
			t.Fatalf("found %v", found)
		}
		res, _ := c.call("call_tool", map[string]any{"name": "links_create", "arguments": createLinkArgs(ws, 2)}, nil)
		handle, _ := res.Meta["ai-tools/conversation"].(string)
		if res.IsError || handle == "" {
			t.Fatalf("call_tool links_create: %v", res.Content)
		}
		// link-1 reaches the server as the link's UUID: it answers that link.
		meta := mcp.Meta{"ai-tools/conversation": handle}
		res, text := c.call("call_tool", map[string]any{"name": "links_get", "arguments": map[string]any{"id": "link-1"}}, meta)
		if res.IsError || !strings.Contains(text, `"target_url":"https://example.com/2"`) || anyUUID.FindString(strings.ReplaceAll(text, ws, "")) != "" {
			t.Fatalf("call_tool links_get link-1: %s", text)
		}
		if _, text := c.call("call_tool", map[string]any{"name": "links_get", "arguments": map[string]any{"id": "link-7"}}, meta); !strings.Contains(text, `unknown alias "link-7"`) {
			t.Fatalf("unknown alias: %s", text)
		}
		if _, text := c.call("call_tool", map[string]any{"name": "links_purge", "arguments": map[string]any{}}, nil); text != `unknown tool "links_purge": call search_tools to find a tool, then call_tool with one of the names it gives` {
			t.Fatalf("unknown tool: %s", text)
		}
		// A tool not listed is still called directly.
		if res, text := c.call("links_get", map[string]any{"id": "link-1"}, meta); res.IsError {
			t.Fatalf("direct links_get: %s", text)
		}
	})
}
