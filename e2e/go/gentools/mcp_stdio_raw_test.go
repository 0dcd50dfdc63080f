package gentools_test

// cmd/linkhub-mcp over stdio written to by hand: a malformed line is
// answered and the next call served; a call the client cancels, or gives up
// by going away, is cancelled at the real test server, which sees it
// (TestControlService HoldNext / GetHeld).

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
)

// rawStdio is cmd/linkhub-mcp with its stdin and stdout in the test's hands.
type rawStdio struct {
	t     *testing.T
	in    io.WriteCloser
	lines *bufio.Scanner
}

func startRawStdio(t *testing.T) *rawStdio {
	t.Helper()
	cmd := exec.Command(mcpBinary(t), "--grpc", needServer(t).Target())
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		waitOrKill(t, cmd, "the MCP stdio server did not stop within 10 s of its stdin closing")
	})
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	return &rawStdio{t: t, in: in, lines: lines}
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawStdio) next() map[string]any {
	r.t.Helper()
	if !r.lines.Scan() {
		r.t.Fatalf("no answer: %v", r.lines.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(r.lines.Bytes(), &m); err != nil {
		r.t.Fatalf("answer %s: %v", r.lines.Bytes(), err)
	}
	return m
}

func (r *rawStdio) initialize() {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := r.next(); m["id"] != float64(1) || m["result"] == nil {
		r.t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func TestMCPStdioMalformedLine(t *testing.T) {
	r := startRawStdio(t)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call",`)
	if m := r.next(); m["id"] != nil || m["error"].(map[string]any)["code"] != float64(-32700) {
		t.Fatalf("a malformed line: %v", m)
	}
	r.initialize()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}`)
	if m := r.next(); m["id"] != float64(2) || m["result"] == nil || m["result"].(map[string]any)["isError"] == true {
		t.Fatalf("ping after the malformed line: %v", m)
	}
}

const heldProcedure = "linkhub.v1.LinkService/GetLink"

// holdGetLink makes the test server hold the next GetLink until its client
// cancels it; the returned wait blocks until the call is held, check until
// the server saw it cancelled.
func holdGetLink(t *testing.T) (held, cancelled func()) {
	t.Helper()
	ctl := control(needServer(t))
	ctx := ctxT(t)
	if _, err := ctl.HoldNext(ctx, &linkhubv1.HoldNextRequest{Procedure: heldProcedure}); err != nil {
		t.Fatal(err)
	}
	before, err := ctl.GetHeld(ctx, &linkhubv1.GetHeldRequest{})
	if err != nil {
		t.Fatal(err)
	}
	poll := func(what string, done func(*linkhubv1.GetHeldResponse) bool) {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			st, err := ctl.GetHeld(ctx, &linkhubv1.GetHeldRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if done(st) {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: the server holds %d calls, saw %v cancelled", what, st.Holding, st.Cancelled)
			}
		}
	}
	return func() { poll("held", func(st *linkhubv1.GetHeldResponse) bool { return st.Holding == 1 }) },
		func() {
			poll("cancelled", func(st *linkhubv1.GetHeldResponse) bool {
				return st.Holding == 0 && len(st.Cancelled) == len(before.Cancelled)+1 && st.Cancelled[len(st.Cancelled)-1] == heldProcedure
			})
		}
}

func TestMCPCancelReachesTheServer(t *testing.T) {
	resetServer(t)
	args := map[string]any{"id": newUUID()}

	// The SDK's client sends notifications/cancelled when the call's
	// context ends.
	clientCancels := func(t *testing.T, c *mcpClient) {
		held, cancelled := holdGetLink(t)
		ctx, cancel := context.WithCancel(context.Background())
		errs := make(chan error, 1)
		go func() {
			_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "links_get", Arguments: args})
			errs <- err
		}()
		held()
		cancel()
		if err := <-errs; err == nil {
			t.Fatal("the cancelled call succeeded")
		}
		cancelled()
	}
	t.Run("notifications/cancelled over stdio", func(t *testing.T) { clientCancels(t, stdioClient(t)) })

	t.Run("a stdio client that goes away", func(t *testing.T) {
		r := startRawStdio(t)
		r.initialize()
		held, cancelled := holdGetLink(t)
		b, _ := json.Marshal(args)
		r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"links_get","arguments":` + string(b) + `}}`)
		held()
		r.in.Close()
		cancelled()
	})

	t.Run("notifications/cancelled over HTTP with sessions", func(t *testing.T) {
		clientCancels(t, httpClient(t, httpServer(t), "2025-11-25"))
	})

	t.Run("a stateless HTTP client that goes away", func(t *testing.T) {
		url := httpServer(t)
		held, cancelled := holdGetLink(t)
		b, _ := json.Marshal(args)
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"links_get","arguments":` + string(b) + `,` + meta + `}}`
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "links_get")
		errs := make(chan error, 1)
		go func() {
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			errs <- err
		}()
		held()
		cancel() // the request's connection is closed under the server
		<-errs
		cancelled()
	})
}
