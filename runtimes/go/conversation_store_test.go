package aitools

// The conversation store in memory and the call through a store
// (docs/store.md): TTL, epochs, the layout vectors' numbering
// (e2e/vectors/store/layout.json), the executor's refusals, and two
// executors continuing one conversation concurrently (run with -race).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// storeLayout is e2e/vectors/store/layout.json.
type storeLayout struct {
	Cases []struct {
		Name  string `json:"name"`
		Steps []struct {
			Register [][2]string `json:"register"`
			State    string      `json:"state"`
		} `json:"steps"`
	} `json:"cases"`
}

func loadStoreLayout(t *testing.T) storeLayout {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir(t), "store", "layout.json"))
	if err != nil {
		t.Fatal(err)
	}
	var layout storeLayout
	if err := json.Unmarshal(b, &layout); err != nil || len(layout.Cases) == 0 {
		t.Fatalf("layout.json: %v", err)
	}
	return layout
}

func TestMemoryConversationStore(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryConversationStore(time.Minute)
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	a, err := s.Create(ctx)
	if err != nil || len(a) != 22 {
		t.Fatalf("handle %q, %v", a, err)
	}
	b, _ := s.Create(ctx)
	if a == b {
		t.Fatal("two handles alike")
	}
	epoch, state, err := s.Load(ctx, a)
	if err != nil || len(epoch) != 32 || strings.Trim(epoch, "0123456789abcdef") != "" || state != `{"aliases":{},"counters":{},"version":1}` {
		t.Fatalf("load: %q %s %v", epoch, state, err)
	}
	if _, otherEpoch, _ := s.Load(ctx, b); otherEpoch == epoch {
		t.Fatal("two epochs alike")
	}
	now = now.Add(50 * time.Second)
	state, err = s.Register(ctx, a, epoch, [][2]string{{"acct", testUUID(1)}})
	if err != nil || state != `{"aliases":{"acct-1":"`+testUUID(1)+`"},"counters":{"acct":1},"version":1}` {
		t.Fatalf("register: %s %v", state, err)
	}
	if _, err := s.Register(ctx, a, strings.Repeat("0", 32), nil); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("another epoch: %v", err)
	}
	now = now.Add(50 * time.Second) // a renewed 50 s ago, b idle 100 s
	if _, _, err := s.Load(ctx, b); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("expired: %v", err)
	}
	var expired interface{ ConversationExpired() bool }
	if _, err := s.Register(ctx, b, epoch, nil); !errors.As(err, &expired) || !expired.ConversationExpired() {
		t.Fatalf("expired register: %v", err)
	}
	if _, _, err := s.Load(ctx, a); err != nil {
		t.Fatalf("renewed: %v", err)
	}
	if err := s.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, a); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("deleted: %v", err)
	}
	if err := s.Delete(ctx, a); err != nil {
		t.Fatalf("unknown handle: %v", err)
	}
}

// TestMemoryStoreLayoutNumbering: the store in memory numbers the layout
// vectors' registrations as the Redis script does.
func TestMemoryStoreLayoutNumbering(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadStoreLayout(t).Cases {
		s := NewMemoryConversationStore(0)
		handle, _ := s.Create(ctx)
		epoch, _, _ := s.Load(ctx, handle)
		for i, step := range c.Steps {
			state, err := s.Register(ctx, handle, epoch, step.Register)
			if err != nil || state != step.State {
				t.Fatalf("%s, step %d: %s %v\nwant %s", c.Name, i, state, err, step.State)
			}
		}
	}
}

// countingStore counts the calls of a store that works.
type countingStore struct {
	ConversationStore
	loads, registers atomic.Int64
}

func (s *countingStore) Load(ctx context.Context, handle string) (string, string, error) {
	s.loads.Add(1)
	return s.ConversationStore.Load(ctx, handle)
}

func (s *countingStore) Register(ctx context.Context, handle, epoch string, pairs [][2]string) (string, error) {
	s.registers.Add(1)
	return s.ConversationStore.Register(ctx, handle, epoch, pairs)
}

