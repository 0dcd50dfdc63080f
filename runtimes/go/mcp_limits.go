//aitools:inline mcp

package aitools

import (
	"fmt"
	"math"
	"time"
)

// WithRateLimit lets each subject (the token's "sub"; "" for every caller
// without authorization) make at most callsPerMinute calls a minute, in
// bursts of up to callsPerMinute: a token bucket per subject, in this
// process (each replica counts its own). A call over the limit is an
// isError result and nothing is sent. Zero: no limit.
func WithRateLimit(callsPerMinute int) MCPOption {
	return func(o *mcpOptions) { o.rateLimit = callsPerMinute }
}

// WithMaxConcurrentCalls sets how many calls one conversation (an HTTP
// session, a conversation handle, a stdio connection) runs at once (zero:
// DefaultMaxConcurrentCalls; negative: no limit); one more is an isError
// result and nothing is sent. The calls of no conversation (stateless,
// without a handle) count per subject: all anonymous ones together.
func WithMaxConcurrentCalls(n int) MCPOption {
	return func(o *mcpOptions) { o.maxConcurrent = n }
}

// tokenBucket holds up to size tokens, refilled at size per minute.
type tokenBucket struct {
	subject string
	tokens  float64
	last    time.Time
}

// maxRateBuckets is how many subjects' buckets are kept: past it the least
// recently used is dropped (its subject starts a full one), so that memory
// stays bounded whatever the number of subjects.
const maxRateBuckets = 10000

// takeToken takes a token of subject's bucket: "" when there was one,
// else the text for the model, with the wait until the next one.
func (g *mcpGuard) takeToken(subject string, now time.Time) string {
	if g.perMinute <= 0 {
		return ""
	}
	size := float64(g.perMinute)
	g.mu.Lock()
	defer g.mu.Unlock()
	var b *tokenBucket
	if e := g.buckets[subject]; e != nil {
		g.bucketLRU.MoveToBack(e)
		b = e.Value.(*tokenBucket)
	} else {
		if g.bucketLRU.Len() >= maxRateBuckets {
			delete(g.buckets, g.bucketLRU.Remove(g.bucketLRU.Front()).(*tokenBucket).subject)
		}
		b = &tokenBucket{subject: subject, tokens: size, last: now}
		g.buckets[subject] = g.bucketLRU.PushBack(b)
	}
	b.tokens = math.Min(size, b.tokens+now.Sub(b.last).Minutes()*size)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return ""
	}
	wait := math.Ceil((1 - b.tokens) / size * 60)
	return fmt.Sprintf("too many calls: the limit is %d per minute for this user; retry in %d s", g.perMinute, int(wait))
}

// enter counts a call of conversation in: it returns the function that
// counts it out, or the text for the model when the conversation already
// runs its maximum.
func (g *mcpGuard) enter(conversation any) (leave func(), refused string) {
	if g.maxConcurrent < 0 || conversation == nil {
		return func() {}, ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.inFlight[conversation] >= g.maxConcurrent {
		if _, none := conversation.(subjectCalls); none {
			// A call of no conversation: its subject's calls are counted.
			return nil, fmt.Sprintf("too many calls at once (limit %d); retry when one finishes", g.maxConcurrent)
		}
		return nil, fmt.Sprintf("too many calls at once in this conversation (limit %d); retry when one finishes", g.maxConcurrent)
	}
	g.inFlight[conversation]++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.inFlight[conversation]--; g.inFlight[conversation] == 0 {
			delete(g.inFlight, conversation)
		}
	}, ""
}
