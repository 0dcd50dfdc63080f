//aitools:inline executors

package aitools

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// marshalResponse writes a response as protojson does with opts, without
// white space (protojson adds some at random, so that no program relies on
// its text), except that an Any whose type is not linked into the program
// (protojson fails on it) is written as its type URL and its bytes, base64:
// {"@type":"<type URL>","value":"<base64>"} (docs/runtime.md, "Responses"),
// and a FieldMask's "*" path, which protojson refuses, is written as it is.
// The model then sees the rest of the response instead of an error.
func marshalResponse(opts protojson.MarshalOptions, resp proto.Message) ([]byte, error) {
	b, err := opts.Marshal(resp)
	if err == nil {
		return compactJSON(b), nil
	}
	standIn, standInProto := wildcardPath, wildcardProto
	for {
		c := proto.Clone(resp)
		wildcards := replaceMaskPaths(c.ProtoReflect(), "*", standInProto)
		opaque := map[string]bool{}
		if !opaqueAnys(c.ProtoReflect(), opaque, 0) && wildcards == 0 {
			return nil, err
		}
		o := opts
		if len(opaque) > 0 {
			o.Resolver = opaqueResolver(opaque)
		}
		raw, merr := o.Marshal(c)
		if merr != nil {
			return nil, merr
		}
		text := compactJSON(raw)
		if wildcards == 0 {
			return text, nil
		}
		out, found := wildcardsInText(text, standIn)
		if found == wildcards {
			return out, nil
		}
		if standIn != wildcardPath {
			return nil, fmt.Errorf("a field mask path \"*\" cannot be written: stand-in %s found %d times, want %d", quote(standIn), found, wildcards)
		}
		// The server wrote the stand-in elsewhere too (a string, a map
		// key, a path): take one found nowhere in the text.
		standIn, standInProto = unusedStandIn(string(text))
	}
}

// compactJSON removes the white space protojson may add.
func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// maxAnyDepth bounds the Anys inside Anys opaqueAnys looks into.
const maxAnyDepth = 32

var anyFullName protoreflect.FullName = "google.protobuf.Any"

// opaqueAnys rewrites, in m, the value of every Any whose type cannot be
// resolved as a BytesValue holding the original bytes, and adds its type
// URL to opaque, for which opaqueResolver gives BytesValue (protojson
// writes a BytesValue in an Any as "value":"<base64>"). It looks into the
// Anys it can resolve too. It reports whether it rewrote any.
func opaqueAnys(m protoreflect.Message, opaque map[string]bool, depth int) bool {
	if m.Descriptor().FullName() == anyFullName {
		return opaqueAny(m, opaque, depth)
	}
	changed := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					changed = opaqueAnys(mv.Message(), opaque, depth) || changed
					return true
				})
			}
		case fd.IsList():
			if fd.Message() != nil {
				list := v.List()
				for i := 0; i < list.Len(); i++ {
					changed = opaqueAnys(list.Get(i).Message(), opaque, depth) || changed
				}
			}
		case fd.Message() != nil:
			changed = opaqueAnys(v.Message(), opaque, depth) || changed
		}
		return true
	})
	return changed
}

// opaqueAny rewrites one Any (see opaqueAnys).
func opaqueAny(m protoreflect.Message, opaque map[string]bool, depth int) bool {
	fields := m.Descriptor().Fields()
	typeURL, value := fields.ByNumber(1), fields.ByNumber(2)
	url := m.Get(typeURL).String()
	if url == "" || depth >= maxAnyDepth {
		return false
	}
	raw := m.Get(value).Bytes()
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url)
	if err != nil {
		b, err := proto.Marshal(wrapperspb.Bytes(raw))
		if err != nil {
			return false
		}
		m.Set(value, protoreflect.ValueOfBytes(b))
		opaque[url] = true
		return true
	}
	inner := mt.New()
	if (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(raw, inner.Interface()) != nil {
		return false // protojson reports it
	}
	if !opaqueAnys(inner, opaque, depth+1) {
		return false
	}
	b, err := proto.MarshalOptions{AllowPartial: true, Deterministic: true}.Marshal(inner.Interface())
	if err != nil {
		return false
	}
	m.Set(value, protoreflect.ValueOfBytes(b))
	return true
}

// opaqueResolver resolves what protoregistry.GlobalTypes does, and the
// type URLs opaqueAnys rewrote as google.protobuf.BytesValue.
type opaqueResolver map[string]bool

func (opaqueResolver) FindMessageByName(name protoreflect.FullName) (protoreflect.MessageType, error) {
	return protoregistry.GlobalTypes.FindMessageByName(name)
}

func (r opaqueResolver) FindMessageByURL(url string) (protoreflect.MessageType, error) {
	if r[url] {
		return (&wrapperspb.BytesValue{}).ProtoReflect().Type(), nil
	}
	return protoregistry.GlobalTypes.FindMessageByURL(url)
}

func (opaqueResolver) FindExtensionByName(name protoreflect.FullName) (protoreflect.ExtensionType, error) {
	return protoregistry.GlobalTypes.FindExtensionByName(name)
}

func (opaqueResolver) FindExtensionByNumber(message protoreflect.FullName, field protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	return protoregistry.GlobalTypes.FindExtensionByNumber(message, field)
}