// TestConversationExecutor: a conversation started by one executor goes on
// in another with the same store; a stream registers in one batch; an
// ended conversation is refused.
func TestConversationExecutor(t *testing.T) {
	conn, _ := startServer(t)
	ctx := context.Background()
	store := &countingStore{ConversationStore: NewMemoryConversationStore(0)}
	first, second := NewConversationExecutor(conn, store), NewConversationExecutor(conn, store)
	handle, err := first.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := first.Execute(ctx, handle, "accounts_list", `{"count":2,"contacts_per_account":1}`)
	out = string(compactJSON([]byte(out))) // protojson may add spaces
	if err != nil || !strings.Contains(out, `"id":"acct-2"`) || !strings.Contains(out, `"id":"contact-2","owner_id":"acct-2"`) {
		t.Fatalf("list: %s %v", out, err)
	}
	out, err = second.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-2","target_id":"acct-1","note":""}`)
	out = string(compactJSON([]byte(out)))
	if err != nil || !strings.Contains(out, `"received_source_id":"acct-2"`) {
		t.Fatalf("merge: %s %v", out, err)
	}
	_, err = second.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-3","target_id":"acct-1","note":""}`)
	if err == nil || err.Error() != "invalid arguments, nothing was sent:\n- \"source_id\": unknown alias \"acct-3\"; valid acct aliases: acct-1, acct-2" {
		t.Fatalf("unknown alias: %v", err)
	}
	registers := store.registers.Load()
	out, err = second.Execute(ctx, handle, "accounts_watch", `{"count":3}`)
	out = string(compactJSON([]byte(out)))
	if err != nil || !strings.Contains(out, `"id":"acct-5"`) || store.registers.Load() != registers+1 {
		t.Fatalf("stream: %s %v, %d registers", out, err, store.registers.Load()-registers)
	}
	// Nothing new to register: no Register.
	if _, err := first.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-5","target_id":"acct-1","note":""}`); err != nil || store.registers.Load() != registers+1 {
		t.Fatalf("merge: %v, %d registers", err, store.registers.Load()-registers)
	}
	if err := first.End(ctx, handle); err != nil {
		t.Fatal(err)
	}
	_, err = second.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-1","target_id":"acct-1","note":""}`)
	wantToolError(t, err, "conversation-expired", codes.NotFound, `conversation "`+handle+`" expired or unknown: start a new conversation`)
}

// stubStore answers Load and Register with fixed states and fails as told.
type stubStore struct {
	state, registerState    string
	loadErr, registerErr    error
	createErr               error
	registered              [][2]string
	MemoryConversationStore // Delete
}

func (s *stubStore) Create(context.Context) (string, error) { return "h", s.createErr }

func (s *stubStore) Load(context.Context, string) (string, string, error) {
	return "e", s.state, s.loadErr
}

func (s *stubStore) Register(_ context.Context, _, _ string, pairs [][2]string) (string, error) {
	s.registered = append(s.registered, pairs...)
	if s.registerState != "" {
		return s.registerState, s.registerErr
	}
	return s.state, s.registerErr
}

// corruptError is a store's error for a conversation it cannot read.
type corruptError struct{}

func (corruptError) Error() string {
	return "WRONGTYPE Operation against a key holding the wrong kind of value"
}

func (corruptError) ConversationCorrupt() bool { return true }

func wantToolError(t *testing.T, err error, reason string, code codes.Code, msg string) {
	t.Helper()
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != reason || status.Code(err) != code || err.Error() != msg {
		t.Fatalf("error %v (%T), want %s %s: %s", err, err, reason, code, msg)
	}
}

