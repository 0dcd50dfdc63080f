//aitools:inline mcp

package aitools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// call runs one tools/call (docs/mcp.md, "Calls") and audits it: every
// failure, a panic included, is an isError result, never a protocol error.
func (s *mcpServer) call(ctx context.Context, req *mcp.CallToolRequest, t *mcpTool) *mcp.CallToolResult {
	start := time.Now()
	id := IdentityFromRequest(req)
	ctx, observed := s.startCall(ctx, req, t)
	res, outcome, code := s.run(ctx, req, t, id)
	observed.finishMCP(res, outcome)
	if s.opts.audit != nil && res.InputRequests == nil {
		r := AuditRecord{Time: start, Tool: t.name, Method: t.Method, Outcome: outcome, Code: code}
		if id != nil {
			r.Subject = id.Subject
		}
		r.DurationMs = float64(time.Since(start).Microseconds()) / 1000 // ms, 3 decimals
		s.opts.audit(r)
	}
	return res
}

// run runs one tools/call of the caller id (nil without authorization):
// the result and its audit outcome and code.
func (s *mcpServer) run(ctx context.Context, req *mcp.CallToolRequest, t *mcpTool, id *Identity) (res *mcp.CallToolResult, outcome, code string) {
	defer func() {
		if r := recover(); r != nil {
			res, outcome, code = mcpErrorResult(fmt.Sprintf("internal error in tool %s: %v", quote(t.name), r)), "tool_error", grpcCodeName(codes.Internal)
		}
	}()
	if httpCtx := httpRequestDone(req); httpCtx != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(httpCtx, cancel)()
	}
	subject := ""
	if id != nil {
		subject = id.Subject
	}
	if refused, outcome := s.admit(t, id); refused != "" {
		return mcpErrorResult(refused), outcome, ""
	}
	args, values, err := s.takeArguments(req.Params.Arguments)
	if err != nil {
		return mcpErrorResult(err.Error()), "invalid_arguments", ""
	}
	//aitools:if aliases
	handle, err := metaHandle(req.Params.Meta)
	if err != nil {
		return mcpErrorResult(err.Error()), "invalid_arguments", ""
	}
	if h, ok := values[conversationArgument]; ok && s.opts.handleArgument {
		if handle == "" { // _meta wins: the application knows its conversation
			handle = h
		}
		delete(values, conversationArgument)
	}
	//aitools:end
	if len(values) > 0 {
		ctx = context.WithValue(ctx, mcpExtrasKey{}, values)
		for _, p := range s.opts.extras {
			if v, ok := values[p.Name]; ok && p.ContextKey != nil {
				ctx = context.WithValue(ctx, p.ContextKey, v)
			}
		}
	}
	e := &Executor{}
	//aitools:if !aliases
	observedCall(ctx).attach(e, true)
	//aitools:end
	// The conversation the call counts in and an approval is bound to: the
	// connection's (stdio, an HTTP session), the handle's; a stateless call
	// without a handle has none and counts with its subject's other calls.
	var inConversation any = req.Session
	conversation := ""
	if isStateless(req) {
		inConversation = subjectCalls(subject)
	} else if req.Session != nil {
		conversation = req.Session.ID()
	}
	//aitools:if aliases
	conv, err := s.conversation(ctx, req, handle, subject)
	if err != nil {
		outcome, code := failed(ctx, err, subject)
		return mcpErrorResult(err.Error()), outcome, code
	}
	e = conv.executor
	observedCall(ctx).attach(e, true) // its size is reported from here on, a full conversation's too
	named := conv.handle
	if !conv.shown {
		named = "" // a session's: the model never saw its handle
	}
	if err := checkRoom(s.opts.store, named, e); err != nil {
		outcome, code := failed(ctx, err, subject)
		return mcpErrorResult(err.Error()), outcome, code
	}
	if conv.key != "" && !conv.minted {
		inConversation, conversation = conv.key, conv.key
	}
	//aitools:end
	leave, refused := s.guard.enter(inConversation)
	if refused != "" {
		//aitools:if aliases
		s.dropMinted(ctx, conv)
		//aitools:end
		return mcpErrorResult(refused), "limited", ""
	}
	defer leave()
	e.MaxResultBytes, e.Timeout = s.opts.maxResultBytes, s.opts.timeout
	e.extraRoot = mcpExtraRoot
	e.gate = s.approvalGate(req, t, subject, conversation)
	forwarded, err := s.opts.forward.outgoing(ctx, id)
	if err != nil {
		//aitools:if aliases
		s.dropMinted(ctx, conv)
		//aitools:end
		observedCall(ctx).refused("unavailable")
		return mcpErrorResult(fmt.Sprintf("the backend credentials of the call of %s could not be obtained; nothing was sent", quote(t.name))), "tool_error", grpcCodeName(codes.Unauthenticated)
	}
	out, err := t.call(forwarded, e, args)
	//aitools:if aliases
	if err != nil {
		s.dropMinted(ctx, conv)
	}
	err = s.lostInCall(req, conv, err)
	//aitools:end
	var ask *inputRequired
	if errors.As(err, &ask) {
		return &mcp.CallToolResult{InputRequests: ask.requests, RequestState: ask.state}, "", ""
	}
	if err != nil {
		outcome, code := failed(ctx, err, subject)
		return mcpErrorResult(mcpErrorText(e, err)), outcome, code
	}
	if t.wrap != "" {
		out = "{" + quote(t.wrap) + ":" + out + "}"
	}
	res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}, StructuredContent: json.RawMessage(out)}
	//aitools:if aliases
	if conv.shown {
		res.Meta = mcp.Meta{conversationMetaKey: conv.handle}
		res.Content = append(res.Content, &mcp.TextContent{Text: "conversation: " + conv.handle})
	}
	//aitools:end
	return res, "ok", ""
}

