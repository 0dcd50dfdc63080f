package gentools

// A strict tool on a message cycle goes out in two variants (docs/compat.md,
// "$defs and $ref"): OpenAI and Anthropic get the recursive one, Gemini and
// Anthropic strict the stop one. Every call of the shared vector
// e2e/vectors/arguments/cycles.json that its argument table takes (the
// stop's `{}`, `null`, nested values) goes through the generated executor
// to a real gRPC server on a socket, which receives the nested messages.

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	cyclesv1 "example.com/aitools/testgo/pb/cycles/v1"
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/vectortest"
)

type cyclesServer struct {
	cyclesv1.UnimplementedActivityServiceServer
	cyclesv1.UnimplementedModelServiceServer
	mu     sync.Mutex
	failed []*cyclesv1.RespondActivityTaskFailedRequest
	counts []*cyclesv1.CountTokensRequest
}

func (s *cyclesServer) RespondActivityTaskFailed(_ context.Context, req *cyclesv1.RespondActivityTaskFailedRequest) (*cyclesv1.RespondActivityTaskFailedResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = append(s.failed, req)
	return &cyclesv1.RespondActivityTaskFailedResponse{}, nil
}

func (s *cyclesServer) CountTokensStrict(_ context.Context, req *cyclesv1.CountTokensRequest) (*cyclesv1.CountTokensResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = append(s.counts, req)
	return &cyclesv1.CountTokensResponse{TotalTokens: 1}, nil
}

func startCyclesExecutor(t *testing.T) (*Executor, *cyclesServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	s := &cyclesServer{}
	cyclesv1.RegisterActivityServiceServer(srv, s)
	cyclesv1.RegisterModelServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return NewExecutor(conn), s
}

type cyclesCase struct {
	Name      string            `json:"name"`
	Args      string            `json:"args"`
	Arguments json.RawMessage   `json:"arguments"`
	Lenient   bool              `json:"lenient"`
	Expect    []json.RawMessage `json:"expect"`
}

// depth is how many Failures the chain from f holds.
func depth(f *cyclesv1.Failure) int {
	n := 0
	for ; f != nil; f = f.GetCause() {
		n++
	}
	return n
}

func TestCyclesVectorCallsReachTheServer(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(vectortest.Dir(t), "arguments", "cycles.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vector struct {
		Cases []cyclesCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &vector); err != nil {
		t.Fatal(err)
	}
	e, s := startCyclesExecutor(t)
	ran := 0
	for _, c := range vector.Cases {
		if len(c.Expect) > 0 || c.Lenient {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			tool := "fail_activity"
			if c.Arguments != nil {
				tool = "count_tokens_strict"
			}
			if _, err := e.Execute(context.Background(), tool, c.Args); err != nil {
				t.Fatalf("%s refused %s: %v", tool, c.Args, err)
			}
			if tool != "fail_activity" {
				return
			}
			// What the server received is the arguments, nested causes and all.
			want := &cyclesv1.RespondActivityTaskFailedRequest{}
			if err := protojson.Unmarshal([]byte(c.Args), want); err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			got := s.failed[len(s.failed)-1]
			s.mu.Unlock()
			if !proto.Equal(got, want) {
				t.Fatalf("server received %v, want %v", got, want)
			}
		})
	}
	if ran < 6 {
		t.Fatalf("%d calls ran, want at least 6", ran)
	}
	deepest := 0
	for _, r := range s.failed {
		deepest = max(deepest, depth(r.GetFailure()))
	}
	if deepest < 4 {
		t.Fatalf("the deepest Failure chain received has %d levels, want 4", deepest)
	}
	nested := false
	for _, r := range s.counts {
		p := r.GetTools()[0].GetFunctionDeclarations()[0].GetParameters()
		if p.GetItems().GetType() == cyclesv1.Type_STRING {
			nested = true
		}
	}
	if len(s.counts) != 2 || !nested {
		t.Fatalf("count_tokens_strict: %d calls received, nested items %v", len(s.counts), nested)
	}
}
