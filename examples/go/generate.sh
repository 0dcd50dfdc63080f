#!/usr/bin/env bash
# Plain protoc: the Go code of the test API (e2e/proto/linkhub), of what it
# imports (ai/tools/v1/annotations.proto), and its tools, into this module.
# Needs protoc-gen-go and protoc-gen-go-grpc on PATH and the workspace built
# (node_modules/.bin/protoc-gen-ai-tools).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -rf gen gentools
mkdir -p gentools

# The test API's go_package is example.com/aitools/e2e/gen/linkhub/v1, so
# this module is example.com/aitools/e2e. annotations.proto's go_package is
# the module github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/proto, which a
# user's go.mod gets from go mod tidy; this in-repository example depends on
# no published module, so M maps the annotations into gen/ as well.
GO_OPTS=module=example.com/aitools/e2e,Mai/tools/v1/annotations.proto=example.com/aitools/e2e/gen/ai/tools/v1\;toolsv1
# exports.proto is left out: its google.longrunning import needs googleapis'
# protos (the e2e suites carry them).
protoc -I ../../e2e/proto -I ../../proto \
  --go_out=. --go_opt="$GO_OPTS" \
  --go-grpc_out=. --go-grpc_opt="$GO_OPTS" \
  --plugin=protoc-gen-ai-tools=node_modules/.bin/protoc-gen-ai-tools \
  --ai-tools_out=gentools --ai-tools_opt=target=go \
  ../../e2e/proto/linkhub/v1/{control,links,samples,themes,workflows}.proto \
  ai/tools/v1/annotations.proto
