//aitools:inline streaming

package aitools

import (
	"errors"
	"io"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// collect reads a server stream to its end into a JSON array of at most 1000
// messages; in a file with aliases it registers the ids of each message as
// it arrives and shows the array's UUIDs as aliases.
func collect[T proto.Message](e *Executor, toolName string, recv func() (T, error)) (string, error) {
	var b strings.Builder
	b.WriteByte('[')
	for n := 0; ; n++ {
		msg, err := recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", e.serverError(toolName, err)
		}
		if n == 1000 {
			return "", e.toolError("invalid-response", codes.ResourceExhausted, "stream returned more than 1000 messages: narrow the request", nil)
		}
		item, err := e.encode(msg)
		if err != nil {
			return "", err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(item)
		//aitools:if aliases
		e.aliases.RegisterResponseJSON(toolName, string(item))
		//aitools:end
	}
	b.WriteByte(']')
	out := b.String()
	//aitools:if aliases
	out = e.aliases.AliasifyJSON(toolName, out)
	//aitools:end
	return out, nil
}
