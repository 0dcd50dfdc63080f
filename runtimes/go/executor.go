//aitools:inline executors

package aitools

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Executor runs the auto-executed tools over a gRPC connection.
type Executor struct {
	// MaxResultBytes is the largest result text shown to the model; a
	// larger one is the error "result-too-large" (docs/runtime.md, "Bounded
	// results"). Zero: DefaultMaxResultBytes; negative: no limit.
	MaxResultBytes int
	// Timeout is the deadline of a call of a tool that sets none in its
	// annotation. Zero: DefaultToolTimeout; negative: none. A shorter
	// deadline of the caller's context wins.
	Timeout time.Duration
	// Approve decides each call of a tool that needs an approval (the
	// proto does not set auto_execute; docs/mcp.md, "Approvals") after its
	// arguments passed their checks; without it such a call is refused
	// and nothing is sent.
	Approve ApproveFunc
	// Telemetry, when set, observes each call (docs/production.md,
	// "Telemetry"): runtimes/go/otelaitools.New.
	Telemetry Telemetry

	conn grpc.ClientConnInterface
	// observed is the record of the call this executor runs, nil when no
	// Telemetry observes it.
	observed *toolCall
	// gate replaces Approve in a call of the MCP server, which asks by
	// elicitation or its own hook.
	gate func(ctx context.Context, argsJSON string) error
	// extraRoot are names never unknown at the root of the arguments: the
	// MCP server's conversation property.
	extraRoot []string
	//aitools:if aliases

	aliases *AliasManager
	// store, when set, stores the pairs a response registers before the
	// response is shown (a conversation in a ConversationStore).
	store func(pairs [][2]string) error
	//aitools:end
}

// NewExecutor returns an executor calling conn.
func NewExecutor(conn grpc.ClientConnInterface) *Executor {
	e := &Executor{conn: conn}
	//aitools:if aliases
	e.aliases = NewAliasManager()
	//aitools:end
	return e
}

//aitools:if aliases

// GetAliasManager returns the executor's alias manager, to share with
// hand-written tools of the same conversation.
func (e *Executor) GetAliasManager() *AliasManager {
	return e.aliases
}

//aitools:end

// errInvalidJSON is the argument error of text that is not one JSON value.
var errInvalidJSON = errors.New("invalid JSON; send the arguments as one JSON object")

// decode reads the model's arguments into req (docs/runtime.md, "A call"):
// the text parsed as one JSON object, its structure checked against the
// tool's argument table, aliases resolved (in a file with aliases), the
// argument fix-up applied, protojson, then the request validated when the
// file validates requests. Nothing is sent to the server when it fails.
func (e *Executor) decode(toolName string, argsJSON string, req proto.Message, strict bool) error {
	obj, vs := parseArguments(argsJSON)
	if vs == nil {
		if t := toolArgumentTable(toolName); t != nil {
			vs = t.check(obj, e.extraRoot, lenientArguments)
		}
	}
	if len(vs) > 0 {
		return e.refuse("invalid-arguments", vs, nil)
	}
	var v any = obj
	//aitools:if aliases
	if e.observed != nil {
		e.observed.ended.Resolved = e.aliases.countAliases(v)
	}
	v, err := e.aliases.resolveValue(v, true)
	if err != nil {
		return e.refuse("unknown-alias", []Violation{aliasViolation(err)}, err)
	}
	//aitools:end
	md := req.ProtoReflect().Descriptor()
	args, err := fixArgs(v, md, strict)
	if err != nil {
		return e.refuse("invalid-arguments", []Violation{violationOf(err, "invalid-value")}, err)
	}
	text := encodeJSON(args)
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(text), req); err != nil {
		return e.refuse("invalid-arguments", []Violation{{Reason: "invalid-value", Message: decoderMessage(err, md)}}, decoderError{err})
	}
	if strings.Contains(text, wildcardPath) {
		replaceMaskPaths(req.ProtoReflect(), wildcardProto, "*")
	}
	if validateRequest != nil {
		if err := validateRequest(req); err != nil {
			vs := validationViolations(err)
			if vs == nil {
				return e.cannotValidate(err)
			}
			return e.refuse("failed-validation", vs, err)
		}
	}
	return nil
}

// decoderError is an error of protojson with ordinary spaces: protojson
// writes "proto:" and a space it picks per build, at random, between an
// ordinary and a no-break one (so that no program relies on its text),
// which the model would read as it is.
type decoderError struct{ err error }

func (d decoderError) Error() string { return strings.ReplaceAll(d.err.Error(), "\u00a0", " ") }

func (d decoderError) Unwrap() error { return d.err }

// decoderPosition is protojson's prefix of an error: the position in the
// text the fix-up wrote, not the model's.
var decoderPosition = regexp.MustCompile(`^proto: (\(line [0-9]+:[0-9]+\): )?`)

// decoderField is where protojson names a field, by its JSON name.
var decoderField = regexp.MustCompile(` field ([A-Za-z_][A-Za-z0-9_]*)`)

// decoderMessage is a protojson error for the model: ordinary spaces, no
// position, fields by proto name (the schema's) instead of JSON name.
func decoderMessage(err error, md protoreflect.MessageDescriptor) string {
	msg := decoderPosition.ReplaceAllString(decoderError{err}.Error(), "")
	return decoderField.ReplaceAllStringFunc(msg, func(m string) string {
		if name := protoName(md, m[len(" field "):], map[protoreflect.FullName]bool{}); name != "" {
			return " field " + name
		}
		return m
	})
}

