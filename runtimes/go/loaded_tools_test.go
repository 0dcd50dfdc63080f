package aitools

// The loaded tools of the conversation store in memory (docs/store.md,
// "Loaded tools"): the vectors of e2e/vectors/store/loaded-tools.json,
// the refusals, the TTL, and concurrent loads (run with -race).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// loadedToolsVectors is e2e/vectors/store/loaded-tools.json.
type loadedToolsVectors struct {
	Cases []struct {
		Name  string `json:"name"`
		Steps []struct {
			LoadTools   []string    `json:"loadTools"`
			LoadedTools bool        `json:"loadedTools"`
			Register    [][2]string `json:"register"`
			Load        bool        `json:"load"`
			Loaded      []string    `json:"loaded"`
			State       string      `json:"state"`
		} `json:"steps"`
	} `json:"cases"`
}

func readLoadedToolsVectors(t *testing.T) loadedToolsVectors {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir(t), "store", "loaded-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v loadedToolsVectors
	if err := json.Unmarshal(b, &v); err != nil || len(v.Cases) == 0 {
		t.Fatalf("loaded-tools.json: %v", err)
	}
	return v
}

func TestMemoryStoreLoadedToolsVectors(t *testing.T) {
	ctx := context.Background()
	for _, c := range readLoadedToolsVectors(t).Cases {
		s := NewMemoryConversationStore(0)
		handle, _ := s.Create(ctx)
		epoch, _, _ := s.Load(ctx, handle)
		for i, step := range c.Steps {
			var got any
			var want any = step.State
			var err error
			switch {
			case step.LoadTools != nil:
				got, err = s.LoadTools(ctx, handle, epoch, step.LoadTools)
				want = step.Loaded
			case step.LoadedTools:
				got, err = s.LoadedTools(ctx, handle)
				want = step.Loaded
			case step.Register != nil:
				got, err = s.Register(ctx, handle, epoch, step.Register)
			default:
				_, got, err = s.Load(ctx, handle)
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, step %d: %v %v\nwant %v", c.Name, i, got, err, want)
			}
		}
	}
}

func TestMemoryStoreLoadedToolsRefusals(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryConversationStore(time.Minute)
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	h, _ := s.Create(ctx)
	epoch, _, _ := s.Load(ctx, h)
	if got, err := s.LoadedTools(ctx, h); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("none loaded: %#v %v", got, err)
	}
	var expired interface{ ConversationExpired() bool }
	for name, err := range map[string]error{
		"another epoch": errOf(s.LoadTools(ctx, h, "00000000000000000000000000000000", []string{"a"})),
		"missing":       errOf(s.LoadTools(ctx, "AAAAAAAAAAAAAAAAAAAAAA", epoch, []string{"a"})),
		"missing read":  errOf(s.LoadedTools(ctx, "AAAAAAAAAAAAAAAAAAAAAA")),
	} {
		if !errors.Is(err, ErrConversationExpired) || !errors.As(err, &expired) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := s.LoadTools(ctx, h, epoch, []string{"a", ""}); err == nil || err.Error() != `cannot load the tool name "": pass the names of tools` {
		t.Fatalf("empty name: %v", err)
	}
	if got, _ := s.LoadedTools(ctx, h); len(got) != 0 {
		t.Fatalf("an empty name loaded %v", got)
	}
	// Each operation renews the conversation's minute.
	now = now.Add(59 * time.Second)
	if got, err := s.LoadTools(ctx, h, epoch, []string{"a"}); err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("load: %v %v", got, err)
	}
	now = now.Add(59 * time.Second)
	if got, err := s.LoadedTools(ctx, h); err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("renewed: %v %v", got, err)
	}
	got, _ := s.LoadedTools(ctx, h)
	got[0] = "changed"
	if again, _ := s.LoadedTools(ctx, h); again[0] != "a" {
		t.Fatal("the returned list is the store's own")
	}
	now = now.Add(time.Minute)
	if _, err := s.LoadedTools(ctx, h); !errors.Is(err, ErrConversationExpired) {
		t.Fatalf("expired: %v", err)
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestMemoryStoreConcurrentLoads: 16 goroutines loading overlapping names
// into one conversation keep each name once.
func TestMemoryStoreConcurrentLoads(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryConversationStore(0)
	h, _ := s.Create(ctx)
	epoch, _, _ := s.Load(ctx, h)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				if _, err := s.LoadTools(ctx, h, epoch, []string{fmt.Sprintf("tool_%d", (g+i)%12)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, _ := s.LoadedTools(ctx, h)
	slices.Sort(got)
	if len(got) != 12 || slices.Compact(got) == nil || len(slices.Compact(got)) != 12 {
		t.Fatalf("loaded %v", got)
	}
}
