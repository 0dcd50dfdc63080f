package gentools_test

import (
	"context"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore/redistest"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// What the executor adds to one call against the real server: links_get
// through the executor (alias resolved, fix-up, response registered and
// aliased) next to the same GetLink made directly, on one connection. The
// calls alternate, after a shared warm-up, so that both see the same server
// and machine state; the medians of one call are reported (as the
// TypeScript and Python benchmarks do).
func BenchmarkExecutorVsDirect(b *testing.B) {
	if conn == nil {
		b.Skip("no test server")
	}
	ctx := context.Background()
	if _, err := control(conn).Reset(ctx, &linkhubv1.ResetRequest{}); err != nil {
		b.Fatal(err)
	}
	e := gentools.NewExecutor(conn)
	if _, err := e.Execute(ctx, "links_create", `{"workspace_id":"ws","target_url":"https://example.com/b","slug":null,"page_theme_id":"","labels":[],"title":"b","expire_after":null}`); err != nil {
		b.Fatal(err)
	}
	id := e.GetAliasManager().ResolveAlias("link-1")
	client := linkhubv1.NewLinkServiceClient(conn)
	viaExecutor := func() {
		if _, err := e.Execute(ctx, "links_get", `{"id":"link-1"}`); err != nil {
			b.Fatal(err)
		}
	}
	direct := func() {
		if _, err := client.GetLink(ctx, &linkhubv1.GetLinkRequest{Id: id}); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 300; i++ {
		viaExecutor()
		direct()
	}
	times := [2][]time.Duration{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, call := range []func(){viaExecutor, direct} {
			t0 := time.Now()
			call()
			times[j] = append(times[j], time.Since(t0))
		}
	}
	b.StopTimer()
	median := func(xs []time.Duration) float64 {
		sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
		return float64(xs[len(xs)/2].Nanoseconds()) / 1000
	}
	ex, di := median(times[0]), median(times[1])
	b.ReportMetric(ex, "executor-µs")
	b.ReportMetric(di, "direct-µs")
	b.ReportMetric(100*(ex-di)/di, "overhead-%")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkConversationStores (issue 12, point 7): the same links_get
// through the executor with its alias manager in memory, through
// ConversationExecutor on the in-memory store, and on Redis (a
// redis-server of its own, on this machine), alternating; the median of
// one call of each is reported. A store adds a load per call (nothing new
// registers here): a copy of the state in memory, a round trip to Redis.
func BenchmarkConversationStores(b *testing.B) {
	if conn == nil {
		b.Skip("no test server")
	}
	ctx := context.Background()
	if _, err := control(conn).Reset(ctx, &linkhubv1.ResetRequest{}); err != nil {
		b.Fatal(err)
	}
	redis := redistest.Start(b)
	create := `{"workspace_id":"ws","target_url":"https://example.com/b","slug":null,"page_theme_id":"","labels":[],"title":"b","expire_after":null}`
	plain := gentools.NewExecutor(conn)
	if _, err := plain.Execute(ctx, "links_create", create); err != nil {
		b.Fatal(err)
	}
	stored := func(store gentools.ConversationStore) func() error {
		e := gentools.NewConversationExecutor(conn, store)
		handle, err := e.Start(ctx)
		if err == nil {
			_, err = e.Execute(ctx, handle, "links_create", create)
		}
		if err != nil {
			b.Fatal(err)
		}
		return func() error { _, err := e.Execute(ctx, handle, "links_get", `{"id":"link-1"}`); return err }
	}
	calls := []func() error{
		func() error { _, err := plain.Execute(ctx, "links_get", `{"id":"link-1"}`); return err },
		stored(gentools.NewMemoryConversationStore(0)),
		stored(redisstore.New(redis.Client(nil), redisstore.Options{})),
	}
	for range 300 {
		for _, call := range calls {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
	}
	times := make([][]time.Duration, len(calls))
	b.ResetTimer()
	for range b.N {
		for j, call := range calls {
			t0 := time.Now()
			if err := call(); err != nil {
				b.Fatal(err)
			}
			times[j] = append(times[j], time.Since(t0))
		}
	}
	b.StopTimer()
	median := func(xs []time.Duration) float64 {
		slices.Sort(xs)
		return float64(xs[len(xs)/2].Nanoseconds()) / 1000
	}
	b.ReportMetric(median(times[0]), "executor-µs")
	b.ReportMetric(median(times[1]), "memory-store-µs")
	b.ReportMetric(median(times[2]), "redis-store-µs")
	b.ReportMetric(0, "ns/op")
}
