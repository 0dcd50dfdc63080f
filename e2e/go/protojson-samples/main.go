// Command protojson-samples prints what Go's protojson writes for messages
// given in binary, with the options an MCP result uses and with the
// executors' defaults. The generator's output schema test
// (generator/test/output-schema-encoders.test.ts) runs it and validates the
// JSON against the output schemas.
//
// Input (stdin): {"descriptorSet": base64 FileDescriptorSet, "cases":
// [{"type": full message name, "binary": base64}]}. Output (stdout): one
// object per case, {"mcp": …, "unpopulated": …, "default": …}, each the
// JSON text written with that encoding.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

type input struct {
	DescriptorSet string `json:"descriptorSet"`
	Cases         []struct {
		Type   string `json:"type"`
		Binary string `json:"binary"`
	} `json:"cases"`
}

type output struct {
	MCP         string `json:"mcp"`
	Unpopulated string `json:"unpopulated"`
	Default     string `json:"default"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "protojson-samples:", err)
		os.Exit(1)
	}
}

func run() error {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading the input: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(in.DescriptorSet)
	if err != nil {
		return fmt.Errorf("descriptorSet: %w", err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(raw, set); err != nil {
		return fmt.Errorf("descriptorSet: %w", err)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return fmt.Errorf("descriptorSet: %w", err)
	}
	types := dynamicpb.NewTypes(files)
	encodings := []protojson.MarshalOptions{
		{UseProtoNames: true, EmitDefaultValues: true, Resolver: types},
		{UseProtoNames: true, EmitUnpopulated: true, Resolver: types},
		{Resolver: types},
	}
	out := make([]output, 0, len(in.Cases))
	for _, c := range in.Cases {
		desc, err := files.FindDescriptorByName(protoreflect.FullName(c.Type))
		if err != nil {
			return fmt.Errorf("type %q: %w", c.Type, err)
		}
		md, ok := desc.(protoreflect.MessageDescriptor)
		if !ok {
			return fmt.Errorf("type %q is not a message", c.Type)
		}
		b, err := base64.StdEncoding.DecodeString(c.Binary)
		if err != nil {
			return fmt.Errorf("case of %q: %w", c.Type, err)
		}
		msg := dynamicpb.NewMessage(md)
		if err := (proto.UnmarshalOptions{Resolver: types}).Unmarshal(b, msg); err != nil {
			return fmt.Errorf("case of %q: %w", c.Type, err)
		}
		texts := make([]string, len(encodings))
		for i, enc := range encodings {
			j, err := enc.Marshal(msg)
			if err != nil {
				return fmt.Errorf("case of %q: %w", c.Type, err)
			}
			texts[i] = string(j)
		}
		out = append(out, output{MCP: texts[0], Unpopulated: texts[1], Default: texts[2]})
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
