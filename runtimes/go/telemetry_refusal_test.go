package aitools

// MCP calls refused before their RPC (DECISIONS34 D8), observed by the
// OpenTelemetry adapter on the SDK's in-memory span recorder: each is one
// span, ended, with the exact error.type of its reason, an error status,
// no rpc.response.status_code (nothing was sent), and the model's exact
// text. The rate, concurrency, conversation-full and backend-credentials
// refusals are in telemetry_test.go.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

// refusedCall is one refused tools/call: its client and arguments, made by
// a setup whose own calls (if any) succeed first.
type refusedCall struct {
	cs   *mcp.ClientSession
	tool string
	args any
	meta mcp.Meta
	text string // the refusal's text when the setup knows it, not the case
}

func TestTelemetryMCPRefusalSpans(t *testing.T) {
	conn, srv := startServer(t)
	client := aitestv1.NewAccountServiceClient(conn)
	rig := newTelemetryRig(t)
	observe := WithTelemetry(rig.telemetry)
	deny := WithApprove(func(context.Context, ApprovalRequest) (bool, error) { return false, nil })
	tenant := WithExtraProperties(MCPExtraProperty{Name: "tenant", Required: true})
	list := map[string]any{"count": 1, "contacts_per_account": 0}
	merge := json.RawMessage(mergeArguments)
	const minted = "AAAAAAAAAAAAAAAAAAAAAA" // a handle of the minted form, never made
	unknown := func(handle string) string {
		return `unknown or expired conversation "` + handle + `"; call again without "conversation" to start a new one`
	}
	// asCaller is a stateless (2026-07-28) client of token on a server of
	// the guarded tools behind bearer authorization.
	asCaller := func(t *testing.T, server *mcp.Server, token string) *mcp.ClientSession {
		return connectAs(t, serveAsCallers(t, server), "2026-07-28", token, nil)
	}
	bare := map[string]any{"ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0)}
	inSession := map[string]any{"ai_tools.aliases.resolved": int64(0), "ai_tools.aliases.registered": int64(0), "ai_tools.conversation.aliases": int64(0)}
	for _, c := range []struct {
		name   string
		setup  func(t *testing.T) refusedCall
		reason string
		text   string
		attrs  map[string]any // besides error.type: refused before its conversation, none
	}{
		{
			name: "missing scope",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{asCaller(t, newGuardedServer(client, observe), "carol-noscope"), "accounts_list", list, nil, ""}
			},
			reason: "unauthorized", text: `the call of "accounts_list" needs scope "accounts.read"`, attrs: bare,
		},
		{
			name: "required extra property missing",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe, tenant)), "accounts_list", list, nil, ""}
			},
			reason: "invalid-arguments", text: "invalid arguments, nothing was sent:\n- \"tenant\": missing required field", attrs: bare,
		},
		{
			name: "extra property not a string",
			setup: func(t *testing.T) refusedCall {
				args := map[string]any{"count": 1, "contacts_per_account": 0, "tenant": 7}
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe, tenant)), "accounts_list", args, nil, ""}
			},
			reason: "invalid-arguments", text: "invalid arguments, nothing was sent:\n- \"tenant\": must be a string", attrs: bare,
		},
		{
			name: "_meta handle not a string",
			setup: func(t *testing.T) refusedCall {
				meta := mcp.Meta{conversationMetaKey: 5}
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe)), "accounts_list", list, meta, ""}
			},
			reason: "invalid-arguments", text: "invalid arguments, nothing was sent:\n- \"" + conversationMetaKey + "\": must be a string", attrs: bare,
		},
		{
			name: "arguments the executor refuses",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe)), "accounts_list", map[string]any{"count": 1}, nil, ""}
			},
			reason: "invalid-arguments", text: "invalid arguments, nothing was sent:\n- \"contacts_per_account\": missing required field", attrs: inSession,
		},
		{
			name: "approval hook says no",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe, deny)), "accounts_merge", merge, nil, ""}
			},
			reason: "not-approved", text: deniedMerge, attrs: inSession,
		},
		{
			name: "no way to ask for an approval",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{connectInMemory(t, newGuardedServer(client, observe)), "accounts_merge", merge, nil, ""}
			},
			reason: "not-approved", text: noWayMerge, attrs: inSession,
		},
		{
			name: "unknown handle",
			setup: func(t *testing.T) refusedCall {
				return refusedCall{asCaller(t, newGuardedServer(client, observe), "alice"), "accounts_list", list, mcp.Meta{conversationMetaKey: minted}, ""}
			},
			reason: "conversation-expired", text: unknown(minted), attrs: bare,
		},
		{
			name: "another caller's handle",
			setup: func(t *testing.T) refusedCall {
				url := serveAsCallers(t, newGuardedServer(client, observe))
				alice := connectAs(t, url, "2026-07-28", "alice", nil)
				handle, _ := callTool(t, alice, "accounts_list", list, nil).Meta[conversationMetaKey].(string)
				if handle == "" {
					t.Fatal("alice's call has no handle")
				}
				return refusedCall{connectAs(t, url, "2026-07-28", "bob", nil), "accounts_list", list, mcp.Meta{conversationMetaKey: handle}, unknown(handle)}
			},
			reason: "conversation-expired", attrs: bare,
		},
		{
			name: "a store key for a handle",
			setup: func(t *testing.T) refusedCall {
				key := conversationKey(minted, "alice")
				return refusedCall{asCaller(t, newGuardedServer(client, observe), "bob"), "accounts_list", list, mcp.Meta{conversationMetaKey: key}, ""}
			},
			reason: "conversation-expired", text: unknown(conversationKey(minted, "alice")), attrs: bare,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			call := c.setup(t)
			if started, ended := len(rig.spans.Started()), len(rig.spans.Ended()); started != ended {
				t.Fatalf("setup: %d spans started, %d ended", started, ended)
			}
			seen, sent := len(rig.spans.Ended()), srv.calls.Load()
			res := callTool(t, call.cs, call.tool, call.args, call.meta)
			text := c.text
			if call.text != "" {
				text = call.text
			}
			if text == "" {
				t.Fatal("the case names no text")
			}
			wantResult(t, res, true, text)
			if srv.calls.Load() != sent {
				t.Error("the refused call was sent")
			}
			want := map[string]any{"error.type": c.reason}
			for k, v := range c.attrs {
				want[k] = v
			}
			method := listMethod
			if call.tool == "accounts_merge" {
				method = mergeCallMethod
			}
			wantSpan(t, rig.last(t, &seen), call.tool, method, want)
			if started, ended := len(rig.spans.Started()), len(rig.spans.Ended()); started != ended {
				t.Errorf("%d spans started, %d ended", started, ended)
			}
		})
	}
}