// TestConversationRefusals: what the executor makes of a store's failures
// and of a state it cannot read; nothing is shown from an unconfirmed
// state.
func TestConversationRefusals(t *testing.T) {
	conn, srv := startServer(t)
	ctx := context.Background()
	empty := `{"aliases":{},"counters":{},"version":1}`
	refused := errors.New("dial tcp 127.0.0.1:1: connect:\n  connection refused")
	for _, c := range []struct {
		name   string
		store  *stubStore
		reason string
		code   codes.Code
		msg    string
		called bool // the RPC was made
	}{
		{"another version", &stubStore{state: `{"aliases":{},"counters":{},"version":2}`}, "conversation-corrupt", codes.DataLoss,
			`conversation "h" cannot be read: restore alias state: unsupported version 2`, false},
		{"one UUID under two aliases", &stubStore{state: `{"aliases":{"acct-1":"` + testUUID(1) + `","acct-2":"` + testUUID(1) + `"},"counters":{"acct":2},"version":1}`},
			"conversation-corrupt", codes.DataLoss, `conversation "h" cannot be read: restore alias state: UUID "` + testUUID(1) + `" has two aliases: "acct-1" and "acct-2"`, false},
		{"not JSON", &stubStore{state: `{`}, "conversation-corrupt", codes.DataLoss, `conversation "h" cannot be read: restore alias state: invalid JSON: unexpected end of JSON input`, false},
		{"the store cannot read it", &stubStore{loadErr: corruptError{}}, "conversation-corrupt", codes.DataLoss,
			`conversation "h" cannot be read: WRONGTYPE Operation against a key holding the wrong kind of value`, false},
		{"load fails", &stubStore{loadErr: refused}, "store-unavailable", codes.Unavailable,
			"conversation store unavailable: dial tcp 127.0.0.1:1: connect: connection refused", false},
		{"load expired", &stubStore{loadErr: fmt.Errorf("gone: %w", ErrConversationExpired)}, "conversation-expired", codes.NotFound,
			`conversation "h" expired or unknown: start a new conversation`, false},
		{"register fails", &stubStore{state: empty, registerErr: refused}, "store-unavailable", codes.Unavailable,
			"conversation store unavailable: dial tcp 127.0.0.1:1: connect: connection refused", true},
		{"register expired", &stubStore{state: empty, registerErr: ErrConversationExpired}, "conversation-expired", codes.NotFound,
			`conversation "h" expired or unknown: start a new conversation`, true},
		{"register returns a corrupt state", &stubStore{state: empty, registerState: empty + " x"}, "conversation-corrupt", codes.DataLoss,
			`conversation "h" cannot be read: restore alias state: invalid JSON: invalid character 'x' after top-level value`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := srv.calls.Load()
			out, err := NewConversationExecutor(conn, c.store).Execute(ctx, "h", "accounts_list", `{"count":1,"contacts_per_account":0}`)
			if out != "" {
				t.Fatalf("result shown: %s", out)
			}
			wantToolError(t, err, c.reason, c.code, c.msg)
			if called := srv.calls.Load() != calls; called != c.called {
				t.Fatalf("RPC made: %v", called)
			}
			if c.called && len(c.store.registered) != 1 {
				t.Fatalf("registered %v", c.store.registered)
			}
		})
	}
	_, err := NewConversationExecutor(conn, &stubStore{createErr: refused}).Start(ctx)
	wantToolError(t, err, "store-unavailable", codes.Unavailable, "conversation store unavailable: dial tcp 127.0.0.1:1: connect: connection refused")
}

// TestConversationConcurrentExecutors: two executors (as two processes
// would) list accounts in one conversation at once: every UUID gets one
// alias, numbering has no gaps, and each result shows the aliases the
// store gave.
func TestConversationConcurrentExecutors(t *testing.T) {
	conn, _ := startServer(t)
	ctx := context.Background()
	store := NewMemoryConversationStore(0)
	executors := []*ConversationExecutor{NewConversationExecutor(conn, store), NewConversationExecutor(conn, store)}
	handle, _ := executors[0].Start(ctx)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(e *ConversationExecutor) {
			defer wg.Done()
			if _, err := e.Execute(ctx, handle, "accounts_list", `{"count":3,"contacts_per_account":0}`); err != nil {
				errs <- err
			}
		}(executors[i%2])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	_, state, _ := store.Load(ctx, handle)
	m := NewAliasManager()
	if err := m.RestoreState([]byte(state)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 120; i++ {
		if uuid := m.ResolveAlias(fmt.Sprintf("acct-%d", i)); !isUUID(uuid) {
			t.Fatalf("acct-%d missing", i)
		}
	}
	if m.counters["acct"] != 120 || len(m.aliases) != 120 {
		t.Fatalf("%d aliases, counter %d", len(m.aliases), m.counters["acct"])
	}
}
