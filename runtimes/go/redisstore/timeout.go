package redisstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// timeoutError is the error of an operation Redis did not answer within
// the store's timeout; the generated code reports it as
// "store-unavailable".
type timeoutError struct{ timeout time.Duration }

func (e timeoutError) Error() string {
	return "redis did not answer within " + strconv.FormatInt(e.timeout.Milliseconds(), 10) + " ms"
}

// Unwrap makes errors.Is(err, context.DeadlineExceeded) hold.
func (timeoutError) Unwrap() error { return context.DeadlineExceeded }

// within runs op with a deadline timeout from now and returns at that
// deadline even when op does not: go-redis honours a context's deadline on
// its socket only with ContextTimeoutEnabled, and otherwise checks it only
// between its retries (measured: 5 s for a 1 s context, 10 s by default on
// a hung server). op then ends with the client's own read timeout, its
// result dropped. A deadline or cancellation of ctx itself is returned as
// ctx's error.
func within[T any](parent context.Context, timeout time.Duration, op func(context.Context) (T, error)) (T, error) {
	expired := timeoutError{timeout}
	deadline := time.Now().Add(timeout)
	ctx, cancel := context.WithDeadlineCause(parent, deadline, expired)
	defer cancel()
	type result struct {
		value T
		err   error
	}
	done := make(chan result, 1)
	go func() {
		v, err := op(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		// With ContextTimeoutEnabled the socket's deadline is ours, and
		// may fire before ctx is marked done: an error that is no reply
		// of Redis, once the deadline passed, is the timeout.
		var reply redis.Error
		ours := context.Cause(ctx) == error(expired) || parent.Err() == nil && !time.Now().Before(deadline)
		if r.err == nil || errors.As(r.err, &reply) || !ours {
			return r.value, r.err
		}
	case <-ctx.Done():
		if cause := context.Cause(ctx); cause != error(expired) {
			var zero T
			return zero, cause
		}
	}
	var zero T
	return zero, expired
}
