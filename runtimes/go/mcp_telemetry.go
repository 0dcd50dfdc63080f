//aitools:inline mcp

package aitools

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WithTelemetry observes each call with t (docs/production.md,
// "Telemetry"): runtimes/go/otelaitools.New. A call whose _meta carries a
// trace context ("traceparent", "tracestate") runs in it when t has the
// method ContextFromMeta; otelaitools takes the _meta's "baggage" too only
// with WithMetaBaggage (it is the MCP client's text).
func WithTelemetry(t Telemetry) MCPOption {
	return func(o *mcpOptions) { o.telemetry = t }
}

// toolCallKey is the context key of a call's telemetry record.
type toolCallKey struct{}

// startCall begins the telemetry of a tools/call of t, nil without
// Telemetry; its record is also in the context, for run.
func (s *mcpServer) startCall(ctx context.Context, req *mcp.CallToolRequest, t *mcpTool) (context.Context, *toolCall) {
	tel := s.opts.telemetry
	if tel == nil {
		return ctx, nil
	}
	if m, ok := tel.(interface {
		ContextFromMeta(ctx context.Context, meta map[string]any) context.Context
	}); ok && req.Params != nil && len(req.Params.Meta) > 0 {
		ctx = m.ContextFromMeta(ctx, req.Params.Meta)
	}
	ctx, end := tel.StartToolCall(ctx, t.name, strings.TrimPrefix(t.Method, "/"))
	c := &toolCall{ended: ToolCallEnd{ConversationAliases: -1}, end: end}
	return context.WithValue(ctx, toolCallKey{}, c), c
}

// observedCall is the telemetry record of the call of ctx, nil when none.
func observedCall(ctx context.Context) *toolCall {
	c, _ := ctx.Value(toolCallKey{}).(*toolCall)
	return c
}

// failed is auditOutcome, the reason of err also recorded for the call's
// telemetry.
func failed(ctx context.Context, err error, subject string) (outcome, code string) {
	observedCall(ctx).fail(err)
	return auditOutcome(err, subject)
}

// refused records the reason of a refusal that is no ToolError, the first
// one recorded: "unavailable" for backend credentials that could not be
// obtained.
func (c *toolCall) refused(reason string) {
	if c != nil && c.ended.Reason == "" {
		c.ended.Reason = reason
	}
}

// finishMCP ends the telemetry of a call answered with res. A refusal
// before the executor ran has the reason of its audit outcome, as in
// TypeScript and Python: "too-many-calls" (rate, concurrency),
// "unauthorized" (scopes), "invalid-arguments" (the extra properties, the
// _meta handle), "unavailable" (the backend credentials, recorded by
// refused); a panic "_OTHER". A ToolError recorded before wins: an
// approval refused is "not-approved", an unknown or another caller's
// handle "conversation-expired".
func (c *toolCall) finishMCP(res *mcp.CallToolResult, outcome string) {
	if c == nil {
		return
	}
	if res.IsError {
		switch outcome {
		case "limited":
			c.refused("too-many-calls")
		case "unauthorized":
			c.refused("unauthorized")
		case "invalid_arguments":
			c.refused("invalid-arguments")
		default:
			c.refused("_OTHER")
		}
	}
	c.finish(nil)
}
