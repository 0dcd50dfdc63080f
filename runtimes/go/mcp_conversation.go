//aitools:inline mcp

package aitools

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc/codes"
)

//aitools:if aliases

// The conversations of MCP calls (docs/mcp.md, "Conversations"): the
// connection's, or a handle's bound to its caller (docs/production.md,
// "Conversations and sessions bound to the caller").

// metaHandle is the conversation handle a request passes in
// _meta["ai-tools/conversation"], "" when there is none (null is none); any
// other value than a string is an error.
func metaHandle(meta mcp.Meta) (string, error) {
	v := meta[conversationMetaKey]
	if v == nil {
		return "", nil
	}
	handle, ok := v.(string)
	if !ok {
		return "", argumentsError(Violation{Field: conversationMetaKey, Reason: "invalid-value", Message: "must be a string"})
	}
	return handle, nil
}

// mcpConversation is the conversation of one call: an executor of it,
// whose aliases come from the store (docs/store.md, "A call through a
// store"); shown is true when a successful result carries its handle.
type mcpConversation struct {
	handle   string
	key      string // the store's key of a handle (conversationKey), "" in a session
	executor *Executor
	shown    bool
	minted   bool // made for this call, which had no handle
}

// conversation finds the conversation of a call: the connection's (stdio,
// HTTP sessions), or, on stateless HTTP (2026-07-28), the one of handle
// bound to subject (conversationKey), a new one when handle is "".
func (s *mcpServer) conversation(ctx context.Context, req *mcp.CallToolRequest, handle, subject string) (mcpConversation, error) {
	store := s.opts.store
	if !isStateless(req) {
		conv, err := s.sessionConversation(ctx, req.Session)
		return conv, sessionLost(err)
	}
	if handle != "" && !isMintedHandle(handle) {
		return mcpConversation{}, unknownHandle(handle) // e.g. "<handle>.<tag>": another caller's key
	}
	minted := handle == ""
	key := conversationKey(handle, subject)
	if minted {
		suffix := conversationKeySuffix(subject)
		k, err := createConversation(ctx, store, suffix)
		if err != nil {
			return mcpConversation{}, storeError("", err)
		}
		key, handle = k, strings.TrimSuffix(k, suffix)
	}
	e, err := openConversation(ctx, store, key)
	if isExpired(err) {
		return mcpConversation{}, unknownHandle(handle)
	}
	if err != nil {
		return mcpConversation{}, err
	}
	return mcpConversation{handle: handle, key: key, executor: e, shown: true, minted: minted}, nil
}

