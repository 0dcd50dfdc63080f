package aitools

// The alias cap per conversation (docs/store.md, "Alias cap"): a call in a
// conversation holding its store's MaxAliases() aliases or more is refused
// with "conversation-full" before anything is sent, through the
// conversation executor and through MCP (stateless handles included, which
// the text names without the caller's tag; a connection's conversation,
// whose handle the model never sees, is "this conversation"); a call let
// through may end above the cap by its result's new ids.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc/codes"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

func fullText(handle string, n int) string {
	return fmt.Sprintf("conversation %q holds %d aliases, its limit: start a new conversation (this call was not sent)", handle, n)
}

func TestConversationFull(t *testing.T) {
	conn, srv := startServer(t)
	ctx := context.Background()
	store := NewMemoryConversationStore(0, WithMaxAliases(3))
	if store.MaxAliases() != 3 || NewMemoryConversationStore(0).MaxAliases() != DefaultMaxAliases || DefaultMaxAliases != 1000 {
		t.Fatal("MaxAliases")
	}
	c := NewConversationExecutor(conn, store)
	handle, _ := c.Start(ctx)
	// 0 aliases held: let through, and 4 registered (above the cap by one result).
	if _, err := c.Execute(ctx, handle, "accounts_list", `{"count":2,"contacts_per_account":1}`); err != nil {
		t.Fatal(err)
	}
	calls := srv.calls.Load()
	_, err := c.Execute(ctx, handle, "accounts_merge", `{"source_id":"acct-1","target_id":"acct-2","note":""}`)
	wantToolError(t, err, "conversation-full", codes.ResourceExhausted, fullText(handle, 4))
	if srv.calls.Load() != calls {
		t.Fatal("a call in a full conversation was sent")
	}
	// A store without MaxAliases() gets DefaultMaxAliases.
	aliases := make([]string, 0, DefaultMaxAliases)
	for i := 1; i <= DefaultMaxAliases; i++ {
		aliases = append(aliases, fmt.Sprintf(`"acct-%d":"%s"`, i, testUUID(i)))
	}
	state := `{"aliases":{` + strings.Join(aliases, ",") + `},"counters":{"acct":1000},"version":1}`
	_, err = NewConversationExecutor(conn, &stubStore{state: state}).Execute(ctx, "h", "accounts_list", `{"count":1,"contacts_per_account":0}`)
	wantToolError(t, err, "conversation-full", codes.ResourceExhausted, fullText("h", 1000))
	if srv.calls.Load() != calls {
		t.Fatal("a call in a full conversation was sent")
	}
	below := `{"aliases":{` + strings.Join(aliases[:DefaultMaxAliases-1], ",") + `},"counters":{"acct":999},"version":1}`
	if _, err := NewConversationExecutor(conn, &stubStore{state: below}).Execute(ctx, "h", "accounts_list", `{"count":1,"contacts_per_account":0}`); err != nil {
		t.Fatalf("999 aliases: %v", err)
	}
}

func TestWithMaxAliasesRefusesZero(t *testing.T) {
	for _, n := range []int{0, -1} {
		func() {
			defer func() {
				if r := recover(); r != fmt.Sprintf("WithMaxAliases must be a positive number of aliases (got %d)", n) {
					t.Fatalf("panic %v", r)
				}
			}()
			WithMaxAliases(n)
		}()
	}
}

func TestMCPConversationFull(t *testing.T) {
	conn, srv := startServer(t)
	store := NewMemoryConversationStore(0, WithMaxAliases(2))
	server := newMCPServer(t, aitestv1.NewAccountServiceClient(conn), WithConversationStore(store))
	list := map[string]any{"count": 2, "contacts_per_account": 0}
	merge := map[string]any{"source_id": "acct-1", "target_id": "acct-2", "note": ""}

	t.Run("connection", func(t *testing.T) {
		cs := connectInMemory(t, server)
		wantSuccess(t, callTool(t, cs, "accounts_list", list, nil))
		calls := srv.calls.Load()
		res := callTool(t, cs, "accounts_merge", merge, nil)
		// The model holds no handle of its connection's conversation.
		if text := textOf(res, 0); !res.IsError || text != "this conversation holds 2 aliases, its limit: start a new conversation (this call was not sent)" {
			t.Fatalf("full: %s", text)
		}
		if srv.calls.Load() != calls {
			t.Fatal("sent")
		}
	})

	t.Run("handle of an authorized caller", func(t *testing.T) {
		// The store's key is "<handle>.<tag of the subject>": the text names
		// the handle the model passed.
		cs := connectAs(t, serveAsCallers(t, server), "2026-07-28", "alice", nil)
		res := callTool(t, cs, "accounts_list", list, nil)
		wantSuccess(t, res)
		handle, _ := res.Meta[conversationMetaKey].(string)
		if store.mu.Lock(); store.entries[handle] != nil || store.entries[conversationKey(handle, "alice")] == nil {
			t.Fatal("the conversation is not kept under the caller's key")
		}
		store.mu.Unlock()
		calls := srv.calls.Load()
		res = callTool(t, cs, "accounts_merge", merge, mcp.Meta{conversationMetaKey: handle})
		if !res.IsError || textOf(res, 0) != fullText(handle, 2) {
			t.Fatalf("full: %s", textOf(res, 0))
		}
		if srv.calls.Load() != calls {
			t.Fatal("sent")
		}
	})
}
