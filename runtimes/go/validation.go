//aitools:inline executors

package aitools

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// validationViolations turns the error of validateRequest into violations
// (docs/runtime.md, "buf.validate"). protovalidate's error has a ToProto
// method returning buf.validate.Violations, read here by field name so that
// the runtime does not import protovalidate: each violation's field path
// with proto names, "[i]" for a list index and ".key" for a map key ("" for
// a message rule), and its message (its rule id when the message is
// empty). nil for any other error (a validator that cannot run: a rule
// that does not compile, a runtime error) or one without violations.
func validationViolations(err error) []Violation {
	list := violationsProto(err)
	if list == nil || list.Len() == 0 {
		return nil
	}
	out := make([]Violation, 0, list.Len())
	for i := 0; i < list.Len(); i++ {
		v := list.Get(i).Message()
		msg := protoField(v, "message").String()
		if msg == "" {
			msg = protoField(v, "rule_id").String()
		}
		out = append(out, Violation{Field: fieldPath(protoField(v, "field")), Reason: "validation", Message: msg})
	}
	return out
}

// cannotValidate is the error of a validator that could not check the
// request (docs/runtime.md, "buf.validate"): nothing was sent.
func (e *Executor) cannotValidate(err error) *ToolError {
	return e.toolError("failed-validation", codes.Internal, "cannot check the request's rules: "+err.Error(), err)
}

// violationsProto finds, in err's chain, an error with a method ToProto()
// returning a message with a repeated field "violations", and returns that
// list; nil when there is none.
func violationsProto(err error) protoreflect.List {
	for ; err != nil; err = errors.Unwrap(err) {
		method := reflect.ValueOf(err).MethodByName("ToProto")
		if !method.IsValid() || method.Type().NumIn() != 0 || method.Type().NumOut() != 1 {
			continue
		}
		m, ok := method.Call(nil)[0].Interface().(proto.Message)
		if !ok || reflect.ValueOf(m).IsNil() {
			continue
		}
		fd := m.ProtoReflect().Descriptor().Fields().ByName("violations")
		if fd != nil && fd.IsList() && fd.Message() != nil {
			return m.ProtoReflect().Get(fd).List()
		}
	}
	return nil
}

// protoField is the value of m's field name, or an invalid value when m
// has no such field.
func protoField(m protoreflect.Message, name protoreflect.Name) protoreflect.Value {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil {
		return protoreflect.Value{}
	}
	return m.Get(fd)
}

// fieldPath renders a buf.validate.FieldPath: field names joined with
// '.', a list index as "[i]", a map key as ".key".
func fieldPath(path protoreflect.Value) string {
	if !path.IsValid() {
		return ""
	}
	elements := protoField(path.Message(), "elements")
	if !elements.IsValid() {
		return ""
	}
	var b strings.Builder
	for i := 0; i < elements.List().Len(); i++ {
		el := elements.List().Get(i).Message()
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(protoField(el, "field_name").String())
		od := el.Descriptor().Oneofs().ByName("subscript")
		if od == nil {
			continue
		}
		fd := el.WhichOneof(od)
		if fd == nil {
			continue
		}
		v := el.Get(fd)
		switch fd.Name() {
		case "index":
			b.WriteString("[" + strconv.FormatUint(v.Uint(), 10) + "]")
		case "bool_key":
			b.WriteString("." + strconv.FormatBool(v.Bool()))
		case "int_key":
			b.WriteString("." + strconv.FormatInt(v.Int(), 10))
		case "uint_key":
			b.WriteString("." + strconv.FormatUint(v.Uint(), 10))
		case "string_key":
			b.WriteString("." + v.String())
		}
	}
	return b.String()
}
