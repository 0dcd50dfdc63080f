//aitools:inline aliases

package aitools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// AliasManager shows entity UUIDs to the model as short aliases ("acct-1")
// and turns them back into UUIDs. Use one per conversation; it is safe for
// concurrent use.
type AliasManager struct {
	mu       sync.RWMutex
	counters map[string]int    // prefix -> last number given
	aliases  map[string]string // alias -> UUID
	uuids    map[string]string // UUID (or name) -> alias
	prefixes map[string]bool   // known prefixes
	// names counts the registered values that are not UUIDs; spaced holds
	// those with a byte that may touch a name (aliasifyNames), by first
	// byte, longer first.
	names  int
	spaced map[byte][]string
}

// NewAliasManager returns an empty manager that knows the declared prefixes.
func NewAliasManager() *AliasManager {
	m := &AliasManager{}
	m.reset()
	return m
}

func (m *AliasManager) reset() {
	m.counters = map[string]int{}
	m.aliases = map[string]string{}
	m.uuids = map[string]string{}
	m.names, m.spaced = 0, map[byte][]string{}
	m.prefixes = make(map[string]bool, len(knownAliasPrefixes))
	for prefix := range knownAliasPrefixes {
		m.prefixes[prefix] = true
	}
}

// Register returns the alias of uuid. A UUID seen before keeps its alias;
// a new one gets the next number of prefix: "prefix-1", "prefix-2", ...
func (m *AliasManager) Register(prefix string, uuid string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.register(prefix, uuid)
}

func (m *AliasManager) register(prefix, uuid string) string {
	if alias, ok := m.uuids[uuid]; ok {
		return alias
	}
	m.counters[prefix]++
	alias := prefix + "-" + strconv.Itoa(m.counters[prefix])
	m.aliases[alias] = uuid
	m.uuids[uuid] = alias
	m.prefixes[prefix] = true
	m.addName(uuid)
	return alias
}

// ResolveAlias returns the UUID of a registered alias, else alias unchanged.
func (m *AliasManager) ResolveAlias(alias string) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if uuid, ok := m.aliases[alias]; ok {
		return uuid
	}
	return alias
}

// AliasifyJSON replaces every registered UUID in jsonStr by its alias, in one
// pass over the text. A UUID counts only when no hex digit or '-' touches it;
// everything else is copied unchanged (the text need not be JSON). Before
// that, every registered value that is not a UUID (an operation's name,
// which may hold a registered UUID) is replaced where it stands as a whole
// token: no letter, digit, '_', '.', '/' or '-' touches it; at each place
// the longest such value first.
func (m *AliasManager) AliasifyJSON(toolName string, jsonStr string) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.aliasify(jsonStr)
}

func (m *AliasManager) aliasify(s string) string {
	return m.aliasifyUUIDs(m.aliasifyNames(s))
}

