//aitools:inline mcp

package aitools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewMCPStdioTransport is mcp.StdioTransport that survives a malformed
// line (docs/mcp.md, "Transports"): a line that is not JSON is answered
// with the JSON-RPC error -32700 (parse error), one that is JSON but not a
// JSON-RPC message with -32600 (invalid request), both with id null, and
// the next line is served. The SDK's own transport ends the session on
// either. Serve with server.Run(ctx, NewMCPStdioTransport()).
func NewMCPStdioTransport() mcp.Transport {
	return &lineTransport{in: os.Stdin, out: nopWriteCloser{os.Stdout}}
}

// lineTransport serves newline-delimited JSON-RPC over in and out, the
// lines that are not messages answered here.
type lineTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	out := &lockedWriter{w: t.out}
	go filterLines(t.in, pw, out)
	return (&mcp.IOTransport{Reader: readCloser{pr, t.in}, Writer: out}).Connect(ctx)
}

// maxLineBytes bounds one line, as the SDK's transport does.
const maxLineBytes = mcp.DefaultMaxLineLength

// filterLines copies each line of in that is a JSON-RPC message (or a
// batch of them) to pw, and answers the others on out; blank lines are
// skipped. pw is closed when in ends.
func filterLines(in io.Reader, pw *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, tooLong, err := readLine(r)
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 || tooLong {
			if code, msg := lineError(trimmed, tooLong); code != 0 {
				_, _ = out.Write(errorLine(code, msg))
			} else if _, werr := pw.Write(append(trimmed, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			_ = pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line without its '\n'; a line over maxLineBytes is
// read to its end and reported too long (its bytes dropped).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLineBytes {
				tooLong, line = true, nil
			}
		}
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
		}
	}
}

// lineError is the JSON-RPC error of a line that is no message, or 0.
func lineError(line []byte, tooLong bool) (int, string) {
	switch {
	case tooLong:
		return jsonrpc.CodeParseError, "parse error: line longer than " + strconv.Itoa(maxLineBytes) + " bytes"
	case !json.Valid(line):
		return jsonrpc.CodeParseError, "parse error: the line is not JSON"
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		batch = []json.RawMessage{line}
	}
	if len(batch) == 0 {
		return jsonrpc.CodeInvalidRequest, "invalid request: empty batch"
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
		}
	}
	return 0, ""
}

// errorLine is a JSON-RPC error response with id null, one line.
func errorLine(code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}

// lockedWriter writes one message at a time: the SDK's and this file's.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// readCloser reads the filtered lines and closes the original input.
type readCloser struct {
	io.Reader
	in io.Closer
}

func (r readCloser) Close() error {
	if c, ok := r.Reader.(io.Closer); ok {
		_ = c.Close()
	}
	return r.in.Close()
}

// nopWriteCloser does not close stdout with the session.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
