//aitools:inline mcp

package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/grpc/metadata"
)

// ForwardIdentity says what of the verified caller goes to the gRPC server
// with each call, as request metadata. The client's bearer token never
// does (the MCP specification forbids passing it on), and nothing of it
// reaches a result.
type ForwardIdentity struct {
	// Metadata maps a metadata key to a claim name ("sub": the subject),
	// e.g. {"x-user-id": "sub", "x-tenant": "tenant"}. A claim the token
	// lacks is left out; one that is not a string, number or bool is sent
	// as JSON.
	Metadata map[string]string
	// BackendCredentials, when set, returns metadata to add to each call:
	// a backend token from an RFC 8693 token exchange, or the
	// application's own credentials ("authorization" allowed). identity is
	// nil without authorization. An error fails the call, nothing sent.
	BackendCredentials func(ctx context.Context, identity *Identity) (map[string]string, error)
}

// WithForwardIdentity sends the caller's identity to the gRPC server with
// each call (default: nothing). A key of f.Metadata that cannot be a gRPC
// metadata key panics, naming it.
func WithForwardIdentity(f ForwardIdentity) MCPOption {
	for key := range f.Metadata {
		if err := checkMetadataKey(key); err != nil {
			panic(err.Error())
		}
	}
	return func(o *mcpOptions) { o.forward = f }
}

// checkMetadataKey refuses a key gRPC would not send: characters other
// than a-z, 0-9, "-", "_" and "." (upper case is lowered), the reserved
// prefix "grpc-" and the binary suffix "-bin".
func checkMetadataKey(key string) error {
	k := strings.ToLower(key)
	bad := k == "" || strings.HasPrefix(k, "grpc-") || strings.HasSuffix(k, "-bin")
	for _, r := range k {
		bad = bad || !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}
	if bad {
		return fmt.Errorf("forward identity: metadata key %s cannot be sent; use letters, digits, \"-\", \"_\" or \".\", not the prefix \"grpc-\" nor the suffix \"-bin\"", quote(key))
	}
	return nil
}

// outgoing is ctx with the metadata of f for the caller id.
func (f ForwardIdentity) outgoing(ctx context.Context, id *Identity) (context.Context, error) {
	var kv []string
	if id != nil {
		for key, claim := range f.Metadata {
			if v, ok := claimText(id, claim); ok {
				kv = append(kv, strings.ToLower(key), v)
			}
		}
	}
	if f.BackendCredentials != nil {
		creds, err := f.BackendCredentials(ctx, id)
		if err != nil {
			return nil, err
		}
		for key, v := range creds {
			if err := checkMetadataKey(key); err != nil {
				return nil, err
			}
			kv = append(kv, strings.ToLower(key), v)
		}
	}
	if len(kv) == 0 {
		return ctx, nil
	}
	return metadata.AppendToOutgoingContext(ctx, kv...), nil
}

// claimText is the metadata value of a claim of id ("sub": the subject).
func claimText(id *Identity, claim string) (string, bool) {
	if claim == "sub" {
		return id.Subject, id.Subject != ""
	}
	v, ok := id.Claims[claim]
	if !ok || v == nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case bool, float64, float32, int, int64, json.Number:
		return fmt.Sprint(v), true
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}