// admit checks a call of t by id before anything else: its subject's rate
// first (every call counts, one refused for its scopes and the answer to
// an approval too), then the scopes of its token. It returns the text and
// outcome of a refusal, else "".
func (s *mcpServer) admit(t *mcpTool, id *Identity) (refused, outcome string) {
	subject := ""
	if id != nil {
		subject = id.Subject
	}
	if refused := s.guard.takeToken(subject, time.Now()); refused != "" {
		return refused, "limited"
	}
	if id != nil {
		if missing := s.guard.missingScopes(t.name, id.Scopes); missing != "" {
			return fmt.Sprintf("the call of %s needs scope %s", quote(t.name), quote(missing)), "unauthorized"
		}
	}
	return "", ""
}

// errUnknownHandle is the cause of unknownHandle's errors.
var errUnknownHandle = errors.New("unknown conversation handle")

// subjectCalls is the count of the calls of a subject that belong to no
// conversation (docs/production.md, "Limits").
type subjectCalls string

// isStateless reports whether req is a stateless HTTP request (2026-07-28):
// a session made for it alone, which is no conversation.
func isStateless(req *mcp.CallToolRequest) bool {
	return req.Session == nil || (req.Extra != nil && req.Extra.Header != nil && req.Session.ID() == "")
}

// mcpExtraRoot are the arguments never unknown in a call: the conversation
// handle's property, also when the server does not read it (docs/mcp.md,
// "Calls"). The extra properties are taken out before.
var mcpExtraRoot = []string{"conversation"}

