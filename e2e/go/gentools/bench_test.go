package gentools_test

import (
	"context"
	"testing"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// What the executor adds to one call against the real server: links_get
// through the executor (alias resolved, fix-up, response aliased) next to
// the same GetLink made directly.
func benchLink(b *testing.B) (*gentools.Executor, string) {
	c := conn
	if c == nil {
		b.Skip("no test server")
	}
	ctx := context.Background()
	if _, err := control(c).Reset(ctx, &linkhubv1.ResetRequest{}); err != nil {
		b.Fatal(err)
	}
	e := gentools.NewExecutor(c)
	if _, err := e.Execute(ctx, "links_create", `{"workspace_id":"ws","target_url":"https://example.com/b","slug":null,"page_theme_id":"","labels":[],"title":"b","expire_after":null}`); err != nil {
		b.Fatal(err)
	}
	return e, e.GetAliasManager().ResolveAlias("link-1")
}

func BenchmarkExecutorLinksGet(b *testing.B) {
	e, _ := benchLink(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Execute(ctx, "links_get", `{"id":"link-1"}`); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDirectGetLink(b *testing.B) {
	_, id := benchLink(b)
	client := linkhubv1.NewLinkServiceClient(conn)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := client.GetLink(ctx, &linkhubv1.GetLinkRequest{Id: id}); err != nil {
			b.Fatal(err)
		}
	}
}
