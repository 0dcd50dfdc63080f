package redisstore

// The store against a real redis-server (redistest): the scripts are the
// canonical ones, the layout vectors (e2e/vectors/store/layout.json), the
// expired refusals, TTLs, NOSCRIPT, concurrent clients and a server
// killed and restarted. The executor's refusals of corrupt states run in
// e2e/go, through generated code.

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
)

type layout struct {
	Scripts map[string]string `json:"scripts"`
	Cases   []struct {
		Name      string `json:"name"`
		Handle    string `json:"handle"`
		KeyPrefix string `json:"keyPrefix"`
		Key       string `json:"key"`
		Epoch     string `json:"epoch"`
		Steps     []struct {
			Register [][2]string `json:"register"`
			State    string      `json:"state"`
		} `json:"steps"`
		Hash map[string]string `json:"hash"`
	} `json:"cases"`
	Refusals []struct {
		Name          string            `json:"name"`
		Setup         map[string]string `json:"setup"`
		RegisterEpoch string            `json:"registerEpoch"`
		Load          bool              `json:"load"`
		Error         string            `json:"error"`
	} `json:"refusals"`
}

// vectorsDir is e2e/vectors/store, or $AITOOLS_VECTORS/store.
func vectorsDir() string {
	if dir := os.Getenv("AITOOLS_VECTORS"); dir != "" {
		return filepath.Join(dir, "store")
	}
	return filepath.Join("..", "..", "..", "e2e", "vectors", "store")
}

func loadLayout(t *testing.T) layout {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir(), "layout.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l layout
	if err := json.Unmarshal(b, &l); err != nil || len(l.Cases) == 0 || len(l.Refusals) == 0 {
		t.Fatalf("layout.json: %v", err)
	}
	return l
}

func TestScriptsMatchTheVectors(t *testing.T) {
	l := loadLayout(t)
	for name, embedded := range map[string]string{"create.lua": createLua, "load.lua": loadLua, "register.lua": registerLua} {
		sum := sha1.Sum([]byte(embedded))
		if got := hex.EncodeToString(sum[:]); got != l.Scripts[name] {
			t.Errorf("%s: SHA-1 %s, layout.json says %s: a changed script needs a new layout.json", name, got, l.Scripts[name])
		}
	}
	if createScript.Hash() != l.Scripts["create.lua"] || registerScript.Hash() != l.Scripts["register.lua"] || loadScript.Hash() != l.Scripts["load.lua"] {
		t.Error("a script's EVALSHA hash is not its SHA-1")
	}
}

func TestLayoutVectors(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	for _, c := range loadLayout(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			s := New(client, Options{KeyPrefix: c.KeyPrefix})
			if s.Key(c.Handle) != c.Key {
				t.Fatalf("key %q, want %q", s.Key(c.Handle), c.Key)
			}
			if created, err := s.create(ctx, c.Handle, c.Epoch); !created || err != nil {
				t.Fatalf("create: %v %v", created, err)
			}
			if created, err := s.create(ctx, c.Handle, c.Epoch); created || err != nil {
				t.Fatalf("create again: %v %v", created, err)
			}
			for i, step := range c.Steps {
				state, err := s.Register(ctx, c.Handle, c.Epoch, step.Register)
				if err != nil || state != step.State {
					t.Fatalf("step %d: %s %v\nwant %s", i, state, err, step.State)
				}
				epoch, loaded, err := s.Load(ctx, c.Handle)
				if err != nil || epoch != c.Epoch || loaded != step.State {
					t.Fatalf("step %d: load %s %s %v", i, epoch, loaded, err)
				}
			}
			hash, err := client.HGetAll(ctx, c.Key).Result()
			if err != nil || !reflect.DeepEqual(hash, c.Hash) {
				t.Fatalf("HGETALL %v %v\nwant %v", hash, err, c.Hash)
			}
			if err := s.Delete(ctx, c.Handle); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Load(ctx, c.Handle); !errors.Is(err, ErrConversationExpired) {
				t.Fatalf("deleted: %v", err)
			}
		})
	}
}

