//aitools:inline mcp

package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPServer is what the generated Register...Handler and ForwardTo...Client
// add their tools to: a *mcp.Server of the official go-sdk as it is, or an
// adapter for another MCP library (docs/go.md, "MCP libraries"). The tools
// of one server share their state, keyed by the server value, so an adapter
// is a pointer (or another comparable value). A call an adapter makes with
// no session (req.Session nil) is stateless: its conversation is the handle
// the client passes back, and it cannot ask the user (no elicitation).
type MCPServer interface {
	AddTool(t *mcp.Tool, h mcp.ToolHandler)
}

// MCPExtraProperty is an argument added to the input schema of every tool
// of a server (docs/mcp.md, "Tools as listed"): a nullable string, taken out
// of the arguments before they are decoded and handed to the call's context
// (MCPExtraValue). A call whose value is not a string or null, or that
// leaves out a required one, is an isError result.
type MCPExtraProperty struct {
	Name        string
	Description string
	Required    bool
	// ContextKey, when not nil, is a context key the value is also stored
	// under, as protoc-gen-go-mcp does.
	ContextKey any
}

// MCPOption configures the tools of an MCP server: pass the same options to
// each Register...Handler and ForwardTo...Client of one server, or pass them to
// the first one only.
type MCPOption func(*mcpOptions)

type mcpOptions struct {
	extras         []MCPExtraProperty
	maxResultBytes int
	timeout        time.Duration
	approve        ApproveFunc
	approvalSecret []byte
	requiredScopes map[string][]string
	forward        ForwardIdentity
	rateLimit      int
	maxConcurrent  int
	audit          func(AuditRecord)
	telemetry      Telemetry
	reg            mcpRegistration // per registration, never shared
	//aitools:if aliases

	store          ConversationStore
	handleArgument bool
	//aitools:end
	//aitools:if toolsearch

	searchFirst *SearchFirst
	//aitools:end
}

// WithExtraProperties adds properties to every tool's input schema; a call's
// values reach the executor's context, not the request.
func WithExtraProperties(props ...MCPExtraProperty) MCPOption {
	return func(o *mcpOptions) { o.extras = append(o.extras, props...) }
}

// WithMaxResultBytes sets the largest result text of a call (zero:
// DefaultMaxResultBytes; negative: no limit); a larger one is an isError
// result asking for less.
func WithMaxResultBytes(n int) MCPOption {
	return func(o *mcpOptions) { o.maxResultBytes = n }
}

// WithTimeout sets the deadline of a call of a tool that sets none in its
// annotation (zero: DefaultToolTimeout; negative: none).
func WithTimeout(d time.Duration) MCPOption {
	return func(o *mcpOptions) { o.timeout = d }
}

//aitools:if aliases

// WithConversationStore keeps the conversations in store instead of a
// MemoryConversationStore with DefaultConversationTTL.
func WithConversationStore(store ConversationStore) MCPOption {
	return func(o *mcpOptions) { o.store = store }
}

// WithHandleArgument adds the property "conversation" to every input schema,
// so that a model can pass the conversation handle back as an argument (a
// generic host); a client may always pass it in the request's
// _meta["ai-tools/conversation"], which wins when both are given.
func WithHandleArgument() MCPOption {
	return func(o *mcpOptions) { o.handleArgument = true }
}

// conversationKey is the _meta key and the argument of the conversation
// handle.
const (
	conversationMetaKey  = "ai-tools/conversation"
	conversationArgument = "conversation"
	conversationHelp     = "The conversation handle of the previous result (\"conversation: \u2026\"); leave it out on the first call."
)

//aitools:end

type mcpExtrasKey struct{}

// MCPExtraValue returns the value of the extra property name in a tool
// call's context, and whether the call gave one.
func MCPExtraValue(ctx context.Context, name string) (string, bool) {
	values, _ := ctx.Value(mcpExtrasKey{}).(map[string]string)
	v, ok := values[name]
	return v, ok
}

// mcpTool is one tool served over MCP: the generated file lists them per
// service, with the call of its RPC.
type mcpTool struct {
	tool   AgentTool
	name   string          // the name served: tool.Name, with a registration's prefix
	output json.RawMessage // the output schema
	wrap   string          // the key the result wraps the response under, or ""
	// The MCP hints, every one listed (docs/mcp.md, "Tool hints"), from the
	// method's kind, its idempotency_level and its hints annotation.
	readOnly    bool
	destructive bool
	idempotent  bool
	openWorld   bool
	// Method is the full gRPC method, "/pkg.Service/Method".
	Method string
	// RequiredScopes are the scopes of the annotation's required_scopes.
	RequiredScopes []string
	// NeedsApproval: a call is approved before it is sent (docs/mcp.md,
	// "Approvals").
	NeedsApproval bool
	call          func(ctx context.Context, e *Executor, args string) (string, error)
}

// mcpServer is the state the tools of one MCPServer share.
type mcpServer struct {
	opts  mcpOptions
	given mcpOptions // the options as given, to compare with later ones
	guard *mcpGuard  // approvals' secret, rate limits, calls in flight, scopes
	//aitools:if aliases

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]string // the conversation of each connection
	//aitools:end
	//aitools:if toolsearch

	searchFirst *mcpSearchFirst // WithSearchFirst's state, nil without it
	//aitools:end
}

// mcpServers holds the state of each server that has tools of this package.
var mcpServers sync.Map

