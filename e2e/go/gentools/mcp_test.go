package gentools_test

// The generated MCP server for the test API (cmd/linkhub-mcp over
// gentools/ai_tools_mcp.gen.go) as a real process, against the shared test
// server, driven by the go-sdk client: over stdio (one conversation per
// connection) and over streamable HTTP (2025-11-25 sessions, 2026-07-28
// stateless with a handle in _meta or as the argument "conversation").
// Every successful result's structuredContent is validated against the
// tool's outputSchema with a JSON Schema validator.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/aitools/e2e/gentools"
)

// mcpBinary builds cmd/linkhub-mcp into e2e/go/bin once per run.
func mcpBinary(t testing.TB) string { return commandBinary(t, "linkhub-mcp") }

// builds holds one build per command of cmd/.
var builds sync.Map // name → func() (string, error)

// commandBinary builds cmd/<name> into e2e/go/bin once per run.
func commandBinary(t testing.TB, name string) string {
	t.Helper()
	build, _ := builds.LoadOrStore(name, sync.OnceValues(func() (string, error) {
		root, _ := filepath.Abs("..")
		bin := filepath.Join(root, "bin", name)
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
		return bin, nil
	}))
	bin, err := build.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// waitOrKill waits for cmd to exit, and kills it, failing the test with
// complaint, when it has not within 10 s.
func waitOrKill(t testing.TB, cmd *exec.Cmd, complaint string) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Error(complaint)
	}
}

// mcpClient is one MCP client session and the output schemas of its tools.
type mcpClient struct {
	t       testing.TB
	cs      *mcp.ClientSession
	schemas map[string]*jsonschema.Resolved
}

func newMCPClient(t testing.TB, transport mcp.Transport, version string) *mcpClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-go", Version: "1.0.0"}, nil).Connect(ctx, transport, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	c := &mcpClient{t: t, cs: cs, schemas: map[string]*jsonschema.Resolved{}}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: outputSchema %s: %v", tool.Name, b, err)
		}
		if c.schemas[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: outputSchema: %v", tool.Name, err)
		}
	}
	return c
}

// stdioClient starts cmd/linkhub-mcp over stdio (closed with the session).
func stdioClient(t testing.TB) *mcpClient {
	t.Helper()
	// links_archive needs an approval (no auto_execute): the hook allows.
	cmd := exec.Command(mcpBinary(t), "--grpc", needServer(t).Target(), "--approve", "allow")
	cmd.Stderr = os.Stderr
	return newMCPClient(t, &mcp.CommandTransport{Command: cmd}, "")
}

// httpServer starts cmd/linkhub-mcp over HTTP on a free port, with the
// handle argument and the flags given, and returns its endpoint; it stops
// with the test.
func httpServer(t testing.TB, flags ...string) string {
	t.Helper()
	cmd := exec.Command(mcpBinary(t), append([]string{"--grpc", needServer(t).Target(), "--http", "0", "--handle-argument"}, flags...)...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		waitOrKill(t, cmd, "the MCP HTTP server did not stop within 10 s of SIGINT")
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v", line, err)
	}
	return url
}

func httpClient(t testing.TB, url, version string) *mcpClient {
	return newMCPClient(t, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, version)
}

// call calls a tool (a protocol error fails the test) and returns the result
// and its first text block.
func (c *mcpClient) call(tool string, args any, meta mcp.Meta) (*mcp.CallToolResult, string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args, Meta: meta})
	if err != nil {
		c.t.Fatalf("%s: %v", tool, err)
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	return res, text.Text
}