func (m *AliasManager) aliasifyUUIDs(s string) string {
	if len(m.uuids) == 0 {
		return s
	}
	var b strings.Builder
	done := 0
	for i := nextUUID(s, 0); i >= 0; i = nextUUID(s, i+36) {
		alias, ok := m.uuids[s[i:i+36]]
		if !ok {
			continue
		}
		if done == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[done:i])
		b.WriteString(alias)
		done = i + 36
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// ResolveJSON replaces every JSON string value of jsonStr that is exactly a
// registered alias by its UUID; text that merely contains an alias is left
// alone. Unknown aliases stay as written and invalid JSON is returned
// unchanged: executors use ResolveJSONChecked.
func (m *AliasManager) ResolveJSON(toolName string, jsonStr string) string {
	v, ok := decodeJSON(jsonStr)
	if !ok {
		return jsonStr
	}
	v, _ = m.resolveValue(v, false)
	return encodeJSON(v)
}

// ResolveJSONChecked is ResolveJSON, failing on a string value shaped like an
// alias of a known prefix ("acct-7") that is not registered. The error names
// the field (with the keys as the model wrote them) and the valid aliases of
// that prefix, so the model can correct itself. Invalid JSON is returned
// unchanged, for the decoder to report.
func (m *AliasManager) ResolveJSONChecked(toolName string, jsonStr string) (string, error) {
	v, ok := decodeJSON(jsonStr)
	if !ok {
		return jsonStr, nil
	}
	v, err := m.resolveValue(v, true)
	if err != nil {
		return "", err
	}
	return encodeJSON(v), nil
}

// resolveValue resolves the aliases of a decoded value in place.
func (m *AliasManager) resolveValue(v any, checked bool) (any, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.resolveAt(v, "", checked)
}

func (m *AliasManager) resolveAt(v any, path string, checked bool) (any, error) {
	switch x := v.(type) {
	case string:
		if uuid, ok := m.aliases[x]; ok {
			return uuid, nil
		}
		if prefix, _, ok := splitAlias(x); ok && checked && m.prefixes[prefix] {
			return nil, m.unknownAlias(x, prefix, path)
		}
	case map[string]any:
		for _, key := range sortedKeys(x) {
			item, err := m.resolveAt(x[key], joinPath(path, key), checked)
			if err != nil {
				return nil, err
			}
			x[key] = item
		}
	case []any:
		for i := range x {
			item, err := m.resolveAt(x[i], path+"["+strconv.Itoa(i)+"]", checked)
			if err != nil {
				return nil, err
			}
			x[i] = item
		}
	}
	return v, nil
}

func (m *AliasManager) unknownAlias(alias, prefix, path string) error {
	var numbers []int
	for known := range m.aliases {
		if p, digits, ok := splitAlias(known); ok && p == prefix {
			n, _ := strconv.Atoi(digits)
			numbers = append(numbers, n)
		}
	}
	// The path holds keys as the model wrote them: a registered UUID there
	// is shown as its alias too.
	err := &unknownAliasError{alias: alias, path: m.aliasify(path)}
	if len(numbers) == 0 {
		err.detail = "no " + prefix + " aliases exist yet: call a tool that returns " + prefix + "s first"
		return err
	}
	sort.Ints(numbers)
	var list strings.Builder
	for i, n := range numbers {
		if i == 20 {
			fmt.Fprintf(&list, ", \u2026 (%d more)", len(numbers)-20)
			break
		}
		if i > 0 {
			list.WriteString(", ")
		}
		list.WriteString(prefix + "-" + strconv.Itoa(n))
	}
	err.detail = "valid " + prefix + " aliases: " + list.String()
	return err
}

// unknownAliasError is the error of an alias of a known prefix that is not
// registered, at path (the keys as the model wrote them).
type unknownAliasError struct {
	alias, path, detail string
}

func (e *unknownAliasError) Error() string {
	return "unknown alias " + quote(e.alias) + " in field " + quote(e.path) + "; " + e.detail
}

// violationMessage is the message without the field, which a violation
// names apart.
func (e *unknownAliasError) violationMessage() string {
	return "unknown alias " + quote(e.alias) + "; " + e.detail
}

// RegisterNewUUIDs registers every UUID found in jsonStr under prefix.
//
// Deprecated: every id becomes an alias of one prefix; executors use
// RegisterResponseJSON.
func (m *AliasManager) RegisterNewUUIDs(prefix string, jsonStr string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := nextUUID(jsonStr, 0); i >= 0; i = nextUUID(jsonStr, i+36) {
		m.register(prefix, jsonStr[i:i+36])
	}
}

// RegisterFieldsFromJSON registers the UUIDs of a tool's response by field
// name: a string that is exactly a UUID, under a field listed in
// responseFieldPrefixes, gets that prefix, or primaryPrefix where the entry
// is "". Object keys are visited in sorted order; array items count as the
// field holding the array. Invalid JSON registers nothing.
//
// Legacy, kept for hand-written callers: keyed by name alone, it numbers a
// nested entity with its own prefix under the wrong one. Executors use
// RegisterResponseJSON, which follows the response's message type.
func (m *AliasManager) RegisterFieldsFromJSON(primaryPrefix string, jsonStr string) {
	v, ok := decodeJSON(jsonStr)
	if !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.registerFields(v, "", primaryPrefix)
}

func (m *AliasManager) registerFields(v any, field, primaryPrefix string) {
	switch x := v.(type) {
	case string:
		prefix, ok := responseFieldPrefixes[field]
		if !ok || !isUUID(x) {
			return
		}
		if prefix == "" {
			prefix = primaryPrefix
		}
		if prefix != "" {
			m.register(prefix, x)
		}
	case map[string]any:
		for _, key := range sortedKeys(x) {
			m.registerFields(x[key], key, primaryPrefix)
		}
	case []any:
		for _, item := range x {
			m.registerFields(item, field, primaryPrefix)
		}
	}
}

// ExportState returns the manager's state as canonical JSON:
// {"aliases":{"acct-1":"<uuid>"},"counters":{"acct":1},"version":1}.
func (m *AliasManager) ExportState() ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return json.Marshal(struct {
		Aliases  map[string]string `json:"aliases"`
		Counters map[string]int    `json:"counters"`
		Version  int               `json:"version"`
	}{m.aliases, m.counters, 1})
}

