module github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/proto

go 1.23

require google.golang.org/protobuf v1.36.12
