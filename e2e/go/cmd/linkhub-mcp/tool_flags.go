package main

// The flags of the tool layer (issue 33 contract §5): approvals, identity
// to the backend, scopes, limits, audit, and TLS to the gRPC server.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"example.com/aitools/e2e/gentools"
)

// repeated is a flag given any number of times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

var (
	approveFlag        = flag.String("approve", "", "install an approval hook answering every approval: allow or deny (default: no hook)")
	approvalSecret     = flag.String("approval-secret", "", "the key signing the state of approvals asked by elicitation (default: random)")
	forwardClaims      = flag.String("forward-claims", "", "send claims to the gRPC server as metadata: key=claim,... (claim sub: the subject)")
	requiredScopes     repeated
	rateLimit          = flag.Int("rate-limit", 0, "calls per minute per subject (0: no limit)")
	maxConcurrentCalls = flag.Int("max-concurrent-calls", 0, "calls at once per conversation (0: the default, 16)")
	audit              = flag.Bool("audit", false, "write an audit record per call to stderr, one JSON object a line")
	grpcTLSCA          = flag.String("grpc-tls-ca", "", "call the gRPC server over TLS, trusting this CA (PEM file)")
	searchFirst        = flag.Bool("search-first", false, "serve the tools search-first: search_tools, the always-loaded tools and those found (docs/mcp.md)")
	alwaysLoaded       repeated
)

func init() {
	flag.Var(&requiredScopes, "required-scope", "a scope a tool needs: tool=scope (repeatable)")
	flag.Var(&alwaysLoaded, "always-loaded", "with --search-first, a tool listed from the start (repeatable)")
}

// toolOptions are the MCP options the tool flags ask for. An option the
// runtime refuses (it panics, e.g. a short --approval-secret) is an error.
func toolOptions() (opts []gentools.MCPOption, err error) {
	defer func() {
		if p := recover(); p != nil {
			opts, err = nil, fmt.Errorf("%v", p)
		}
	}()
	switch *approveFlag {
	case "":
	case "allow", "deny":
		allow := *approveFlag == "allow"
		opts = append(opts, gentools.WithApprove(func(context.Context, gentools.ApprovalRequest) (bool, error) { return allow, nil }))
	default:
		return nil, fmt.Errorf("--approve %q: use allow or deny", *approveFlag)
	}
	if *approvalSecret != "" {
		opts = append(opts, gentools.WithApprovalSecret([]byte(*approvalSecret)))
	}
	if *forwardClaims != "" {
		metadata := map[string]string{}
		for _, pair := range strings.Split(*forwardClaims, ",") {
			key, claim, ok := strings.Cut(pair, "=")
			if !ok || key == "" || claim == "" {
				return nil, fmt.Errorf("--forward-claims %q: write key=claim pairs, e.g. x-user-id=sub,x-tenant=tenant", *forwardClaims)
			}
			metadata[key] = claim
		}
		opts = append(opts, gentools.WithForwardIdentity(gentools.ForwardIdentity{Metadata: metadata}))
	}
	if len(requiredScopes) > 0 {
		scopes := map[string][]string{}
		for _, pair := range requiredScopes {
			tool, scope, ok := strings.Cut(pair, "=")
			if !ok || tool == "" || scope == "" {
				return nil, fmt.Errorf("--required-scope %q: write tool=scope, e.g. links_delete=links.delete", pair)
			}
			scopes[tool] = append(scopes[tool], scope)
		}
		opts = append(opts, gentools.WithRequiredScopes(scopes))
	}
	if *rateLimit != 0 {
		opts = append(opts, gentools.WithRateLimit(*rateLimit))
	}
	if *maxConcurrentCalls != 0 {
		opts = append(opts, gentools.WithMaxConcurrentCalls(*maxConcurrentCalls))
	}
	if *audit {
		opts = append(opts, gentools.WithAudit(gentools.NewJSONLinesAuditWriter(os.Stderr)))
	}
	if *searchFirst {
		opts = append(opts, gentools.WithSearchFirst(gentools.SearchFirst{Search: gentools.ToolSearchData, AlwaysLoaded: alwaysLoaded}))
	} else if len(alwaysLoaded) > 0 {
		return nil, fmt.Errorf("--always-loaded needs --search-first")
	}
	return opts, nil
}

// grpcCredentials are the transport credentials of the gRPC connection:
// TLS trusting --grpc-tls-ca, else none.
func grpcCredentials() (grpc.DialOption, error) {
	if *grpcTLSCA == "" {
		return grpc.WithTransportCredentials(insecure.NewCredentials()), nil
	}
	creds, err := credentials.NewClientTLSFromFile(*grpcTLSCA, "")
	if err != nil {
		return nil, fmt.Errorf("--grpc-tls-ca %s: %w", strconv.Quote(*grpcTLSCA), err)
	}
	return grpc.WithTransportCredentials(creds), nil
}
