package gentools_test

// Conversations kept in Redis (docs/store.md) through the generated
// ConversationExecutor: two linkhub-worker processes serving one set of
// conversations (the load test), two processes registering in one
// conversation at once, the refusal vectors (e2e/vectors/store), and
// faults: redis-server killed and restarted, a worker SIGKILLed. Every
// test starts its own redis-server (redistest).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// createArgs are the arguments of links_create for one link.
func createArgs(ws, url string) map[string]any {
	return map[string]any{"workspace_id": ws, "target_url": url, "slug": nil, "page_theme_id": "", "labels": []any{}, "title": "t", "expire_after": nil}
}

// linkOfResult reads a links_create or links_get result's link.
func linkOfResult(a workerAnswer) (alias, url, ws string, err error) {
	if a.Error != nil {
		return "", "", "", fmt.Errorf("%s (%s): %s", a.Error.Reason, a.Error.Code, a.Error.Message)
	}
	var r struct {
		Link struct {
			ID          string `json:"id"`
			TargetURL   string `json:"target_url"`
			WorkspaceID string `json:"workspace_id"`
		} `json:"link"`
	}
	if err := json.Unmarshal(a.Result, &r); err != nil {
		return "", "", "", fmt.Errorf("result %s: %v", a.Result, err)
	}
	if uuidRe.MatchString(strings.ReplaceAll(string(a.Result), r.Link.WorkspaceID, "")) { // the workspace id has no alias
		return "", "", "", fmt.Errorf("a registered UUID reached the model: %s", a.Result)
	}
	return r.Link.ID, r.Link.TargetURL, r.Link.WorkspaceID, nil
}

// storedLinks reads a conversation's link aliases from Redis.
func storedLinks(t *testing.T, store *redisstore.Store, handle string) map[string]string {
	t.Helper()
	_, state, err := store.Load(context.Background(), handle)
	if err != nil {
		t.Fatalf("load %s: %v", handle, err)
	}
	var st struct {
		Aliases  map[string]string `json:"aliases"`
		Counters map[string]int    `json:"counters"`
	}
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Aliases) != st.Counters["link"] {
		t.Fatalf("%d aliases, link counter %d: %s", len(st.Aliases), st.Counters["link"], state)
	}
	return st.Aliases
}

// expectServerLink checks, against the server's data, that uuid is a link
// of workspace ws to url.
func expectServerLink(t *testing.T, uuid, ws, url string) {
	t.Helper()
	resp, err := linkhubv1.NewLinkServiceClient(needServer(t)).GetLink(ctxT(t), &linkhubv1.GetLinkRequest{Id: uuid})
	if err != nil || resp.GetLink().GetTargetUrl() != url || resp.GetLink().GetWorkspaceId() != ws {
		t.Errorf("server: link %s is %v (%v), want %s in %s", uuid, resp.GetLink(), err, url, ws)
	}
}

