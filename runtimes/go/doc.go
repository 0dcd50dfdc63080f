// Package aitools is the runtime of the Go files protoc-gen-ai-tools writes:
// the alias manager, the argument fix-up, the executor helpers and ToolError
// (docs/runtime.md is the contract; e2e/vectors pins it).
//
// It is not imported by generated code. At build time the generator inlines
// the files of this package that carry an "//aitools:inline <feature>" line
// into each ai_tools.gen.go, so that file still needs only grpc and
// protobuf. Lines between "//aitools:if <feature>" and "//aitools:end" are
// left out of files without that feature: "aliases" (some tool involves
// aliases), "executors" (some tool has auto_execute), "streaming" (some
// auto-executed tool is server-streaming). This package's own
// tables (tables.go) are empty stand-ins for the ones the generated file
// declares; the tests fill them in.
package aitools
