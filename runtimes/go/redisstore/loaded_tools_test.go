package redisstore

// Loaded tools on a real redis-server (docs/store.md, "Loaded tools"): the
// scripts and their SHA-1, the vectors of e2e/vectors/store/loaded-tools.json
// (each step, then HGETALL), their refusals, the TTL, NOSCRIPT and 16
// clients loading into one conversation at once.

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
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
)

type loadedToolsVectors struct {
	Scripts map[string]string `json:"scripts"`
	Cases   []struct {
		Name      string `json:"name"`
		Handle    string `json:"handle"`
		KeyPrefix string `json:"keyPrefix"`
		Key       string `json:"key"`
		Epoch     string `json:"epoch"`
		Steps     []struct {
			LoadTools   []string    `json:"loadTools"`
			LoadedTools bool        `json:"loadedTools"`
			Register    [][2]string `json:"register"`
			Load        bool        `json:"load"`
			Loaded      []string    `json:"loaded"`
			State       string      `json:"state"`
		} `json:"steps"`
		Hash map[string]string `json:"hash"`
	} `json:"cases"`
	Refusals []struct {
		Name      string            `json:"name"`
		Setup     map[string]string `json:"setup"`
		LoadTools *struct {
			Epoch string   `json:"epoch"`
			Names []string `json:"names"`
		} `json:"loadTools"`
		Error string `json:"error"`
	} `json:"refusals"`
}

func readLoadedToolsVectors(t *testing.T) loadedToolsVectors {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir(), "loaded-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v loadedToolsVectors
	if err := json.Unmarshal(b, &v); err != nil || len(v.Cases) == 0 || len(v.Refusals) == 0 {
		t.Fatalf("loaded-tools.json: %v", err)
	}
	return v
}

func TestLoadedToolsScripts(t *testing.T) {
	v := readLoadedToolsVectors(t)
	for name, s := range map[string]struct {
		text   string
		script interface{ Hash() string }
	}{"load-tools.lua": {loadToolsLua, loadToolsScript}, "loaded-tools.lua": {loadedToolsLua, loadedToolsScript}} {
		sum := sha1.Sum([]byte(s.text))
		if got := hex.EncodeToString(sum[:]); got != v.Scripts[name] || s.script.Hash() != got {
			t.Errorf("%s: SHA-1 %s (EVALSHA %s), loaded-tools.json says %s: a changed script needs new vectors", name, got, s.script.Hash(), v.Scripts[name])
		}
	}
}

func TestLoadedToolsVectors(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	for _, c := range readLoadedToolsVectors(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			s := New(client, Options{KeyPrefix: c.KeyPrefix})
			if created, err := s.create(ctx, c.Handle, c.Epoch); !created || err != nil {
				t.Fatalf("create: %v %v", created, err)
			}
			if got, err := s.LoadedTools(ctx, c.Handle); err != nil || got == nil || len(got) != 0 {
				t.Fatalf("none loaded: %#v %v", got, err)
			}
			for i, step := range c.Steps {
				var got, want any = nil, step.State
				var err error
				switch {
				case step.LoadTools != nil:
					got, err = s.LoadTools(ctx, c.Handle, c.Epoch, step.LoadTools)
					want = step.Loaded
				case step.LoadedTools:
					got, err = s.LoadedTools(ctx, c.Handle)
					want = step.Loaded
				case step.Register != nil:
					got, err = s.Register(ctx, c.Handle, c.Epoch, step.Register)
				default:
					_, got, err = s.Load(ctx, c.Handle)
				}
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d: %#v %v\nwant %#v", i, got, err, want)
				}
			}
			hash, err := client.HGetAll(ctx, c.Key).Result()
			if err != nil || !reflect.DeepEqual(hash, c.Hash) {
				t.Fatalf("HGETALL %v %v\nwant %v", hash, err, c.Hash)
			}
		})
	}
}