// isMintedHandle reports whether handle has the form stores mint: at least
// 22 base64url characters (no ".", which separates the caller's tag).
func isMintedHandle(handle string) bool {
	if len(handle) < 22 {
		return false
	}
	for _, c := range handle {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// unknownHandle is the error of a handle the store does not hold under
// the caller's key: unknown, expired, or another caller's.
func unknownHandle(handle string) *ToolError {
	msg := fmt.Sprintf("unknown or expired conversation %s; call again without %s to start a new one", quote(handle), quote(conversationArgument))
	return &ToolError{Reason: "conversation-expired", Code: codes.NotFound, Message: msg, RawMessage: msg, Cause: errUnknownHandle}
}

// sessionLost is err, or, when err is "conversation-expired", the error of
// a connection's or session's conversation that expired or was lost: the
// model never saw its handle, which the text does not name.
func sessionLost(err error) error {
	var te *ToolError
	if !errors.As(err, &te) || te.Reason != "conversation-expired" {
		return err
	}
	msg := "this conversation expired or was lost: start a new conversation"
	return &ToolError{Reason: te.Reason, Code: te.Code, Message: msg, RawMessage: msg, Cause: te.Cause}
}

// lostInCall is err, or, when the call's registration found its
// conversation gone, the error naming what the model knows of it: the
// handle it passed, none when it never saw the handle (a connection's or
// session's, whose next call starts a new one; one made for this call).
func (s *mcpServer) lostInCall(req *mcp.CallToolRequest, conv mcpConversation, err error) error {
	switch {
	case !isExpired(err):
		return err
	case !conv.shown:
		s.forget(req.Session, conv.handle)
		return sessionLost(err)
	case conv.minted:
		return sessionLost(err)
	}
	return unknownHandle(conv.handle)
}

// dropMinted deletes conv when it was made for this call, which ends
// without a result: the model never sees its handle, so nothing else would
// end it before its TTL.
func (s *mcpServer) dropMinted(ctx context.Context, conv mcpConversation) {
	if conv.minted {
		_ = s.opts.store.Delete(ctx, conv.key)
	}
}

// conversationKey is the store's key of a conversation handle given by
// subject (docs/production.md, "Conversations and sessions bound to the
// caller"): the handle itself
// without authorization, else the handle, a dot and the first 22
// characters of the base64url SHA-256 of the subject; another caller's
// handle is thus unknown.
func conversationKey(handle, subject string) string {
	return handle + conversationKeySuffix(subject)
}

func conversationKeySuffix(subject string) string {
	if subject == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(subject))
	return "." + base64.RawURLEncoding.EncodeToString(sum[:])[:22]
}

// createConversation creates a conversation whose key is a new handle and
// suffix: the store must have CreateWithSuffix (MemoryConversationStore
// and redisstore have it) unless suffix is "".
func createConversation(ctx context.Context, store ConversationStore, suffix string) (string, error) {
	if suffix == "" {
		return store.Create(ctx)
	}
	if s, ok := store.(interface {
		CreateWithSuffix(ctx context.Context, suffix string) (string, error)
	}); ok {
		return s.CreateWithSuffix(ctx, suffix)
	}
	return "", fmt.Errorf("the conversation store %T cannot bind conversations to callers: give it the method CreateWithSuffix(ctx, suffix) (handle+suffix, err)", store)
}

// isExpired reports whether err is the error "conversation-expired".
func isExpired(err error) bool {
	var te *ToolError
	return errors.As(err, &te) && te.Reason == "conversation-expired"
}

// sessionConversation returns the conversation of a connection, made on its
// first call and deleted when the connection ends. A conversation that
// expired (idle, or lost by the store) fails the call once with
// conversation-expired: the model still holds its aliases, which a new
// conversation would number anew; the connection's next call starts one.
// Only making one holds the lock: calls of a known conversation load it
// from the store side by side.
func (s *mcpServer) sessionConversation(ctx context.Context, ss *mcp.ServerSession) (mcpConversation, error) {
	s.mu.Lock()
	handle, known := s.sessions[ss]
	s.mu.Unlock()
	if handle != "" {
		e, err := openConversation(ctx, s.opts.store, handle)
		if isExpired(err) {
			s.forget(ss, handle)
		}
		return mcpConversation{handle: handle, executor: e}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if current := s.sessions[ss]; current != "" {
		// Another call of the connection made one meanwhile.
		e, err := openConversation(ctx, s.opts.store, current)
		return mcpConversation{handle: current, executor: e}, err
	}
	handle, err := s.opts.store.Create(ctx)
	if err != nil {
		return mcpConversation{}, storeError("", err)
	}
	e, err := openConversation(ctx, s.opts.store, handle)
	if err != nil {
		return mcpConversation{}, err
	}
	s.sessions[ss] = handle
	if !known {
		go s.endWith(ss)
	}
	return mcpConversation{handle: handle, executor: e}, nil
}

// forget forgets the conversation handle of ss, which expired or was
// lost: the connection's next call starts a new one.
func (s *mcpServer) forget(ss *mcp.ServerSession, handle string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[ss] == handle {
		s.sessions[ss] = ""
	}
}

// endWith deletes the conversation of ss when ss ends.
func (s *mcpServer) endWith(ss *mcp.ServerSession) {
	_ = ss.Wait()
	s.mu.Lock()
	handle := s.sessions[ss]
	delete(s.sessions, ss)
	s.mu.Unlock()
	if handle != "" {
		_ = s.opts.store.Delete(context.Background(), handle)
	}
}

//aitools:end