// protoName finds the proto name of a field of md, or of a message below
// it, by its JSON name; "" when there is none.
func protoName(md protoreflect.MessageDescriptor, jsonName string, seen map[protoreflect.FullName]bool) string {
	if seen[md.FullName()] {
		return ""
	}
	seen[md.FullName()] = true
	if fd := md.Fields().ByJSONName(jsonName); fd != nil {
		return string(fd.Name())
	}
	for i := 0; i < md.Fields().Len(); i++ {
		fd := md.Fields().Get(i)
		if fd.IsMap() {
			fd = fd.MapValue()
		}
		if fd.Message() != nil {
			if name := protoName(fd.Message(), jsonName, seen); name != "" {
				return name
			}
		}
	}
	return ""
}

// toolError is a ToolError whose message is shown to the model as it is,
// registered UUIDs aside.
func (e *Executor) toolError(reason string, code codes.Code, msg string, cause error) *ToolError {
	//aitools:if aliases
	msg = e.aliases.AliasifyJSON("", msg)
	//aitools:end
	return &ToolError{Reason: reason, Code: code, Message: msg, RawMessage: msg, Cause: cause}
}

// unknownTool is the error of a tool name without an auto-executor.
func (e *Executor) unknownTool(toolName string) *ToolError {
	return e.toolError("unknown-tool", codes.NotFound, "no auto-executor for tool: "+toolName, nil)
}

// serverError is the error of a failed call: the server's code and details,
// its message shown to the model with registered UUIDs as aliases.
func (e *Executor) serverError(toolName string, err error) *ToolError {
	st := status.Convert(err)
	e.observed.sent(st.Code())
	msg := st.Message()
	//aitools:if aliases
	msg = e.aliases.AliasifyJSON(toolName, msg)
	//aitools:end
	reason := "server-error"
	if st.Code() == codes.Unavailable {
		reason = "unavailable"
	}
	var text strings.Builder
	text.WriteString("rpc error: code = " + st.Code().String() + " desc = " + msg)
	details := st.Proto().GetDetails()
	vs := badRequestViolations(details)
	//aitools:if aliases
	for i := range vs {
		vs[i].Field = e.aliases.AliasifyJSON(toolName, vs[i].Field)
		vs[i].Message = e.aliases.AliasifyJSON(toolName, vs[i].Message)
	}
	//aitools:end
	violationLines(&text, vs)
	return &ToolError{
		Reason:     reason,
		Code:       st.Code(),
		Message:    text.String(),
		RawMessage: msg,
		Details:    details,
		Violations: vs,
		Cause:      err,
	}
}

// encode writes one response message as JSON.
func (e *Executor) encode(resp proto.Message) ([]byte, error) {
	b, err := marshalResponse(protojson.MarshalOptions{UseProtoNames: !jsonNames}, resp)
	if err != nil {
		return nil, e.toolError("invalid-response", codes.Internal, "failed to marshal response: "+err.Error(), err)
	}
	return b, nil
}

// finish encodes a response for the model; in a file with aliases it
// registers the response's ids and shows its UUIDs as aliases.
func (e *Executor) finish(toolName string, resp proto.Message) (string, error) {
	e.observed.sent(codes.OK)
	b, err := e.encode(resp)
	if err != nil {
		return "", err
	}
	out := string(b)
	//aitools:if aliases
	if err := e.registerResponses(toolName, []string{out}); err != nil {
		return "", err
	}
	out = e.aliases.AliasifyJSON(toolName, out)
	//aitools:end
	if err := e.checkResult(out); err != nil {
		return "", err
	}
	return out, nil
}

//aitools:if aliases

// registerResponses registers the ids of a tool's responses (a stream's
// messages, in order). In a stored conversation the store registers them,
// and its state becomes the manager's, before anything is shown.
func (e *Executor) registerResponses(toolName string, items []string) error {
	if e.store == nil {
		for _, item := range items {
			e.aliases.RegisterResponseJSON(toolName, item)
		}
		return nil
	}
	var pairs [][2]string
	for _, item := range items {
		pairs = append(pairs, e.aliases.CollectRegistrations(toolName, item)...)
	}
	if len(pairs) == 0 {
		return nil
	}
	return e.store(pairs)
}

//aitools:end

//aitools:if streaming

// collect reads a server stream to its end into a JSON array of at most 1000
// messages; in a file with aliases it registers the ids of the messages, in
// order, and shows the array's UUIDs as aliases.
func collect[T proto.Message](e *Executor, toolName string, recv func() (T, error)) (string, error) {
	// The stream is open: its status is OK unless an error ends it.
	e.observed.sent(codes.OK)
	var b strings.Builder
	//aitools:if aliases
	var items []string // a stored conversation's messages, registered at the end
	//aitools:end
	budget := e.newStreamBudget()
	b.WriteByte('[')
	for n := 0; ; n++ {
		msg, err := recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		if n == 1000 {
			e.observed.sent(codes.Canceled) // cut by the executor
			return "", e.toolError("invalid-response", codes.ResourceExhausted, "stream returned more than 1000 messages: narrow the request", nil)
		}
		item, err := e.encode(msg)
		if err != nil {
			return "", err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(item)
		//aitools:if aliases
		if e.store == nil {
			// Each message registers as it arrives, as in every runtime:
			// a stream that fails later keeps the numbers already given.
			e.aliases.RegisterResponseJSON(toolName, string(item))
		} else {
			items = append(items, string(item))
		}
		//aitools:end
		if err := budget.over(e, toolName, b.String()); err != nil {
			e.observed.sent(codes.Canceled)
			return "", err
		}
	}
	b.WriteByte(']')
	out := b.String()
	//aitools:if aliases
	if err := e.registerResponses(toolName, items); err != nil {
		return "", err
	}
	out = e.aliases.AliasifyJSON(toolName, out)
	//aitools:end
	if err := e.checkResult(out); err != nil {
		return "", err
	}
	return out, nil
}

//aitools:end
