#!/usr/bin/env bash
# grpcio-tools (python -m grpc_tools.protoc, its own protoc): the messages of
# the test API (e2e/proto/linkhub) and of what it imports
# (ai/tools/v1/annotations.proto; the google/protobuf types come with the
# protobuf package), mypy-protobuf stubs for mypy --strict, and its tools,
# into gen/. Run it with the virtualenv's python first on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -rf gen
mkdir -p gen

# exports.proto is left out: its google.longrunning import needs googleapis'
# protos (the e2e suites carry them).
python -m grpc_tools.protoc -I ../../e2e/proto -I ../../proto \
  --python_out=gen --mypy_out=gen \
  --plugin=protoc-gen-ai-tools=node_modules/.bin/protoc-gen-ai-tools \
  --ai-tools_out=gen --ai-tools_opt=target=py \
  ../../e2e/proto/linkhub/v1/{control,links,samples,themes,workflows}.proto \
  ai/tools/v1/annotations.proto