// mcpErrorResult is an isError result with one text block.
func mcpErrorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// takeArguments takes the extra properties and the handle property out of
// the arguments: it returns the rest as JSON and their values by name.
func (s *mcpServer) takeArguments(raw json.RawMessage) (args string, values map[string]string, err error) {
	names := make([]string, 0, len(s.opts.extras)+1)
	for _, p := range s.opts.extras {
		names = append(names, p.Name)
	}
	//aitools:if aliases
	if s.opts.handleArgument {
		names = append(names, conversationArgument)
	}
	//aitools:end
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	if len(names) == 0 {
		return string(raw), nil, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return string(raw), nil, nil // not an object: the executor says so
	}
	values = map[string]string{}
	for _, name := range names {
		v, ok := obj[name]
		delete(obj, name)
		if !ok || string(v) == "null" {
			continue
		}
		var text string
		if json.Unmarshal(v, &text) != nil {
			return "", nil, argumentsError(Violation{Field: name, Reason: "invalid-value", Message: "must be a string"})
		}
		values[name] = text
	}
	for _, p := range s.opts.extras {
		if _, ok := values[p.Name]; p.Required && !ok {
			return "", nil, argumentsError(Violation{Field: p.Name, Reason: "required", Message: "missing required field"})
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return "", nil, argumentsError(Violation{Reason: "invalid-json", Message: err.Error()})
	}
	return string(b), values, nil
}

// argumentsError is the error of MCP arguments refused before the
// executor reads them: one violation, the executor's text.
func argumentsError(v Violation) error {
	return (&Executor{}).refuse("invalid-arguments", []Violation{v}, nil)
}

// mcpErrorText is the text of a failed call for the model: the executor's
// (docs/runtime.md, "Errors"), UUIDs shown as aliases.
func mcpErrorText(e *Executor, err error) string {
	text := err.Error()
	//aitools:if aliases
	text = e.aliases.AliasifyJSON("", text)
	//aitools:end
	return text
}

// mcpJSON writes a response as MCP results carry it (docs/mcp.md, "Tools as
// listed"): proto field names, fields without presence emitted when they
// hold their default.
var mcpJSON = protojson.MarshalOptions{UseProtoNames: true, EmitDefaultValues: true}

// mcpEncode returns one response as MCP results carry it.
func mcpEncode(e *Executor, resp proto.Message) ([]byte, error) {
	b, err := marshalResponse(mcpJSON, resp)
	if err != nil {
		return nil, e.toolError("invalid-response", codes.Internal, "failed to marshal response: "+err.Error(), err)
	}
	return b, nil
}

// mcpUnary runs a unary tool: the arguments decoded into req, the RPC
// called, its response encoded for MCP with UUIDs shown as aliases.
func mcpUnary[Req, Resp proto.Message](ctx context.Context, e *Executor, tool AgentTool, args string, req Req, call func(context.Context, Req, ...grpc.CallOption) (Resp, error)) (string, error) {
	if err := e.decode(tool.Name, args, req, tool.Strict); err != nil {
		return "", err
	}
	if err := e.approve(ctx, tool.Name, args); err != nil {
		return "", err
	}
	ctx, cancel := e.callContext(ctx, tool.Name)
	defer cancel()
	resp, err := call(ctx, req)
	if err != nil {
		return "", e.serverError(tool.Name, err)
	}
	e.observed.sent(codes.OK)
	b, err := mcpEncode(e, resp)
	if err != nil {
		return "", err
	}
	out := string(b)
	//aitools:if aliases
	if err := e.registerResponses(tool.Name, []string{out}); err != nil {
		return "", err
	}
	out = e.aliases.AliasifyJSON(tool.Name, out)
	//aitools:end
	if err := e.checkResult(out); err != nil {
		return "", err
	}
	return out, nil
}

// mcpStream runs a server-streaming tool: its messages, at most 1000, are
// collected into a JSON array (which the result wraps as {"messages":[...]}).
// The stream is any client stream with Recv: grpc.ServerStreamingClient of
// protoc-gen-go-grpc 1.4 and later as well as the per-method stream
// interfaces of earlier releases (or of use_generic_streams_experimental=false).
func mcpStream[Req, Resp proto.Message, Stream interface{ Recv() (Resp, error) }](ctx context.Context, e *Executor, tool AgentTool, args string, req Req, call func(context.Context, Req, ...grpc.CallOption) (Stream, error)) (string, error) {
	if err := e.decode(tool.Name, args, req, tool.Strict); err != nil {
		return "", err
	}
	if err := e.approve(ctx, tool.Name, args); err != nil {
		return "", err
	}
	ctx, cancel := e.callContext(ctx, tool.Name)
	defer cancel()
	stream, err := call(ctx, req)
	if err != nil {
		return "", e.serverError(tool.Name, err)
	}
	if c, ok := any(stream).(interface{ Close() error }); ok {
		defer c.Close() // a stream that asks to be closed (connect-go's), also when left early
	}
	e.observed.sent(codes.OK) // the stream is open; an error ends it
	var b strings.Builder
	//aitools:if aliases
	var items []string // the messages, for registration
	//aitools:end
	budget := e.newStreamBudget()
	b.WriteByte('[')
	for n := 0; ; n++ {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", e.serverError(tool.Name, err)
		}
		if n == 1000 {
			e.observed.sent(codes.Canceled) // cut by the executor
			return "", e.toolError("invalid-response", codes.ResourceExhausted, "stream returned more than 1000 messages: narrow the request", nil)
		}
		item, err := mcpEncode(e, msg)
		if err != nil {
			return "", err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(item)
		//aitools:if aliases
		items = append(items, string(item))
		//aitools:end
		if err := budget.over(e, tool.Name, b.String()); err != nil {
			e.observed.sent(codes.Canceled)
			return "", err
		}
	}
	b.WriteByte(']')
	out := b.String()
	//aitools:if aliases
	if err := e.registerResponses(tool.Name, items); err != nil {
		return "", err
	}
	out = e.aliases.AliasifyJSON(tool.Name, out)
	//aitools:end
	if err := e.checkResult(out); err != nil {
		return "", err
	}
	return out, nil
}
