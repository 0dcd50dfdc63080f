//aitools:inline mcp

package aitools

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WithApprove decides the calls of tools that need an approval (the proto
// does not set auto_execute; docs/mcp.md, "Approvals") once their
// arguments passed their checks. Without it such a call is approved by the
// user through MCP elicitation when the client supports it, else refused;
// either way nothing is sent before it is approved.
func WithApprove(approve ApproveFunc) MCPOption {
	return func(o *mcpOptions) { o.approve = approve }
}

// WithApprovalSecret sets the key that signs the state of an approval asked
// by elicitation (2026-07-28 clients return it with their answer), at least
// 32 bytes (it panics on a shorter one). Default: 32 random bytes per
// process; give every replica of a server the same one.
func WithApprovalSecret(secret []byte) MCPOption {
	if len(secret) < 32 {
		panic(fmt.Sprintf("WithApprovalSecret must be at least 32 bytes (got %d)", len(secret)))
	}
	return func(o *mcpOptions) { o.approvalSecret = secret }
}

// approvalInput is the key of the approval in the input requests, and
// approvalTTL how long an asked approval can be answered.
const (
	approvalInput = "approval"
	approvalTTL   = 10 * time.Minute
)

// inputRequired is the gate's answer when it asks the user: the call's
// result asks for input instead of running (2026-07-28; the SDK asks older
// clients itself and calls the tool again with the answer).
type inputRequired struct {
	requests mcp.InputRequestMap
	state    string
}

func (*inputRequired) Error() string { return "input required" }

// approvalGate is the approval step of a call of t by subject in
// conversation ("" for none), run after its arguments passed their checks
// and before it is sent.
func (s *mcpServer) approvalGate(req *mcp.CallToolRequest, t *mcpTool, subject, conversation string) func(ctx context.Context, args string) error {
	return func(ctx context.Context, args string) error {
		if !t.NeedsApproval {
			return nil
		}
		name := t.name
		if s.opts.approve != nil {
			ok, err := s.opts.approve(ctx, ApprovalRequest{Subject: subject, Tool: name, Method: t.Method, Arguments: json.RawMessage(args)})
			if err != nil || !ok {
				return notApproved(name, err)
			}
			return nil
		}
		p := req.Params
		if p.RequestState != "" || p.InputResponses != nil {
			asked := approvalClaims{Subject: subject, Tool: name, Conversation: digest(conversation), Args: argumentsDigest(args)}
			if accepted(p.InputResponses) && s.guard.verifyApproval(p.RequestState, asked, time.Now()) {
				return nil
			}
			return notApproved(name, nil)
		}
		if !canElicit(req) {
			return noApproval(name, "no approval hook, and the client does not support elicitation")
		}
		ask := &mcp.ElicitParams{
			Mode:    "form",
			Message: fmt.Sprintf("Allow the call of %s? Arguments: %s", quote(name), args),
			RequestedSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"approve": map[string]any{"type": "boolean", "title": "Approve"}},
				"required":   []string{"approve"},
			},
		}
		return &inputRequired{
			requests: mcp.InputRequestMap{approvalInput: ask},
			state:    s.guard.signApproval(approvalClaims{Subject: subject, Tool: name, Conversation: digest(conversation), Args: argumentsDigest(args)}, time.Now().Add(approvalTTL)),
		}
	}
}

// canElicit reports whether the client of req answers form elicitation.
func canElicit(req *mcp.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// accepted reports whether the user accepted the approval: action accept,
// approve true.
func accepted(responses mcp.InputResponseMap) bool {
	r, ok := responses[approvalInput].(*mcp.ElicitResult)
	return ok && r.Action == "accept" && r.Content["approve"] == true
}

// approvalClaims is what an approval's state binds (docs/production.md,
// "Approvals"): the caller, the tool, the conversation's and the
// arguments' SHA-256 (of their canonical JSON), the expiry and a random
// nonce, which makes the state single-use.
type approvalClaims struct {
	Subject      string `json:"s"`
	Tool         string `json:"t"`
	Conversation string `json:"c"`
	Args         string `json:"a"`
	Expires      int64  `json:"e"`
	Nonce        string `json:"n"`
}

func argumentsDigest(args string) string {
	canonical := args
	if v, ok := decodeJSON(args); ok {
		canonical = encodeJSON(v)
	}
	return digest(canonical)
}

// digest is the base64url SHA-256 of s.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// signApproval is the state of an approval of c asked now: its claims,
// with a new nonce and expires, and their HMAC-SHA256, base64url, joined
// by a dot.
func (g *mcpGuard) signApproval(c approvalClaims, expires time.Time) string {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	c.Expires, c.Nonce = expires.Unix(), base64.RawURLEncoding.EncodeToString(nonce)
	b, _ := json.Marshal(c)
	payload := base64.RawURLEncoding.EncodeToString(b)
	return payload + "." + g.mac(payload)
}

// verifyApproval reports whether state is one this server signed for the
// claims of asked (caller, tool, conversation, arguments), has not expired
// and was not used before; it is used then. Used nonces are remembered in
// this process until they expire.
func (g *mcpGuard) verifyApproval(state string, asked approvalClaims, now time.Time) bool {
	payload, mac, ok := strings.Cut(state, ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(g.mac(payload))) {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	var c approvalClaims
	if err != nil || json.Unmarshal(b, &c) != nil || now.Unix() >= c.Expires || c.Nonce == "" {
		return false
	}
	if c.Subject != asked.Subject || c.Tool != asked.Tool || c.Conversation != asked.Conversation || c.Args != asked.Args {
		return false
	}
	return g.nonces.take(c.Nonce, now)
}

// usedNonces are the nonces of the approval states used, each remembered
// for approvalTTL after its use (a state expires at most approvalTTL after
// it was asked, so before that): in use order, which is the order they are
// forgotten in, so that a use drops only the expired front of the queue
// (O(1) amortized) under its own mutex, not the guard's.
type usedNonces struct {
	mu    sync.Mutex
	until map[string]time.Time // nonce: when it is forgotten
	queue []string             // the nonces of until, in use order
	head  int                  // queue[:head] are forgotten
}

// take reports whether nonce was not used before, remembering it.
func (u *usedNonces) take(nonce string, now time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	for u.head < len(u.queue) && !now.Before(u.until[u.queue[u.head]]) {
		delete(u.until, u.queue[u.head])
		u.queue[u.head] = ""
		u.head++
	}
	if u.head > 64 && u.head*2 >= len(u.queue) {
		u.queue, u.head = append([]string(nil), u.queue[u.head:]...), 0
	}
	if _, used := u.until[nonce]; used {
		return false
	}
	if u.until == nil {
		u.until = map[string]time.Time{}
	}
	u.until[nonce] = now.Add(approvalTTL)
	u.queue = append(u.queue, nonce)
	return true
}

func (g *mcpGuard) mac(payload string) string {
	h := hmac.New(sha256.New, g.secret)
	h.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