// TestRefusals: the vectors' expired cases are ErrConversationExpired, the
// corrupt ones load as the state the runtime refuses (e2e/go runs them
// through the generated executor).
func TestRefusals(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	s := New(client, Options{})
	for i, r := range loadLayout(t).Refusals {
		t.Run(r.Name, func(t *testing.T) {
			handle := fmt.Sprintf("refusal-%d", i)
			if r.Setup != nil {
				if err := client.HSet(ctx, s.Key(handle), r.Setup).Err(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if r.Load {
				var state string
				_, state, err = s.Load(ctx, handle)
				if r.Error == "conversation-corrupt" {
					if err != nil || !strings.HasPrefix(state, `{"aliases":`) {
						t.Fatalf("load: %s %v", state, err)
					}
					return
				}
			} else {
				_, err = s.Register(ctx, handle, r.RegisterEpoch, [][2]string{{"acct", "0b6f0009-0000-4000-8000-000000000009"}})
			}
			var expired interface{ ConversationExpired() bool }
			if r.Error != "conversation-expired" || !errors.Is(err, ErrConversationExpired) || !errors.As(err, &expired) || !expired.ConversationExpired() {
				t.Fatalf("error %v, want %s", err, r.Error)
			}
			if n, _ := client.Exists(ctx, s.Key(handle)).Result(); r.Setup == nil && n != 0 {
				t.Fatal("a refused call made the conversation")
			}
		})
	}
}

// TestStateOfOddValues: a version or counter that is not an integer reaches
// the runtime as a JSON string, which it refuses.
func TestStateOfOddValues(t *testing.T) {
	epoch, state, err := stateOf([]any{"v", "1x", "epoch", "e", "n:acct", "01", "u:x", "acct-1", "other", "y"})
	if err != nil || epoch != "e" || state != `{"aliases":{},"counters":{"acct":"01"},"version":"1x"}` {
		t.Fatalf("%s %s %v", epoch, state, err)
	}
	for _, reply := range []any{[]any{"v"}, []any{"v", int64(1)}, int64(1), "x", nil} {
		var corrupt interface{ ConversationCorrupt() bool }
		if _, _, err := stateOf(reply); !errors.Is(err, ErrConversationCorrupt) || !errors.As(err, &corrupt) || !corrupt.ConversationCorrupt() {
			t.Fatalf("reply %v: %v", reply, err)
		}
	}
}

// TestNames: a value that is not a UUID (an operation's name, CONTRACT31 L)
// registers, keeps its alias and comes back as written.
func TestNames(t *testing.T) {
	server := redistest.Start(t)
	s := New(server.Client(nil), Options{})
	ctx := context.Background()
	handle, err := s.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	epoch, _, err := s.Load(ctx, handle)
	if err != nil {
		t.Fatal(err)
	}
	name := "workspaces/w 1/operations/7&<x>"
	pairs := [][2]string{{"operation", name}, {"link", "0a1b2c3d-0000-4000-8000-000000000001"}, {"operation", name}}
	if _, err := s.Register(ctx, handle, epoch, pairs); err != nil {
		t.Fatal(err)
	}
	_, state, err := s.Load(ctx, handle)
	var got struct {
		Aliases  map[string]string `json:"aliases"`
		Counters map[string]int    `json:"counters"`
	}
	if err != nil || json.Unmarshal([]byte(state), &got) != nil || got.Aliases["operation-1"] != name || got.Counters["operation"] != 1 || len(got.Aliases) != 2 {
		t.Fatalf("state %s %v", state, err)
	}
}

// TestCreateWithSuffix: the MCP server's key of a handle bound to a caller
// (handle + "." + tag) is a conversation of its own; the bare handle is not.
func TestCreateWithSuffix(t *testing.T) {
	server := redistest.Start(t)
	s := New(server.Client(nil), Options{})
	ctx := context.Background()
	key, err := s.CreateWithSuffix(ctx, ".K9gGyX8OAK8aH8Myj6djqS")
	if err != nil {
		t.Fatal(err)
	}
	handle, ok := strings.CutSuffix(key, ".K9gGyX8OAK8aH8Myj6djqS")
	if !ok || len(handle) != 22 {
		t.Fatalf("key %q", key)
	}
	if _, _, err := s.Load(ctx, key); err != nil {
		t.Fatalf("load %q: %v", key, err)
	}
	if _, _, err := s.Load(ctx, handle); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("the bare handle loads: %v", err)
	}
}

// TestKeyOfAnotherType: a conversation key that is not a hash (WRONGTYPE)
// is a corrupt conversation, and is left alone.
func TestKeyOfAnotherType(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	s := New(client, Options{})
	if err := client.Set(ctx, s.Key("str"), "x", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, "str"); !errors.Is(err, ErrConversationCorrupt) || !strings.HasPrefix(err.Error(), "WRONGTYPE") {
		t.Fatalf("load: %v", err)
	}
	if _, err := s.Register(ctx, "str", "e", nil); !errors.Is(err, ErrConversationCorrupt) {
		t.Fatalf("register: %v", err)
	}
	if v := client.Get(ctx, s.Key("str")).Val(); v != "x" {
		t.Fatalf("the key became %q", v)
	}
}

func TestTTLAndNoScript(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	s := New(client, Options{TTL: 300 * time.Millisecond})
	handle, err := s.Create(ctx)
	if err != nil || len(handle) != 22 {
		t.Fatalf("create: %q %v", handle, err)
	}
	if ttl := client.PTTL(ctx, s.Key(handle)).Val(); ttl <= 0 || ttl > 300*time.Millisecond {
		t.Fatalf("PTTL %v", ttl)
	}
	// The scripts are loaded again after SCRIPT FLUSH (NOSCRIPT → EVAL).
	if err := client.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	for range 4 { // renewed by each Load and Register, 200 ms apart
		time.Sleep(200 * time.Millisecond)
		epoch, _, err := s.Load(ctx, handle)
		if err != nil {
			t.Fatalf("renewed load: %v", err)
		}
		if _, err := s.Register(ctx, handle, epoch, nil); err != nil {
			t.Fatalf("renewed register: %v", err)
		}
	}
	time.Sleep(400 * time.Millisecond)
	if _, _, err := s.Load(ctx, handle); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("idle 400 ms: %v", err)
	}
	if New(client, Options{}).ttl != "1800000" {
		t.Fatal("default TTL")
	}
}

