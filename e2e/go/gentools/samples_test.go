package gentools_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// valuesFile is written by scripts/values.mjs.
type valuesFile struct {
	Tool        string   `json:"tool"`
	Strict      bool     `json:"strict"`
	RequestType string   `json:"requestType"`
	SchemaJSON  string   `json:"schemaJson"`
	Values      []string `json:"values"`
}

func loadValues(t *testing.T, tool string) valuesFile {
	t.Helper()
	dir := os.Getenv("E2E_VALUES_DIR")
	if dir == "" {
		dir = filepath.Join("..", "gen", "values")
	}
	data, err := os.ReadFile(filepath.Join(dir, tool+".json"))
	if err != nil {
		t.Fatalf("%v (scripts/run.mjs writes the values with scripts/values.mjs)", err)
	}
	var vf valuesFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	return vf
}

// Scenario 4: every well-known type, map and oneof. Arguments generated from
// each samples_echo_* schema go through the executor to the real server; what
// the server received must equal (proto.Equal) the request the arguments
// mean, computed twice: by the generated decode path, and independently by
// expectedSample below. The echoed response must equal it too.
func TestSchemaValuesReachTheServerIntact(t *testing.T) {
	c := needServer(t)
	for _, tool := range []gentools.AgentTool{gentools.SamplesEchoStrict, gentools.SamplesEchoLoose} {
		t.Run(tool.Name, func(t *testing.T) {
			vf := loadValues(t, tool.Name)
			if vf.SchemaJSON != string(tool.Parameters) {
				t.Fatalf("values were generated from another schema than the Go file's:\n %s\n %s", vf.SchemaJSON, tool.Parameters)
			}
			if vf.Strict != tool.Strict || vf.RequestType != "linkhub.v1.Sample" {
				t.Fatalf("values file: strict %v type %s", vf.Strict, vf.RequestType)
			}
			if len(vf.Values) < 40 { // 200 nightly, 40 in .ci/run
				t.Fatalf("only %d values", len(vf.Values))
			}
			resetServer(t)
			ctx := ctxT(t)
			e := gentools.NewExecutor(c)
			local := gentools.NewExecutor(nil)
			var wants []*linkhubv1.Sample
			var sent []string
			fixed, refused, masks := 0, 0, 0
			for i, args := range vf.Values {
				good, bad := fixSampleMask(t, args, i)
				if bad {
					// Refused for the mask, nothing sent; then a good one.
					if _, err := e.Execute(ctx, tool.Name, args); !maskRefused(err) {
						t.Fatalf("value %d: a mask naming no field, yet the executor says %v\n%s", i, err, args)
					}
					masks++
				}
				args = good
				want := &linkhubv1.Sample{}
				if err := gentools.DecodeArguments(local, tool.Name, args, want, tool.Strict); err != nil {
					if !emptyMessageKeys(err) {
						t.Fatalf("value %d does not decode: %v\n%s", i, err, args)
					}
					if _, err2 := e.Execute(ctx, tool.Name, args); err2 == nil || err2.Error() != err.Error() {
						t.Fatalf("value %d: the executor says %v, its decoding %v", i, err2, err)
					}
					refused++
					continue
				}
				independent := expectedSample(t, args, tool.Strict)
				if !proto.Equal(want, independent) {
					t.Errorf("value %d: the executor's decoding differs from the expected one:\n executor %s\n expected %s\n args %s",
						i, protojson.Format(want), protojson.Format(independent), args)
				}
				if !jsonEqual(t, args, expectedJSON(t, args, tool.Strict)) {
					fixed++
				}
				wants = append(wants, want)
				sent = append(sent, args)
				out, err := e.Execute(ctx, tool.Name, args)
				if err != nil {
					t.Fatalf("value %d: %v\n%s", i, err, args)
				}
				echoed := &linkhubv1.Sample{}
				if err := protojson.Unmarshal([]byte(out), echoed); err != nil {
					t.Fatalf("value %d: result %s: %v", i, out, err)
				}
				if !proto.Equal(echoed, want) {
					t.Errorf("value %d: echoed %s\n want %s", i, out, protojson.Format(want))
				}
			}
			got := recorded(t)
			if len(got) != len(wants) {
				t.Fatalf("%d requests recorded for %d calls", len(got), len(wants))
			}
			negZero := 0
			for i, rec := range got {
				if !strings.HasPrefix(rec.GetProcedure(), "linkhub.v1.SampleService/Echo") {
					t.Fatalf("recorded %s", rec.GetProcedure())
				}
				// A float32 score that rounds to -0 is sent (Go marshals -0),
				// but protobuf-es writes no JSON for it: the recording cannot
				// tell -0 from unset. Compare such a score as unset.
				w := wants[i]
				if w.GetScore() == 0 && math.Signbit(float64(w.GetScore())) {
					w = proto.CloneOf(w) // (Clone does not copy a -0 either)
					w.Score = 0
					negZero++
				}
				if msg := decodeRecorded(t, rec); !proto.Equal(msg, w) {
					t.Errorf("value %d: server received %s\n want %s\n args %s", i, rec.GetRequestJson(), protojson.Format(wants[i]), sent[i])
				}
			}
			if !t.Failed() {
				t.Logf("%s: %d schema-generated values sent; all reached the server intact (%d needed the argument fix-up; %d had a score of -0, recorded as unset); %d refused for keys in an empty message; %d masks naming no field refused (then sent with one of Sample's)",
					tool.Name, len(sent), fixed, negZero, refused, masks)
			}
		})
	}
}

