//aitools:inline executors

package aitools

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
)

// Telemetry observes tool calls: a span and metrics per call, and the
// trace context of the RPC it sends (docs/production.md, "Telemetry").
// runtimes/go/otelaitools.New returns one built on OpenTelemetry; set it as
// the Telemetry of an executor, or pass it to an MCP server's WithTelemetry.
//
// Its method takes and returns only standard and grpc types (ToolCallEnd
// is an alias of a struct type without a name), so one value satisfies the
// Telemetry of every generated package of a program. An MCP server also
// hands it the trace context of a request's _meta when it has the method
//
//	ContextFromMeta(ctx context.Context, meta map[string]any) context.Context
//
// The runtime calls end at most once. A Telemetry that panics is the
// application's bug: the panic goes on to the caller (to the MCP SDK in a
// server), as a panic of any other hook of the executor.
type Telemetry interface {
	// StartToolCall is called when a call of tool, whose gRPC method is
	// method ("pkg.Service/Method"), begins: before its conversation is
	// loaded and its arguments are read. The context it returns is the
	// call's, the RPC is sent with it (its outgoing metadata carries the
	// trace context). end is called once, when the call ends.
	StartToolCall(ctx context.Context, tool, method string) (context.Context, func(ToolCallEnd))
}

// ToolCallEnd is how a tool call ended, as Telemetry is told. It is an
// alias of a struct type without a name, the same type in every package.
//
// Its fields are frozen: adding one would make it another type, and a
// program pairing generated code and otelaitools of different versions
// would no longer compile. Whatever a later version tells Telemetry goes
// to a new optional method, found by a type assertion as ContextFromMeta.
type ToolCallEnd = struct {
	// Sent is true when the RPC was sent, and Code its status then.
	Sent bool
	Code codes.Code
	// Reason is the ToolError reason of a failed call ("_OTHER" for
	// another error), "" when it succeeded.
	Reason string
	// Resolved is the number of aliases of the arguments turned into ids,
	// Registered the number of aliases the result added.
	Resolved, Registered int
	// ConversationAliases is the number of aliases of the conversation
	// after the call; -1 for a call in no conversation.
	ConversationAliases int
}

// toolCall is the record of one observed call, which the executor helpers
// fill in (each method does nothing on nil: no Telemetry).
type toolCall struct {
	ended ToolCallEnd
	end   func(ToolCallEnd)
	done  bool // end was called
	//aitools:if aliases

	aliases      *AliasManager // the call's, counted at the end
	before       int           // its aliases when the call was read
	conversation bool          // they are a conversation's
	//aitools:end
}

// startToolCall begins the telemetry of a call of tool, nil without
// Telemetry or for a tool the generated tables do not list (a model's
// invented name is no span).
func startToolCall(ctx context.Context, t Telemetry, tool string) (context.Context, *toolCall) {
	method, ok := toolMethods[tool]
	if t == nil || !ok {
		return ctx, nil
	}
	ctx, end := t.StartToolCall(ctx, tool, strings.TrimPrefix(method, "/"))
	return ctx, &toolCall{ended: ToolCallEnd{ConversationAliases: -1}, end: end}
}

// observe runs f, the call of tool, observed by Telemetry: f gets the
// call's context and an executor that fills the call's record in. A call
// of a conversation, whose record is already made, and every call without
// Telemetry run f as it is.
func (e *Executor) observe(ctx context.Context, tool string, f func(context.Context, *Executor) (string, error)) (string, error) {
	if e.observed != nil || e.Telemetry == nil {
		return f(ctx, e)
	}
	ctx, c := startToolCall(ctx, e.Telemetry, tool)
	if c == nil {
		return f(ctx, e)
	}
	call := *e
	c.attach(&call, false)
	defer c.endPanic()
	out, err := f(ctx, &call)
	c.finish(err)
	return out, err
}

// attach makes e fill c in; inConversation: e's aliases are a
// conversation's, whose size the end reports.
func (c *toolCall) attach(e *Executor, inConversation bool) {
	if c == nil {
		return
	}
	e.observed = c
	//aitools:if aliases
	if e.aliases != nil { // an MCP call's executor before its conversation has none
		c.aliases, c.before, c.conversation = e.aliases, e.aliases.size(), inConversation
	}
	//aitools:end
}

// sent records the status of the RPC.
func (c *toolCall) sent(code codes.Code) {
	if c != nil {
		c.ended.Sent, c.ended.Code = true, code
	}
}

// fail records the reason of err, the first one recorded.
func (c *toolCall) fail(err error) {
	if c == nil || err == nil || c.ended.Reason != "" {
		return
	}
	var te *ToolError
	if errors.As(err, &te) {
		c.ended.Reason = te.Reason
	} else {
		c.ended.Reason = "_OTHER"
	}
}

// endPanic, deferred, ends the call of a panic ("_OTHER"), which goes on.
func (c *toolCall) endPanic() {
	if r := recover(); r != nil {
		c.finish(errPanic)
		panic(r)
	}
}

// errPanic is the error of a call that panicked.
var errPanic = errors.New("the call panicked")

// finish ends the call with err (nil: it succeeded, unless a reason was
// recorded), once: after an end that panicked, endPanic calls it again.
func (c *toolCall) finish(err error) {
	if c == nil || c.done {
		return
	}
	c.done = true
	c.fail(err)
	//aitools:if aliases
	if c.aliases != nil {
		n := c.aliases.size()
		c.ended.Registered = max(n-c.before, 0)
		if c.conversation {
			c.ended.ConversationAliases = n
		}
	}
	//aitools:end
	c.end(c.ended)
}

//aitools:if aliases

// size is the number of aliases m holds.
func (m *AliasManager) size() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.aliases)
}

// countAliases counts the strings of v that are aliases m holds: those
// resolveValue turns into ids.
func (m *AliasManager) countAliases(v any) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.countIn(v)
}

func (m *AliasManager) countIn(v any) int {
	n := 0
	switch x := v.(type) {
	case string:
		if _, ok := m.aliases[x]; ok {
			n = 1
		}
	case map[string]any:
		for _, item := range x {
			n += m.countIn(item)
		}
	case []any:
		for _, item := range x {
			n += m.countIn(item)
		}
	}
	return n
}

//aitools:end