// TestStoreLoadTwoWorkers (issue 12, point 3): 50 conversations × 100
// calls, each conversation's calls alternating between two worker
// processes, all at once. Every link alias a worker shows is the next one
// (no gaps), every links_get reaches the link that alias was given to, and
// at the end every stored alias is, on the server, the link it was
// created as.
func TestStoreLoadTwoWorkers(t *testing.T) {
	const conversations, calls = 50, 100
	resetServer(t)
	redis := redistest.Start(t)
	workers := []*worker{startWorker(t, redis.Addr), startWorker(t, redis.Addr)}
	type conversation struct {
		handle, ws string
		urls       []string // urls[j-1] is link-j's
	}
	convs := make([]conversation, conversations)
	began := time.Now()
	var wg sync.WaitGroup
	for i := range convs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &convs[i]
			c.ws = newUUID()
			a := workers[i%2].do(map[string]any{"op": "start"})
			if a.Error != nil {
				t.Errorf("conversation %d: start: %+v", i, a.Error)
				return
			}
			c.handle = a.Handle
			rnd := rand.New(rand.NewPCG(uint64(i), 12))
			for k := range calls {
				w := workers[k%2]
				if k%3 == 0 {
					url := fmt.Sprintf("https://example.com/c%d/k%d", i, k)
					alias, got, ws, err := linkOfResult(w.call(c.handle, "links_create", createArgs(c.ws, url)))
					if want := fmt.Sprintf("link-%d", len(c.urls)+1); err != nil || alias != want || got != url || ws != c.ws {
						t.Errorf("conversation %d, call %d (worker %d): links_create gave %s %s %s, %v; want %s", i, k, k%2, alias, got, ws, err, want)
						return
					}
					c.urls = append(c.urls, url)
					continue
				}
				j := 1 + rnd.IntN(len(c.urls))
				alias, got, ws, err := linkOfResult(w.call(c.handle, "links_get", map[string]any{"id": fmt.Sprintf("link-%d", j)}))
				if err != nil || alias != fmt.Sprintf("link-%d", j) || got != c.urls[j-1] || ws != c.ws {
					t.Errorf("conversation %d, call %d (worker %d): links_get link-%d gave %s %s %s, %v; want %s", i, k, k%2, j, alias, got, ws, err, c.urls[j-1])
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	if t.Failed() {
		return
	}
	store := redisstore.New(redis.Client(nil), redisstore.Options{})
	for i, c := range convs {
		links := storedLinks(t, store, c.handle)
		if len(links) != len(c.urls) {
			t.Fatalf("conversation %d: %d links stored, %d created", i, len(links), len(c.urls))
		}
		for j, url := range c.urls {
			expectServerLink(t, links[fmt.Sprintf("link-%d", j+1)], c.ws, url)
		}
	}
	t.Logf("%d conversations × %d calls over 2 worker processes: %s (%.0f calls/s)", conversations, calls, elapsed.Round(time.Millisecond), float64(conversations*calls)/elapsed.Seconds())
}

// TestStoreTwoWorkersOneConversation: two processes create 50 links each
// in one conversation at the same moment: the aliases are link-1 …
// link-100, each given once, each the link it was shown for.
func TestStoreTwoWorkersOneConversation(t *testing.T) {
	redis := redistest.Start(t)
	workers := []*worker{startWorker(t, redis.Addr), startWorker(t, redis.Addr)}
	handle := workers[0].start(t)
	ws := newUUID()
	type sent struct {
		url    string
		answer chan workerAnswer
	}
	var all []sent
	for k := range 100 {
		url := fmt.Sprintf("https://example.com/one/%d", k)
		all = append(all, sent{url, workers[k%2].send(map[string]any{"op": "call", "handle": handle, "tool": "links_create", "args": createArgs(ws, url)})})
	}
	shown := map[string]string{} // alias → URL
	for _, s := range all {
		alias, url, _, err := linkOfResult(<-s.answer)
		if err != nil || url != s.url {
			t.Fatalf("links_create %s: %s %s %v", s.url, alias, url, err)
		}
		if other, dup := shown[alias]; dup {
			t.Fatalf("%s shown for %s and %s", alias, other, url)
		}
		shown[alias] = url
	}
	links := storedLinks(t, redisstore.New(redis.Client(nil), redisstore.Options{}), handle)
	for n := 1; n <= 100; n++ {
		alias := fmt.Sprintf("link-%d", n)
		if shown[alias] == "" || links[alias] == "" {
			t.Fatalf("%s: shown %q, stored %q", alias, shown[alias], links[alias])
		}
		expectServerLink(t, links[alias], ws, shown[alias])
	}
}

// storeLayout is e2e/vectors/store/layout.json's refusals.
type storeLayout struct {
	Refusals []struct {
		Name          string            `json:"name"`
		Setup         map[string]string `json:"setup"`
		RegisterEpoch string            `json:"registerEpoch"`
		Load          bool              `json:"load"`
		Error         string            `json:"error"`
	} `json:"refusals"`
}

// epochStore is a Redis store whose Load reports another epoch, and an
// empty state when the conversation is missing: the Register that follows
// meets what the vector set up.
type epochStore struct {
	*redisstore.Store
	epoch string
}

func (s epochStore) Load(ctx context.Context, handle string) (string, string, error) {
	return s.epoch, `{"aliases":{},"counters":{},"version":1}`, nil
}

// TestStoreRefusalVectors runs e2e/vectors/store/layout.json's refusals
// through the generated executor: each is the vector's ToolError, and no
// refused load reaches the server.
func TestStoreRefusalVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(), "e2e", "vectors", "store", "layout.json"))
	if err != nil {
		t.Fatal(err)
	}
	var layout storeLayout
	if err := json.Unmarshal(b, &layout); err != nil || len(layout.Refusals) == 0 {
		t.Fatalf("layout.json: %v", err)
	}
	redis := redistest.Start(t)
	client := redis.Client(nil)
	store := redisstore.New(client, redisstore.Options{})
	ctx := ctxT(t)
	codeOf := map[string]codes.Code{"conversation-expired": codes.NotFound, "conversation-corrupt": codes.DataLoss}
	for i, r := range layout.Refusals {
		t.Run(r.Name, func(t *testing.T) {
			handle := fmt.Sprintf("refusal-%d", i)
			if r.Setup != nil {
				if err := client.HSet(ctx, store.Key(handle), r.Setup).Err(); err != nil {
					t.Fatal(err)
				}
			}
			var executor *gentools.ConversationExecutor
			args := `{"workspace_id":"` + newUUID() + `","target_url":"https://example.com/r","page_theme_id":"","labels":[],"title":"r"}`
			if r.Load {
				executor = gentools.NewConversationExecutor(needServer(t), store)
			} else {
				executor = gentools.NewConversationExecutor(needServer(t), epochStore{store, r.RegisterEpoch})
			}
			before := len(recorded(t))
			out, err := executor.Execute(ctx, handle, "links_create", args)
			var te *gentools.ToolError
			if out != "" || !errors.As(err, &te) || te.Reason != r.Error || status.Code(err) != codeOf[r.Error] {
				t.Fatalf("%q, %v; want %s", out, err, r.Error)
			}
			if sent := len(recorded(t)) - before; r.Load && sent != 0 {
				t.Fatalf("%d requests reached the server", sent)
			}
			if n := client.Exists(ctx, store.Key(handle)).Val(); r.Setup == nil && n != 0 {
				t.Fatal("a refused call made the conversation")
			}
		})
	}
	t.Run("a key of another type", func(t *testing.T) {
		if err := client.Set(ctx, store.Key("str"), "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
		_, err := gentools.NewConversationExecutor(needServer(t), store).Execute(ctx, "str", "links_get", `{"id":"link-1"}`)
		var te *gentools.ToolError
		if !errors.As(err, &te) || te.Reason != "conversation-corrupt" || status.Code(err) != codes.DataLoss ||
			!strings.HasPrefix(err.Error(), `conversation "str" cannot be read: WRONGTYPE Operation against a key holding the wrong kind of value`) {
			t.Fatalf("%v", err)
		}
	})
}

