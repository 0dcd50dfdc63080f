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
// name or wire name, then the fields of its message, or one map key, or
// nothing after any other field. It returns the wire form, or the message
// saying what is wrong.
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
// written with this name, then "*" put back in the text
// ("aitools_wildcard" as protojson reads it).
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

// wildcardsInText writes "*" for each wildcardPath path of the FieldMasks
// in a JSON text protojson wrote (a path between '"' or ',' and '"' or ',').
func wildcardsInText(b []byte) []byte {
	s := string(b)
	var out strings.Builder
	done := 0
	for i := strings.Index(s, wildcardPath); i >= 0; {
		end := i + len(wildcardPath)
		if i > 0 && (s[i-1] == '"' || s[i-1] == ',') && end < len(s) && (s[end] == '"' || s[end] == ',') {
			out.WriteString(s[done:i])
			out.WriteByte('*')
			done = end
		}
		next := strings.Index(s[end:], wildcardPath)
		if next < 0 {
			break
		}
		i = end + next
	}
	if done == 0 {
		return b
	}
	out.WriteString(s[done:])
	return []byte(out.String())
}

// replaceMaskPaths replaces each path from by to in every FieldMask of m,
// at any depth, and reports whether it replaced any.
func replaceMaskPaths(m protoreflect.Message, from, to string) bool {
	if m.Descriptor().FullName() == "google.protobuf.FieldMask" {
		fd := m.Descriptor().Fields().ByName("paths")
		if !m.Has(fd) {
			return false
		}
		paths, changed := m.Mutable(fd).List(), false
		for i := 0; i < paths.Len(); i++ {
			if paths.Get(i).String() == from {
				paths.Set(i, protoreflect.ValueOfString(to))
				changed = true
			}
		}
		return changed
	}
	changed := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, item protoreflect.Value) bool {
					changed = replaceMaskPaths(item.Message(), from, to) || changed
					return true
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				changed = replaceMaskPaths(v.List().Get(i).Message(), from, to) || changed
			}
		default:
			changed = replaceMaskPaths(v.Message(), from, to) || changed
		}
		return true
	})
	return changed
}
