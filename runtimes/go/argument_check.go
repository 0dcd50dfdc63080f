//aitools:inline executors

package aitools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// argTable is a tool's argument table (docs/runtime.md, "Arguments"): the
// messages of its schema as nodes, nodes[0] the request.
type argTable struct {
	nodes []argNode
	masks []argNode // the messages FieldMask paths name, one per type
}

// argNode is one message as the tool's schema shows it.
type argNode struct {
	fields   []argField
	names    []string       // the fields' names, in schema order
	byName   map[string]int // proto name -> index in fields
	required []string
}

// argField is one property of a node: a leaf (node < 0), or a message,
// repeated message or map with message values, checked against nodes[node];
// a map of non-messages (isMap, node < 0) has only its entries looked into.
// A FieldMask field (mask >= 0) has its paths checked against masks[mask].
// In a mask node, node indexes masks and json is the path's wire name.
type argField struct {
	name, json  string
	node, mask  int
	list, isMap bool
}

// argTables caches each tool's parsed table.
var argTables sync.Map

// toolArgumentTable returns the table of toolName, parsed from
// toolArguments on first use; nil for a tool without one.
func toolArgumentTable(toolName string) *argTable {
	if t, ok := argTables.Load(toolName); ok {
		return t.(*argTable)
	}
	text, ok := toolArguments[toolName]
	if !ok {
		return nil
	}
	t, err := parseArgTable(text)
	if err != nil {
		panic(fmt.Sprintf("the argument table of tool %s is invalid (%v); generate the file again", quote(toolName), err))
	}
	argTables.Store(toolName, t)
	return t
}

// parseArgTable reads a table's JSON text, keeping the order of fields.
func parseArgTable(text string) (*argTable, error) {
	var raw struct {
		Nodes []struct {
			Fields   json.RawMessage `json:"fields"`
			Required []string        `json:"required"`
		} `json:"nodes"`
		Masks []struct {
			Fields json.RawMessage `json:"fields"`
		} `json:"masks"`
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, err
	}
	if len(raw.Nodes) == 0 {
		return nil, fmt.Errorf("no nodes")
	}
	t := &argTable{nodes: make([]argNode, len(raw.Nodes)), masks: make([]argNode, len(raw.Masks))}
	for i, n := range raw.Nodes {
		t.nodes[i].required = n.Required
		if err := t.nodes[i].parse(n.Fields, len(raw.Nodes), len(raw.Masks)); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
	}
	for i, n := range raw.Masks {
		if err := t.masks[i].parse(n.Fields, len(raw.Masks), 0); err != nil {
			return nil, fmt.Errorf("mask node %d: %w", i, err)
		}
	}
	return t, nil
}

// parse reads the fields of a node, in order; "node" indexes one of nodes
// nodes, "mask" one of masks nodes.
func (node *argNode) parse(fields json.RawMessage, nodes, masks int) error {
	node.byName = map[string]int{}
	index := func(name, key string, i *int, n int) (int, error) {
		if i == nil {
			return -1, nil
		}
		if *i < 0 || *i >= n {
			return 0, fmt.Errorf("field %s: no %s %d", quote(name), key, *i)
		}
		return *i, nil
	}
	return orderedObject(fields, func(name string, value json.RawMessage) error {
		var f struct {
			Node *int   `json:"node"`
			Mask *int   `json:"mask"`
			List bool   `json:"list"`
			Map  bool   `json:"map"`
			JSON string `json:"json"`
		}
		if err := json.Unmarshal(value, &f); err != nil {
			return err
		}
		if f.JSON == "" {
			// The generator writes a JSON name that differs, with
			// lenient_arguments=true only (custom json_name included),
			// and in mask nodes.
			f.JSON = name
		}
		field := argField{name: name, json: f.JSON, list: f.List, isMap: f.Map}
		var err error
		if field.node, err = index(name, "node", f.Node, nodes); err != nil {
			return err
		}
		if field.mask, err = index(name, "mask", f.Mask, masks); err != nil {
			return err
		}
		node.byName[name] = len(node.fields)
		node.fields = append(node.fields, field)
		node.names = append(node.names, name)
		return nil
	})
}

// orderedObject calls each with the members of a JSON object, in order.
func orderedObject(data json.RawMessage, each func(string, json.RawMessage) error) error {
	if len(data) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("fields is not an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return err
		}
		if err := each(tok.(string), value); err != nil {
			return err
		}
	}
	return nil
}

// parseArguments is stage 1 of a call: the text as one JSON object, or the
// violation saying it is not one.
func parseArguments(text string) (map[string]any, []Violation) {
	v, ok := decodeJSON(text)
	if !ok {
		return nil, []Violation{{Reason: "invalid-json", Message: errInvalidJSON.Error()}}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, []Violation{{Reason: "not-an-object", Message: "expected a JSON object, got " + jsonKind(v)}}
	}
	return obj, nil
}