// TestStoreRedisKilledAndRestarted (issue 12, point 4): while Redis is down
// a call fails with store-unavailable and reaches no server; after a
// restart without persistence the old handle is conversation-expired (its
// aliases are never renumbered), and a new conversation works.
func TestStoreRedisKilledAndRestarted(t *testing.T) {
	resetServer(t)
	redis := redistest.Start(t)
	w := startWorker(t, redis.Addr)
	handle := w.start(t)
	ws := newUUID()
	for k := 1; k <= 3; k++ {
		if alias, _, _, err := linkOfResult(w.call(handle, "links_create", createArgs(ws, fmt.Sprintf("https://example.com/k/%d", k)))); err != nil || alias != fmt.Sprintf("link-%d", k) {
			t.Fatalf("create %d: %s %v", k, alias, err)
		}
	}
	redis.Kill()
	before := len(recorded(t))
	for _, a := range []workerAnswer{
		w.call(handle, "links_get", map[string]any{"id": "link-1"}),
		w.do(map[string]any{"op": "start"}),
	} {
		if a.Error == nil || a.Error.Reason != "store-unavailable" || a.Error.Code != "UNAVAILABLE" || !strings.HasPrefix(a.Error.Message, "conversation store unavailable: ") {
			t.Fatalf("with Redis down: %+v %s", a.Error, a.Result)
		}
	}
	if sent := len(recorded(t)) - before; sent != 0 {
		t.Fatalf("%d requests reached the server with Redis down", sent)
	}
	redis.Restart()
	a := w.call(handle, "links_get", map[string]any{"id": "link-1"})
	if a.Error == nil || a.Error.Reason != "conversation-expired" || a.Error.Code != "NOT_FOUND" ||
		a.Error.Message != `conversation "`+handle+`" expired or unknown: start a new conversation` {
		t.Fatalf("old handle after the restart: %+v %s", a.Error, a.Result)
	}
	fresh := w.start(t)
	if alias, _, _, err := linkOfResult(w.call(fresh, "links_create", createArgs(ws, "https://example.com/k/new"))); err != nil || alias != "link-1" {
		t.Fatalf("new conversation: %s %v", alias, err)
	}
}

// TestStoreWorkerKilled (issue 12, point 4): a worker SIGKILLed while it
// creates links loses no alias it showed: each is stored, for the link it
// was shown for, and another worker goes on numbering without a gap.
func TestStoreWorkerKilled(t *testing.T) {
	redis := redistest.Start(t)
	victim, survivor := startWorker(t, redis.Addr), startWorker(t, redis.Addr)
	handle := victim.start(t)
	ws := newUUID()
	answers := make([]chan workerAnswer, 200)
	urls := make([]string, len(answers))
	for k := range answers {
		urls[k] = fmt.Sprintf("https://example.com/kill/%d", k)
		answers[k] = victim.send(map[string]any{"op": "call", "handle": handle, "tool": "links_create", "args": createArgs(ws, urls[k])})
	}
	shown := map[string]string{}
	for k := 0; len(shown) < 20; k = (k + 1) % len(answers) {
		select {
		case a := <-answers[k]:
			alias, url, _, err := linkOfResult(a)
			if err != nil || url != urls[k] {
				t.Fatalf("create %d: %s %s %v", k, alias, url, err)
			}
			shown[alias] = url
		default:
			time.Sleep(time.Millisecond)
		}
	}
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-victim.done
	store := redisstore.New(redis.Client(nil), redisstore.Options{})
	links := storedLinks(t, store, handle)
	for alias, url := range shown {
		if links[alias] == "" {
			t.Fatalf("%s was shown, then lost", alias)
		}
		expectServerLink(t, links[alias], ws, url)
	}
	alias, _, _, err := linkOfResult(survivor.call(handle, "links_create", createArgs(ws, "https://example.com/kill/after")))
	if want := fmt.Sprintf("link-%d", len(links)+1); err != nil || alias != want {
		t.Fatalf("after the kill: %s %v; want %s", alias, err, want)
	}
	t.Logf("%d aliases shown before SIGKILL, %d stored", len(shown), len(links))
}
