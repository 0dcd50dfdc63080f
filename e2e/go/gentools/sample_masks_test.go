package gentools_test

// Schema-generated values and FieldMask fields (issue 31): Sample.mask is a
// string whose paths must name fields of Sample, which a schema cannot
// constrain; the shared generator keeps to the paths the hint names, in
// lowerCamel ("at,ttl"). Every other value here takes one of sampleMasks
// instead (snake_case, nested, map keys, spaces), and a mask naming no
// field, should a generator make one, must be refused before anything is
// sent; expectedJSON reads a mask through maskWire, worked out here from
// the descriptor without the generated code.

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// sampleMasks are masks of Sample in both namings: nested and map-key paths,
// the empty mask. Not "*": the test's own protojson decoding refuses it
// (the executor sends it: masks_test.go).
var sampleMasks = []string{"maybe_text, byName.k", "inner.name,at", "maybeCount,inner.rank", "items,by_flag.true", ""}

// maskWire is what a FieldMask's text sends (CONTRACT31 M4): each path's
// fields by JSON name, a map's key and "*" as written, joined by ","
// without spaces, empty paths dropped; false when a path names no field or
// has a map key outside [a-z][a-z0-9]*.
func maskWire(text string, md protoreflect.MessageDescriptor) (string, bool) {
	var wire []string
	for _, p := range strings.Split(text, ",") {
		switch p = strings.Trim(p, " \t\n\r"); p {
		case "":
			continue
		case "*":
			wire = append(wire, p)
			continue
		}
		w, ok := maskPathWire(strings.Split(p, "."), md)
		if !ok {
			return "", false
		}
		wire = append(wire, w)
	}
	return strings.Join(wire, ","), true
}

// mapKeyInMask is a map key the JSON form of a FieldMask carries as
// written: protojson refuses '_' there and reads an upper-case letter as
// '_' and its lower case.
var mapKeyInMask = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// maskPathWire is the wire form of one path's segments below md.
func maskPathWire(segs []string, md protoreflect.MessageDescriptor) (string, bool) {
	out := make([]string, len(segs))
	for i := 0; i < len(segs); i++ {
		if md == nil || segs[i] == "" {
			return "", false // below a leaf, or an empty name
		}
		fd := md.Fields().ByName(protoreflect.Name(segs[i]))
		if fd == nil {
			fd = md.Fields().ByJSONName(segs[i])
		}
		if fd == nil {
			return "", false
		}
		out[i], md = fd.JSONName(), nil
		switch {
		case fd.IsMap() && i+1 < len(segs):
			i++
			if !mapKeyInMask.MatchString(segs[i]) {
				return "", false // the decoders would read another key
			}
			out[i] = segs[i] // the key, then nothing
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap() && !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf."):
			md = fd.Message()
		}
	}
	return strings.Join(out, "."), true
}

// fixSampleMask reports whether args has a Sample mask naming no field, and
// returns args with sampleMasks[i % 5] instead (numbers kept as written);
// a mask with a "*" path, and that of every odd value, is replaced too.
func fixSampleMask(t *testing.T, args string, i int) (string, bool) {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if dec.Decode(&obj) != nil {
		return args, false
	}
	mask, isString := obj["mask"].(string)
	wire, ok := maskWire(mask, (&linkhubv1.Sample{}).ProtoReflect().Descriptor())
	if !isString || ok && i%2 == 0 && !slices.Contains(strings.Split(wire, ","), "*") {
		return args, false
	}
	obj["mask"] = sampleMasks[i%len(sampleMasks)]
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), !ok
}

// maskRefused reports whether err refuses the arguments for their mask.
func maskRefused(err error) bool {
	var te *gentools.ToolError
	if errors.As(err, &te) {
		for _, v := range te.Violations {
			if v.Field == "mask" && v.Reason == "invalid-value" && strings.Contains(v.Message, " in path ") {
				return true
			}
		}
	}
	return false
}
