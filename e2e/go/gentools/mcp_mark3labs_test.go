package gentools_test

// The generated tools on a mark3labs/mcp-go server (runtimes/go/mark3labs),
// against the shared test server on its real socket, through mcp-go's own
// in-process client: the caller's identity given by SetTokenInfo decides an
// annotated required scope (links_archive needs "links.archive"), and the
// registrations made through two Wrap calls of one raw server share one
// state: an alias minted by a tool of one is known to a tool of the other,
// under the handle of the first call.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/auth"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mark3labs"
)

// mark3labsClient starts mcp-go's in-process client on raw.
func mark3labsClient(t *testing.T, raw *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(raw)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctxT(t), init); err != nil {
		t.Fatal(err)
	}
	return c
}

// callMark3labs calls tool with args (and _meta, when handle is not "") in
// ctx; it returns the first text block (a second one names the handle),
// isError and the result's handle.
func callMark3labs(t *testing.T, ctx context.Context, c *client.Client, tool string, args map[string]any, handle string) (text string, isError bool, gotHandle string) {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	if handle != "" {
		req.Params.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"ai-tools/conversation": handle}}
	}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content", tool)
	}
	if res.Meta != nil {
		gotHandle, _ = res.Meta.AdditionalFields["ai-tools/conversation"].(string)
	}
	return res.Content[0].(mcpgo.TextContent).Text, res.IsError, gotHandle
}

// scopesKey holds a call's scopes in its context, as a transport's context
// function (server.WithHTTPContextFunc) would put a verified token there.
type scopesKey struct{}

func TestMark3labsTokenInfoDecidesRequiredScopes(t *testing.T) {
	conn := needServer(t)
	raw, s := mark3labs.NewServer("linkhub", "1.0.0")
	s.SetTokenInfo(func(ctx context.Context, _ mcpgo.CallToolRequest) *auth.TokenInfo {
		scopes, ok := ctx.Value(scopesKey{}).([]string)
		if !ok {
			return nil
		}
		return &auth.TokenInfo{UserID: "alice", Scopes: scopes}
	})
	allow := func(context.Context, gentools.ApprovalRequest) (bool, error) { return true, nil }
	gentools.ForwardToLinkServiceClient(s, linkhubv1.NewLinkServiceClient(conn), gentools.WithApprove(allow))
	c := mark3labsClient(t, raw)
	as := func(scopes ...string) context.Context { return context.WithValue(ctxT(t), scopesKey{}, scopes) }

	ws := newUUID()
	text, isError, handle := callMark3labs(t, as("links.write"), c, "links_create", createLinkArgs(ws, 1), "")
	if isError || handle == "" {
		t.Fatalf("links_create: %s (isError %v, handle %q)", text, isError, handle)
	}
	ids := linkIDs(t, conn, ws)
	if len(ids) != 1 {
		t.Fatalf("links of the workspace %v, want 1", ids)
	}
	archived := func() int { return len(recordedIn(t, "linkhub.v1.LinkService/ArchiveLink", ids[0])) }
	archive := map[string]any{"link_id": "link-1"}
	text, isError, _ = callMark3labs(t, as("links.write"), c, "links_archive", archive, handle)
	if want := `the call of "links_archive" needs scope "links.archive"`; !isError || text != want {
		t.Fatalf("links_archive without the scope: %q (isError %v), want %q", text, isError, want)
	}
	if n := archived(); n != 0 {
		t.Fatalf("%d ArchiveLink calls reached the server, want none", n)
	}
	text, isError, _ = callMark3labs(t, as("links.archive"), c, "links_archive", archive, handle)
	if isError || !strings.Contains(text, `"link-1"`) {
		t.Fatalf("links_archive with the scope: %q (isError %v)", text, isError)
	}
	if n := archived(); n != 1 {
		t.Fatalf("%d ArchiveLink calls reached the server, want 1", n)
	}
}

func TestMark3labsWrapSharesOneStatePerRawServer(t *testing.T) {
	conn := needServer(t)
	raw := server.NewMCPServer("linkhub", "1.0.0", server.WithToolCapabilities(true))
	gentools.ForwardToPageThemeServiceClient(mark3labs.Wrap(raw), linkhubv1.NewPageThemeServiceClient(conn))
	gentools.ForwardToLinkServiceClient(mark3labs.Wrap(raw), linkhubv1.NewLinkServiceClient(conn))
	c := mark3labsClient(t, raw)

	ws := newUUID()
	text, isError, handle := callMark3labs(t, ctxT(t), c, "page_themes_create", map[string]any{
		"workspace_id": ws, "name": "t", "background_color": "#000000", "font": "", "palette": []any{},
	}, "")
	if isError || handle == "" || !strings.Contains(text, `"theme-1"`) {
		t.Fatalf("page_themes_create: %s (isError %v, handle %q)", text, isError, handle)
	}
	args := createLinkArgs(ws, 1)
	args["page_theme_id"] = "theme-1"
	text, isError, _ = callMark3labs(t, ctxT(t), c, "links_create", args, handle)
	if isError {
		t.Fatalf("links_create with theme-1 under the handle of page_themes_create: %s", text)
	}
	created := recordedIn(t, "linkhub.v1.LinkService/CreateLink", ws)
	if len(created) != 1 {
		t.Fatalf("%d CreateLink calls, want 1", len(created))
	}
	var req map[string]any
	if err := json.Unmarshal([]byte(created[0].GetRequestJson()), &req); err != nil {
		t.Fatal(err)
	}
	if theme, _ := req["pageThemeId"].(string); theme == "" || theme == "theme-1" {
		t.Fatalf("CreateLink got page theme %q, want the theme's id", theme)
	}
}
