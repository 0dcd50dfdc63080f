package mcphttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdkjson "github.com/segmentio/encoding/json"
)

// scopeRefusal is a tools/call whose tool needs scopes the token lacks.
type scopeRefusal struct {
	tool    string
	needed  []string // the tool's scopes
	missing []string
}

// callTool is the tool of a search-first server (WithSearchFirst) that
// calls the tool its arguments name.
const callTool = "call_tool"

// errUnreadableCall is a JSON body the gate cannot read as the go-sdk
// reads JSON-RPC: refused, never passed unchecked.
var errUnreadableCall = errors.New("the request body is JSON but not a JSON-RPC message the server can read")

// callNeedingScope peeks a JSON-RPC body (a message or a batch) for the
// first tools/call whose tool (toolScopes) needs a scope not in held; nil
// when none does. A call of call_tool, when no tool of that name has
// scopes, is the call of the tool its arguments name. Comparison is exact. The body is read as the go-sdk
// reads it (its own jsonrpc.DecodeMessage: keys matched by exact case,
// method and params taken raw, the last of duplicates winning whatever
// its type, then decoded), so that the gate checks the very tool the SDK
// will call. A body that is not JSON at all, or nested too deep, is not
// checked (nil, nil): the SDK answers it with a parse error and calls
// nothing. A JSON body the gate cannot decode is errUnreadableCall: the
// gate refuses it rather than let it through unchecked.
func callNeedingScope(body []byte, toolScopes map[string][]string, held []string) (*scopeRefusal, error) {
	if len(toolScopes) == 0 {
		return nil, nil
	}
	body = bytes.TrimSpace(body)
	if tooDeep(body) || !json.Valid(body) {
		return nil, nil
	}
	// As the SDK's readBatch: an array of messages first, else one message.
	var raws []json.RawMessage
	if decodeAsSDK(body, &raws) != nil {
		raws = []json.RawMessage{body}
	}
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, errUnreadableCall
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || req.Method != "tools/call" {
			continue
		}
		var params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if len(req.Params) > 0 && decodeAsSDK(req.Params, &params) != nil {
			return nil, errUnreadableCall
		}
		tool := params.Name
		if _, scoped := toolScopes[tool]; !scoped && tool == callTool {
			// A search-first server's call_tool: the call of the tool it
			// names (an argument the server refuses names none).
			var args struct {
				Name string `json:"name"`
			}
			if decodeAsSDK(params.Arguments, &args) == nil {
				tool = args.Name
			}
		}
		needed := toolScopes[tool]
		if missing := missingScopes(needed, held); len(missing) > 0 {
			return &scopeRefusal{tool: tool, needed: needed, missing: missing}, nil
		}
	}
	return nil, nil
}

// decodeAsSDK decodes data into v as the go-sdk's internal/json does:
// segmentio/encoding/json matching struct fields by exact case, refusing
// JSON nested deeper than maxDepth first (the decoder recurses: a body of
// "[[[[..." would overflow the stack, which kills the process).
func decodeAsSDK(data []byte, v any) error {
	if tooDeep(data) {
		return errTooDeep
	}
	dec := sdkjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}

// maxDepth is the nesting the go-sdk accepts (internal/json).
const maxDepth = 1000

var errTooDeep = errors.New("JSON nested too deep")

// tooDeep reports whether data nests objects and arrays deeper than
// maxDepth (strings skipped).
func tooDeep(data []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString:
			escaped, inString = b == '\\', b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case (b == '}' || b == ']') && depth > 0:
			depth--
		}
	}
	return false
}

// description is the refusal's text for the client.
func (s *scopeRefusal) description() string {
	return "the call of " + quote(s.tool) + " needs scope " + quote(strings.Join(s.missing, " "))
}

// missingScopes are the scopes of needed not in held.
func missingScopes(needed, held []string) []string {
	var missing []string
	for _, s := range needed {
		if !slices.Contains(held, s) {
			missing = append(missing, s)
		}
	}
	return missing
}
