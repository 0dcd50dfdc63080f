package mcphttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	sdkjson "github.com/segmentio/encoding/json"
)

// scopeRefusal is a tools/call whose tool needs scopes the token lacks.
type scopeRefusal struct {
	tool    string
	needed  []string // the tool's scopes
	missing []string
}

// callNeedingScope peeks a JSON-RPC body (a message or a batch) for the
// first tools/call whose tool (toolScopes) needs a scope not in held; nil
// when none does, or the body is not JSON-RPC (the SDK answers that).
// Comparison is exact. The body is read as the go-sdk reads it (keys
// matched by exact case, the last of duplicates winning), so that the
// gate checks the very tool the SDK will call: encoding/json would take
// "Method" or "NAME" for "method" or "name".
func callNeedingScope(body []byte, toolScopes map[string][]string, held []string) *scopeRefusal {
	if len(toolScopes) == 0 {
		return nil
	}
	body = bytes.TrimSpace(body)
	var messages []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if decodeAsSDK(body, &messages) != nil {
			return nil
		}
	} else {
		messages = []json.RawMessage{body}
	}
	for _, raw := range messages {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if decodeAsSDK(raw, &msg) != nil || msg.Method != "tools/call" {
			continue
		}
		needed := toolScopes[msg.Params.Name]
		if missing := missingScopes(needed, held); len(missing) > 0 {
			return &scopeRefusal{tool: msg.Params.Name, needed: needed, missing: missing}
		}
	}
	return nil
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
