package gentools

// The approvals of the golden generated with tools=all,mcp=true
// (testdata/protos/approvals): the executor asks its Approve hook about
// the unannotated method that is not read-only (RenameDoc), and runs the
// read-only ones (GetDoc by its name, CountDocs by its idempotency_level)
// and the auto-executed docs_create without asking; without a hook the
// call is refused and nothing reaches the server. Over MCP, docs_archive
// (annotated, no auto_execute) is asked about too, and the tools list
// their required scopes.

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"

	"example.com/aitools/testgo/internal/testkit"
	approvalsv1 "example.com/aitools/testgo/pb/approvals/v1"
)

type docServer struct {
	approvalsv1.UnimplementedDocServiceServer
	mu       sync.Mutex
	received []string // the methods called
}

func (s *docServer) record(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received = append(s.received, method)
}

func (s *docServer) GetDoc(_ context.Context, req *approvalsv1.GetDocRequest) (*approvalsv1.Doc, error) {
	s.record("GetDoc")
	return &approvalsv1.Doc{Id: req.DocId}, nil
}

func (s *docServer) RenameDoc(_ context.Context, req *approvalsv1.RenameDocRequest) (*approvalsv1.Doc, error) {
	s.record("RenameDoc")
	return &approvalsv1.Doc{Id: req.DocId, Title: req.Title}, nil
}

func (s *docServer) CountDocs(context.Context, *approvalsv1.CountDocsRequest) (*approvalsv1.CountDocsResponse, error) {
	s.record("CountDocs")
	return &approvalsv1.CountDocsResponse{Count: 1}, nil
}

func (s *docServer) CreateDoc(_ context.Context, req *approvalsv1.CreateDocRequest) (*approvalsv1.Doc, error) {
	s.record("CreateDoc")
	return &approvalsv1.Doc{Id: testkit.UUID(1), Title: req.Title}, nil
}

func (s *docServer) ArchiveDoc(_ context.Context, req *approvalsv1.ArchiveDocRequest) (*approvalsv1.Doc, error) {
	s.record("ArchiveDoc")
	return &approvalsv1.Doc{Id: req.DocId, Archived: true}, nil
}

func TestExecutorAsksForApprovals(t *testing.T) {
	ctx := context.Background()
	srv := &docServer{}
	conn := testkit.Serve(t, func(s *grpc.Server) { approvalsv1.RegisterDocServiceServer(s, srv) })
	e := NewExecutor(conn)

	if _, err := e.Execute(ctx, "docs_create", `{"title":"a"}`); err != nil {
		t.Fatal(err)
	}
	rename := `{"doc_id":"doc-1","title":"b"}`
	_, err := e.Execute(ctx, "aitools_test_approvals_v1_DocService_RenameDoc", rename)
	var toolErr *ToolError
	want := `the call of "aitools_test_approvals_v1_DocService_RenameDoc" needs an approval and none could be asked (no approval hook); nothing was sent`
	if !errors.As(err, &toolErr) || err.Error() != want {
		t.Fatalf("without a hook: %v, want %s", err, want)
	}

	var asked []ApprovalRequest
	e.Approve = func(_ context.Context, r ApprovalRequest) (bool, error) {
		asked = append(asked, r)
		return len(asked) > 1, nil // no, then yes
	}
	if _, err := e.Execute(ctx, "aitools_test_approvals_v1_DocService_RenameDoc", rename); err == nil ||
		err.Error() != `the call of "aitools_test_approvals_v1_DocService_RenameDoc" was not approved; nothing was sent` {
		t.Fatalf("denied: %v", err)
	}
	if _, err := e.Execute(ctx, "aitools_test_approvals_v1_DocService_RenameDoc", rename); err != nil {
		t.Fatalf("approved: %v", err)
	}
	for _, tool := range []string{"aitools_test_approvals_v1_DocService_GetDoc", "aitools_test_approvals_v1_DocService_CountDocs"} {
		args := map[bool]string{true: `{"doc_id":"doc-1"}`, false: `{}`}[tool != "aitools_test_approvals_v1_DocService_CountDocs"]
		if _, err := e.Execute(ctx, tool, args); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	if len(asked) != 2 || asked[1].Tool != "aitools_test_approvals_v1_DocService_RenameDoc" ||
		asked[1].Method != "/aitools.test.approvals.v1.DocService/RenameDoc" || string(asked[1].Arguments) != rename {
		t.Errorf("asked %+v", asked)
	}
	if got := []string{"CreateDoc", "RenameDoc", "GetDoc", "CountDocs"}; !slices.Equal(srv.received, got) {
		t.Errorf("the server received %v, want %v", srv.received, got)
	}
}

func TestMCPToolsAskAndListScopes(t *testing.T) {
	ctx := context.Background()
	srv := &docServer{}
	server := mcp.NewServer(&mcp.Implementation{Name: "approvals", Version: "1.0.0"}, nil)
	var asked []string
	RegisterDocServiceHandler(server, srv, WithApprove(func(_ context.Context, r ApprovalRequest) (bool, error) {
		asked = append(asked, r.Tool)
		return true, nil
	}))
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

	for _, c := range []struct{ tool, args string }{
		{"docs_create", `{"title":"a"}`},
		{"docs_archive", `{"doc_id":"doc-1"}`},
		{"aitools_test_approvals_v1_DocService_GetDoc", `{"doc_id":"doc-1"}`},
		{"aitools_test_approvals_v1_DocService_RenameDoc", `{"doc_id":"doc-1","title":"b"}`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if res.IsError {
			t.Fatalf("%s: %s", c.tool, res.Content[0].(*mcp.TextContent).Text)
		}
	}
	if want := []string{"docs_archive", "aitools_test_approvals_v1_DocService_RenameDoc"}; !slices.Equal(asked, want) {
		t.Errorf("asked about %v, want %v", asked, want)
	}
	scopes := MCPRequiredScopes(server)
	if !slices.Equal(scopes["docs_archive"], []string{"docs.archive", "docs.write"}) ||
		!slices.Equal(scopes["docs_create"], []string{"docs.write"}) ||
		len(scopes["aitools_test_approvals_v1_DocService_GetDoc"]) != 0 {
		t.Errorf("required scopes %v", scopes)
	}
}
