package mark3labs

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func TestWrapIsOneServerPerRawServer(t *testing.T) {
	raw, s := NewServer("adapter", "1.0.0")
	if Wrap(raw) != s || Wrap(raw) != Wrap(raw) {
		t.Fatal("Wrap of NewServer's raw server is not NewServer's *Server")
	}
	other := server.NewMCPServer("other", "1.0.0")
	if Wrap(other) == s {
		t.Fatal("two raw servers share one *Server")
	}
}

// subjectKey holds the caller's subject in a call's context, as a
// transport's context function would put it there.
type subjectKey struct{}

func TestSetTokenInfoGivesTheToolsTheCaller(t *testing.T) {
	raw, s := NewServer("adapter", "1.0.0")
	var seen *gosdk.CallToolRequest
	s.AddTool(&gosdk.Tool{Name: "links_list", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
			seen = req
			return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: "{}"}}}, nil
		})
	call := mcp.CallToolRequest{}
	call.Params.Name = "links_list"
	c := connect(t, raw)
	callAs := func(subject string) *gosdk.CallToolRequest {
		t.Helper()
		seen = nil
		ctx := context.Background()
		if subject != "" {
			ctx = context.WithValue(ctx, subjectKey{}, subject)
		}
		if _, err := c.CallTool(ctx, call); err != nil || seen == nil {
			t.Fatalf("call as %q: %v (handler called: %v)", subject, err, seen != nil)
		}
		return seen
	}

	if req := callAs("alice"); req.Extra != nil {
		t.Fatalf("without SetTokenInfo the call carries %+v", req.Extra)
	}
	Wrap(raw).SetTokenInfo(func(ctx context.Context, req mcp.CallToolRequest) *auth.TokenInfo {
		if req.Params.Name != "links_list" {
			t.Errorf("the function got the call of %q", req.Params.Name)
		}
		subject, _ := ctx.Value(subjectKey{}).(string)
		if subject == "" {
			return nil
		}
		return &auth.TokenInfo{UserID: subject, Scopes: []string{"links.read"}}
	})
	if req := callAs("alice"); req.Extra == nil || req.Extra.TokenInfo == nil ||
		req.Extra.TokenInfo.UserID != "alice" || len(req.Extra.TokenInfo.Scopes) != 1 {
		t.Fatalf("the call as alice carries %+v, want her token", req.Extra)
	}
	if req := callAs(""); req.Extra != nil {
		t.Fatalf("a call the function knows no caller of carries %+v", req.Extra)
	}
	s.SetTokenInfo(nil)
	if req := callAs("alice"); req.Extra != nil {
		t.Fatalf("after SetTokenInfo(nil) the call carries %+v", req.Extra)
	}
}
