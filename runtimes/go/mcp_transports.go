//aitools:inline mcp

package aitools

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// NewMCPHTTPHandler serves server over streamable HTTP in both protocol
// revisions: a request of 2026-07-28 or later (its MCP-Protocol-Version
// header) is stateless, its conversation a handle the client passes back;
// older clients get sessions (Mcp-Session-Id), one conversation each,
// closed after DefaultConversationTTL idle.
func NewMCPHTTPHandler(server *mcp.Server) http.Handler {
	getServer := func(*http.Request) *mcp.Server { return server }
	sessions := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute})
	stateless := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{Stateless: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The call of this request ends with it: a client that goes away
		// cancels its gRPC call (the SDK does not, for stateless requests).
		id := strconv.FormatUint(httpCallID.Add(1), 10)
		r.Header.Set(httpCallHeader, id)
		httpCalls.Store(id, r.Context())
		defer httpCalls.Delete(id)
		if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// httpCalls holds the context of each HTTP request in flight, by the id
// NewMCPHTTPHandler puts in its header httpCallHeader (replacing any value
// the client sent).
var (
	httpCalls  sync.Map
	httpCallID atomic.Uint64
)

const httpCallHeader = "Ai-Tools-Http-Call"

// httpRequestDone is the context of the HTTP request that carries a call,
// nil when it came another way.
func httpRequestDone(req *mcp.CallToolRequest) context.Context {
	if req.Extra == nil || req.Extra.Header == nil {
		return nil
	}
	if ctx, ok := httpCalls.Load(req.Extra.Header.Get(httpCallHeader)); ok {
		return ctx.(context.Context)
	}
	return nil
}

// inProcessCalls holds the context of each call in flight to an in-process
// server, so that the implementation sees its values (the extra
// properties among them).
var (
	inProcessCalls  sync.Map
	inProcessCallID atomic.Uint64
)

const inProcessCallKey = "ai-tools-in-process-call"

// serveInProcess serves the services register adds on an in-memory
// listener and returns a connection to them: the tools call an
// implementation through the same gRPC path as a remote service.
func serveInProcess(register func(*grpc.Server)) *grpc.ClientConn {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(
		grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
			defer recoverInProcess(&err)
			return handler(callerContext(ctx), req)
		}),
		grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
			defer recoverInProcess(&err)
			return handler(srv, callerStream{ss})
		}),
	)
	register(srv)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///in-process",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			ctx, done := withCallerContext(ctx)
			defer done()
			return invoker(ctx, method, req, reply, cc, opts...)
		}),
		grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
			ctx, done := withCallerContext(ctx)
			context.AfterFunc(ctx, done)
			return streamer(ctx, desc, cc, method, opts...)
		}),
	)
	if err != nil {
		panic("in-process connection: " + err.Error())
	}
	return conn
}

// recoverInProcess turns a panic of the implementation into an INTERNAL
// status: it would otherwise end the process that serves the tools.
func recoverInProcess(err *error) {
	if r := recover(); r != nil {
		*err = status.Errorf(codes.Internal, "panic: %v", r)
	}
}

// withCallerContext keeps ctx for the server side of an in-process call.
func withCallerContext(ctx context.Context) (context.Context, func()) {
	id := strconv.FormatUint(inProcessCallID.Add(1), 10)
	inProcessCalls.Store(id, ctx)
	return metadata.AppendToOutgoingContext(ctx, inProcessCallKey, id), func() { inProcessCalls.Delete(id) }
}

// callerContext is the server's ctx, which also reads the caller's values.
func callerContext(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	if ids := md.Get(inProcessCallKey); len(ids) == 1 {
		if caller, ok := inProcessCalls.Load(ids[0]); ok {
			return callerValues{ctx, caller.(context.Context)}
		}
	}
	return ctx
}

// callerValues is a context whose values are its own, else the caller's.
type callerValues struct {
	context.Context
	caller context.Context
}

func (c callerValues) Value(key any) any {
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.caller.Value(key)
}

// callerStream is a server stream whose context reads the caller's values.
type callerStream struct{ grpc.ServerStream }

func (s callerStream) Context() context.Context { return callerContext(s.ServerStream.Context()) }
