package gentools

// The generated MCP file on a real go-sdk server and client: both services
// registered in process (RegisterNoteServiceHandler on bufconn), tools
// listed in name order with their output schemas and annotations, the
// tools only MCP executes registering their responses' ids (the init
// entries), a stream wrapped as {"messages": […]}, a Timestamp as
// {"value": …}, and isError results.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/timestamppb"

	mcpdemov1 "example.com/aitools/testgo/pb/mcpdemo/v1"
)

func uuid(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }

type noteServer struct {
	mcpdemov1.UnimplementedNoteServiceServer
	mcpdemov1.UnimplementedTagServiceServer
}

func (noteServer) CreateNote(_ context.Context, req *mcpdemov1.CreateNoteRequest) (*mcpdemov1.Note, error) {
	return &mcpdemov1.Note{Id: uuid(1), Text: req.Text, Views: 1 << 40}, nil
}

func (noteServer) GetNote(_ context.Context, req *mcpdemov1.GetNoteRequest) (*mcpdemov1.Note, error) {
	if req.NoteId != uuid(1) {
		return nil, status.Errorf(codes.NotFound, "note %s not found", req.NoteId)
	}
	return &mcpdemov1.Note{Id: req.NoteId}, nil
}

func (noteServer) PutNote(_ context.Context, req *mcpdemov1.Note) (*mcpdemov1.Note, error) {
	return req, nil
}

// WatchNotes takes the stream interface protoc-gen-go-grpc writes per
// method: this case's gRPC code is generated without generic streams
// (scripts/go-test.mjs), as releases before 1.5 wrote it.
func (noteServer) WatchNotes(req *mcpdemov1.WatchNotesRequest, stream mcpdemov1.NoteService_WatchNotesServer) error {
	for i := range int(req.Count) {
		if err := stream.Send(&mcpdemov1.Note{Id: uuid(100 + i)}); err != nil {
			return err
		}
	}
	return nil
}

func (noteServer) ListTags(context.Context, *emptypb.Empty) (*mcpdemov1.ListTagsResponse, error) {
	return &mcpdemov1.ListTagsResponse{Tags: []*mcpdemov1.Tag{{Id: uuid(7), Name: "red"}}}, nil
}

func (noteServer) Now(context.Context, *emptypb.Empty) (*timestamppb.Timestamp, error) {
	return timestamppb.New(time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC)), nil
}

func TestMCPFile(t *testing.T) {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "mcpdemo", Version: "1.0.0"}, nil)
	// The tools without auto_execute need an approval (docs/mcp.md,
	// "Approvals"): the hook approves each, remembering what it was asked.
	var asked []string
	approve := WithApprove(func(_ context.Context, r ApprovalRequest) (bool, error) {
		asked = append(asked, r.Tool+" "+r.Method+" "+string(r.Arguments))
		return true, nil
	})
	RegisterNoteServiceHandler(server, noteServer{}, approve)
	RegisterTagServiceHandler(server, noteServer{}, approve)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		annotations, _ := json.Marshal(tool.Annotations)
		// Every hint, from the method's kind and its idempotency_level
		// (CONTRACT31 H): Create additive, Get/List/Watch read-only, Put and
		// Now destructive, Put idempotent by its level; openWorld false.
		hints := func(readOnly, destructive, idempotent bool) string {
			return fmt.Sprintf(`{"destructiveHint":%t,"idempotentHint":%t,"openWorldHint":false,"readOnlyHint":%t}`, destructive, idempotent, readOnly)
		}
		want := map[string]string{
			"notes_create": hints(false, false, false),
			"notes_get":    hints(true, false, true),
			"notes_put":    hints(false, true, true),
			"notes_watch":  hints(true, false, true),
			"tags_list":    hints(true, false, true),
			"tags_now":     hints(false, true, false),
		}[tool.Name]
		if string(annotations) != want || tool.OutputSchema == nil {
			t.Errorf("%s: annotations %s, output schema %v", tool.Name, annotations, tool.OutputSchema)
		}
	}
	if strings.Join(names, " ") != "notes_create notes_get notes_put notes_watch tags_list tags_now" {
		t.Fatalf("tools %v", names)
	}

	call := func(name, args string) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError {
			a, _ := json.Marshal(res.StructuredContent)
			var v any
			_ = json.Unmarshal([]byte(text), &v)
			b, _ := json.Marshal(v)
			if string(a) != string(b) {
				t.Errorf("%s: structuredContent %s, text %s", name, a, text)
			}
		}
		return text, res.IsError
	}
	for _, c := range []struct{ tool, args, want string }{
		{"notes_create", `{"text":"hi"}`, `{"id":"note-1","text":"hi","views":"1099511627776"}`},
		{"notes_get", `{"note_id":"note-1"}`, `{"id":"note-1","text":"","views":"0"}`},
		{"tags_list", `{}`, `{"tags":[{"id":"tag-1","name":"red"}]}`},
		{"notes_put", `{"id":"note-1","text":"x"}`, `{"id":"note-1","text":"x","views":"0"}`},
		{"notes_watch", `{"count":2}`, `{"messages":[{"id":"note-2","text":"","views":"0"},{"id":"note-3","text":"","views":"0"}]}`},
		{"tags_now", `{}`, `{"value":"2026-07-28T00:00:00Z"}`},
	} {
		if got, isError := call(c.tool, c.args); isError || got != c.want {
			t.Errorf("%s: %s (isError %v); want %s", c.tool, got, isError, c.want)
		}
	}
	if got, isError := call("notes_get", `{"note_id":"note-3"}`); !isError || got != `rpc error: code = NotFound desc = note note-3 not found` {
		t.Errorf("server error: %s", got)
	}
	if got, isError := call("notes_get", `{"note_id":"note-9"}`); !isError || got != "invalid arguments, nothing was sent:\n- \"note_id\": unknown alias \"note-9\"; valid note aliases: note-1, note-2, note-3" {
		t.Errorf("unknown alias: %s", got)
	}
	// Asked about the three tools without auto_execute, with the model's
	// arguments (aliases); never about notes_create, notes_get, tags_now.
	want := []string{
		`tags_list /aitools.test.mcpdemo.v1.TagService/ListTags {}`,
		`notes_put /aitools.test.mcpdemo.v1.NoteService/PutNote {"id":"note-1","text":"x"}`,
		`notes_watch /aitools.test.mcpdemo.v1.NoteService/WatchNotes {"count":2}`,
	}
	if strings.Join(asked, "\n") != strings.Join(want, "\n") {
		t.Errorf("approvals asked:\n%s\nwant:\n%s", strings.Join(asked, "\n"), strings.Join(want, "\n"))
	}
}
