package main

// The flags of the HTTP gate (issue 33 contract §5): authorization, Host
// and Origin allow-lists, body limit, shutdown grace.

import (
	"context"
	"flag"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mcphttp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/aitools/e2e/gentools"
)

var (
	bindHost             = flag.String("host", "127.0.0.1", "the address --http listens on when it gives a port alone")
	publicURL            = flag.String("public-url", "", "the URL clients use, e.g. https://tools.example.com/mcp (required with --auth-issuer)")
	authIssuer           = flag.String("auth-issuer", "", "verify bearer JWTs of this issuer (iss); the audience is --public-url")
	authJWKSURL          = flag.String("auth-jwks-url", "", "the issuer's JWKS (default: the jwks_uri of its metadata)")
	authScopes           = flag.String("auth-scopes", "", "scopes every request's token must hold: a,b")
	allowUnauthenticated = flag.Bool("allow-unauthenticated", false, "serve a non-loopback --host without --auth-issuer")
	maxBodyBytes         = flag.Int64("max-body-bytes", 0, "the largest request body (default 4 MiB)")
	shutdownGraceMS      = flag.Int("shutdown-grace-ms", 0, "how long calls in flight may finish on SIGTERM (default 10000)")
	allowedOrigins       repeated
	allowedHosts         repeated
)

func init() {
	flag.Var(&allowedOrigins, "allowed-origin", "an Origin served, e.g. https://app.example.com (repeatable; default: --public-url's and loopback ones)")
	flag.Var(&allowedHosts, "allowed-host", "a Host header served, host or host:port (repeatable; default: loopback names and --public-url's)")
}

// serveHTTP serves server at httpAddr (a port, or host:port) with the gate
// the flags configure until ctx is done; it prints
// "listening http://<host:port>/mcp" once it accepts connections.
func serveHTTP(ctx context.Context, server *mcp.Server, httpAddr string) error {
	if !strings.Contains(httpAddr, ":") {
		httpAddr = net.JoinHostPort(*bindHost, httpAddr)
	}
	o := mcphttp.HTTPOptions{
		PublicURL:            *publicURL,
		AllowUnauthenticated: *allowUnauthenticated,
		AllowedHosts:         allowedHosts,
		AllowedOrigins:       allowedOrigins,
		MaxBodyBytes:         *maxBodyBytes,
		ShutdownGrace:        time.Duration(*shutdownGraceMS) * time.Millisecond,
		ToolScopes:           gentools.MCPRequiredScopes(server),
		Listening:            func(addr net.Addr) { fmt.Printf("listening http://%s/mcp\n", addr) },
	}
	if *authIssuer != "" {
		o.Auth = &mcphttp.AuthOptions{Issuer: *authIssuer, JWKSURL: *authJWKSURL}
		if *authScopes != "" {
			o.Auth.Scopes = strings.Split(*authScopes, ",")
		}
	}
	return mcphttp.ServeMCPHTTP(ctx, server, httpAddr, o)
}
