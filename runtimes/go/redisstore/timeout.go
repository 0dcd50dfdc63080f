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
	ms := float64(e.timeout) / float64(time.Millisecond)
	return "redis did not answer within " + strconv.FormatFloat(ms, 'f', -1, 64) + " ms"
}

// Unwrap makes errors.Is(err, context.DeadlineExceeded) hold.
func (timeoutError) Unwrap() error { return context.DeadlineExceeded }

// within runs op with a deadline timeout from now and returns at that
// deadline even when op does not: go-redis honours a context's deadline on
// its socket only with ContextTimeoutEnabled, and otherwise checks it only
// between its retries (measured: 5 s for a 1 s context, 10 s by default on
// a hung server). op then ends with the client's own read timeout, its
// result dropped. A deadline or cancellation of ctx itself is returned as
// ctx's error. A failure that is no reply of Redis (a dial error, EOF, the
// timeout) makes a cluster client reload its slot map (followFailover).
func within[T any](parent context.Context, s *Store, op func(context.Context) (T, error)) (T, error) {
	v, err := bounded(parent, s.timeout, op)
	s.followFailover(parent, err)
	return v, err
}

// followFailover makes a *redis.ClusterClient reload its slot map after a
// failure that is no reply of Redis: go-redis reloads it only on MOVED or
// READONLY replies, or every ClusterStateReloadInterval (60 s by default),
// so after a primary died it would dial the dead node for up to a minute
// (redis/go-redis#3979). ReloadState is lazy: in the background, one
// reload at a time. A caller's own cancellation reloads nothing.
func (s *Store) followFailover(parent context.Context, err error) {
	var reply redis.Error
	if err == nil || errors.As(err, &reply) || parent.Err() != nil {
		return
	}
	if c, ok := s.client.(*redis.ClusterClient); ok {
		c.ReloadState(parent)
	}
}

// bounded is within without the reload: op with a deadline timeout from now.
func bounded[T any](parent context.Context, timeout time.Duration, op func(context.Context) (T, error)) (T, error) {
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
		var reply redis.Error
		if r.err != nil && !errors.As(r.err, &reply) {
			if err := callerError(parent); err != nil {
				var zero T
				return zero, err
			}
		}
		// With ContextTimeoutEnabled the socket's deadline is ours, and
		// may fire before ctx is marked done: an error that is no reply
		// of Redis, once the deadline passed, is the timeout.
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

// callerError is the error of the caller's context once it is done or its
// deadline passed (the socket, given that deadline by ContextTimeoutEnabled,
// may report its i/o timeout before the context's timer fires); nil before.
func callerError(parent context.Context) error {
	if parent.Err() != nil {
		return context.Cause(parent)
	}
	if d, ok := parent.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}