// RestoreState replaces the manager's state by one ExportState wrote. It
// refuses, leaving the state unchanged: invalid JSON, a version other than 1,
// an alias not "<prefix>-<n>" with n > 0, a value that is neither a UUID nor
// a name (empty, a control character, over 1024 bytes), one value under two
// aliases, a negative counter, or a counter lower than the highest alias
// number of its prefix.
func (m *AliasManager) RestoreState(data []byte) error {
	var state struct {
		Aliases  map[string]string `json:"aliases"`
		Counters map[string]int    `json:"counters"`
		Version  int               `json:"version"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		return fmt.Errorf("restore alias state: invalid JSON: %w", err)
	}
	if state.Version != 1 {
		return fmt.Errorf("restore alias state: unsupported version %d", state.Version)
	}
	seen := make(map[string]string, len(state.Aliases))
	highest := map[string]int{}
	for _, alias := range sortedKeys(state.Aliases) {
		uuid := state.Aliases[alias]
		prefix, digits, ok := splitAlias(alias)
		n, err := strconv.Atoi(digits)
		if !ok || err != nil || n <= 0 || strconv.Itoa(n) != digits {
			return fmt.Errorf("restore alias state: invalid alias %s", quote(alias))
		}
		if !isUUID(uuid) && !isAliasName(uuid) {
			return fmt.Errorf("restore alias state: alias %s maps to %s, neither a UUID nor a name", quote(alias), quote(uuid))
		}
		if other, dup := seen[uuid]; dup {
			kind := "name"
			if isUUID(uuid) {
				kind = "UUID"
			}
			return fmt.Errorf("restore alias state: %s %s has two aliases: %s and %s", kind, quote(uuid), quote(other), quote(alias))
		}
		seen[uuid] = alias
		if n > highest[prefix] {
			highest[prefix] = n
		}
	}
	prefixes := make(map[string]bool, len(state.Counters)+len(highest))
	for prefix := range state.Counters {
		prefixes[prefix] = true
	}
	for prefix := range highest {
		prefixes[prefix] = true
	}
	for _, prefix := range sortedKeys(prefixes) {
		if n := state.Counters[prefix]; n < 0 {
			return fmt.Errorf("restore alias state: negative counter %d for %s", n, quote(prefix))
		} else if n < highest[prefix] {
			return fmt.Errorf("restore alias state: counter %d for %s is lower than its highest alias %s-%d", n, quote(prefix), prefix, highest[prefix])
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reset()
	for alias, uuid := range state.Aliases {
		m.aliases[alias] = uuid
		m.uuids[uuid] = alias
		m.addName(uuid)
	}
	for prefix, n := range state.Counters {
		m.counters[prefix] = n
		m.prefixes[prefix] = true
	}
	return nil
}

// splitAlias splits "<prefix>-<digits>" at its last '-'.
func splitAlias(s string) (prefix, digits string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || i == len(s)-1 {
		return "", "", false
	}
	for j := i + 1; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return "", "", false
		}
	}
	return s[:i], s[i+1:], true
}

// responseAliasField is one field of a response message type whose ids
// register (docs/runtime.md, "Response registration").
type responseAliasField struct {
	field   string // the JSON name: responses are written with JSON names
	prefix  string // the alias prefix of the strings it holds, or ""
	message string // the message type it holds, when that type is listed, or ""
	isMap   bool   // a map field: its values are visited
	// anyValue: the field registers any name (isAliasName), not only UUIDs
	// (google.longrunning.Operation.name).
	anyValue bool
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
	v, ok := responseValue(toolName, jsonStr)
	if !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, pair := range m.collect(toolName, v) {
		m.register(pair[0], pair[1])
	}
}

// CollectRegistrations returns the (prefix, UUID) pairs RegisterResponseJSON
// would register for this response, in its order, without registering them:
// what a conversation store registers atomically (docs/store.md). A UUID the
// manager knows, or one met earlier in the response, is left out; nil when
// nothing would register.
func (m *AliasManager) CollectRegistrations(toolName, jsonStr string) [][2]string {
	v, ok := responseValue(toolName, jsonStr)
	if !ok {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.collect(toolName, v)
}

// responseValue decodes a response of toolName when it may register
// something: the tool is listed and the text holds a UUID, or its response
// holds a field that takes any value.
func responseValue(toolName, jsonStr string) (any, bool) {
	tool, ok := toolResponseAliases[toolName]
	if !ok || nextUUID(jsonStr, 0) < 0 && !anyValueBelow(tool.message, map[string]bool{}) {
		return nil, false
	}
	var v any
	if err := json.Unmarshal([]byte(jsonStr), &v); err != nil {
		return nil, false
	}
	return v, true
}

// collect walks a decoded response of toolName (docs/runtime.md, "Response
// registration") and returns the pairs of the UUIDs it does not know yet.
func (m *AliasManager) collect(toolName string, v any) [][2]string {
	c := registrations{known: m.uuids, seen: map[string]bool{}}
	tool := toolResponseAliases[toolName]
	if tool.idPrefix != "" {
		entities := v
		if obj, ok := v.(map[string]any); ok && tool.idField != "" {
			entities = fieldValue(obj, tool.message, tool.idField)
		}
		items, ok := entities.([]any)
		if !ok {
			items = []any{entities}
		}
		for _, item := range items {
			if obj, ok := item.(map[string]any); ok {
				if id, ok := obj["id"].(string); ok {
					c.add(tool.idPrefix, id, false)
				}
			}
		}
	}
	c.message(v, tool.message)
	return c.pairs
}

// anyValueBelow reports whether a field that takes any value registers in
// a message of type typeName, at any depth.
func anyValueBelow(typeName string, seen map[string]bool) bool {
	if seen[typeName] {
		return false
	}
	seen[typeName] = true
	for _, f := range responseAliasTypes[typeName] {
		if f.anyValue || f.message != "" && anyValueBelow(f.message, seen) {
			return true
		}
	}
	return false
}

// registrations gathers the pairs of one response.
type registrations struct {
	known map[string]string // the manager's UUIDs
	seen  map[string]bool
	pairs [][2]string
}

// add gathers (prefix, uuid) when uuid is new and a UUID, or, with
// anyValue, a name.
func (c *registrations) add(prefix, uuid string, anyValue bool) {
	if _, ok := c.known[uuid]; ok || c.seen[uuid] || !isUUID(uuid) && !(anyValue && isAliasName(uuid)) {
		return
	}
	c.seen[uuid] = true
	c.pairs = append(c.pairs, [2]string{prefix, uuid})
}

// message gathers the ids of v, a value of message type typeName.
func (c *registrations) message(v any, typeName string) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, f := range responseAliasTypes[typeName] {
		x := fieldValue(obj, typeName, f.field)
		if x == nil {
			continue
		}
		if items, ok := x.([]any); ok {
			for _, item := range items {
				c.value(item, f)
			}
		} else if entries, ok := x.(map[string]any); ok && f.isMap {
			for _, key := range sortedKeys(entries) {
				c.value(entries[key], f)
			}
		} else {
			c.value(x, f)
		}
	}
}

func (c *registrations) value(v any, f responseAliasField) {
	if s, ok := v.(string); ok && f.prefix != "" {
		c.add(f.prefix, s, f.anyValue)
	}
	if f.message != "" {
		c.message(v, f.message)
	}
}

// isUUID reports whether s is 8-4-4-4-12 hexadecimal digits.
func isUUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	for i := 0; i < 36; i++ {
		if !isHex[s[i]] && i != 8 && i != 13 && i != 18 && i != 23 {
			return false
		}
	}
	return true
}

// isHex marks the hexadecimal digits, either case.
var isHex = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// isUUIDByte reports whether c may touch a UUID: a hex digit or '-'.
func isUUIDByte(c byte) bool {
	return c == '-' || isHex[c]
}

// nextUUID returns the index of the first UUID in s at or after from that no
// hex digit or '-' touches, or -1. It jumps from one '-' to the next: a UUID
// starts 8 bytes before its first '-'.
func nextUUID(s string, from int) int {
	for dash := from + 8; dash+28 <= len(s); dash++ {
		next := strings.IndexByte(s[dash:len(s)-27], '-')
		if next < 0 {
			return -1
		}
		dash += next
		i := dash - 8
		if !isUUID(s[i : i+36]) {
			continue
		}
		if (i > 0 && isUUIDByte(s[i-1])) || (i+36 < len(s) && isUUIDByte(s[i+36])) {
			continue
		}
		return i
	}
	return -1
}

// fieldValue is the value of a field of a response of message typeName,
// given by its JSON name (the tables'): under that name, else under its
// proto name, which executors write by default (docs/runtime.md,
// "Responses").
func fieldValue(obj map[string]any, typeName, jsonName string) any {
	if v, ok := obj[jsonName]; ok {
		return v
	}
	return obj[protoFieldName(typeName, jsonName)]
}

// protoFieldNames caches protoFieldName.
var protoFieldNames sync.Map

// protoFieldName is the proto name of the field of message typeName whose
// JSON name is jsonName: from the message's descriptor when the program
// links it, else jsonName with each upper-case letter made "_" and its
// lower case.
func protoFieldName(typeName, jsonName string) string {
	key := typeName + "\x00" + jsonName
	if name, ok := protoFieldNames.Load(key); ok {
		return name.(string)
	}
	name := ""
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(typeName)); err == nil {
		if fd := mt.Descriptor().Fields().ByJSONName(jsonName); fd != nil {
			name = string(fd.Name())
		}
	}
	if name == "" {
		var b strings.Builder
		for _, c := range jsonName {
			if 'A' <= c && c <= 'Z' {
				b.WriteByte('_')
				c += 'a' - 'A'
			}
			b.WriteRune(c)
		}
		name = b.String()
	}
	protoFieldNames.Store(key, name)
	return name
}