// argCheck is one structure check (stage 2): the violations found so far.
type argCheck struct {
	table   *argTable
	lenient bool
	out     []Violation
	masks   []maskValue // the FieldMask fields met, in order
}

// maskValue is a FieldMask field met in the arguments: obj[key], checked
// against masks[mask] once the structure is.
type maskValue struct {
	obj       map[string]any
	key, path string
	mask      int
	list      bool
}

// check checks arguments against the table: unknown keys (unless lenient;
// names in extraRoot are never unknown at the root), then missing required
// fields, then the messages below, then the paths of each FieldMask field
// (rewritten in obj to their wire form when valid), all violations
// collected.
func (t *argTable) check(obj map[string]any, extraRoot []string, lenient bool) []Violation {
	c := argCheck{table: t, lenient: lenient}
	c.object(obj, 0, "", extraRoot)
	for _, m := range c.masks {
		c.maskField(m)
	}
	return c.out
}

// object checks an object against nodes[n] at path.
func (c *argCheck) object(obj map[string]any, n int, path string, extra []string) {
	node := &c.table.nodes[n]
	if !c.lenient {
		c.unknownKeys(obj, path, node.names, func(key string) bool {
			_, ok := node.byName[key]
			return ok || containsString(extra, key)
		})
	}
	for _, name := range node.required {
		if _, v := node.lookup(obj, node.byName[name], c.lenient); v == nil {
			c.out = append(c.out, Violation{Field: joinPath(path, name), Reason: "required", Message: "missing required field"})
		}
	}
	for i, f := range node.fields {
		if f.node < 0 && !f.isMap && f.mask < 0 {
			continue
		}
		key, v := node.lookup(obj, i, c.lenient)
		if v == nil {
			continue
		}
		at := joinPath(path, f.name) // reported by proto name, whatever the key
		switch {
		case f.mask >= 0:
			c.masks = append(c.masks, maskValue{obj: obj, key: key, path: at, mask: f.mask, list: f.list})
		case f.list:
			items, _ := v.([]any)
			for j, item := range items {
				c.value(item, f.node, at+"["+strconv.Itoa(j)+"]")
			}
		case f.isMap:
			c.mapValues(v, f.node, at)
		default:
			c.value(v, f.node, at)
		}
	}
}

// unknownKeys reports each key of obj that known refuses, in byte order.
func (c *argCheck) unknownKeys(obj map[string]any, path string, names []string, known func(string) bool) {
	var unknown []string
	for key := range obj {
		if !known(key) {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) == 0 {
		return
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		c.out = append(c.out, Violation{Field: joinPath(path, key), Reason: "unknown-field", Message: unknownFieldMessage(key, names)})
	}
}

// value checks v against nodes[n] when it is an object; a value of another
// kind is the fix-up's to report.
func (c *argCheck) value(v any, n int, path string) {
	if obj, ok := v.(map[string]any); ok {
		c.object(obj, n, path, nil)
	}
}

// entryFields are the fields of a map entry given as {"key", "value"}.
var entryFields = []string{"key", "value"}

// mapValues checks the values of a map given as an object (keys in byte
// order) or as an array of {"key", "value"} entries: each entry's keys too,
// and, when the values are messages (n >= 0), each value against nodes[n].
// The object form of a map of non-messages (n < 0) is not looked into.
func (c *argCheck) mapValues(v any, n int, path string) {
	if obj, ok := v.(map[string]any); ok {
		if n < 0 {
			return
		}
		for _, key := range sortedKeys(obj) {
			c.value(obj[key], n, path+"."+key)
		}
		return
	}
	entries, _ := v.([]any)
	for i, entry := range entries {
		obj, ok := entry.(map[string]any)
		if !ok {
			continue
		}
		at := path + "[" + strconv.Itoa(i) + "]"
		if !c.lenient {
			c.unknownKeys(obj, at, entryFields, func(key string) bool { return key == "key" || key == "value" })
		}
		for _, name := range entryFields {
			if obj[name] == nil {
				c.out = append(c.out, Violation{Field: at + "." + name, Reason: "required", Message: "missing required field"})
			}
		}
		if n >= 0 {
			c.value(obj["value"], n, at+".value")
		}
	}
}

// lookup returns the key and value of field i in obj: by proto name, or,
// with lenient arguments, by JSON name; a nil value when absent or null.
func (node *argNode) lookup(obj map[string]any, i int, lenient bool) (string, any) {
	f := &node.fields[i]
	if v := obj[f.name]; v != nil || !lenient || f.json == f.name {
		return f.name, v
	}
	return f.json, obj[f.json]
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
