package gentools

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// valuesFile is written by generator/test/schema-invariants.test.ts: for
// every tool of a golden case, JSON values generated from its schema.
type valuesFile struct {
	Case          string `json:"case"`
	DescriptorSet string `json:"descriptorSet"`
	Tools         []struct {
		Tool        string            `json:"tool"`
		RequestType string            `json:"requestType"`
		Strict      bool              `json:"strict"`
		Values      []json.RawMessage `json:"values"`
	} `json:"tools"`
}

// TestSchemaValuesDecode holds the "admitted means decodable" invariant:
// every generated value, after the executor's argument fix-up, decodes into
// the request message with protojson. The fix-up code is the same in every
// generated file, so this package's copy checks every case.
func TestSchemaValuesDecode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "values", "*.json"))
	if len(files) == 0 {
		t.Fatal("no values in test-go/values: run the generator's vitest suite first (pnpm test does)")
	}
	total := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vf valuesFile
		if err := json.Unmarshal(data, &vf); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		raw, err := base64.StdEncoding.DecodeString(vf.DescriptorSet)
		if err != nil {
			t.Fatal(err)
		}
		var set descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(raw, &set); err != nil {
			t.Fatal(err)
		}
		registry, err := protodesc.NewFiles(&set)
		if err != nil {
			t.Fatalf("%s: %v", vf.Case, err)
		}
		for _, tool := range vf.Tools {
			d, err := registry.FindDescriptorByName(protoreflect.FullName(tool.RequestType))
			if err != nil {
				t.Fatalf("%s/%s: %v", vf.Case, tool.Tool, err)
			}
			md := d.(protoreflect.MessageDescriptor)
			failures := 0
			for _, value := range tool.Values {
				total++
				args, _ := decodeJSON(string(value))
				fixed, err := fixArgs(args, md, tool.Strict)
				if err == nil {
					err = protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal([]byte(encodeJSON(fixed)), dynamicpb.NewMessage(md))
				}
				if err != nil {
					failures++
					if failures <= 3 {
						t.Errorf("%s/%s: %v\n  value: %s", vf.Case, tool.Tool, err, value)
					}
				}
			}
			if failures > 3 {
				t.Errorf("%s/%s: %d more values failed", vf.Case, tool.Tool, failures-3)
			}
		}
	}
	t.Logf("%d generated values decoded", total)
}
