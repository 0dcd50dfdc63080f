//aitools:inline executors

package aitools

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/grpc/codes"
)

// ApprovalRequest is what an approval hook is asked: who calls which tool
// with which arguments, before anything is sent (docs/mcp.md, "Approvals").
type ApprovalRequest struct {
	// Subject is the verified caller ("" without authorization).
	Subject string
	// Tool is the tool's name.
	Tool string
	// Method is the full gRPC method, "/pkg.Service/Method".
	Method string
	// Arguments are the model's arguments as it sent them: aliases, not
	// UUIDs.
	Arguments json.RawMessage
}

// ApproveFunc decides whether a call of a tool that needs an approval is
// sent: true runs it; false or an error refuses it, and nothing is sent.
type ApproveFunc func(ctx context.Context, req ApprovalRequest) (bool, error)

// approve runs before a call is sent, its arguments checked: in an MCP
// call the server's gate; else, for a tool that needs an approval
// (toolNeedsApproval), Approve, asked with the subject of the identity in
// ctx (WithIdentity).
func (e *Executor) approve(ctx context.Context, toolName, argsJSON string) error {
	if e.gate != nil {
		return e.gate(ctx, argsJSON)
	}
	if !toolNeedsApproval[toolName] {
		return nil
	}
	if e.Approve == nil {
		return noApproval(toolName, "no approval hook")
	}
	subject := ""
	if id := IdentityFromContext(ctx); id != nil {
		subject = id.Subject
	}
	ok, err := e.Approve(ctx, ApprovalRequest{Subject: subject, Tool: toolName, Method: toolMethods[toolName], Arguments: json.RawMessage(argsJSON)})
	if err != nil || !ok {
		return notApproved(toolName, err)
	}
	return nil
}

// notApproved is the error of a call its approval refused.
func notApproved(toolName string, cause error) *ToolError {
	msg := fmt.Sprintf("the call of %s was not approved; nothing was sent", quote(toolName))
	return &ToolError{Reason: "not-approved", Code: codes.PermissionDenied, Message: msg, RawMessage: msg, Cause: cause}
}

// noApproval is the error of a call that needs an approval none could give;
// why says what was missing.
func noApproval(toolName, why string) *ToolError {
	msg := fmt.Sprintf("the call of %s needs an approval and none could be asked (%s); nothing was sent", quote(toolName), why)
	return &ToolError{Reason: "not-approved", Code: codes.PermissionDenied, Message: msg, RawMessage: msg}
}
