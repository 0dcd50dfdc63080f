package gentools_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
)

// TestMCPAcrossInstances (issue 12, point 5): two instances of the
// generated MCP server (cmd/linkhub-mcp --redis), their conversations in
// one Redis, behind a round-robin proxy: one conversation handle
// (2026-07-28) goes on whichever instance takes each call.
func TestMCPAcrossInstances(t *testing.T) {
	redis := redistest.Start(t)
	var backends []*url.URL
	for range 2 {
		endpoint, err := url.Parse(httpServer(t, "--redis", redis.Addr))
		if err != nil {
			t.Fatal(err)
		}
		backends = append(backends, &url.URL{Scheme: endpoint.Scheme, Host: endpoint.Host})
	}
	var next atomic.Int64
	var posts [2]atomic.Int64 // the requests each instance took
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			i := next.Add(1) % 2
			r.SetURL(backends[i])
			if r.In.Method == http.MethodPost {
				posts[i].Add(1)
			}
		},
		FlushInterval: -1,
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)

	c := httpClient(t, front.URL+"/mcp", "2026-07-28")
	ws := newUUID()
	res, _ := c.call("links_create", createLinkArgs(ws, 1), nil)
	handle, _ := res.Meta["ai-tools/conversation"].(string)
	if res.IsError || handle == "" {
		t.Fatalf("no handle: %v %v", res.Content, res.Meta)
	}
	meta := mcp.Meta{"ai-tools/conversation": handle}
	for n := 2; n <= 6; n++ {
		if id, _ := linkOf(t, c.ok("links_create", createLinkArgs(ws, n), meta, ws)); id != fmt.Sprintf("link-%d", n) {
			t.Fatalf("links_create %d gave %s", n, id)
		}
	}
	for n := 1; n <= 6; n++ {
		id, got := linkOf(t, c.ok("links_get", map[string]any{"id": fmt.Sprintf("link-%d", n)}, meta, ws))
		if id != fmt.Sprintf("link-%d", n) || got != fmt.Sprintf("https://example.com/%d", n) {
			t.Fatalf("links_get link-%d gave %s %s", n, id, got)
		}
	}
	// The model's form: the handle as an argument.
	if id, _ := linkOf(t, c.ok("links_get", map[string]any{"id": "link-3", "conversation": handle}, nil, ws)); id != "link-3" {
		t.Fatalf("link-3 by argument: %s", id)
	}
	// Either instance knows every alias of the conversation, and no other.
	for range 2 {
		text := c.fails("links_get", map[string]any{"id": "link-7"}, meta)
		if !strings.HasSuffix(text, "valid link aliases: link-1, link-2, link-3, link-4, link-5, link-6") {
			t.Fatalf("unknown alias: %s", text)
		}
	}
	if posts[0].Load() < 7 || posts[1].Load() < 7 {
		t.Fatalf("the instances took %d and %d requests: not both in the conversation", posts[0].Load(), posts[1].Load())
	}
}
