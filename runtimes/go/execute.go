package aitools

// A stand-in for what every generated file with executors declares
// (templates/go/executor.hbs): the tools of the test protos
// (e2e/vectors/proto/aitest/v1/vectors.proto, generated into internal/testpb
// by scripts/run.mjs). Not inlined.

import (
	"context"

	aitestv1 "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/internal/testpb/aitest/v1"
)

// Execute runs the auto-executor of toolName with the model's arguments,
// observed as each generated Execute<Tool> function is (Executor.observe).
func (e *Executor) Execute(ctx context.Context, toolName string, argsJSON string) (string, error) {
	return e.observe(ctx, toolName, func(ctx context.Context, e *Executor) (string, error) {
		return e.execute(ctx, toolName, argsJSON)
	})
}

func (e *Executor) execute(ctx context.Context, toolName string, argsJSON string) (string, error) {
	switch toolName {
	case "accounts_list":
		var req aitestv1.ListAccountsRequest
		if err := e.decode(toolName, argsJSON, &req, true); err != nil {
			return "", err
		}
		ctx, cancel := e.callContext(ctx, toolName)
		defer cancel()
		resp, err := aitestv1.NewAccountServiceClient(e.conn).ListAccounts(ctx, &req)
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		return e.finish(toolName, resp)
	case "accounts_merge":
		var req aitestv1.MergeAccountsRequest
		if err := e.decode(toolName, argsJSON, &req, true); err != nil {
			return "", err
		}
		if err := e.approve(ctx, toolName, argsJSON); err != nil {
			return "", err
		}
		ctx, cancel := e.callContext(ctx, toolName)
		defer cancel()
		resp, err := aitestv1.NewAccountServiceClient(e.conn).MergeAccounts(ctx, &req)
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		return e.finish(toolName, resp)
	case "accounts_watch":
		var req aitestv1.WatchAccountsRequest
		if err := e.decode(toolName, argsJSON, &req, false); err != nil {
			return "", err
		}
		ctx, cancel := e.callContext(ctx, toolName)
		defer cancel()
		stream, err := aitestv1.NewAccountServiceClient(e.conn).WatchAccounts(ctx, &req)
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		return collect(e, toolName, stream.Recv)
	case "fixup_strict", "fixup_loose":
		var req aitestv1.FixupRequest
		if err := e.decode(toolName, argsJSON, &req, toolName == "fixup_strict"); err != nil {
			return "", err
		}
		ctx, cancel := e.callContext(ctx, toolName)
		defer cancel()
		resp, err := aitestv1.NewFixupServiceClient(e.conn).EchoLoose(ctx, &req)
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		return e.finish(toolName, resp)
	}
	return "", e.unknownTool(toolName)
}
