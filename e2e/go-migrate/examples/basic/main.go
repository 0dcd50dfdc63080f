// Copyright 2025 Redpanda Data, Inc.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//	http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/server"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/runtime/mark3labs
	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/mark3labs"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/testdata/gen/go/testdata
	testdata "example.com/aitools/gomigrate/gen/testdata"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/testdata/gen/go/testdata/testdataconnect
	"example.com/aitools/gomigrate/gen/testdata/testdataconnect"
	// was github.com/redpanda-data/protoc-gen-go-mcp/pkg/testdata/gen/go/testdata/testdatamcp
	testdatamcp "example.com/aitools/gomigrate/testdatamcp"
)

// Ensure our interface and the official gRPC interface are grpcClient
var (
	grpcClient testdata.TestServiceClient
	_          = testdatamcp.TestServiceClient(grpcClient)
)

// Ensure our interface and the official connect-go interface are compatible
var (
	connectClient testdataconnect.TestServiceClient
	_             = testdatamcp.ConnectTestServiceClient(connectClient)
)

func main() {
	// Create MCP server using mark3labs adapter
	raw, s := mark3labs.NewServer(
		"Example auto-generated gRPC-MCP server",
		"1.0.0",
	)

	srv := testServer{}

	// Register the generated MCP handlers.
	testdatamcp.RegisterTestServiceHandler(s, &srv)

	testdatamcp.ForwardToConnectTestServiceClient(s, connectClient)
	testdatamcp.ForwardToTestServiceClient(s, grpcClient)

	if err := server.ServeStdio(raw); err != nil {
		fmt.Printf("Server error: %v\n", err)
	}
}

type testServer struct{}

func (t *testServer) CreateItem(ctx context.Context, in *testdata.CreateItemRequest) (*testdata.CreateItemResponse, error) {
	return &testdata.CreateItemResponse{
		Id: "item-123",
	}, nil
}

func (t *testServer) GetItem(ctx context.Context, in *testdata.GetItemRequest) (*testdata.GetItemResponse, error) {
	return &testdata.GetItemResponse{
		Item: &testdata.Item{
			Id:   in.GetId(),
			Name: "Retrieved item",
		},
	}, nil
}

func (t *testServer) ProcessWellKnownTypes(ctx context.Context, in *testdata.ProcessWellKnownTypesRequest) (*testdata.ProcessWellKnownTypesResponse, error) {
	return &testdata.ProcessWellKnownTypesResponse{
		Message: "Processed well-known types",
	}, nil
}

func (t *testServer) TestValidation(ctx context.Context, in *testdata.TestValidationRequest) (*testdata.TestValidationResponse, error) {
	return &testdata.TestValidationResponse{
		Success: true,
		Message: "Validation test completed",
	}, nil
}
