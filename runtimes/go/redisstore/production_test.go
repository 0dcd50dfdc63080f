package redisstore

// Redis as production runs it (issue 34), against real redis-servers: a
// hung server (SIGSTOP) answered at the store's timeout whatever the
// client's settings, a dropped connection, TLS with the least-privilege
// ACL user of docs/production.md, a three-master cluster, and the options'
// checks.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
)

// TestHungRedis: with go-redis's defaults (ReadTimeout 5 s, 3 retries:
// 10 s on a hung server) and without ContextTimeoutEnabled, every
// operation returns at the store's 400 ms with "redis did not answer
// within 400 ms"; after the server continues, the same store works. With
// ContextTimeoutEnabled and no retries the client's own i/o timeout at
// that deadline is the same error.
func TestHungRedis(t *testing.T) {
	server := redistest.Start(t)
	ctx := context.Background()
	for _, opts := range []*redis.Options{{}, {ContextTimeoutEnabled: true}, {ContextTimeoutEnabled: true, MaxRetries: -1}} {
		t.Run(fmt.Sprintf("ContextTimeoutEnabled=%v,MaxRetries=%d", opts.ContextTimeoutEnabled, opts.MaxRetries), func(t *testing.T) {
			s := New(server.Client(opts), Options{Timeout: 400 * time.Millisecond})
			handle, err := s.Create(ctx)
			if err != nil {
				t.Fatal(err)
			}
			epoch, _, _ := s.Load(ctx, handle)
			server.Pause()
			resumed := false
			defer func() {
				if !resumed {
					server.Resume()
				}
			}()
			for name, op := range map[string]func() error{
				"create": func() error { _, err := s.Create(ctx); return err },
				"load":   func() error { _, _, err := s.Load(ctx, handle); return err },
				"register": func() error {
					_, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0001-0000-4000-8000-000000000001"}})
					return err
				},
				"delete": func() error { return s.Delete(ctx, "other") },
			} {
				start := time.Now()
				err := op()
				took := time.Since(start)
				t.Logf("%s on a hung server: %v after %v", name, err, took.Round(time.Millisecond))
				if err == nil || err.Error() != "redis did not answer within 400 ms" || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrConversationExpired) {
					t.Fatalf("%s: %v", name, err)
				}
				if took > 3*time.Second { // the client alone: 10 s
					t.Fatalf("%s returned after %v", name, took)
				}
			}
			server.Resume()
			resumed = true
			if _, _, err := s.Load(ctx, handle); err != nil {
				t.Fatalf("load after the server continued: %v", err)
			}
		})
	}
}

// TestCallerDeadlineWins: a context that ends before the store's timeout
// is the caller's error, not the store's text.
func TestCallerDeadlineWins(t *testing.T) {
	server := redistest.Start(t)
	s := New(server.Client(nil), Options{})
	server.Pause()
	defer server.Resume()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, _, err := s.Load(ctx, "h"); !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "redis did not answer") {
		t.Fatalf("load: %v", err)
	}
}

// TestDroppedConnection: after CLIENT KILL closes every connection of the
// store's client, its next operation works (go-redis dials again).
func TestDroppedConnection(t *testing.T) {
	server := redistest.Start(t)
	ctx := context.Background()
	s := New(server.Client(nil), Options{})
	handle, err := s.Create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	killed, err := server.Client(nil).ClientKillByFilter(ctx, "TYPE", "normal", "SKIPME", "yes").Result()
	if err != nil || killed < 1 {
		t.Fatalf("CLIENT KILL: %d %v", killed, err)
	}
	epoch, _, err := s.Load(ctx, handle)
	if err != nil {
		t.Fatalf("load after the connection was dropped: %v", err)
	}
	if _, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0001-0000-4000-8000-000000000001"}}); err != nil {
		t.Fatal(err)
	}
}

// aclUser is the least-privilege ACL line of docs/production.md (Redis
// 7.0; >= 7.2 adds +client|setinfo).
const aclUser = "ai-tools on >s3cret-pass resetkeys ~ai-tools:* resetchannels -@all +evalsha +eval +del +exists +hget +hset +hexists +hincrby +hgetall +pexpire +ping +hello +client|setname"

