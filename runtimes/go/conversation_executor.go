//aitools:inline executors

package aitools

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

//aitools:if aliases
//aitools:if !mcp

// ConversationExecutor runs the auto-executed tools in conversations kept
// in a ConversationStore (docs/store.md, "A call through a store"): with a
// shared store, any process continues any conversation. It is safe for
// concurrent use.
type ConversationExecutor struct {
	// MaxResultBytes is the largest result text shown to the model, as
	// Executor.MaxResultBytes (zero: DefaultMaxResultBytes; negative: no
	// limit). Set it before the first call.
	MaxResultBytes int
	// Timeout is the deadline of a call of a tool that sets none in its
	// annotation, as Executor.Timeout (zero: DefaultToolTimeout; negative:
	// none). Set it before the first call.
	Timeout time.Duration
	// Approve decides the calls of tools that need an approval, as
	// Executor.Approve. Set it before the first call.
	Approve ApproveFunc
	// Telemetry observes each call, its conversation's load included, as
	// Executor.Telemetry. Set it before the first call.
	Telemetry Telemetry

	conn  grpc.ClientConnInterface
	store ConversationStore
}

// NewConversationExecutor returns an executor calling conn whose
// conversations live in store.
func NewConversationExecutor(conn grpc.ClientConnInterface, store ConversationStore) *ConversationExecutor {
	return &ConversationExecutor{conn: conn, store: store}
}

// Start begins a conversation and returns its handle.
func (c *ConversationExecutor) Start(ctx context.Context) (string, error) {
	handle, err := c.store.Create(ctx)
	if err != nil {
		return "", storeError("", err)
	}
	return handle, nil
}

// Execute runs the auto-executor of toolName with the model's arguments in
// the conversation handle: its aliases are loaded from the store, and the
// ids of the response are stored before the response is returned. A
// failure is a *ToolError; the store's reasons are "conversation-expired",
// "conversation-corrupt" and "store-unavailable".
func (c *ConversationExecutor) Execute(ctx context.Context, handle, toolName, argsJSON string) (string, error) {
	ctx, call := startToolCall(ctx, c.Telemetry, toolName)
	defer call.endPanic()
	out, err := c.execute(ctx, call, handle, toolName, argsJSON)
	call.finish(err)
	return out, err
}

// execute is Execute, whose record is call (nil: not observed).
func (c *ConversationExecutor) execute(ctx context.Context, call *toolCall, handle, toolName, argsJSON string) (string, error) {
	e, err := openConversation(ctx, c.store, handle)
	if err != nil {
		return "", err
	}
	call.attach(e, true)
	if err := checkRoom(c.store, handle, e); err != nil {
		return "", err
	}
	e.conn = c.conn
	e.MaxResultBytes, e.Timeout = c.MaxResultBytes, c.Timeout
	e.Approve = c.Approve
	return e.Execute(ctx, toolName, argsJSON)
}

// End ends the conversation handle; an unknown handle is not an error.
func (c *ConversationExecutor) End(ctx context.Context, handle string) error {
	if err := c.store.Delete(ctx, handle); err != nil {
		return storeError(handle, err)
	}
	return nil
}

//aitools:end

// openConversation returns an executor (without a connection) of the
// conversation handle: its state loaded into a fresh alias manager, and
// the pairs its responses register stored, and the state the store returns
// taken, before a response is shown.
func openConversation(ctx context.Context, store ConversationStore, handle string) (*Executor, error) {
	epoch, state, err := store.Load(ctx, handle)
	if err != nil {
		return nil, storeError(handle, err)
	}
	e := &Executor{aliases: NewAliasManager()}
	if err := restoreConversation(e.aliases, handle, state); err != nil {
		return nil, err
	}
	e.store = func(pairs [][2]string) error {
		state, err := store.Register(ctx, handle, epoch, pairs)
		if err != nil {
			return storeError(handle, err)
		}
		return restoreConversation(e.aliases, handle, state)
	}
	return e, nil
}

// checkRoom returns the error "conversation-full" when the conversation
// loaded into e holds its store's limit of aliases or more (MaxAliases() int,
// else DefaultMaxAliases): the call is not sent. A call let through may
// end above the limit by its result's new ids (docs/store.md, "Alias cap").
// The text names the handle the model knows, "this conversation" when it
// knows none (handle "": an MCP connection's or session's).
func checkRoom(store ConversationStore, handle string, e *Executor) error {
	limit := DefaultMaxAliases
	if s, ok := store.(interface{ MaxAliases() int }); ok && s.MaxAliases() > 0 {
		limit = s.MaxAliases()
	}
	e.aliases.mu.RLock()
	n := len(e.aliases.aliases)
	e.aliases.mu.RUnlock()
	if n < limit {
		return nil
	}
	named := "this conversation"
	if handle != "" {
		named = "conversation " + quote(handle)
	}
	msg := named + " holds " + strconv.Itoa(n) + " aliases, its limit: start a new conversation (this call was not sent)"
	return &ToolError{Reason: "conversation-full", Code: codes.ResourceExhausted, Message: msg, RawMessage: msg}
}

// restoreConversation restores a stored state; a state RestoreState refuses
// is the error "conversation-corrupt".
func restoreConversation(m *AliasManager, handle, state string) error {
	if err := m.RestoreState([]byte(state)); err != nil {
		return conversationCorrupt(handle, err)
	}
	return nil
}

// conversationCorrupt is the error "conversation-corrupt" of a conversation
// that cannot be read.
func conversationCorrupt(handle string, err error) *ToolError {
	msg := "conversation " + quote(handle) + " cannot be read: " + oneLine(err)
	return &ToolError{Reason: "conversation-corrupt", Code: codes.DataLoss, Message: msg, RawMessage: msg, Cause: err}
}

// storeError is the error of a store operation on handle that failed:
// "conversation-expired" or "conversation-corrupt" when the store says so
// (an error with the method ConversationExpired() bool, or
// ConversationCorrupt() bool, returning true), else "store-unavailable".
func storeError(handle string, err error) *ToolError {
	var expired interface{ ConversationExpired() bool }
	if errors.As(err, &expired) && expired.ConversationExpired() {
		msg := "conversation " + quote(handle) + " expired or unknown: start a new conversation"
		return &ToolError{Reason: "conversation-expired", Code: codes.NotFound, Message: msg, RawMessage: msg, Cause: err}
	}
	var corrupt interface{ ConversationCorrupt() bool }
	if errors.As(err, &corrupt) && corrupt.ConversationCorrupt() {
		return conversationCorrupt(handle, err)
	}
	msg := "conversation store unavailable: " + oneLine(err)
	return &ToolError{Reason: "store-unavailable", Code: codes.Unavailable, Message: msg, RawMessage: msg, Cause: err}
}

// oneLine is an error's message with its white space runs made one space.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

//aitools:end
