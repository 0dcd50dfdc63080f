package aitools

// validateRequest's error read as protovalidate's: a stand-in error whose
// ToProto returns a message shaped as buf.validate.Violations (built here
// from a descriptor, so that the runtime's tests do not need protovalidate;
// e2e/go runs the real library).

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// violationsFile declares test.validate.Violations with the fields of
// buf.validate.Violations that the runtime reads.
func violationsFile(t *testing.T) protoreflect.FileDescriptor {
	t.Helper()
	field := func(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type, label descriptorpb.FieldDescriptorProto_Label, msg string, oneof *int32) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Type: typ.Enum(), Label: label.Enum(), OneofIndex: oneof}
		if msg != "" {
			f.TypeName = proto.String(".test.validate." + msg)
		}
		return f
	}
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL, descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	msg, str := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, descriptorpb.FieldDescriptorProto_TYPE_STRING
	sub := proto.Int32(0)
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("test/validate.proto"), Package: proto.String("test.validate"), Syntax: proto.String("proto2"),
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("Violations"), Field: []*descriptorpb.FieldDescriptorProto{field("violations", 1, msg, rep, "Violation", nil)}},
			{Name: proto.String("Violation"), Field: []*descriptorpb.FieldDescriptorProto{field("rule_id", 2, str, opt, "", nil), field("message", 3, str, opt, "", nil), field("field", 5, msg, opt, "FieldPath", nil)}},
			{Name: proto.String("FieldPath"), Field: []*descriptorpb.FieldDescriptorProto{field("elements", 1, msg, rep, "FieldPathElement", nil)}},
			{Name: proto.String("FieldPathElement"), OneofDecl: []*descriptorpb.OneofDescriptorProto{{Name: proto.String("subscript")}}, Field: []*descriptorpb.FieldDescriptorProto{
				field("field_name", 2, str, opt, "", nil),
				field("index", 6, descriptorpb.FieldDescriptorProto_TYPE_UINT64, opt, "", sub),
				field("int_key", 8, descriptorpb.FieldDescriptorProto_TYPE_INT64, opt, "", sub),
				field("string_key", 10, str, opt, "", sub),
			}},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd
}

// validationError is what protovalidate's *ValidationError offers.
type validationError struct{ violations proto.Message }

func (validationError) Error() string            { return "validation error" }
func (v validationError) ToProto() proto.Message { return v.violations }
func newViolations(t *testing.T, fd protoreflect.FileDescriptor, items ...[]any) proto.Message {
	t.Helper()
	md := fd.Messages()
	out := dynamicpb.NewMessage(md.ByName("Violations"))
	list := out.Mutable(md.ByName("Violations").Fields().ByName("violations")).List()
	for _, item := range items { // message (or message and rule id), then path elements: a name, or a name and a subscript
		v := list.NewElement().Message()
		if pair, ok := item[0].([2]string); ok {
			v.Set(v.Descriptor().Fields().ByName("rule_id"), protoreflect.ValueOfString(pair[1]))
			item[0] = pair[0]
		}
		v.Set(v.Descriptor().Fields().ByName("message"), protoreflect.ValueOfString(item[0].(string)))
		path := v.Mutable(v.Descriptor().Fields().ByName("field")).Message()
		elements := path.Mutable(path.Descriptor().Fields().ByName("elements")).List()
		for _, el := range item[1:] {
			e := elements.NewElement().Message()
			fields := e.Descriptor().Fields()
			switch x := el.(type) {
			case string:
				e.Set(fields.ByName("field_name"), protoreflect.ValueOfString(x))
			case [2]any:
				e.Set(fields.ByName("field_name"), protoreflect.ValueOfString(x[0].(string)))
				switch k := x[1].(type) {
				case int:
					e.Set(fields.ByName("index"), protoreflect.ValueOfUint64(uint64(k)))
				case int64:
					e.Set(fields.ByName("int_key"), protoreflect.ValueOfInt64(k))
				case string:
					e.Set(fields.ByName("string_key"), protoreflect.ValueOfString(k))
				}
			}
			elements.Append(protoreflect.ValueOfMessage(e))
		}
		list.Append(protoreflect.ValueOfMessage(v))
	}
	return out
}

func TestValidationViolations(t *testing.T) {
	conn, srv := startServer(t)
	fd := violationsFile(t)
	uuid := testUUID(7)
	err := validationError{newViolations(t, fd,
		[]any{"value must be in list [" + uuid + "]", [2]any{"items", 2}, "owner_id"},
		[]any{"value length must be at least 1 characters", [2]any{"labels", "env"}},
		[]any{"must be positive", [2]any{"items_by_num", int64(-3)}, "counts"},
		[]any{"exactly one field is required in oneof"},
		[]any{[2]string{"", "note.custom_rule"}, "note"},
	)}
	saved := validateRequest
	t.Cleanup(func() { validateRequest = saved })
	validateRequest = func(proto.Message) error { return fmt.Errorf("wrapped: %w", err) }
	e := NewExecutor(conn)
	e.GetAliasManager().Register("user", uuid)
	calls := srv.calls.Load()
	_, got := e.Execute(context.Background(), "fixup_loose", `{}`)
	want := "invalid arguments, nothing was sent:\n" +
		`- "items[2].owner_id": value must be in list [user-1]` + "\n" +
		`- "labels.env": value length must be at least 1 characters` + "\n" +
		`- "items_by_num.-3.counts": must be positive` + "\n" +
		`- exactly one field is required in oneof` + "\n" +
		`- "note": note.custom_rule`
	wantToolError(t, got, "failed-validation", codes.InvalidArgument, want)
	var te *ToolError
	if errors.As(got, &te); len(te.Violations) != 5 || te.Violations[0].Reason != "validation" || te.Violations[3].Field != "" {
		t.Errorf("violations %q", te.Violations)
	}
	if srv.calls.Load() != calls {
		t.Error("a request that failed validation reached the server")
	}
	// A validator that cannot run (an error without violations): INTERNAL,
	// its text, no violations, nothing sent.
	validateRequest = func(proto.Message) error { return errors.New("compilation error: bad rule") }
	_, got = e.Execute(context.Background(), "fixup_loose", `{}`)
	wantToolError(t, got, "failed-validation", codes.Internal, "cannot check the request's rules: compilation error: bad rule")
	if errors.As(got, &te); len(te.Violations) != 0 {
		t.Errorf("violations of a validator that cannot run: %q", te.Violations)
	}
	validateRequest = func(proto.Message) error { return validationError{newViolations(t, fd)} }
	_, got = e.Execute(context.Background(), "fixup_loose", `{}`)
	wantToolError(t, got, "failed-validation", codes.Internal, "cannot check the request's rules: validation error")
	if srv.calls.Load() != calls {
		t.Error("a request that could not be validated reached the server")
	}
	validateRequest = func(proto.Message) error { return nil }
	if _, err := e.Execute(context.Background(), "fixup_loose", `{}`); err != nil {
		t.Fatal(err)
	}
}