// ok calls a tool that must succeed: structuredContent is the text's JSON
// and valid against the tool's outputSchema; no UUID but the workspace's.
func (c *mcpClient) ok(tool string, args any, meta mcp.Meta, ws string) map[string]any {
	c.t.Helper()
	res, text := c.call(tool, args, meta)
	if res.IsError {
		c.t.Fatalf("%s %v: isError: %s", tool, args, text)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		c.t.Fatalf("%s: text is not a JSON object: %s", tool, text)
	}
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(res.StructuredContent)
	if string(a) != string(b) {
		c.t.Fatalf("%s: structuredContent %s is not the text %s", tool, b, a)
	}
	if err := c.schemas[tool].Validate(fromText); err != nil {
		c.t.Fatalf("%s: structuredContent does not match outputSchema: %v\n%s", tool, err, text)
	}
	if u := anyUUID.FindString(strings.ReplaceAll(text, ws, "")); u != "" {
		c.t.Fatalf("%s: the model would read the UUID %s: %s", tool, u, text)
	}
	return fromText
}

// fails calls a tool that must fail with an isError result and returns its text.
func (c *mcpClient) fails(tool string, args any, meta mcp.Meta) string {
	c.t.Helper()
	res, text := c.call(tool, args, meta)
	if !res.IsError {
		c.t.Fatalf("%s %v: not an error: %s", tool, args, text)
	}
	if u := anyUUID.FindString(text); u != "" {
		c.t.Fatalf("%s: the model would read the UUID %s: %s", tool, u, text)
	}
	return text
}

var anyUUID = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

func createLinkArgs(ws string, n int) map[string]any {
	return map[string]any{
		"workspace_id": ws, "target_url": fmt.Sprintf("https://example.com/%d", n), "slug": nil,
		"page_theme_id": "", "labels": []any{}, "title": fmt.Sprintf("link %d", n), "expire_after": nil,
	}
}

func linkOf(t testing.TB, r map[string]any) (id, url string) {
	t.Helper()
	link, _ := r["link"].(map[string]any)
	id, _ = link["id"].(string)
	url, _ = link["target_url"].(string)
	if id == "" {
		t.Fatalf("no link.id in %v", r)
	}
	return id, url
}

func TestMCPStdio(t *testing.T) {
	c := stdioClient(t)
	ws := newUUID()

	// tools/list: every tool, in name order, each input schema the tool's.
	list, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names, want []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		var got, schema any
		b, _ := json.Marshal(tool.InputSchema)
		_ = json.Unmarshal(b, &got)
		for _, at := range gentools.AllTools() {
			if at.Name == tool.Name {
				_ = json.Unmarshal(at.Parameters, &schema)
			}
		}
		if a, b := fmt.Sprint(got), fmt.Sprint(schema); a != b {
			t.Errorf("%s: inputSchema %s, want %s", tool.Name, a, b)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no outputSchema", tool.Name)
		}
	}
	for _, at := range gentools.AllTools() {
		want = append(want, at.Name)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	// The validator is real: a result without a required field fails.
	if c.schemas["ping"].Validate(map[string]any{}) == nil && c.schemas["links_get"].Validate(map[string]any{"link": 5}) == nil {
		t.Fatal("the output schemas accept anything")
	}

	// Aliases carry from call to call over the connection.
	first, _ := linkOf(t, c.ok("links_create", createLinkArgs(ws, 1), nil, ws))
	second, _ := linkOf(t, c.ok("links_create", createLinkArgs(ws, 2), nil, ws))
	if first != "link-1" || second != "link-2" {
		t.Fatalf("aliases %s, %s", first, second)
	}
	if _, url := linkOf(t, c.ok("links_get", map[string]any{"id": "link-2"}, nil, ws)); url != "https://example.com/2" {
		t.Fatalf("link-2 is %s", url)
	}
	c.ok("links_list", map[string]any{"workspace_id": ws, "page_theme_id": nil}, nil, ws)
	c.ok("ping", map[string]any{}, nil, ws)
	c.ok("links_delete", map[string]any{"id": "link-2"}, nil, ws)

	// isError results, the executor's text: a server error, bad arguments,
	// an unknown alias, an unknown field; an unknown tool is -32602.
	if text := c.fails("links_get", map[string]any{"id": "link-2"}, nil); text != `rpc error: code = NotFound desc = link "link-2" not found` {
		t.Errorf("server error: %s", text)
	}
	if text := c.fails("links_get", map[string]any{"id": 7}, nil); text != "invalid arguments, nothing was sent:\n- \"id\": expected a string, got 7" {
		t.Errorf("bad arguments: %s", text)
	}
	if text := c.fails("links_get", map[string]any{"id": "link-99"}, nil); text != "invalid arguments, nothing was sent:\n- \"id\": unknown alias \"link-99\"; valid link aliases: link-1, link-2" {
		t.Errorf("unknown alias: %s", text)
	}
	if text := c.fails("links_get", map[string]any{"idd": "link-1"}, nil); text != "invalid arguments, nothing was sent:\n- \"idd\": unknown field; did you mean \"id\"? valid fields: id\n- \"id\": missing required field" {
		t.Errorf("unknown field: %s", text)
	}
	_, err = c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "links_nope", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: %v", err)
	}
}

