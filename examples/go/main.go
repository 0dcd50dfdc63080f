// Command example plays a short conversation with the linkhub.v1 test API
// (e2e/proto/linkhub) through the generated executor, and prints what the
// model sees: the tools it is given, the results of its calls (ids as
// aliases), and the error a mistake of its own earns it.
//
// The calls are scripted; in an application they come from the model's
// response. Run the test server, then the example:
//
//	node ../../e2e/server/dist/main.js --port 8080 &
//	bash generate.sh && go run . 127.0.0.1:8080
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.com/aitools/e2e/gentools"
)

// functionCall is one tool call of the model: a name and JSON arguments.
type functionCall struct {
	Name, Arguments string
}

// workspace is the user's workspace: an id without alias_prefix stays a UUID.
const workspace = "5f0c1f7e-3b7a-4d2e-9a61-2c8e4b1d7a90"

func main() {
	addr := "127.0.0.1:8080"
	if len(os.Args) > 1 {
		addr = os.Args[1]
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials())) // addr: "127.0.0.1:8080"
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	executor := gentools.NewExecutor(conn) // one per conversation: it holds the aliases
	tools := gentools.AllTools()           // send Name, Description and Parameters to your provider

	fmt.Printf("tools the model is given (%d):\n", len(tools))
	for _, t := range tools {
		strict := ""
		if t.Strict {
			strict = " (strict)"
		}
		fmt.Printf("  %s%s: %s\n", t.Name, strict, t.Description)
	}

	calls := []functionCall{
		{"page_themes_create", args(map[string]any{
			"workspace_id": workspace, "name": "Spring", "background_color": "#ffeedd",
			"font": "Inter", "palette": []any{map[string]any{"key": "accent", "value": "#ff0066"}},
		})},
		{"links_create", args(map[string]any{
			"workspace_id": workspace, "target_url": "https://example.com/spring", "slug": "spring",
			"page_theme_id": "theme-1", "labels": []any{}, "title": "Spring sale", "expire_after": "86400s",
		})},
		{"links_create", args(map[string]any{
			"workspace_id": workspace, "target_url": "https://example.com/summer", "slug": "summer",
			"page_theme_id": "theme-1", "labels": []any{}, "title": nil, "expire_after": nil,
		})},
		{"links_list", args(map[string]any{"workspace_id": workspace, "page_theme_id": "theme-1"})},
		// The model's mistake: an alias it never saw.
		{"links_get", args(map[string]any{"id": "link-7"})},
	}
	ctx := context.Background()
	for _, call := range calls {
		fmt.Printf("\nmodel: %s %s\n", call.Name, call.Arguments)
		// for each function call the model makes:
		output, err := executor.Execute(ctx, call.Name, call.Arguments) // JSON, ids as aliases
		if err != nil {
			output = err.Error() // written for the model: a *gentools.ToolError, with Reason and Code
		}
		fmt.Printf("tool:  %s\n", output)
		var toolErr *gentools.ToolError
		if errors.As(err, &toolErr) {
			fmt.Printf("       (a ToolError: %s, %s)\n", toolErr.Reason, toolErr.Code)
		} else if err != nil {
			log.Fatalf("not a ToolError: %v", err)
		}
	}
}

// args writes a call's arguments as the model would: one JSON object.
func args(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	return string(b)
}
