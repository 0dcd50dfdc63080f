package gentools_test

// The alias cap (issue 34, docs/store.md "Alias cap") through the generated
// ConversationExecutor on a real redis-server: a conversation holding
// redisstore's MaxAliases aliases refuses the next call with
// conversation-full, the contract's text, and sends nothing.

import (
	"errors"
	"fmt"
	"testing"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.com/aitools/e2e/gentools"
)

func TestStoreAliasCap(t *testing.T) {
	redis := redistest.Start(t)
	store := redisstore.New(redis.Client(nil), redisstore.Options{MaxAliases: 3})
	executor := gentools.NewConversationExecutor(needServer(t), store)
	ctx := ctxT(t)
	handle, err := executor.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ws := newUUID()
	for k := 1; k <= 3; k++ {
		args := fmt.Sprintf(`{"workspace_id":%q,"target_url":"https://example.com/cap/%d","page_theme_id":"","labels":[],"title":"t"}`, ws, k)
		if _, err := executor.Execute(ctx, handle, "links_create", args); err != nil {
			t.Fatalf("create %d: %v", k, err)
		}
	}
	before := len(recorded(t))
	out, err := executor.Execute(ctx, handle, "links_get", `{"id":"link-1"}`)
	var te *gentools.ToolError
	want := `conversation "` + handle + `" holds 3 aliases, its limit: start a new conversation (this call was not sent)`
	if out != "" || !errors.As(err, &te) || te.Reason != "conversation-full" || status.Code(err) != codes.ResourceExhausted || err.Error() != want {
		t.Fatalf("%q, %v\nwant %s", out, err, want)
	}
	if sent := len(recorded(t)) - before; sent != 0 {
		t.Fatalf("%d requests reached the server", sent)
	}
}
