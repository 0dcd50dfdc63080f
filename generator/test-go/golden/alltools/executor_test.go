package gentools

// The tools of the golden generated with tools=all (testdata/protos/alltools)
// run against an in-process gRPC server on a real socket: unannotated
// methods are executed under their derived names, the shortened one too,
// a server stream is collected, and ids are aliased as for annotated tools.

import (
	"context"
	"encoding/json"
	"net"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"example.com/aitools/testgo/internal/testkit"
	alltoolsv1 "example.com/aitools/testgo/pb/alltools/v1"
)

type noteServer struct {
	alltoolsv1.UnimplementedNoteServiceServer
	alltoolsv1.UnimplementedContractLifecycleManagementAndRenewalNotificationServiceServer
	mu    sync.Mutex
	notes []*alltoolsv1.Note
	asked []string // the ids GetNote and RenewContractBeforeExpiry received
	tags  []string // the keys of the Structs Tag received
}

func (s *noteServer) CreateNote(_ context.Context, req *alltoolsv1.CreateNoteRequest) (*alltoolsv1.Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := &alltoolsv1.Note{Id: testkit.UUID(len(s.notes) + 1), Text: req.Text}
	s.notes = append(s.notes, n)
	return n, nil
}

func (s *noteServer) GetNote(_ context.Context, req *alltoolsv1.GetNoteRequest) (*alltoolsv1.Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, req.Id)
	return &alltoolsv1.Note{Id: req.Id, Text: "found"}, nil
}

func (s *noteServer) ListNotes(context.Context, *emptypb.Empty) (*alltoolsv1.ListNotesResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &alltoolsv1.ListNotesResponse{Notes: s.notes}, nil
}

func (s *noteServer) WatchNotes(req *alltoolsv1.WatchNotesRequest, stream grpc.ServerStreamingServer[alltoolsv1.Note]) error {
	for i := int32(1); i <= req.GetLimit(); i++ {
		if err := stream.Send(&alltoolsv1.Note{Id: testkit.UUID(100 + int(i)), Text: "watched"}); err != nil {
			return err
		}
	}
	return nil
}

func (s *noteServer) Tag(_ context.Context, req *structpb.Struct) (*alltoolsv1.Ack, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range req.Fields {
		s.tags = append(s.tags, k)
	}
	return &alltoolsv1.Ack{Ok: true}, nil
}

func (s *noteServer) RenewContractBeforeExpiry(_ context.Context, req *alltoolsv1.GetNoteRequest) (*alltoolsv1.Ack, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, req.Id)
	return &alltoolsv1.Ack{Ok: true}, nil
}

func startNotes(t *testing.T) (*Executor, *noteServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	s := &noteServer{}
	alltoolsv1.RegisterNoteServiceServer(srv, s)
	alltoolsv1.RegisterContractLifecycleManagementAndRenewalNotificationServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return NewExecutor(conn), s
}

func mustExecute(t *testing.T, e *Executor, tool, args string) string {
	t.Helper()
	out, err := e.Execute(context.Background(), tool, args)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return out
}

func TestAllToolsListsUnannotatedMethods(t *testing.T) {
	var names []string
	for _, tool := range AllTools() {
		names = append(names, tool.Name)
	}
	want := []string{
		"aitools_test_alltools_v1_NoteService_CreateNote",
		"aitools_test_alltools_v1_NoteService_GetNote",
		"aitools_test_alltools_v1_NoteService_Tag",
		"aitools_test_alltools_v1_NoteService_WatchNotes",
		"gj9h57nl1z_RenewalNotificationService_RenewContractBeforeExpiry",
		"notes_list",
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("AllTools names = %q, want %q", names, want)
	}
	e, _ := startNotes(t)
	for _, name := range []string{
		"aitools_test_alltools_v1_NoteService_SyncNotes",
		"aitools_test_alltools_v1_NoteService_ImportNotes",
		"aitools_test_alltools_v1_NoteService_Purge",
		"aitools_test_alltools_v1_AdminService_Reset",
	} {
		if e.CanExecute(name) {
			t.Errorf("CanExecute(%q) = true for a method that is not a tool", name)
		}
	}
}

func TestDerivedToolsExecute(t *testing.T) {
	e, s := startNotes(t)
	// Under tools=all an unannotated method that is not read-only asks for
	// an approval (unannotated_tools=read-only-run); the reads do not.
	var asked []string
	e.Approve = func(_ context.Context, r ApprovalRequest) (bool, error) {
		asked = append(asked, r.Tool)
		return true, nil
	}
	t.Cleanup(func() {
		if len(asked) == 0 || asked[0] != "aitools_test_alltools_v1_NoteService_CreateNote" {
			t.Errorf("asked for approvals of %q, want CreateNote first", asked)
		}
		for _, tool := range asked {
			if tool == "aitools_test_alltools_v1_NoteService_GetNote" {
				t.Errorf("GetNote (read-only) was asked for an approval")
			}
		}
	})
	created := mustExecute(t, e, "aitools_test_alltools_v1_NoteService_CreateNote", `{"text":"hello"}`)
	var note struct{ ID, Text string }
	if err := json.Unmarshal([]byte(created), &note); err != nil {
		t.Fatal(err)
	}
	if note.ID != "note-1" || note.Text != "hello" {
		t.Fatalf("CreateNote gave %s, want the note with id note-1", created)
	}
	mustExecute(t, e, "aitools_test_alltools_v1_NoteService_GetNote", `{"id":"note-1"}`)
	mustExecute(t, e, "gj9h57nl1z_RenewalNotificationService_RenewContractBeforeExpiry", `{"id":"note-1"}`)
	if want := []string{testkit.UUID(1), testkit.UUID(1)}; !reflect.DeepEqual(s.asked, want) {
		t.Fatalf("the server received ids %q, want %q (note-1 resolved)", s.asked, want)
	}

	watched := mustExecute(t, e, "aitools_test_alltools_v1_NoteService_WatchNotes", `{"limit":2}`)
	var stream []struct{ ID string }
	if err := json.Unmarshal([]byte(watched), &stream); err != nil {
		t.Fatalf("WatchNotes gave %s: %v", watched, err)
	}
	if len(stream) != 2 || stream[0].ID != "note-2" || stream[1].ID != "note-3" {
		t.Fatalf("WatchNotes gave %s, want two notes aliased note-2 and note-3", watched)
	}

	if out := mustExecute(t, e, "aitools_test_alltools_v1_NoteService_Tag", `{"colour":"red"}`); out != `{"ok":true}` {
		t.Fatalf("Tag gave %s", out)
	}
	if !reflect.DeepEqual(s.tags, []string{"colour"}) {
		t.Fatalf("Tag received keys %q", s.tags)
	}
}
