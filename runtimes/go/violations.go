//aitools:inline executors

package aitools

import (
	"strings"

	"google.golang.org/grpc/codes"
)

// Violation is one thing wrong with a tool call's arguments (or, reason
// "server", one field violation of the server's google.rpc.BadRequest):
// the field as the model wrote it ("steps[2].link_id", "" for the whole
// arguments), why ("invalid-json", "not-an-object", "unknown-field",
// "required", "invalid-value", "unknown-alias", "validation", "server") and
// the message for the model (docs/runtime.md, "Errors").
type Violation struct {
	Field   string
	Reason  string
	Message string
}

// invalidArgumentsHeader heads the text of every call refused before
// anything was sent.
const invalidArgumentsHeader = "invalid arguments, nothing was sent:"

// violationLines writes one line per violation: "- " + the quoted field and
// ": " (left out for a violation without a field) + the message.
func violationLines(b *strings.Builder, vs []Violation) {
	for _, v := range vs {
		b.WriteString("\n- ")
		if v.Field != "" {
			b.WriteString(quote(v.Field))
			b.WriteString(": ")
		}
		b.WriteString(v.Message)
	}
}

// refuse is the error of a call refused before anything was sent: reason
// "invalid-arguments", "unknown-alias" or "failed-validation", code
// InvalidArgument, the violations with their registered UUIDs shown as
// aliases, and the text the model reads.
func (e *Executor) refuse(reason string, vs []Violation, cause error) *ToolError {
	//aitools:if aliases
	if e.aliases != nil {
		for i := range vs {
			vs[i].Field = e.aliases.AliasifyJSON("", vs[i].Field)
			vs[i].Message = e.aliases.AliasifyJSON("", vs[i].Message)
		}
	}
	//aitools:end
	var b strings.Builder
	b.WriteString(invalidArgumentsHeader)
	violationLines(&b, vs)
	msg := b.String()
	return &ToolError{Reason: reason, Code: codes.InvalidArgument, Message: msg, RawMessage: msg, Violations: vs, Cause: cause}
}

// fieldError is an error about one field of the arguments, turned into a
// violation of reason "invalid-value" (or "unknown-alias").
type fieldError struct {
	path, reason, msg string
	legacy            string // Error() when set: the text fixArgs has always given
}

func (f *fieldError) Error() string {
	if f.legacy != "" {
		return f.legacy
	}
	if f.path == "" {
		return f.msg
	}
	return "field " + quote(f.path) + ": " + f.msg
}

// violation is the violation of a fix-up or decoder error.
func violationOf(err error, reason string) Violation {
	if f, ok := err.(*fieldError); ok {
		if f.reason != "" {
			reason = f.reason
		}
		return Violation{Field: f.path, Reason: reason, Message: f.msg}
	}
	return Violation{Reason: reason, Message: err.Error()}
}

//aitools:if aliases

// aliasViolation is the violation of an unknown alias: its field apart,
// the message without it.
func aliasViolation(err error) Violation {
	if ua, ok := err.(*unknownAliasError); ok {
		return Violation{Field: ua.path, Reason: "unknown-alias", Message: ua.violationMessage()}
	}
	return Violation{Reason: "unknown-alias", Message: err.Error()}
}

//aitools:end
