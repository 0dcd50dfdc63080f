//aitools:inline executors

package aitools

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// The text forms the kind checks accept (docs/runtime.md, "Argument fix-up").
var (
	jsonNumberText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	durationText   = regexp.MustCompile(`^-?[0-9]+(\.[0-9]{1,9})?s$`)
	timestampText  = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$`)
)

// fixArgs checks the model's decoded arguments against the request message
// md and undoes the schema fixes before protojson reads them: nulls dropped
// (except for google.protobuf.Value), maps and Structs given as key/value
// entries rebuilt, and, for strict tools, Values given as JSON text parsed.
// A value of the wrong JSON kind, invalid base64 or two members of one oneof
// are errors naming the field as the model wrote it.
func fixArgs(v any, md protoreflect.MessageDescriptor, strict bool) (map[string]any, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("expected a JSON object, got " + jsonKind(v))
	}
	return obj, fixMessage(obj, md, strict, "")
}

func fixMessage(obj map[string]any, md protoreflect.MessageDescriptor, strict bool, path string) error {
	fields := md.Fields()
	present := map[protoreflect.FieldNumber]string{} // the key each field was given under
	for _, key := range sortedKeys(obj) {
		fd := fields.ByName(protoreflect.Name(key))
		if fd == nil {
			fd = fields.ByJSONName(key)
		}
		if fd == nil {
			continue
		}
		if obj[key] == nil {
			if fd.IsList() || fd.IsMap() || !isWellKnown(fd.Message(), "Value") {
				delete(obj, key)
			}
			continue
		}
		fixed, err := fixField(obj[key], fd, strict, joinPath(path, key))
		if err != nil {
			return err
		}
		obj[key] = fixed
		present[fd.Number()] = key
	}
	oneofs := md.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		od := oneofs.Get(i)
		if od.IsSynthetic() {
			continue
		}
		var set, keys []string
		for j := 0; j < od.Fields().Len(); j++ {
			if fd := od.Fields().Get(j); present[fd.Number()] != "" {
				set = append(set, string(fd.Name()))
				keys = append(keys, present[fd.Number()])
			}
		}
		if len(set) > 1 {
			msg := quote(set[0]) + " and " + quote(set[1]) + " are members of oneof " + quote(string(od.Name())) + ": set only one"
			return &fieldError{path: joinPath(path, keys[1]), msg: msg, legacy: "fields " + msg}
		}
	}
	return nil
}

// fixField fixes and checks the non-null value of field fd.
func fixField(v any, fd protoreflect.FieldDescriptor, strict bool, path string) (any, error) {
	switch {
	case fd.IsMap():
		obj, err := mapObject(v, path, false)
		if err != nil {
			return nil, err
		}
		valueField := fd.MapValue()
		for _, key := range sortedKeys(obj) {
			if obj[key] == nil {
				if !isWellKnown(valueField.Message(), "Value") {
					delete(obj, key)
				}
				continue
			}
			fixed, err := fixValue(obj[key], valueField, strict, path+"."+key)
			if err != nil {
				return nil, err
			}
			obj[key] = fixed
		}
		return obj, nil
	case fd.IsList():
		items, ok := v.([]any)
		if !ok {
			return nil, kindError(path, "an array", v)
		}
		for i, item := range items {
			if item == nil {
				continue
			}
			fixed, err := fixValue(item, fd, strict, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			items[i] = fixed
		}
		return items, nil
	}
	return fixValue(v, fd, strict, path)
}

// mapObject returns a map given as an object, or rebuilds one given as
// [{"key": k, "value": v}, ...] entries (later entries win). For a Struct
// (structKeys) keys must be strings and values are read as strict Values.
func mapObject(v any, path string, structKeys bool) (map[string]any, error) {
	if obj, ok := v.(map[string]any); ok {
		return obj, nil
	}
	entries, ok := v.([]any)
	if !ok {
		return nil, kindError(path, "an object", v)
	}
	obj := make(map[string]any, len(entries))
	for i, entry := range entries {
		kv, _ := entry.(map[string]any)
		key, ok := mapKey(kv["key"], structKeys)
		if !ok {
			return nil, &fieldError{path: path, msg: fmt.Sprintf("entry %d is not a {\"key\": \u2026, \"value\": \u2026} object", i)}
		}
		obj[key] = kv["value"]
		if text, ok := obj[key].(string); ok && structKeys {
			obj[key] = parseValue(text)
		}
	}
	return obj, nil
}

// mapKey is the JSON spelling of an entry's key: a string, or for a map
// (not a Struct) a number or boolean.
func mapKey(k any, stringOnly bool) (string, bool) {
	switch x := k.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), !stringOnly
	case bool:
		return strconv.FormatBool(x), !stringOnly
	}
	return "", false
}

// fixValue fixes and checks one value of fd's kind: the field's own, an item
// of a repeated field, or a map value.
func fixValue(v any, fd protoreflect.FieldDescriptor, strict bool, path string) (any, error) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return fixMessageValue(v, fd.Message(), strict, path)
	case protoreflect.BoolKind:
		return checkBool(v, path)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return checkNumber(v, path, "an integer", false)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return checkNumber(v, path, "a number", true)
	case protoreflect.StringKind:
		return checkString(v, path, "a string", nil)
	case protoreflect.BytesKind:
		return checkBytes(v, path)
	case protoreflect.EnumKind:
		switch x := v.(type) {
		case string:
			if fd.Enum().Values().ByName(protoreflect.Name(x)) == nil {
				return nil, enumNameError(path, fd.Enum(), x)
			}
			return v, nil
		case json.Number:
			return v, nil
		}
		return nil, kindError(path, "an enum value", v)
	}
	return v, nil
}

// fixMessageValue fixes and checks a value of message type md.
func fixMessageValue(v any, md protoreflect.MessageDescriptor, strict bool, path string) (any, error) {
	switch md.FullName() {
	case "google.protobuf.Value":
		if text, ok := v.(string); ok && strict {
			return parseValue(text), nil
		}
		return v, nil
	case "google.protobuf.ListValue":
		items, ok := v.([]any)
		if !ok {
			return nil, kindError(path, "an array", v)
		}
		for i, item := range items {
			if text, ok := item.(string); ok && strict {
				items[i] = parseValue(text)
			}
		}
		return items, nil
	case "google.protobuf.Struct":
		return mapObject(v, path, true)
	case "google.protobuf.Duration":
		return checkString(v, path, `a duration such as "1.5s"`, durationText)
	case "google.protobuf.Timestamp":
		return checkString(v, path, "an RFC 3339 timestamp", timestampText)
	case "google.protobuf.StringValue":
		return checkString(v, path, "a string", nil)
	case "google.protobuf.FieldMask":
		s, err := checkString(v, path, "a string", nil)
		if text, ok := s.(string); ok {
			return maskWithoutWildcard(text), err
		}
		return s, err
	case "google.protobuf.BoolValue":
		return checkBool(v, path)
	case "google.protobuf.Int32Value", "google.protobuf.Int64Value", "google.protobuf.UInt32Value", "google.protobuf.UInt64Value":
		return checkNumber(v, path, "an integer", false)
	case "google.protobuf.FloatValue", "google.protobuf.DoubleValue":
		return checkNumber(v, path, "a number", true)
	case "google.protobuf.BytesValue":
		return checkBytes(v, path)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, kindError(path, "an object", v)
	}
	if strings.HasPrefix(string(md.FullName()), "google.protobuf.") {
		return obj, nil
	}
	return obj, fixMessage(obj, md, strict, path)
}

func checkBool(v any, path string) (any, error) {
	if _, ok := v.(bool); !ok {
		return nil, kindError(path, "a boolean", v)
	}
	return v, nil
}

// checkNumber accepts a number or a string spelling one (and, for floating
// point, "NaN", "Infinity" and "-Infinity").
func checkNumber(v any, path, kind string, float bool) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return v, nil
	case string:
		if jsonNumberText.MatchString(x) || float && (x == "NaN" || x == "Infinity" || x == "-Infinity") {
			return v, nil
		}
	}
	return nil, kindError(path, kind, v)
}

// checkString accepts a string, matching pattern when there is one.
func checkString(v any, path, kind string, pattern *regexp.Regexp) (any, error) {
	if s, ok := v.(string); ok && (pattern == nil || pattern.MatchString(s)) {
		return v, nil
	}
	return nil, kindError(path, kind, v)
}

// checkBytes accepts what protojson decodes as bytes: standard or URL-safe
// base64 (not mixed), padding optional but, when present, complete; line
// breaks, which Go's decoder skips, are refused.
func checkBytes(v any, path string) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, kindError(path, "a base64 string", v)
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	if _, err := enc.DecodeString(s); err != nil || strings.ContainsAny(s, "\r\n") {
		return nil, &fieldError{path: path, msg: "invalid base64 " + quote(s)}
	}
	return v, nil
}

// enumNamesListed is how many names of an enum an error lists before "and
// N more".
const enumNamesListed = 10

// enumNameError reports a name that is not one of the enum's: protojson,
// which discards what it does not know, would leave the field unset
// instead (docs/runtime.md).
func enumNameError(path string, ed protoreflect.EnumDescriptor, name string) error {
	values := ed.Values()
	names := make([]string, 0, enumNamesListed)
	for i := 0; i < values.Len() && i < enumNamesListed; i++ {
		names = append(names, string(values.Get(i).Name()))
	}
	list := strings.Join(names, ", ")
	if more := values.Len() - enumNamesListed; more > 0 {
		list += fmt.Sprintf(", and %d more", more)
	}
	return &fieldError{path: path, msg: fmt.Sprintf("expected a name of enum %s (%s), got %s", ed.FullName(), list, quote(name))}
}

// kindError is the error of a value of the wrong JSON kind.
func kindError(path, kind string, v any) error {
	return &fieldError{path: path, msg: "expected " + kind + ", got " + describe(v)}
}

// describe shows a value in a message: a string quoted, a number or boolean
// as JSON text, else its kind.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return jsonKind(v)
}

// jsonKind names the JSON kind of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return "null"
}

// parseValue reads a string given for a google.protobuf.Value as JSON text;
// text that is not valid JSON stays a plain string.
func parseValue(text string) any {
	if v, ok := decodeJSON(text); ok {
		return v
	}
	return text
}

func isWellKnown(md protoreflect.MessageDescriptor, name protoreflect.Name) bool {
	return md != nil && md.FullName() == "google.protobuf."+protoreflect.FullName(name)
}
