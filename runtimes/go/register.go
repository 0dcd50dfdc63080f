//aitools:inline aliases

package aitools

import "encoding/json"

// responseAliasField is one field of a response message type whose ids
// register (docs/runtime.md, "Response registration").
type responseAliasField struct {
	field   string // the JSON name: responses are written with JSON names
	prefix  string // the alias prefix of the strings it holds, or ""
	message string // the message type it holds, when that type is listed, or ""
	isMap   bool   // a map field: its values are visited
}

// responseAliasTool is how one auto-executed tool's response registers.
type responseAliasTool struct {
	message  string // the response message (of each item of a stream)
	idPrefix string // the prefix of the top-level entity's unannotated "id", or ""
	idField  string // the JSON name of that entity's field, "" for the response itself
}

// RegisterResponseJSON registers the UUIDs of one response of the
// auto-executed tool toolName, following its message type: a field with an
// alias prefix registers under it at any depth (nested, repeated, map
// values, oneof members), and an unannotated "id" only in the tool's
// top-level entity, under the tool's primary prefix. Depth first, fields in
// declaration order, array items in order, map values by key. Invalid JSON,
// or a tool the generated tables do not list, registers nothing.
func (m *AliasManager) RegisterResponseJSON(toolName, jsonStr string) {
	tool, ok := toolResponseAliases[toolName]
	if !ok || nextUUID(jsonStr, 0) < 0 {
		return
	}
	var v any
	if err := json.Unmarshal([]byte(jsonStr), &v); err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if tool.idPrefix != "" {
		entities := v
		if obj, ok := v.(map[string]any); ok && tool.idField != "" {
			entities = obj[tool.idField]
		}
		items, ok := entities.([]any)
		if !ok {
			items = []any{entities}
		}
		for _, item := range items {
			if obj, ok := item.(map[string]any); ok {
				if id, ok := obj["id"].(string); ok && isUUID(id) {
					m.register(tool.idPrefix, id)
				}
			}
		}
	}
	m.registerMessage(v, tool.message)
}

// registerMessage registers the ids of v, a value of message type typeName.
func (m *AliasManager) registerMessage(v any, typeName string) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, f := range responseAliasTypes[typeName] {
		x := obj[f.field]
		if x == nil {
			continue
		}
		if items, ok := x.([]any); ok {
			for _, item := range items {
				m.registerValue(item, f)
			}
		} else if entries, ok := x.(map[string]any); ok && f.isMap {
			for _, key := range sortedKeys(entries) {
				m.registerValue(entries[key], f)
			}
		} else {
			m.registerValue(x, f)
		}
	}
}

func (m *AliasManager) registerValue(v any, f responseAliasField) {
	if s, ok := v.(string); ok && f.prefix != "" && isUUID(s) {
		m.register(f.prefix, s)
	}
	if f.message != "" {
		m.registerMessage(v, f.message)
	}
}