// TestMCPOutputSchemas: a successful result of every tool of the test API,
// and of the sample echoes with every schema-generated value
// (scripts/values.mjs), validates against the tool's outputSchema.
func TestMCPOutputSchemas(t *testing.T) {
	c := stdioClient(t)
	ws := newUUID()
	validated := map[string]bool{}
	ok := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		validated[tool] = true
		return c.ok(tool, args, nil, ws)
	}
	ok("links_create", createLinkArgs(ws, 1))
	ok("links_get", map[string]any{"id": "link-1"})
	ok("links_list", map[string]any{"workspace_id": ws, "page_theme_id": nil})
	ok("links_update", map[string]any{"id": "link-1", "status": "LINK_STATUS_PAUSED", "update_mask": "status"})
	ok("page_themes_create", map[string]any{"workspace_id": ws, "name": "dark", "background_color": "#000000", "font": "serif",
		"palette": []any{map[string]any{"key": "accent", "value": "#ff0000"}}})
	ok("page_themes_list", map[string]any{"workspace_id": ws})
	ok("page_themes_update", map[string]any{"id": "theme-1", "name": "darker", "background_color": nil, "font": "mono"})
	ok("steps_create", map[string]any{"link_id": "link-1", "send_email": nil, "open_link": nil, "wait": map[string]any{"duration": "60s"}})
	ok("steps_list", map[string]any{"link_id": "link-1"})
	ok("ping", map[string]any{})
	ok("links_export", map[string]any{"workspace_id": ws})
	ok(getOperation, map[string]any{"name": "operation-1"})
	ok("links_archive", map[string]any{"link_id": "link-1"})
	ok("links_delete", map[string]any{"id": "link-1"})
	for _, tool := range []string{"samples_echo_strict", "samples_echo_loose"} {
		validated[tool] = true
		for i, args := range loadValues(t, tool).Values {
			good, bad := fixSampleMask(t, args, i)
			if bad {
				if res, text := c.call(tool, json.RawMessage(args), nil); !res.IsError || !strings.Contains(text, "\n- \"mask\": ") {
					t.Fatalf("%s value %d: a mask naming no field: %s", tool, i, text)
				}
			}
			args = good
			res, text := c.call(tool, json.RawMessage(args), nil)
			if res.IsError && onlyEmptyMessageKeys(text) {
				continue // keys in an empty message: refused, see emptyMessageKeys
			}
			var got any
			if res.IsError || json.Unmarshal([]byte(text), &got) != nil {
				t.Fatalf("%s value %d: %s", tool, i, text)
			}
			if err := c.schemas[tool].Validate(got); err != nil {
				t.Fatalf("%s value %d: structuredContent does not match outputSchema: %v\n%s", tool, i, err, text)
			}
		}
	}
	for _, at := range gentools.AllTools() {
		if !validated[at.Name] {
			t.Errorf("%s: no result validated", at.Name)
		}
	}
}

