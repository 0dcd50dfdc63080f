package aitools

// Bounded results and deadlines against the test server on a real socket:
// a result over the limit is refused, a stream stops as soon as its text is
// over it, and a call past its deadline is cancelled, the server seeing the
// cancellation.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
)

func TestResultTooLarge(t *testing.T) {
	conn, _ := startServer(t)
	e := NewExecutor(conn)
	out, err := e.Execute(context.Background(), "accounts_list", `{"count":3,"contacts_per_account":0}`)
	if err != nil {
		t.Fatal(err)
	}
	e.MaxResultBytes = len(out) - 1
	_, err = e.Execute(context.Background(), "accounts_list", `{"count":3,"contacts_per_account":0}`)
	want := fmt.Sprintf("result too large: %d bytes, over the limit of %d; ask for less (a smaller page size or a filter)", len(out), len(out)-1)
	wantToolError(t, err, "result-too-large", codes.ResourceExhausted, want)
	e.MaxResultBytes = len(out)
	if _, err := e.Execute(context.Background(), "accounts_list", `{"count":3,"contacts_per_account":0}`); err != nil {
		t.Fatalf("a result of exactly the limit: %v", err)
	}
	e.MaxResultBytes = -1
	if _, err := e.Execute(context.Background(), "accounts_list", `{"count":500,"contacts_per_account":3}`); err != nil {
		t.Fatalf("no limit: %v", err)
	}
	e.MaxResultBytes = 0 // the default, 100000 bytes
	_, err = e.Execute(context.Background(), "accounts_list", `{"count":500,"contacts_per_account":3}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "result-too-large" || !strings.HasSuffix(te.Message, "over the limit of 100000; ask for less (a smaller page size or a filter)") {
		t.Fatalf("default limit: %v", err)
	}
}

// TestStreamStopsOverTheLimit: 999 accounts, about 100 bytes each, against
// a limit of 2,000 bytes: the stream stops after some 20 messages (the
// message says "more than", which only a stopped stream says).
func TestStreamStopsOverTheLimit(t *testing.T) {
	conn, _ := startServer(t)
	e := NewExecutor(conn)
	e.MaxResultBytes = 2000
	_, err := e.Execute(context.Background(), "accounts_watch", `{"count":999}`)
	wantToolError(t, err, "result-too-large", codes.ResourceExhausted, "result too large: more than 2000 bytes; ask for less (a smaller page size or a filter)")
	// Aliases shorten the text: the limit is on what the model reads. Two
	// accounts read as about 130 bytes, their raw text is about 190.
	out, err := e.Execute(context.Background(), "accounts_watch", `{"count":2}`)
	if err != nil {
		t.Fatal(err)
	}
	e.MaxResultBytes = len(out)
	if _, err := e.Execute(context.Background(), "accounts_watch", `{"count":2}`); err != nil {
		t.Fatalf("a stream of exactly the limit once aliased: %v", err)
	}
}

func TestDeadlines(t *testing.T) {
	conn, srv := startServer(t)
	saved := toolTimeouts
	t.Cleanup(func() { toolTimeouts = saved })
	hold := `{"count":-1}`
	run := func(name string, e *Executor, ctx context.Context) {
		t.Helper()
		before := srv.cancelled.Load()
		_, err := e.Execute(ctx, "accounts_watch", hold)
		var te *ToolError
		if !errors.As(err, &te) || te.Code != codes.DeadlineExceeded || te.Reason != "server-error" || !strings.HasPrefix(te.Message, "rpc error: code = DeadlineExceeded desc = ") {
			t.Fatalf("%s: %v", name, err)
		}
		waitFor(t, name, func() bool { return srv.cancelled.Load() == before+1 })
	}
	e := NewExecutor(conn)
	e.Timeout = 50 * time.Millisecond
	run("Executor.Timeout", e, context.Background())
	e.Timeout = time.Hour
	toolTimeouts = map[string]time.Duration{"accounts_watch": 50 * time.Millisecond}
	run("the tool's timeout wins over Executor.Timeout", e, context.Background())
	toolTimeouts = map[string]time.Duration{"accounts_watch": time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	run("a shorter deadline of the caller wins", e, ctx)
	toolTimeouts = map[string]time.Duration{}
	e.Timeout = 0
	ctx, deadline := e.callContext(context.Background(), "accounts_watch")
	defer deadline()
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > DefaultToolTimeout || time.Until(d) < DefaultToolTimeout-time.Minute {
		t.Fatalf("default deadline %v %v", d, ok)
	}
}

// waitFor polls cond for up to 10 s: the server learns of a cancellation
// after the client returns.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: the server did not see the cancellation", what)
		}
	}
}

// TestConversationExecutorBounds: a ConversationExecutor's MaxResultBytes
// and Timeout hold for its calls as an Executor's do.
func TestConversationExecutorBounds(t *testing.T) {
	conn, srv := startServer(t)
	ctx := context.Background()
	c := NewConversationExecutor(conn, NewMemoryConversationStore(0))
	handle, err := c.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.MaxResultBytes = 100
	_, err = c.Execute(ctx, handle, "accounts_list", `{"count":3,"contacts_per_account":0}`)
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "result-too-large" || !strings.HasSuffix(te.Message, "over the limit of 100; ask for less (a smaller page size or a filter)") {
		t.Fatalf("limit: %v", err)
	}
	c.MaxResultBytes = 0
	c.Timeout = 50 * time.Millisecond
	before := srv.cancelled.Load()
	_, err = c.Execute(ctx, handle, "accounts_watch", `{"count":-1}`)
	if !errors.As(err, &te) || te.Code != codes.DeadlineExceeded {
		t.Fatalf("timeout: %v", err)
	}
	waitFor(t, "ConversationExecutor.Timeout", func() bool { return srv.cancelled.Load() == before+1 })
}
