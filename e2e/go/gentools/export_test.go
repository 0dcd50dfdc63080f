package gentools

import "google.golang.org/protobuf/proto"

// DecodeArguments runs an executor's argument path on args without calling
// anything: alias resolution, the argument fix-up, then protojson into req.
func DecodeArguments(e *Executor, tool, args string, req proto.Message, strict bool) error {
	return e.decode(tool, args, req, strict)
}