func TestLoadedToolsRefusals(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	s := New(client, Options{})
	for i, r := range readLoadedToolsVectors(t).Refusals {
		t.Run(r.Name, func(t *testing.T) {
			handle := fmt.Sprintf("refusal-%d", i)
			if r.Setup != nil {
				if err := client.HSet(ctx, s.Key(handle), r.Setup).Err(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if r.LoadTools != nil {
				_, err = s.LoadTools(ctx, handle, r.LoadTools.Epoch, r.LoadTools.Names)
			} else {
				_, err = s.LoadedTools(ctx, handle)
			}
			var expired interface{ ConversationExpired() bool }
			var corrupt interface{ ConversationCorrupt() bool }
			switch r.Error {
			case "conversation-expired":
				if !errors.Is(err, ErrConversationExpired) || !errors.As(err, &expired) || !expired.ConversationExpired() {
					t.Fatalf("error %v, want expired", err)
				}
			case "conversation-corrupt":
				if !errors.Is(err, ErrConversationCorrupt) || !errors.As(err, &corrupt) || !corrupt.ConversationCorrupt() {
					t.Fatalf("error %v, want corrupt", err)
				}
			default:
				t.Fatalf("unknown error %q", r.Error)
			}
			hash, _ := client.HGetAll(ctx, s.Key(handle)).Result()
			if want := r.Setup; want == nil && len(hash) != 0 || want != nil && !reflect.DeepEqual(hash, want) {
				t.Fatalf("the hash is %v, was %v", hash, r.Setup)
			}
		})
	}
}

// TestLoadedToolsTTLAndScripts: both operations renew the idle TTL, run
// again by text after SCRIPT FLUSH, and refuse an empty name and a key of
// another type.
func TestLoadedToolsTTLAndScripts(t *testing.T) {
	server := redistest.Start(t)
	client := server.Client(nil)
	ctx := context.Background()
	s := New(client, Options{TTL: time.Minute})
	handle, _ := s.Create(ctx)
	epoch, _, _ := s.Load(ctx, handle)
	key := s.Key(handle)
	client.ScriptFlush(ctx)
	client.PExpire(ctx, key, time.Second)
	if got, err := s.LoadTools(ctx, handle, epoch, []string{"links_get"}); err != nil || !slices.Equal(got, []string{"links_get"}) {
		t.Fatalf("load: %v %v", got, err)
	}
	if ttl := client.PTTL(ctx, key).Val(); ttl < 50*time.Second {
		t.Fatalf("TTL %v after LoadTools", ttl)
	}
	client.PExpire(ctx, key, time.Second)
	if got, err := s.LoadedTools(ctx, handle); err != nil || !slices.Equal(got, []string{"links_get"}) {
		t.Fatalf("loaded: %v %v", got, err)
	}
	if ttl := client.PTTL(ctx, key).Val(); ttl < 50*time.Second {
		t.Fatalf("TTL %v after LoadedTools", ttl)
	}
	if _, err := s.LoadTools(ctx, handle, epoch, []string{"a", ""}); err == nil || err.Error() != `cannot load the tool name "": pass the names of tools` {
		t.Fatalf("empty name: %v", err)
	}
	client.Set(ctx, key, "x", 0)
	var corrupt interface{ ConversationCorrupt() bool }
	for _, err := range []error{errOf(s.LoadedTools(ctx, handle)), errOf(s.LoadTools(ctx, handle, epoch, []string{"b"}))} {
		if !errors.As(err, &corrupt) {
			t.Fatalf("WRONGTYPE: %v", err)
		}
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestConcurrentLoads: 16 clients loading overlapping names into one
// conversation at once keep each name once, at positions 1 to 12.
func TestConcurrentLoads(t *testing.T) {
	server := redistest.Start(t)
	ctx := context.Background()
	first := New(server.Client(nil), Options{})
	handle, _ := first.Create(ctx)
	epoch, _, _ := first.Load(ctx, handle)
	var wg sync.WaitGroup
	for g := range 16 {
		s := New(server.Client(nil), Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				if _, err := s.LoadTools(ctx, handle, epoch, []string{fmt.Sprintf("tool_%d", (g+i)%12), fmt.Sprintf("tool_%d", (g*i)%12)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := first.LoadedTools(ctx, handle)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if len(got) != 12 || len(slices.Compact(got)) != 12 {
		t.Fatalf("loaded %v", got)
	}
}