// TestConcurrentClients: 16 clients register overlapping UUIDs in one
// conversation at once: each UUID gets one alias, each alias one UUID,
// numbering has no gaps, and every reply agrees with the final state.
func TestConcurrentClients(t *testing.T) {
	server := redistest.Start(t)
	ctx := context.Background()
	s := New(server.Client(nil), Options{})
	handle, _ := s.Create(ctx)
	epoch, _, _ := s.Load(ctx, handle)
	uuid := func(n int) string { return fmt.Sprintf("0b6f%04x-0000-4000-8000-%012d", n, n) }
	var wg sync.WaitGroup
	states := make(chan string, 16*40)
	errs := make(chan error, 16*40)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := New(server.Client(nil), Options{})
			for i := range 40 {
				n := (w*7 + i*3) % 200 // overlapping between workers
				state, err := ws.Register(ctx, handle, epoch, [][2]string{{"acct", uuid(n)}, {"acct", uuid(n + 1)}})
				if err != nil {
					errs <- err
					return
				}
				states <- state
			}
		}()
	}
	wg.Wait()
	close(states)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	_, final, _ := s.Load(ctx, handle)
	var st struct {
		Aliases  map[string]string `json:"aliases"`
		Counters map[string]int    `json:"counters"`
	}
	if err := json.Unmarshal([]byte(final), &st); err != nil {
		t.Fatal(err)
	}
	n := st.Counters["acct"]
	seen := map[string]bool{}
	for i := 1; i <= n; i++ {
		u, ok := st.Aliases[fmt.Sprintf("acct-%d", i)]
		if !ok || seen[u] {
			t.Fatalf("acct-%d: %q (gap or duplicate)", i, u)
		}
		seen[u] = true
	}
	if len(st.Aliases) != n || n == 0 {
		t.Fatalf("%d aliases, counter %d", len(st.Aliases), n)
	}
	for state := range states {
		var part struct {
			Aliases map[string]string `json:"aliases"`
		}
		_ = json.Unmarshal([]byte(state), &part)
		for alias, u := range part.Aliases {
			if st.Aliases[alias] != u {
				t.Fatalf("a reply gave %s to %s, the final state %s", alias, u, st.Aliases[alias])
			}
		}
	}
}

// TestServerKilledAndRestarted: while Redis is down every operation fails
// with the client's error (never expired, never a state); after a restart
// without persistence the old conversation is expired, and never made
// again, and new ones work.
func TestServerKilledAndRestarted(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(&redis.Options{DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, MaxRetries: -1})
	ctx := context.Background()
	s := New(client, Options{})
	handle, _ := s.Create(ctx)
	epoch, _, _ := s.Load(ctx, handle)
	if _, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0001-0000-4000-8000-000000000001"}}); err != nil {
		t.Fatal(err)
	}
	server.Kill()
	if _, err := s.Create(ctx); err == nil {
		t.Fatal("create with Redis down")
	}
	_, state, err := s.Load(ctx, handle)
	if err == nil || errors.Is(err, ErrConversationExpired) || state != "" {
		t.Fatalf("load with Redis down: %q %v", state, err)
	}
	if _, err := s.Register(ctx, handle, epoch, nil); err == nil || errors.Is(err, ErrConversationExpired) {
		t.Fatalf("register with Redis down: %v", err)
	}
	server.Restart()
	if _, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0002-0000-4000-8000-000000000002"}}); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("register after the restart: %v", err)
	}
	if _, _, err := s.Load(ctx, handle); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("load after the restart: %v", err)
	}
	if n := client.Exists(ctx, s.Key(handle)).Val(); n != 0 {
		t.Fatal("the lost conversation was made again")
	}
	fresh, err := s.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	epoch, _, _ = s.Load(ctx, fresh)
	if state, err := s.Register(ctx, fresh, epoch, [][2]string{{"acct", "0b6f0003-0000-4000-8000-000000000003"}}); err != nil || !strings.Contains(state, `"acct-1":"0b6f0003`) {
		t.Fatalf("new conversation: %s %v", state, err)
	}
}