// setACLUser runs ACL SETUSER line through the admin client.
func setACLUser(t *testing.T, admin *redis.Client, line string) {
	t.Helper()
	args := []any{"ACL", "SETUSER"}
	for _, word := range strings.Fields(line) {
		args = append(args, word)
	}
	if err := admin.Do(context.Background(), args...).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestTLSAndACLUser: over TLS (rediss://, a CA of the test), as the ACL
// user of the documented line, every operation works, the NOSCRIPT
// fallback included; the user can touch nothing else.
func TestTLSAndACLUser(t *testing.T) {
	server := redistest.StartWith(t, redistest.Config{TLS: true})
	ctx := context.Background()
	admin := server.Client(nil)
	setACLUser(t, admin, aclUser)
	opts, err := redis.ParseURL("rediss://ai-tools:s3cret-pass@" + server.Addr + "/0")
	if err != nil || opts.TLSConfig == nil {
		t.Fatalf("ParseURL: %v", err)
	}
	opts.TLSConfig.RootCAs = server.TLS.RootCAs
	opts.ContextTimeoutEnabled = true
	client := redis.NewClient(opts)
	t.Cleanup(func() { client.Close() })
	s := New(client, Options{})
	handle, err := s.Create(ctx)
	if err != nil {
		t.Fatalf("create as the ACL user: %v", err)
	}
	if err := admin.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	epoch, _, err := s.Load(ctx, handle) // NOSCRIPT -> EVAL
	if err != nil {
		t.Fatal(err)
	}
	state, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0001-0000-4000-8000-000000000001"}})
	if err != nil || !strings.Contains(state, `"acct-1":"0b6f0001`) {
		t.Fatalf("register: %s %v", state, err)
	}
	if loaded, err := s.LoadTools(ctx, handle, epoch, []string{"links_get"}); err != nil || !slices.Equal(loaded, []string{"links_get"}) {
		t.Fatalf("load tools as the ACL user: %v %v", loaded, err)
	}
	if loaded, err := s.LoadedTools(ctx, handle); err != nil || !slices.Equal(loaded, []string{"links_get"}) {
		t.Fatalf("loaded tools as the ACL user: %v %v", loaded, err)
	}
	if err := s.Delete(ctx, handle); err != nil {
		t.Fatal(err)
	}
	for _, refused := range []*redis.StatusCmd{client.FlushAll(ctx), client.Set(ctx, "other:key", "x", 0)} {
		if err := refused.Err(); err == nil || !strings.HasPrefix(err.Error(), "NOPERM") {
			t.Fatalf("%v: %v", refused.Args(), err)
		}
	}
	if _, err := New(client, Options{KeyPrefix: "other:"}).Create(ctx); err == nil || !strings.Contains(err.Error(), "NOPERM") {
		t.Fatalf("a prefix outside the user's keys: %v", err)
	}
	plain := redis.NewClient(&redis.Options{Addr: server.Addr, MaxRetries: -1})
	defer plain.Close()
	if err := plain.Ping(ctx).Err(); err == nil {
		t.Fatal("a plain connection to the TLS port answered")
	}
}

// TestCluster: on three masters through a *redis.ClusterClient logged in
// as the ACL user (plus +cluster|slots, which the cluster client reads the
// slots with, and +command, its command table; ACL users are per node),
// conversations land on every node (the handle is the hash tag), and one
// continues through another client (another process) after the node
// holding it lost its script cache.
func TestCluster(t *testing.T) {
	cluster := redistest.StartCluster(t, 3)
	ctx := context.Background()
	for _, n := range cluster.Nodes {
		setACLUser(t, n.Client(nil), aclUser+" +cluster|slots +command")
	}
	user := &redis.ClusterOptions{Username: "ai-tools", Password: "s3cret-pass", ContextTimeoutEnabled: true}
	s := New(cluster.Client(user), Options{})
	nodes := map[string]string{} // node address -> a handle it holds
	for len(nodes) < 3 {
		handle, err := s.Create(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range cluster.Nodes {
			if n.Client(nil).Exists(ctx, s.Key(handle)).Val() == 1 {
				nodes[n.Addr] = handle
			}
		}
		if len(nodes) == 0 {
			t.Fatal("the conversation is on no node")
		}
	}
	other := New(cluster.Client(user), Options{})
	for _, n := range cluster.Nodes {
		handle := nodes[n.Addr]
		epoch, _, err := s.Load(ctx, handle)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0001-0000-4000-8000-000000000001"}}); err != nil {
			t.Fatal(err)
		}
		if err := n.Client(nil).ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		state, err := other.Register(ctx, handle, epoch, [][2]string{{"acct", "0b6f0002-0000-4000-8000-000000000002"}})
		if err != nil || !strings.Contains(state, `"acct-1":"0b6f0001`) || !strings.Contains(state, `"acct-2":"0b6f0002`) {
			t.Fatalf("node %s: %s %v", n.Addr, state, err)
		}
		// Loaded tools: the same one key, the scripts sent again after a flush.
		if loaded, err := s.LoadTools(ctx, handle, epoch, []string{"links_get"}); err != nil || !slices.Equal(loaded, []string{"links_get"}) {
			t.Fatalf("node %s: load tools %v %v", n.Addr, loaded, err)
		}
		if err := n.Client(nil).ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		if loaded, err := other.LoadTools(ctx, handle, epoch, []string{"links_list", "links_get"}); err != nil || !slices.Equal(loaded, []string{"links_get", "links_list"}) {
			t.Fatalf("node %s: load tools %v %v", n.Addr, loaded, err)
		}
		if loaded, err := s.LoadedTools(ctx, handle); err != nil || !slices.Equal(loaded, []string{"links_get", "links_list"}) {
			t.Fatalf("node %s: loaded tools %v %v", n.Addr, loaded, err)
		}
		if err := other.Delete(ctx, handle); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOptionsChecked(t *testing.T) {
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer client.Close()
	s := New(client, Options{})
	if s.MaxAliases() != DefaultMaxAliases || DefaultMaxAliases != 1000 || s.timeout != 5*time.Second {
		t.Fatalf("defaults: %d %v", s.MaxAliases(), s.timeout)
	}
	if New(client, Options{MaxAliases: 7}).MaxAliases() != 7 {
		t.Fatal("MaxAliases")
	}
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Timeout: -time.Second}, "redisstore: Options.Timeout must be positive (got -1s); zero is DefaultTimeout"},
		{Options{MaxAliases: -1}, "redisstore: Options.MaxAliases must be positive (got -1); zero is DefaultMaxAliases"},
	} {
		func() {
			defer func() {
				if r := recover(); r != c.want {
					t.Fatalf("panic %v, want %s", r, c.want)
				}
			}()
			New(client, c.opts)
		}()
	}
}
