package aitools

// A mask's "*" path reaches the request: protojson refuses it, so the
// executor decodes a stand-in and writes "*" back (field_mask.go).

import (
	"encoding/json"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	_ "google.golang.org/protobuf/types/known/fieldmaskpb"
)

// maskMessage is test.mask.M { FieldMask mask = 1; repeated M items = 2;
// map<string, M> by = 3; }.
func maskMessage(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	field := func(name string, num int32, label descriptorpb.FieldDescriptorProto_Label, typ descriptorpb.FieldDescriptorProto_Type, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Label: label.Enum(), Type: typ.Enum()}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL, descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	msg := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("test/mask.proto"), Package: proto.String("test.mask"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/field_mask.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("M"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("mask", 1, opt, msg, ".google.protobuf.FieldMask"),
				field("items", 2, rep, msg, ".test.mask.M"),
				field("by", 3, rep, msg, ".test.mask.M.ByEntry"),
			},
			NestedType: []*descriptorpb.DescriptorProto{{
				Name:    proto.String("ByEntry"),
				Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
				Field: []*descriptorpb.FieldDescriptorProto{
					field("key", 1, opt, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
					field("value", 2, opt, msg, ".test.mask.M"),
				},
			}},
		}},
	}, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().ByName("M")
}

func TestMaskWildcardReachesTheRequest(t *testing.T) {
	md := maskMessage(t)
	req := dynamicpb.NewMessage(md)
	e := NewExecutor(nil)
	args := `{"mask":"*,aitoolsWildcardX","items":[{"mask":"a"},{"mask":" * "}],"by":{"k":{"mask":"b.c,*"}}}`
	if err := e.decode("no_table", args, req, false); err != nil {
		t.Fatal(err)
	}
	paths := func(m protoreflect.Message) []string {
		var out []string
		list := m.Get(md.Fields().ByName("mask")).Message().Get(m.Get(md.Fields().ByName("mask")).Message().Descriptor().Fields().ByName("paths")).List()
		for i := 0; i < list.Len(); i++ {
			out = append(out, list.Get(i).String())
		}
		return out
	}
	items := req.Get(md.Fields().ByName("items")).List()
	byK := req.Get(md.Fields().ByName("by")).Map().Get(protoreflect.ValueOfString("k").MapKey()).Message()
	for _, c := range []struct {
		got, want []string
	}{
		{paths(req), []string{"*", "aitools_wildcard_x"}},
		{paths(items.Get(0).Message()), []string{"a"}},
		{paths(items.Get(1).Message()), []string{"*"}},
		{paths(byK), []string{"b.c", "*"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("paths %q, want %q", c.got, c.want)
		}
	}
}

func TestMaskWildcardInAResponse(t *testing.T) {
	md := maskMessage(t)
	resp := dynamicpb.NewMessage(md)
	if err := (protojson.UnmarshalOptions{}).Unmarshal([]byte(`{"mask":"a,bC","items":[{"mask":"d"}]}`), resp); err != nil {
		t.Fatal(err)
	}
	paths := resp.Mutable(md.Fields().ByName("mask")).Message()
	list := paths.Mutable(paths.Descriptor().Fields().ByName("paths")).List()
	list.Set(0, protoreflect.ValueOfString("*"))
	list.Append(protoreflect.ValueOfString("*"))
	item := resp.Get(md.Fields().ByName("items")).List().Get(0).Message()
	item.Get(md.Fields().ByName("mask")).Message().Get(paths.Descriptor().Fields().ByName("paths")).List().Set(0, protoreflect.ValueOfString("*"))
	before := proto.Clone(resp)
	b, err := marshalResponse(protojson.MarshalOptions{UseProtoNames: true}, resp)
	if err != nil || string(b) != `{"mask":"*,bC,*","items":[{"mask":"*"}]}` {
		t.Fatalf("%s %v", b, err)
	}
	if !proto.Equal(resp, before) {
		t.Error("the response changed")
	}
}

// The stand-in for "*" is put back inside FieldMask values only: the
// server's own "aitoolsWildcard" (a map key, a path) and the next stand-in
// it wrote stay as they are.
func TestMaskWildcardStandInWrittenByTheServer(t *testing.T) {
	md := maskMessage(t)
	resp := dynamicpb.NewMessage(md)
	text := `{"mask":"aitoolsWildcard,aitoolsWildcard","by":{"aitoolsWildcard":{"mask":"aitoolsWildcard"},"aitoolsWildcardQ0":{}}}`
	if err := (protojson.UnmarshalOptions{}).Unmarshal([]byte(text), resp); err != nil {
		t.Fatal(err)
	}
	mask := resp.Get(md.Fields().ByName("mask")).Message()
	mask.Get(mask.Descriptor().Fields().ByName("paths")).List().Set(0, protoreflect.ValueOfString("*"))
	b, err := marshalResponse(protojson.MarshalOptions{}, resp)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	_ = json.Unmarshal([]byte(`{"mask":"*,aitoolsWildcard","by":{"aitoolsWildcard":{"mask":"aitoolsWildcard"},"aitoolsWildcardQ0":{}}}`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %s", b)
	}
}