// expectedSample is what a Sample tool call means, worked out without the
// generated code: the arguments rewritten to plain protobuf JSON
// (expectedJSON), then decoded with protojson.
func expectedSample(t *testing.T, args string, strict bool) *linkhubv1.Sample {
	t.Helper()
	s := &linkhubv1.Sample{}
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(expectedJSON(t, args, strict)), s); err != nil {
		t.Fatalf("expected JSON does not decode: %v\n%s", err, args)
	}
	return s
}

// expectedJSON rewrites Sample arguments into protobuf JSON, from the schema
// rules of docs/compat.md for linkhub.v1.Sample: nulls mean "not set"; maps
// (by_name, by_num, by_flag, attrs) and the Struct meta may come as
// key/value entries (later entries win); in a strict call, Value fields and
// ListValue items are JSON text (kept as a string when not valid JSON).
func expectedJSON(t *testing.T, args string, strict bool) string {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("arguments are not a JSON object: %v", err)
	}
	jsonText := func(v any) any {
		s, ok := v.(string)
		if !ok || !strict {
			return v
		}
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var parsed any
		if err := d.Decode(&parsed); err != nil || d.More() || strings.TrimSpace(s[d.InputOffset():]) != "" {
			return s
		}
		return parsed
	}
	entries := func(v any, valueIsJSONText bool) any {
		list, ok := v.([]any)
		if !ok {
			return v
		}
		m := map[string]any{}
		for _, item := range list {
			kv := item.(map[string]any)
			var key string
			switch k := kv["key"].(type) {
			case string:
				key = k
			case json.Number:
				key = k.String()
			case bool:
				key = map[bool]string{true: "true", false: "false"}[k]
			}
			if valueIsJSONText {
				m[key] = jsonText(kv["value"])
			} else {
				m[key] = kv["value"]
			}
		}
		return m
	}
	out := map[string]any{}
	for k, v := range obj {
		if v == nil && k != "value" {
			continue // unset (a null Value field stays: JSON null)
		}
		switch k {
		case "mask":
			if text, ok := v.(string); ok {
				wire, valid := maskWire(text, (&linkhubv1.Sample{}).ProtoReflect().Descriptor())
				if !valid {
					t.Fatalf("mask %q names no field of Sample", text)
				}
				v = wire
			}
		case "meta", "attrs":
			v = entries(v, true)
		case "by_name", "by_num", "by_flag":
			v = entries(v, false)
		case "value":
			v = jsonText(v)
		case "list":
			if items, ok := v.([]any); ok {
				for i := range items {
					items[i] = jsonText(items[i])
				}
			}
		}
		out[k] = v
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	for _, x := range []struct {
		s string
		v *any
	}{{a, &va}, {b, &vb}} {
		d := json.NewDecoder(strings.NewReader(x.s))
		d.UseNumber()
		if err := d.Decode(x.v); err != nil {
			t.Fatal(err)
		}
	}
	return reflect.DeepEqual(va, vb)
}
