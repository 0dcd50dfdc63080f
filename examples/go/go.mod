// The test API's go_package (example.com/aitools/e2e/gen/linkhub/v1) names
// this module path; the generated code needs only grpc and protobuf.
module example.com/aitools/e2e

go 1.24.0

require (
	google.golang.org/grpc v1.80.0
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/net v0.49.0 // indirect
	golang.org/x/sys v0.40.0 // indirect
	golang.org/x/text v0.33.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260120221211-b8f7ae30c516 // indirect
)