// TestMCPTwoClients: two connections at once never share aliases.
func TestMCPTwoClients(t *testing.T) {
	a, b := stdioClient(t), stdioClient(t)
	ws := newUUID()
	var wg sync.WaitGroup
	for i, c := range []*mcpClient{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 3 {
				c.call("links_create", createLinkArgs(ws, 10*(i+1)+n), nil)
			}
		}()
	}
	wg.Wait()
	for i, c := range []*mcpClient{a, b} {
		for n := range 3 {
			want := fmt.Sprintf("https://example.com/%d", 10*(i+1)+n)
			if _, url := linkOf(t, c.ok("links_get", map[string]any{"id": fmt.Sprintf("link-%d", n+1)}, nil, ws)); url != want {
				t.Errorf("client %d: link-%d is %s, want %s", i, n+1, url, want)
			}
		}
	}
}

func TestMCPHTTP(t *testing.T) {
	url := httpServer(t)
	ws := newUUID()

	t.Run("2025-11-25 sessions", func(t *testing.T) {
		c := httpClient(t, url, "2025-11-25")
		if c.cs.ID() == "" {
			t.Fatal("no Mcp-Session-Id")
		}
		res, _ := c.call("links_create", createLinkArgs(ws, 1), nil)
		if res.IsError || len(res.Content) != 1 || res.Meta["ai-tools/conversation"] != nil {
			t.Fatalf("a session shows no handle: %v %v", res.Content, res.Meta)
		}
		c.ok("links_get", map[string]any{"id": "link-1"}, nil, ws)
		other := httpClient(t, url, "2025-11-25")
		other.fails("links_get", map[string]any{"id": "link-1"}, nil)
	})

	t.Run("2026-07-28 handles", func(t *testing.T) {
		c := httpClient(t, url, "2026-07-28")
		if v := c.cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("protocol %s", v)
		}
		res, _ := c.call("links_create", createLinkArgs(ws, 2), nil)
		handle, _ := res.Meta["ai-tools/conversation"].(string)
		second, _ := res.Content[len(res.Content)-1].(*mcp.TextContent)
		if res.IsError || !regexp.MustCompile(`^[A-Za-z0-9_-]{22,}$`).MatchString(handle) || second.Text != "conversation: "+handle {
			t.Fatalf("handle %q, content %v", handle, res.Content)
		}
		// back in _meta (a host application), then as the argument (a model)
		meta := mcp.Meta{"ai-tools/conversation": handle}
		if _, url := linkOf(t, c.ok("links_get", map[string]any{"id": "link-1"}, meta, ws)); url != "https://example.com/2" {
			t.Fatalf("link-1 is %s", url)
		}
		c.ok("links_get", map[string]any{"id": "link-1", "conversation": handle}, nil, ws)
		// without it, a new conversation, which knows no alias
		c.fails("links_get", map[string]any{"id": "link-1"}, nil)
		if text := c.fails("links_get", map[string]any{"id": "link-1", "conversation": "nope"}, nil); text != `unknown or expired conversation "nope"; call again without "conversation" to start a new one` {
			t.Fatalf("unknown handle: %s", text)
		}
	})
}

// BenchmarkMCPToolsCallStdio measures one tools/call ("ping") over stdio,
// through the MCP server process to the test server and back; the median
// is reported next to the direct gRPC call's (BenchmarkGRPCPing).
func BenchmarkMCPToolsCallStdio(b *testing.B) {
	c := stdioClient(b)
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "ping", Arguments: map[string]any{}}
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if res, err := c.cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatal(err, res)
		}
		durations = append(durations, time.Since(start))
	}
	reportMedian(b, durations)
}

// BenchmarkGRPCPing is the same call made directly over gRPC.
func BenchmarkGRPCPing(b *testing.B) {
	e := gentools.NewExecutor(needServer(b))
	ctx := context.Background()
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := e.Execute(ctx, "ping", `{}`); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	reportMedian(b, durations)
}

func reportMedian(b *testing.B, durations []time.Duration) {
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds()), "median-µs/call")
}

// onlyEmptyMessageKeys reports whether an isError text refuses only keys
// in a message without fields (emptyMessageKeys, as the model reads it).
func onlyEmptyMessageKeys(text string) bool {
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || lines[0] != "invalid arguments, nothing was sent:" {
		return false
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, ": unknown field; no fields are valid here") {
			return false
		}
	}
	return true
}
