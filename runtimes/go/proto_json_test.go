package aitools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/typepb"
)

// responseVector is one file of e2e/vectors/responses.
type responseVector struct {
	Message string `json:"message"`
	Cases   []struct {
		Name      string         `json:"name"`
		Input     responseOption `json:"input"`
		Expect    string         `json:"expect"`
		ExpectMcp string         `json:"expectMcp"`
	} `json:"cases"`
}

// responseOption is a google.protobuf.Option as the vectors write it.
type responseOption struct {
	Name  string `json:"name"`
	Value *struct {
		TypeURL string          `json:"typeUrl"`
		Bytes   []byte          `json:"bytes"`
		Option  *responseOption `json:"option"`
	} `json:"value"`
}

func (o *responseOption) build(t *testing.T) *typepb.Option {
	m := &typepb.Option{Name: o.Name}
	if o.Value != nil {
		value := o.Value.Bytes
		if o.Value.Option != nil {
			b, err := proto.MarshalOptions{Deterministic: true}.Marshal(o.Value.Option.build(t))
			if err != nil {
				t.Fatal(err)
			}
			value = b
		}
		m.Value = &anypb.Any{TypeUrl: o.Value.TypeURL, Value: value}
	}
	return m
}

// TestResponseVectors writes each case's message as the executor (expect)
// and the MCP results (expectMcp) write a response.
func TestResponseVectors(t *testing.T) {
	vectors := loadVectors[responseVector](t, "responses")
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		t.Run(file, func(t *testing.T) {
			if vec.Message != "google.protobuf.Option" || len(vec.Cases) == 0 {
				t.Fatalf("vector for %q with %d cases", vec.Message, len(vec.Cases))
			}
			for _, c := range vec.Cases {
				m := c.Input.build(t)
				for _, form := range []struct {
					opts protojson.MarshalOptions
					want string
				}{{protojson.MarshalOptions{}, c.Expect}, {mcpJSON, c.ExpectMcp}} {
					b, err := marshalResponse(form.opts, m)
					if err != nil {
						t.Errorf("%s: %v", c.Name, err)
						continue
					}
					if got := string(compactJSON(b)); got != form.want {
						t.Errorf("%s:\n got  %s\n want %s", c.Name, got, form.want)
					}
				}
			}
		})
	}
}

// resultVector is one file of e2e/vectors/results.
type resultVector struct {
	Cases []struct {
		Name            string          `json:"name"`
		Message         string          `json:"message"`
		Input           json.RawMessage `json:"input"`
		Expect          string          `json:"expect"`
		ExpectJSONNames string          `json:"expectJsonNames"`
	} `json:"cases"`
}

// TestResultVectors reads each case's well-known message from its proto3
// JSON and writes it as the executor writes a result (Executor.encode): by
// default (expect: proto names) and with json_names=true (expectJsonNames),
// the generated file's jsonNames constant.
func TestResultVectors(t *testing.T) {
	vectors := loadVectors[resultVector](t, "results")
	e := NewExecutor(nil)
	for _, file := range sortedKeys(vectors) {
		vec := vectors[file]
		t.Run(file, func(t *testing.T) {
			if len(vec.Cases) == 0 {
				t.Fatal("no cases")
			}
			for _, c := range vec.Cases {
				mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(c.Message))
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				m := mt.New().Interface()
				if err := protojson.Unmarshal(c.Input, m); err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				for _, form := range []struct {
					jsonNames bool
					want      string
				}{{false, c.Expect}, {true, c.ExpectJSONNames}} {
					jsonNames = form.jsonNames
					b, err := e.encode(m)
					jsonNames = false
					if err != nil {
						t.Errorf("%s (jsonNames %v): %v", c.Name, form.jsonNames, err)
						continue
					}
					if got := string(b); got != form.want {
						t.Errorf("%s (jsonNames %v):\n got  %s\n want %s", c.Name, form.jsonNames, got, form.want)
					}
				}
			}
		})
	}
}

func TestMarshalResponseLeavesTheResponseAlone(t *testing.T) {
	m := &typepb.Option{Name: "x", Value: &anypb.Any{TypeUrl: "types.example.com/a.B", Value: []byte{1, 2}}}
	before := proto.Clone(m)
	if _, err := protojson.Marshal(m); err == nil || !strings.Contains(err.Error(), "unable to resolve") {
		t.Fatalf("protojson alone: %v; want it to fail on the unknown type", err)
	}
	b, err := marshalResponse(protojson.MarshalOptions{}, m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(compactJSON(b), []byte(`"value":"AQI="`)) {
		t.Errorf("got %s", b)
	}
	if !proto.Equal(m, before) {
		t.Errorf("the response was changed: %v", m)
	}
	// A value that does not decode as its known type is still an error.
	bad := &typepb.Option{Value: &anypb.Any{TypeUrl: "type.googleapis.com/google.protobuf.Option", Value: []byte{0xff}}}
	if _, err := marshalResponse(protojson.MarshalOptions{}, bad); err == nil {
		t.Error("no error for bytes that are no Option")
	}
}
