//aitools:inline executors

package aitools

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// maskField checks the paths of a FieldMask field met by the argument check
// (docs/runtime.md, "FieldMask paths"): its string, or each string of a
// list, becomes the wire form when every path is valid. Values of another
// kind are left to the fix-up.
func (c *argCheck) maskField(m maskValue) {
	if !m.list {
		if s, ok := m.obj[m.key].(string); ok {
			if wire, ok := c.checkFieldMask(s, m.mask, m.path); ok {
				m.obj[m.key] = wire
			}
		}
		return
	}
	items, _ := m.obj[m.key].([]any)
	for i, item := range items {
		if s, ok := item.(string); ok {
			if wire, ok := c.checkFieldMask(s, m.mask, m.path+"["+strconv.Itoa(i)+"]"); ok {
				items[i] = wire
			}
		}
	}
}

// checkFieldMask checks the comma-separated paths of s against masks[mask] and
// returns their wire form (no spaces, each field by its JSON name), or adds
// one violation per bad path at field.
func (c *argCheck) checkFieldMask(s string, mask int, field string) (string, bool) {
	var wire []string
	ok := true
	for _, p := range strings.Split(s, ",") {
		p = strings.Trim(p, " \t\n\r")
		if p == "" {
			continue
		}
		w, problem := c.checkPath(p, mask)
		if problem != "" {
			c.out = append(c.out, Violation{Field: field, Reason: "invalid-value", Message: problem})
			ok = false
		}
		wire = append(wire, w)
	}
	return strings.Join(wire, ","), ok
}

// checkPath walks one path from masks[mask]: each segment a field by proto
// name or wire name, then the fields of its message, or one map key
// (isMaskMapKey), or nothing after any other field. It returns the wire
// form, or the message saying what is wrong.
func (c *argCheck) checkPath(p string, mask int) (string, string) {
	if p == "*" {
		return p, ""
	}
	in := " in path " + quote(p)
	segs := strings.Split(p, ".")
	node, leaf, mapField := mask, "", ""
	for i, seg := range segs {
		switch {
		case seg == "":
			return "", "empty field name" + in
		case leaf != "":
			return "", "field " + quote(leaf) + " has no fields," + in
		case mapField != "":
			if !isMaskMapKey(seg) {
				return "", "map key " + quote(seg) + in + " cannot be sent in a field mask: keys there take lower-case letters and digits only, starting with a letter"
			}
			leaf, mapField = mapField, "" // the key, as written
			continue
		}
		n := &c.table.masks[node]
		f := n.field(seg)
		if f == nil {
			return "", "unknown field " + quote(seg) + in + "; " + fieldChoices(seg, n.names)
		}
		segs[i] = f.json
		switch {
		case f.isMap:
			mapField = f.name
		case f.node >= 0 && !f.list:
			node = f.node
		default:
			leaf = f.name
		}
	}
	return strings.Join(segs, "."), ""
}

// isMaskMapKey reports whether a map key can stand in a FieldMask path as
// written: protojson, protobuf-es and json_format refuse '_' in the JSON
// form and read an upper-case letter as '_' and its lower case, so only
// [a-z][a-z0-9]* reaches the server unchanged.
func isMaskMapKey(key string) bool {
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return key != ""
}

// field is the field of a mask node named seg, by proto name, else by its
// wire name; nil when none.
func (node *argNode) field(seg string) *argField {
	if i, ok := node.byName[seg]; ok {
		return &node.fields[i]
	}
	for i := range node.fields {
		if node.fields[i].json == seg {
			return &node.fields[i]
		}
	}
	return nil
}

// wildcardPath stands for a mask's "*" path in the JSON protojson reads
// or writes: Go's protojson refuses "*" both ways (it takes every path for
// a lowerCamel name). The fix-up writes this name for "*" and decode
// writes "*" back in the decoded request; a response with a "*" path is
// written with this name ("aitools_wildcard" as protojson reads it), or
// one unusedStandIn gives when the server wrote it too, then "*" put back
// in the text.
const (
	wildcardPath  = "aitoolsWildcard"
	wildcardProto = "aitools_wildcard"
)

// maskWithoutWildcard is a FieldMask's text with each "*" path written as
// wildcardPath.
func maskWithoutWildcard(s string) string {
	if !strings.Contains(s, "*") {
		return s
	}
	paths := strings.Split(s, ",")
	for i, p := range paths {
		if strings.Trim(p, " \t\n\r") == "*" {
			paths[i] = wildcardPath
		}
	}
	return strings.Join(paths, ",")
}

// unusedStandIn returns a stand-in for "*" found nowhere in text, as
// protojson writes it and as a path: "aitoolsWildcardQ<n>" and
// "aitools_wildcard_q<n>" for the lowest n.
func unusedStandIn(text string) (string, string) {
	for n := 0; ; n++ {
		digits := strconv.Itoa(n)
		if s := wildcardPath + "Q" + digits; !strings.Contains(text, s) {
			return s, wildcardProto + "_q" + digits
		}
	}
}

// wildcardsInText writes "*" for each standIn path in a compact JSON text
// protojson wrote (standIn between '"' or ',' and '"' or ','), and counts
// them; anything else is left as it is.
func wildcardsInText(b []byte, standIn string) ([]byte, int) {
	s := string(b)
	var out strings.Builder
	done, found := 0, 0
	for i := strings.Index(s, standIn); i >= 0; {
		end := i + len(standIn)
		if i > 0 && (s[i-1] == '"' || s[i-1] == ',') && end < len(s) && (s[end] == '"' || s[end] == ',') {
			out.WriteString(s[done:i])
			out.WriteByte('*')
			done = end
			found++
		}
		next := strings.Index(s[end:], standIn)
		if next < 0 {
			break
		}
		i = end + next
	}
	if found == 0 {
		return b, 0
	}
	out.WriteString(s[done:])
	return []byte(out.String()), found
}

// replaceMaskPaths replaces each path from by to in every FieldMask of m,
// at any depth, and returns how many it replaced.
func replaceMaskPaths(m protoreflect.Message, from, to string) int {
	if m.Descriptor().FullName() == "google.protobuf.FieldMask" {
		fd := m.Descriptor().Fields().ByName("paths")
		if !m.Has(fd) {
			return 0
		}
		paths, n := m.Mutable(fd).List(), 0
		for i := 0; i < paths.Len(); i++ {
			if paths.Get(i).String() == from {
				paths.Set(i, protoreflect.ValueOfString(to))
				n++
			}
		}
		return n
	}
	n := 0
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, item protoreflect.Value) bool {
					n += replaceMaskPaths(item.Message(), from, to)
					return true
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				n += replaceMaskPaths(v.List().Get(i).Message(), from, to)
			}
		default:
			n += replaceMaskPaths(v.Message(), from, to)
		}
		return true
	})
	return n
}
