package mcphttp

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchRequest posts a tools/call of echo (2026-07-28, stateless) with
// token ("" for none) over a kept-alive connection.
func benchRequest(b *testing.B, client *http.Client, url, token string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(toolsCall("echo")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "echo")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

// BenchmarkMCPHTTPCall: one tools/call over HTTP through the gate, without
// auth and with a verified ES256 token (JWKS cached), each request timed,
// the two kinds alternating so that both see the same machine; reports the
// p50 of each and their difference, the cost of verification per call.
func BenchmarkMCPHTTPCall(b *testing.B) {
	open := newGateServer(b, func(o *HTTPOptions) { o.Auth = nil })
	verified := newGateServer(b, nil)
	token := verified.iss.valid(b, "alice")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	benchRequest(b, client, open.url, "")
	benchRequest(b, client, verified.url, token) // fetches the JWKS
	var none, auth []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		benchRequest(b, client, open.url, "")
		none = append(none, time.Since(start))
		start = time.Now()
		benchRequest(b, client, verified.url, token)
		auth = append(auth, time.Since(start))
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds()) / 1e3
	}
	pNone, pAuth := p50(none), p50(auth)
	b.ReportMetric(pNone, "p50-none-µs")
	b.ReportMetric(pAuth, "p50-verified-µs")
	b.ReportMetric(pAuth-pNone, "p50-cost-µs")
}

// BenchmarkJWTVerify: the verification alone (ES256, JWKS cached).
func BenchmarkJWTVerify(b *testing.B) {
	iss := newTestIssuer(b)
	o := HTTPOptions{PublicURL: testPublicURL, Auth: &AuthOptions{Issuer: testIssuerURL, JWKSURL: iss.jwksURL}}.withDefaults()
	v := newJWTVerifier(b.Context(), *o.Auth)
	token := iss.valid(b, "alice")
	ctx := context.Background()
	if _, reason := v.verify(ctx, token); reason != "" {
		b.Fatal(reason)
	}
	b.ResetTimer()
	for range b.N {
		if _, reason := v.verify(ctx, token); reason != "" {
			b.Fatal(reason)
		}
	}
}
