package aitools

import "encoding/json"

// AgentTool stands in for the type every generated file declares
// (templates/go/tools.hbs), which the MCP part uses. Not inlined.
type AgentTool struct {
	Name        string
	Description string
	Strict      bool
	Parameters  json.RawMessage
}
