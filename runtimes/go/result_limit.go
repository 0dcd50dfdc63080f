//aitools:inline executors

package aitools

import (
	"context"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
)

// DefaultMaxResultBytes is the largest result text shown to the model
// when Executor.MaxResultBytes is zero: about the 25,000 tokens common MCP
// clients accept.
const DefaultMaxResultBytes = 100000

// DefaultToolTimeout is the deadline of a tool call whose tool sets none
// when Executor.Timeout is zero.
const DefaultToolTimeout = 30 * time.Second

// callContext is ctx with the deadline of a call of toolName
// (docs/runtime.md, "Deadlines"): the tool's own (its annotation's
// timeout), else Executor.Timeout, else DefaultToolTimeout; none when
// Timeout is negative and the tool sets none. A shorter deadline of ctx
// wins.
func (e *Executor) callContext(ctx context.Context, toolName string) (context.Context, context.CancelFunc) {
	d, ok := toolTimeouts[toolName]
	if !ok {
		d = e.Timeout
	}
	if d == 0 {
		d = DefaultToolTimeout
	}
	if d < 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// resultLimit is the largest result text: MaxResultBytes, its default when
// zero, none (0) when negative.
func (e *Executor) resultLimit() int {
	switch {
	case e.MaxResultBytes == 0:
		return DefaultMaxResultBytes
	case e.MaxResultBytes < 0:
		return 0
	}
	return e.MaxResultBytes
}

// checkResult refuses a result text (as the model would read it) over the
// limit.
func (e *Executor) checkResult(out string) error {
	if limit := e.resultLimit(); limit > 0 && len(out) > limit {
		return e.tooLarge("result too large: " + strconv.Itoa(len(out)) + " bytes, over the limit of " + strconv.Itoa(limit) + "; ask for less (a smaller page size or a filter)")
	}
	return nil
}

// tooLarge is the error "result-too-large".
func (e *Executor) tooLarge(msg string) *ToolError {
	return &ToolError{Reason: "result-too-large", Code: codes.ResourceExhausted, Message: msg, RawMessage: msg}
}

// streamBudget stops a stream as soon as the text read so far is over the
// limit as the model would read it (UUIDs shown as aliases, which only
// shortens it): the aliased length is measured when the raw text passes
// next, and next is moved by what that measure left.
type streamBudget struct {
	limit, next int
}

func (e *Executor) newStreamBudget() streamBudget {
	limit := e.resultLimit()
	return streamBudget{limit: limit, next: limit}
}

// over reports whether text, the stream's text so far, is over the limit;
// the error says so.
func (s *streamBudget) over(e *Executor, toolName, text string) error {
	if s.limit <= 0 || len(text) <= s.next {
		return nil
	}
	shown := len(text)
	//aitools:if aliases
	shown = len(e.aliases.AliasifyJSON(toolName, text))
	//aitools:end
	if shown > s.limit {
		return e.tooLarge("result too large: more than " + strconv.Itoa(s.limit) + " bytes; ask for less (a smaller page size or a filter)")
	}
	s.next = len(text) + s.limit - shown
	return nil
}
