package aitools

// The stdio transport answers a line that is not a JSON-RPC message and
// serves the next one (issue 30: the SDK's own transport ended the session).

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

func TestMCPStdioSurvivesMalformedLines(t *testing.T) {
	conn, _ := startServer(t)
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, &lineTransport{in: inR, out: outW}) }()
	t.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %s: %v", lines.Bytes(), err)
		}
		return m
	}
	wantError := func(line string, code float64) {
		t.Helper()
		send(line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != code || m["id"] != nil {
			t.Fatalf("%s: answer %v, want error %v with id null", line, m, code)
		}
	}
	wantError(`{"jsonrpc":"2.0","id":1,"method":`, -32700)
	wantError(`hello`, -32700)
	wantError(`{} {}`, -32700)
	wantError(`{"hello":1}`, -32600)
	wantError(`[]`, -32600)
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send("")
	wantError(`not json at all`, -32700)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"accounts_list","arguments":{"count":1,"contacts_per_account":0}}}`)
	m := next()
	result, _ := m["result"].(map[string]any)
	if m["id"] != float64(2) || result == nil || result["isError"] == true {
		t.Fatalf("call after the malformed lines: %v", m)
	}
	content, _ := result["content"].([]any)
	if len(content) == 0 || !strings.Contains(content[0].(map[string]any)["text"].(string), `"accounts"`) {
		t.Fatalf("result %v", result)
	}
}
