//aitools:inline executors

package aitools

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

// ToolError is the error of every failed tool call (docs/runtime.md,
// "Errors"). Its Error() is the text to show the model. It works with
// errors.As, and with status.Code and status.FromError, which see its code,
// RawMessage and details.
type ToolError struct {
	// Reason is one of "unknown-tool", "unknown-alias", "invalid-arguments",
	// "failed-validation", "server-error", "unavailable",
	// "invalid-response", "result-too-large" and "not-approved" (a call
	// that needs an approval was refused, or none could be asked; code
	// PermissionDenied), and for a conversation
	// kept in a store "conversation-expired", "conversation-corrupt",
	// "conversation-full" (code ResourceExhausted) and "store-unavailable".
	Reason string
	// Code is the gRPC code: the server's for "server-error" and
	// "unavailable", InvalidArgument for bad arguments and aliases, NotFound
	// for an unknown tool, ResourceExhausted or Internal for a response that
	// cannot be returned; NotFound, DataLoss and Unavailable for the store's
	// reasons.
	Code codes.Code
	// Message is the text for the model, with UUIDs shown as aliases; for
	// server errors "rpc error: code = NotFound desc = ...".
	Message string
	// RawMessage is the server's own message (aliasified, without the
	// "rpc error: ..." prefix) for "server-error" and "unavailable", else
	// Message.
	RawMessage string
	// Details are the status details as the server sent them, raw ids kept
	// for the application; empty for the other reasons.
	Details []*anypb.Any
	// Violations are what was wrong with the arguments, one line each in
	// Message, for "invalid-arguments", "unknown-alias" and
	// "failed-validation"; for a server error, the field violations of its
	// google.rpc.BadRequest details.
	Violations []Violation
	// Cause is the underlying error, when there is one.
	Cause error
}

// Error returns Message, the text for the model.
func (e *ToolError) Error() string { return e.Message }

// Unwrap returns Cause.
func (e *ToolError) Unwrap() error { return e.Cause }

// GRPCStatus returns the error as a gRPC status: Code, RawMessage and
// Details.
func (e *ToolError) GRPCStatus() *status.Status {
	p := status.New(e.Code, e.RawMessage).Proto()
	p.Details = e.Details
	return status.FromProto(p)
}
