package gentools_test

import (
	"slices"
	"testing"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"

	"example.com/aitools/e2e/gentools"
)

// TestDeferredLoadedAcrossReplicas: two processes' deferred tools and
// executors on one real Redis see one loaded list, in load order.
func TestDeferredLoadedAcrossReplicas(t *testing.T) {
	c := needServer(t)
	ctx := ctxT(t)
	redis := redistest.Start(t)
	one, two := redisstore.New(redis.Client(nil), redisstore.Options{}), redisstore.New(redis.Client(nil), redisstore.Options{})
	var replicas []*gentools.DeferredTools
	for _, store := range []*redisstore.Store{one, two} {
		d, err := gentools.NewDeferredTools(gentools.DeferredToolsOptions{Tools: gentools.AllTools(), Search: gentools.ToolSearchData, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		replicas = append(replicas, d)
	}
	handle, err := gentools.NewConversationExecutor(c, one).Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replicas[0].Search(ctx, handle, "export links", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := replicas[1].Search(ctx, handle, "delete a link", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := replicas[0].Search(ctx, handle, "export links", 1); err != nil {
		t.Fatal(err)
	}
	for i, d := range replicas {
		loaded, err := d.Loaded(ctx, handle)
		if err != nil || !slices.Equal(loaded, []string{"links_export", "links_delete"}) {
			t.Errorf("replica %d: loaded %v, %v", i, loaded, err)
		}
	}
}
