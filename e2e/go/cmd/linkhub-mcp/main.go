// Command linkhub-mcp serves the tools of the test API (e2e/proto/linkhub)
// over MCP with the generated gentools/ai_tools_mcp.gen.go, forwarding each
// call to a linkhub.v1 gRPC server (e2e/server):
//
//	linkhub-mcp --grpc 127.0.0.1:8080                 # stdio
//	linkhub-mcp --grpc 127.0.0.1:8080 --http 3000     # streamable HTTP on 127.0.0.1:3000/mcp
//	linkhub-mcp --grpc 127.0.0.1:8080 --http 0 --redis 127.0.0.1:6379
//	                                                  # conversations in Redis, shared by instances
//
// Over HTTP it serves both protocol revisions (2025-11-25 sessions,
// 2026-07-28 stateless with conversation handles), prints
// "listening http://<host:port>/mcp" once it accepts connections (--http 0
// takes a free port) and, on SIGINT or SIGTERM, refuses new requests and
// lets the calls in flight finish. The HTTP gate's flags (http_flags.go):
//
//	linkhub-mcp --grpc 127.0.0.1:8080 --http 0 --public-url https://mcp.example.test/mcp \
//	    --auth-issuer https://issuer.example.test --auth-jwks-url http://127.0.0.1:9000/jwks.json --auth-scopes links.read
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

func main() {
	grpcAddr := flag.String("grpc", "", "the linkhub.v1 gRPC server, host:port (required)")
	httpAddr := flag.String("http", "", "serve streamable HTTP on this port or host:port instead of stdio (0: a free port)")
	handleArgument := flag.Bool("handle-argument", false, `add the argument "conversation" to every tool, for stateless clients that cannot set _meta`)
	redisAddr := flag.String("redis", "", "keep the conversations in this Redis server, host:port (default: in memory)")
	flag.Parse()
	if *grpcAddr == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: linkhub-mcp --grpc host:port [--http port] [--handle-argument] [--redis host:port] [flags; -h lists them]")
		os.Exit(2)
	}
	if err := run(*grpcAddr, *httpAddr, *redisAddr, *handleArgument); err != nil {
		fmt.Fprintln(os.Stderr, "linkhub-mcp:", err)
		os.Exit(1)
	}
}

func run(grpcAddr, httpAddr, redisAddr string, handleArgument bool) error {
	creds, err := grpcCredentials()
	if err != nil {
		return err
	}
	conn, err := grpc.NewClient(grpcAddr, creds)
	if err != nil {
		return err
	}
	defer conn.Close()

	server := mcp.NewServer(&mcp.Implementation{Name: "linkhub", Version: "1.0.0"}, nil)
	opts, err := toolOptions()
	if err != nil {
		return err
	}
	if handleArgument {
		opts = append(opts, gentools.WithHandleArgument())
	}
	if redisAddr != "" {
		client := redis.NewClient(&redis.Options{Addr: redisAddr})
		defer client.Close()
		opts = append(opts, gentools.WithConversationStore(redisstore.New(client, redisstore.Options{})))
	}
	gentools.ForwardToExportServiceClient(server, linkhubv1.NewExportServiceClient(conn), opts...)
	gentools.ForwardToLinkServiceClient(server, linkhubv1.NewLinkServiceClient(conn), opts...)
	gentools.ForwardToOperationsClient(server, longrunningpb.NewOperationsClient(conn), opts...)
	gentools.ForwardToPageThemeServiceClient(server, linkhubv1.NewPageThemeServiceClient(conn), opts...)
	gentools.ForwardToSampleServiceClient(server, linkhubv1.NewSampleServiceClient(conn), opts...)
	gentools.ForwardToWorkflowServiceClient(server, linkhubv1.NewWorkflowServiceClient(conn), opts...)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if httpAddr == "" {
		return server.Run(ctx, gentools.NewMCPStdioTransport())
	}
	return serveHTTP(ctx, server, httpAddr)
}
