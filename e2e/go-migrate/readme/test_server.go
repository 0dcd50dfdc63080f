package readme

import (
	"context"
	"sync"

	"google.golang.org/protobuf/proto"

	"example.com/aitools/gomigrate/gen/testdata"
)

// Calls are the requests that reached a testServer, with the value of the
// extra property's context key of each.
type Calls struct {
	mu       sync.Mutex
	requests []proto.Message
	baseURLs []any
}

// NewTestServer is a testServer recording into calls.
func NewTestServer(calls *Calls) testServer { return testServer{calls: calls} }

// Requests returns the requests received so far.
func (c *Calls) Requests() []proto.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]proto.Message(nil), c.requests...)
}

// BaseURLs returns ctx.Value(MyURLOverrideKey{}) of each request so far.
func (c *Calls) BaseURLs() []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]any(nil), c.baseURLs...)
}

func (c *Calls) add(ctx context.Context, req proto.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, req)
	c.baseURLs = append(c.baseURLs, ctx.Value(MyURLOverrideKey{}))
}

// CreateItem answers with the id "item-<name>".
func (s *testServer) CreateItem(ctx context.Context, req *testdata.CreateItemRequest) (*testdata.CreateItemResponse, error) {
	s.calls.add(ctx, req)
	return &testdata.CreateItemResponse{Id: "item-" + req.GetName()}, nil
}

// ProcessWellKnownTypes answers as protoc-gen-go-mcp's examples do.
func (s *testServer) ProcessWellKnownTypes(ctx context.Context, req *testdata.ProcessWellKnownTypesRequest) (*testdata.ProcessWellKnownTypesResponse, error) {
	s.calls.add(ctx, req)
	return &testdata.ProcessWellKnownTypesResponse{Message: "Processed well-known types"}, nil
}

// TestValidation answers as protoc-gen-go-mcp's examples do.
func (s *testServer) TestValidation(ctx context.Context, req *testdata.TestValidationRequest) (*testdata.TestValidationResponse, error) {
	s.calls.add(ctx, req)
	return &testdata.TestValidationResponse{Success: true, Message: "Validation test completed"}, nil
}

// grpcServer is a testServer as grpc-go serves it for the forwards' tests,
// with CreateItem and GetItem only: ProcessWellKnownTypes answers grpc-go's
// UNIMPLEMENTED (the forwards' error case).
type grpcServer struct {
	testdata.UnimplementedTestServiceServer
	srv *testServer
}

func (g *grpcServer) CreateItem(ctx context.Context, req *testdata.CreateItemRequest) (*testdata.CreateItemResponse, error) {
	return g.srv.CreateItem(ctx, req)
}

func (g *grpcServer) GetItem(ctx context.Context, req *testdata.GetItemRequest) (*testdata.GetItemResponse, error) {
	return g.srv.GetItem(ctx, req)
}

// GetItem answers with an item of the id asked for.
func (s *testServer) GetItem(ctx context.Context, req *testdata.GetItemRequest) (*testdata.GetItemResponse, error) {
	s.calls.add(ctx, req)
	return &testdata.GetItemResponse{Item: &testdata.Item{Id: req.GetId(), Name: "first"}}, nil
}