// mcpServerOf returns the state of server, made from opts on its first use,
// and what opts set for this registration only (WithProvider,
// WithNamePrefix), which the check of the shared options leaves out.
func mcpServerOf(server MCPServer, opts []MCPOption) (*mcpServer, mcpRegistration) {
	var o mcpOptions
	shared := 0
	for _, opt := range opts {
		var probe mcpOptions
		if opt(&probe); !probe.reg.given {
			shared++
		}
		opt(&o)
	}
	reg := o.reg
	o.reg = mcpRegistration{}
	given := o
	//aitools:if aliases
	if o.store == nil {
		o.store = NewMemoryConversationStore(0)
	}
	//aitools:end
	s := &mcpServer{opts: o, guard: newMCPGuard(o)}
	//aitools:if toolsearch
	if o.searchFirst != nil {
		s.searchFirst = newMCPSearchFirst(server, *o.searchFirst) // checked before anything is kept
	}
	//aitools:end
	//aitools:if aliases
	s.sessions = map[*mcp.ServerSession]string{}
	//aitools:end
	actual, loaded := mcpServers.LoadOrStore(server, s)
	if !loaded {
		s.given = given
		//aitools:if toolsearch
		if s.searchFirst != nil {
			s.searchFirst.install(s, server.(*mcp.Server))
		}
		//aitools:end
		return s, reg
	}
	have := actual.(*mcpServer)
	if shared > 0 && !sameMCPOptions(have.given, given) {
		panic("the tools of one MCP server share their options; pass the same ones to each registration, or to the first one only")
	}
	return have, reg
}

// sameMCPOptions reports whether two registrations gave the same options:
// hooks compare by their function, everything else by value.
func sameMCPOptions(a, b mcpOptions) bool {
	sameFunc := func(f, g any) bool {
		fv, gv := reflect.ValueOf(f), reflect.ValueOf(g)
		return fv.IsNil() == gv.IsNil() && (fv.IsNil() || fv.Pointer() == gv.Pointer())
	}
	if !sameFunc(a.approve, b.approve) || !sameFunc(a.audit, b.audit) || !sameFunc(a.forward.BackendCredentials, b.forward.BackendCredentials) {
		return false
	}
	a.approve, a.audit, a.forward.BackendCredentials = nil, nil, nil
	b.approve, b.audit, b.forward.BackendCredentials = nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// addMCPTools adds tools to server, under their names with the
// registration's prefix and with its provider's form; an extra property
// named like a property of a tool's schema panics, naming the tool, as do an
// unknown provider, a tool without its form and a prefix that makes a name
// invalid.
func addMCPTools(server MCPServer, opts []MCPOption, tools []mcpTool) {
	s, reg := mcpServerOf(server, opts)
	reg.checkProvider()
	defs := make([]*mcp.Tool, len(tools)) // all first: a refused registration adds nothing
	for i := range tools {
		t := &tools[i]
		t.name = reg.toolName(t.tool.Name)
		def := &mcp.Tool{Name: t.name, Description: t.tool.Description, InputSchema: s.inputSchema(t.tool, reg.parameters(t.tool))}
		if len(t.output) > 0 {
			def.OutputSchema = t.output
		}
		def.Annotations = &mcp.ToolAnnotations{
			ReadOnlyHint:    t.readOnly,
			DestructiveHint: &t.destructive,
			IdempotentHint:  t.idempotent,
			OpenWorldHint:   &t.openWorld,
		}
		defs[i] = def
	}
	//aitools:if toolsearch
	if s.searchFirst != nil {
		s.searchFirst.add(tools, defs)
	}
	//aitools:end
	for i, def := range defs {
		t := &tools[i]
		s.guard.addScopes(t.name, t.RequiredScopes)
		if t.name != t.tool.Name {
			// A WithRequiredScopes key names a tool by its served or its
			// generated name: a prefix never drops a requirement.
			s.guard.addScopes(t.name, s.opts.requiredScopes[t.tool.Name])
		}
		server.AddTool(def, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, req, t), nil
		})
	}
}

// inputSchema is the tool's schema (params: its Parameters or a provider's
// form) plus the extra properties and the handle property: nullable
// strings, required in a strict tool (and when declared so).
func (s *mcpServer) inputSchema(tool AgentTool, params json.RawMessage) json.RawMessage {
	type added struct {
		name, description string
		required          bool
	}
	var props []added
	for _, p := range s.opts.extras {
		props = append(props, added{p.Name, p.Description, p.Required})
	}
	//aitools:if aliases
	if s.opts.handleArgument {
		props = append(props, added{conversationArgument, conversationHelp, false})
	}
	//aitools:end
	if len(props) == 0 {
		return params
	}
	v, _ := decodeJSON(string(params))
	root, ok := v.(map[string]any)
	if !ok {
		panic(fmt.Sprintf("the schema of tool %s is not a JSON object", quote(tool.Name)))
	}
	properties, _ := root["properties"].(map[string]any)
	if properties == nil {
		properties = map[string]any{}
		root["properties"] = properties
	}
	required, _ := root["required"].([]any)
	for _, p := range props {
		if _, taken := properties[p.name]; taken {
			panic(fmt.Sprintf("extra property %s is already a property of tool %s; rename the extra property", quote(p.name), quote(tool.Name)))
		}
		schema := map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}}
		if p.description != "" {
			schema["description"] = p.description
		}
		properties[p.name] = schema
		if tool.Strict || p.required {
			required = append(required, p.name)
		}
	}
	if len(required) > 0 {
		root["required"] = required
	}
	return json.RawMessage(encodeJSON(root))
}
