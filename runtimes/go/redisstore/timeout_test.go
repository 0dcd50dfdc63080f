package redisstore

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTimeoutText: the milliseconds are written as the TypeScript and
// Python stores write them, fractions included ("1.5", "0.5", "500").
func TestTimeoutText(t *testing.T) {
	for timeout, want := range map[time.Duration]string{
		500 * time.Millisecond:  "redis did not answer within 500 ms",
		1500 * time.Microsecond: "redis did not answer within 1.5 ms",
		500 * time.Microsecond:  "redis did not answer within 0.5 ms",
		5 * time.Second:         "redis did not answer within 5000 ms",
	} {
		if got := (timeoutError{timeout}).Error(); got != want {
			t.Errorf("%v: %q, want %q", timeout, got, want)
		}
	}
}

// TestCallerErrorBeforeSocketTimeout: when the caller's deadline has
// passed and the command fails with an error that is no reply (the
// socket's i/o timeout at that deadline, with ContextTimeoutEnabled),
// before the context's own timer marked it done, the caller gets its own
// error, not the socket's.
func TestCallerErrorBeforeSocketTimeout(t *testing.T) {
	parent := passedDeadline{context.Background()}
	_, err := bounded(parent, time.Minute, func(context.Context) (int, error) {
		return 0, errors.New("read tcp 127.0.0.1:1->127.0.0.1:2: i/o timeout")
	})
	if err != context.DeadlineExceeded {
		t.Fatalf("got %v, want the caller's context.DeadlineExceeded", err)
	}
}

// passedDeadline is a context whose deadline has passed and whose timer
// has not fired yet: not done.
type passedDeadline struct{ context.Context }

func (passedDeadline) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }
