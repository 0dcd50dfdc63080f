package mcphttp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewMCPHTTPHandler serves server over streamable HTTP in both protocol
// revisions, as the generated NewMCPHTTPHandler does (2026-07-28 requests
// stateless, older clients in sessions), each request passing the gate of
// ServeMCPHTTP first: Host and Origin allow-lists, body limit, bearer
// token, per-tool scopes, sessions bound to their subject. With Auth the
// protected resource metadata is served at its well-known paths: mount
// the handler at "/" or at those paths too. Its address being the
// application's, a host that is not loopback is not refused here; options
// that cannot work (Auth without PublicURL) panic. Without options it is
// the gate's defaults (loopback Host and Origin, 4 MiB bodies, no token);
// without AllowedHosts or AllowedOrigins those lists are the loopback ones
// plus the PublicURL's host and origin.
func NewMCPHTTPHandler(server *mcp.Server, opts ...HTTPOptions) http.Handler {
	switch len(opts) {
	case 0:
		return newHTTPGate(context.Background(), server, HTTPOptions{}.withDefaults(), "", true)
	case 1:
	default:
		panic("mcphttp.NewMCPHTTPHandler: pass one HTTPOptions at most")
	}
	o := opts[0]
	if err := checkHTTPOptions(o, "", false); err != nil {
		panic("mcphttp.NewMCPHTTPHandler: " + err.Error())
	}
	// Its address being unknown, the default lists are the loopback ones
	// plus the PublicURL's host and origin, as in the other runtimes.
	return newHTTPGate(context.Background(), server, o.withDefaults(), "", true)
}

// ServeMCPHTTP serves server's tools over streamable HTTP at addr
// (host:port; port 0 takes a free one) on the endpoint o.Path ("/mcp")
// until ctx is done, behind the gate of HTTPOptions (docs/production.md).
// It refuses, before listening, options that cannot serve safely: Auth
// without PublicURL, or a host that is not loopback (0.0.0.0 and "" are
// not) without Auth or AllowUnauthenticated. Connections: headers read
// within 10 s, idle ones closed after 5 s, at most o.MaxConnections open.
// When ctx is done new requests get 503 shutting_down, the calls in flight
// have o.ShutdownGrace to finish, and it returns nil.
func ServeMCPHTTP(ctx context.Context, server *mcp.Server, addr string, o HTTPOptions) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("listen address " + quote(addr) + ` is not host:port, e.g. "127.0.0.1:8080"`)
	}
	shown := host
	if shown == "" {
		shown = "0.0.0.0"
	}
	if err := checkHTTPOptions(o, shown, true); err != nil {
		return err
	}
	o = o.withDefaults()
	gate := newHTTPGate(ctx, server, o, o.Path, isLoopbackHost(host))
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: gate, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(newConnLimit(lis, o.MaxConnections)) }()
	if o.Listening != nil {
		o.Listening(lis.Addr())
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	gate.drain()
	grace, cancel := context.WithTimeout(context.Background(), o.ShutdownGrace)
	defer cancel()
	if srv.Shutdown(grace) != nil {
		_ = srv.Close()
	}
	<-served
	return nil
}
