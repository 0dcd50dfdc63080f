// Package aitools is the runtime of the Go files protoc-gen-ai-tools writes:
// the alias manager, the argument fix-up, the executor helpers and ToolError
// (docs/runtime.md is the contract; e2e/vectors pins it).
//
// It is not imported by generated code. At build time the generator inlines
// the files of this package that carry an "//aitools:inline <feature>" line
// into each ai_tools.gen.go, so that file still needs only grpc and
// protobuf. Lines between "//aitools:if <feature>" and "//aitools:end" are
// left out of files without that feature ("//aitools:if !<feature>": with
// it): "aliases" (some tool involves aliases), "executors" (some tool has
// auto_execute), "streaming" (some auto-executed tool is server-streaming),
// "providers" (the provider functions, providers.go, in every main file),
// "connect" (ForwardToConnect...Client's calls, mcp_connect.go, in an MCP
// file generated with go_connect=true), "toolsearch" (option tool_search:
// ToolSearch and RankTools, tool_search.go, and in a file with executors
// the deferred tools, deferred_tools.go and deferred_providers.go;
// docs/tool-search.md),
// "mcp" (the MCP file,
// ai_tools_mcp.gen.go, beside it: the files marked mcp, and those of the
// other features the main file lacks). ConversationStore,
// MemoryConversationStore and ConversationExecutor keep conversations in a
// store (docs/store.md); the Redis store is the module redisstore beside
// this one, which generated code does not import. This package's own
// tables (tables.go) and AgentTool (agent_tool.go) are stand-ins for what
// the generated file declares; the tests fill the tables in.
//
// The MCP part (mcp_*.go, docs/mcp.md) serves the tools on a server of the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): addMCPTools
// registers the generated per-service tool lists with the options
// (WithExtraProperties, WithConversationStore, WithHandleArgument), each
// call runs through the executor helpers with its conversation's aliases,
// loaded from the ConversationStore, NewMCPHTTPHandler serves both protocol
// revisions over HTTP, and serveInProcess serves an implementation on
// bufconn.
package aitools
