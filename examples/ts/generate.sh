#!/usr/bin/env bash
# Plain protoc: protoc-gen-es output of the test API (e2e/proto/linkhub) and
# of what it imports (ai/tools/v1/annotations.proto; the google/protobuf
# types come with @bufbuild/protobuf), and its tools, into src/gen.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -rf src/gen
mkdir -p src/gen

# exports.proto is left out: its google.longrunning import needs googleapis'
# protos (the e2e suites carry them).
protoc -I ../../e2e/proto -I ../../proto \
  --plugin=protoc-gen-es=node_modules/.bin/protoc-gen-es \
  --es_out=src/gen --es_opt=target=ts,import_extension=js \
  --plugin=protoc-gen-ai-tools=node_modules/.bin/protoc-gen-ai-tools \
  --ai-tools_out=src/gen --ai-tools_opt=target=ts \
  ../../e2e/proto/linkhub/v1/{control,links,samples,themes,workflows}.proto \
  ai/tools/v1/annotations.proto
