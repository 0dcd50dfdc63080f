package mark3labs

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Server adds the tools of generated code, given in the official Go SDK's
// types, to a mark3labs *server.MCPServer.
type Server struct {
	raw       *server.MCPServer
	tokenInfo atomic.Pointer[TokenInfoFunc]
}

// TokenInfoFunc tells who makes a call: the caller's verified token as the
// official SDK's auth.TokenInfo (UserID the subject, Scopes, Expiration,
// Extra["claims"] the claims), nil for a caller without one. ctx is the
// call's context as mcp-go hands it over, holding what the transport put
// there (server.WithHTTPContextFunc for streamable HTTP).
type TokenInfoFunc func(ctx context.Context, req mcp.CallToolRequest) *auth.TokenInfo

// servers are the *Server of each raw server Wrap was given.
var servers sync.Map // *server.MCPServer -> *Server

// NewServer makes a mark3labs server named name at version with opts (tool
// capabilities are on already) and returns it for the transports
// (server.ServeStdio, server.NewStreamableHTTPServer), with the *Server to
// register the generated tools on.
func NewServer(name, version string, opts ...server.ServerOption) (*server.MCPServer, *Server) {
	raw := server.NewMCPServer(name, version, append([]server.ServerOption{server.WithToolCapabilities(true)}, opts...)...)
	return raw, Wrap(raw)
}

// Wrap returns the *Server adding its tools to raw: the same one for every
// call with the same raw (NewServer's too), so that the registrations on
// one raw server share one state (options, conversations, limits).
func Wrap(raw *server.MCPServer) *Server {
	s, _ := servers.LoadOrStore(raw, &Server{raw: raw})
	return s.(*Server)
}

// SetTokenInfo makes fn tell the tools who calls (nil: nobody is known,
// the default). Without it no identity reaches the tools: annotated
// required_scopes and WithRequiredScopes refuse nothing, WithForwardIdentity
// forwards nothing, and every call counts as the one anonymous caller's
// for WithRateLimit and, outside a conversation, WithMaxConcurrentCalls.
func (s *Server) SetTokenInfo(fn TokenInfoFunc) {
	if fn == nil {
		s.tokenInfo.Store(nil)
		return
	}
	s.tokenInfo.Store(&fn)
}

// AddTool adds t to the mark3labs server; its calls run h. A schema that
// does not encode as JSON panics, naming the tool, as the official SDK's
// AddTool does for a bad schema.
func (s *Server) AddTool(t *gosdk.Tool, h gosdk.ToolHandler) {
	s.raw.AddTool(convertTool(t), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		call, err := convertRequest(req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		if fn := s.tokenInfo.Load(); fn != nil {
			if info := (*fn)(ctx, req); info != nil {
				call.Extra = &gosdk.RequestExtra{TokenInfo: info}
			}
		}
		res, err := h(ctx, call)
		if err != nil {
			return nil, err
		}
		return convertResult(res), nil
	})
}

// convertTool is t in mcp-go's types.
func convertTool(t *gosdk.Tool) mcp.Tool {
	out := mcp.Tool{
		Name:            t.Name,
		Title:           t.Title,
		Description:     t.Description,
		RawInputSchema:  schemaJSON(t.Name, "input", t.InputSchema),
		RawOutputSchema: schemaJSON(t.Name, "output", t.OutputSchema),
	}
	if out.RawInputSchema == nil {
		out.RawInputSchema = json.RawMessage(`{"type":"object"}`)
	}
	if a := t.Annotations; a != nil {
		// Copies: the tool given stays the caller's.
		readOnly, idempotent := a.ReadOnlyHint, a.IdempotentHint
		out.Annotations = mcp.ToolAnnotation{
			Title:           a.Title,
			ReadOnlyHint:    &readOnly,
			IdempotentHint:  &idempotent,
			DestructiveHint: copyBool(a.DestructiveHint),
			OpenWorldHint:   copyBool(a.OpenWorldHint),
		}
	}
	if len(t.Meta) > 0 {
		out.Meta = &mcp.Meta{AdditionalFields: t.Meta}
	}
	return out
}

func copyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

// schemaJSON is a tool's schema as JSON, nil when it has none.
func schemaJSON(tool, which string, schema any) json.RawMessage {
	switch v := schema.(type) {
	case nil:
		return nil
	case json.RawMessage:
		return v
	}
	b, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("tool %q: its %s schema does not encode as JSON: %v", tool, which, err))
	}
	if string(b) == "null" {
		return nil
	}
	return b
}

// convertRequest is the call req in the official SDK's types, without a
// session.
func convertRequest(req mcp.CallToolRequest) (*gosdk.CallToolRequest, error) {
	params := &gosdk.CallToolParamsRaw{Name: req.Params.Name}
	switch args := req.GetRawArguments().(type) {
	case nil:
	case json.RawMessage:
		params.Arguments = args
	default:
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("the arguments of tool %q do not encode as JSON: %v; send a JSON object", req.Params.Name, err)
		}
		params.Arguments = b
	}
	if m := req.Params.Meta; m != nil {
		params.Meta = gosdk.Meta{}
		for k, v := range m.AdditionalFields {
			params.Meta[k] = v
		}
		if m.ProgressToken != nil {
			params.Meta["progressToken"] = m.ProgressToken
		}
	}
	return &gosdk.CallToolRequest{Params: params}, nil
}

// convertResult is res in mcp-go's types.
func convertResult(res *gosdk.CallToolResult) *mcp.CallToolResult {
	if res == nil {
		return &mcp.CallToolResult{Content: []mcp.Content{}}
	}
	out := &mcp.CallToolResult{
		Content:           make([]mcp.Content, 0, len(res.Content)),
		StructuredContent: res.StructuredContent,
		IsError:           res.IsError,
	}
	if len(res.Meta) > 0 {
		out.Meta = &mcp.Meta{AdditionalFields: res.Meta}
	}
	for _, c := range res.Content {
		out.Content = append(out.Content, convertContent(c))
	}
	return out
}

// convertContent is one content block in mcp-go's types: text, image and
// audio as they are (the SDK holds the bytes, mcp-go their base64), any
// other kind as its JSON in a text block.
func convertContent(c gosdk.Content) mcp.Content {
	switch v := c.(type) {
	case *gosdk.TextContent:
		return mcp.NewTextContent(v.Text)
	case *gosdk.ImageContent:
		return mcp.NewImageContent(base64.StdEncoding.EncodeToString(v.Data), v.MIMEType)
	case *gosdk.AudioContent:
		return mcp.NewAudioContent(base64.StdEncoding.EncodeToString(v.Data), v.MIMEType)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return mcp.NewTextContent(fmt.Sprintf("content of type %T does not encode as JSON: %v", c, err))
	}
	return mcp.NewTextContent(string(b))
}
