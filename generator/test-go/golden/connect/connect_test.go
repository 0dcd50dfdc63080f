package gentools

// ForwardToConnectTaskServiceClient (go_connect=true) with a connect-go
// client (connect.WithGRPC, HTTP/2 without TLS) of a grpc-go server on a
// real socket, side by side with ForwardToTaskServiceClient over a gRPC
// connection to the same server: the same results, aliases resolved before
// the call, a stream, an Empty response from another package, and the same
// text for a server error.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	tasks "example.com/aitools/testgo/pb/connectdemo/v1"
)

func taskUUID(n int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", n) }

// taskServer knows one task, taskUUID(1); it records the ids it is asked for.
type taskServer struct {
	tasks.UnimplementedTaskServiceServer
	asked []string
}

func (*taskServer) CreateTask(_ context.Context, req *tasks.CreateTaskRequest) (*tasks.Task, error) {
	return &tasks.Task{Id: taskUUID(1), Title: req.Title}, nil
}

func (s *taskServer) GetTask(_ context.Context, req *tasks.TaskRef) (*tasks.Task, error) {
	s.asked = append(s.asked, req.TaskId)
	if req.TaskId != taskUUID(1) {
		return nil, status.Errorf(codes.NotFound, "task %s not found", req.TaskId)
	}
	return &tasks.Task{Id: req.TaskId, Title: "one"}, nil
}

func (s *taskServer) DeleteTask(_ context.Context, req *tasks.TaskRef) (*emptypb.Empty, error) {
	s.asked = append(s.asked, req.TaskId)
	return &emptypb.Empty{}, nil
}

func (*taskServer) WatchTasks(req *tasks.WatchTasksRequest, stream grpc.ServerStreamingServer[tasks.Task]) error {
	for i := range int(req.Count) {
		if err := stream.Send(&tasks.Task{Id: taskUUID(100 + i)}); err != nil {
			return err
		}
	}
	return nil
}

// connectTasks is a connect-go client of TaskService, made as
// protoc-gen-connect-go makes one: a connect.Client per method.
type connectTasks struct {
	create *connect.Client[tasks.CreateTaskRequest, tasks.Task]
	ref    *connect.Client[tasks.TaskRef, tasks.Task]
	del    *connect.Client[tasks.TaskRef, emptypb.Empty]
	watch  *connect.Client[tasks.WatchTasksRequest, tasks.Task]
}

func (c *connectTasks) CreateTask(ctx context.Context, r *connect.Request[tasks.CreateTaskRequest]) (*connect.Response[tasks.Task], error) {
	return c.create.CallUnary(ctx, r)
}

func (c *connectTasks) GetTask(ctx context.Context, r *connect.Request[tasks.TaskRef]) (*connect.Response[tasks.Task], error) {
	return c.ref.CallUnary(ctx, r)
}

func (c *connectTasks) DeleteTask(ctx context.Context, r *connect.Request[tasks.TaskRef]) (*connect.Response[emptypb.Empty], error) {
	return c.del.CallUnary(ctx, r)
}

func (c *connectTasks) WatchTasks(ctx context.Context, r *connect.Request[tasks.WatchTasksRequest]) (*connect.ServerStreamForClient[tasks.Task], error) {
	return c.watch.CallServerStream(ctx, r)
}

func newConnectTasks(addr string) *connectTasks {
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	hc := &http.Client{Transport: &http.Transport{Protocols: &protocols}}
	base := "http://" + addr + "/aitools.test.connectdemo.v1.TaskService/"
	return &connectTasks{
		create: connect.NewClient[tasks.CreateTaskRequest, tasks.Task](hc, base+"CreateTask", connect.WithGRPC()),
		ref:    connect.NewClient[tasks.TaskRef, tasks.Task](hc, base+"GetTask", connect.WithGRPC()),
		del:    connect.NewClient[tasks.TaskRef, emptypb.Empty](hc, base+"DeleteTask", connect.WithGRPC()),
		watch:  connect.NewClient[tasks.WatchTasksRequest, tasks.Task](hc, base+"WatchTasks", connect.WithGRPC()),
	}
}

func TestForwardToConnectClient(t *testing.T) {
	ctx := context.Background()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, impl := grpc.NewServer(), &taskServer{}
	tasks.RegisterTaskServiceServer(srv, impl)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	approve := WithApprove(func(context.Context, ApprovalRequest) (bool, error) { return true, nil })
	sessions := map[string]*mcp.ClientSession{}
	for name, register := range map[string]func(MCPServer){
		"connect": func(s MCPServer) { ForwardToConnectTaskServiceClient(s, newConnectTasks(lis.Addr().String()), approve) },
		"grpc":    func(s MCPServer) { ForwardToTaskServiceClient(s, tasks.NewTaskServiceClient(conn), approve) },
	} {
		server := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "1.0.0"}, nil)
		register(server)
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
		sessions[name] = cs
	}

	for _, c := range []struct{ tool, args, want string }{
		{"tasks_create", `{"title":"one"}`, `{"id":"task-1","title":"one"}`},
		{"tasks_get", `{"task_id":"task-1"}`, `{"id":"task-1","title":"one"}`},
		{"tasks_delete", `{"task_id":"task-1"}`, `{}`},
		{"tasks_watch", `{"count":2}`, `{"messages":[{"id":"task-2","title":""},{"id":"task-3","title":""}]}`},
		{"tasks_get", `{"task_id":"task-2"}`, `rpc error: code = NotFound desc = task task-2 not found`},
	} {
		for _, name := range []string{"connect", "grpc"} {
			res, err := sessions[name].CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatalf("%s through %s: %v", c.tool, name, err)
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != c.want || res.IsError != (c.want[0] != '{') {
				t.Errorf("%s through %s: %s (isError %v); want %s", c.tool, name, got, res.IsError, c.want)
			}
		}
	}
	// Each forward sent the UUIDs: get, delete, then get of task-2.
	one, two := taskUUID(1), taskUUID(100)
	want := fmt.Sprint([]string{one, one, one, one, two, two})
	if got := fmt.Sprint(impl.asked); got != want {
		t.Errorf("the server was asked for %s, want %s", got, want)
	}
}
