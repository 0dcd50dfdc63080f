//aitools:inline mcp

package aitools

import (
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
)

// AuditRecord is the record of one tools/call (docs/production.md, "Audit"): who
// called what and how it ended. It holds no argument values, no UUIDs, no
// token and no claim but the subject.
type AuditRecord struct {
	Time    time.Time // when the call started
	Subject string    // "" without authorization
	Tool    string
	Method  string // "/pkg.Service/Method"
	// Outcome is "ok", "tool_error" (the server failed it; Code says how),
	// "invalid_arguments" (a model mistake caught before sending),
	// "denied" (its approval said no or could not be asked), "limited"
	// (rate or concurrency) or "unauthorized" (a caller with authorization
	// gave a handle unknown under its key, which may be another caller's;
	// its token lacks a scope of the tool). An unknown handle without
	// authorization is "invalid_arguments".
	Outcome string
	// Code is the gRPC code name of a "tool_error" ("NOT_FOUND"), else "".
	Code       string
	DurationMs float64 // milliseconds, to the microsecond (3 decimals)
}

// MarshalJSON writes the record as every runtime's writer does: time in
// RFC 3339 UTC with milliseconds, code left out when empty.
func (r AuditRecord) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Time       string  `json:"time"`
		Subject    string  `json:"subject"`
		Tool       string  `json:"tool"`
		Method     string  `json:"method"`
		Outcome    string  `json:"outcome"`
		Code       string  `json:"code,omitempty"`
		DurationMs float64 `json:"durationMs"`
	}{r.Time.UTC().Format("2006-01-02T15:04:05.000Z"), r.Subject, r.Tool, r.Method, r.Outcome, r.Code, r.DurationMs})
}

// WithAudit calls audit with the record of each tools/call once it ended
// (NewJSONLinesAuditWriter writes them as JSON lines). audit runs on the
// call's goroutine: keep it fast.
func WithAudit(audit func(AuditRecord)) MCPOption {
	return func(o *mcpOptions) { o.audit = audit }
}

// NewJSONLinesAuditWriter returns an audit hook writing each record to w as
// one JSON object on one line; calls from several goroutines are written
// one after the other. Write errors are dropped.
func NewJSONLinesAuditWriter(w io.Writer) func(AuditRecord) {
	var mu sync.Mutex
	return func(r AuditRecord) {
		b, err := json.Marshal(r)
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(append(b, '\n'))
	}
}

// auditOutcome is the outcome and code of a call that failed with err.
func auditOutcome(err error, subject string) (outcome, code string) {
	var te *ToolError
	if !errors.As(err, &te) {
		return "tool_error", grpcCodeName(codes.Unknown)
	}
	switch te.Reason {
	case "invalid-arguments", "unknown-alias", "failed-validation", "unknown-tool":
		return "invalid_arguments", ""
	case "not-approved":
		return "denied", ""
	case "conversation-expired":
		switch {
		case !errors.Is(err, errUnknownHandle):
			return "tool_error", grpcCodeName(te.Code)
		case subject != "":
			return "unauthorized", "" // perhaps another caller's
		}
		return "invalid_arguments", ""
	}
	return "tool_error", grpcCodeName(te.Code)
}

// grpcCodeName is the canonical name of a gRPC code, "NOT_FOUND".
func grpcCodeName(c codes.Code) string {
	names := [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
	if int(c) < len(names) {
		return names[c]
	}
	return "UNKNOWN"
}
