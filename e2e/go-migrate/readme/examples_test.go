package readme

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUpstreamExamples builds protoc-gen-go-mcp's examples (../examples,
// copied with only their import paths changed), starts each as the stdio
// server it is and lists its tools with the official SDK's client: their
// plain testServer (no grpc-go embed) registers as it is. The gosdk example
// is also called; the basic one forwards to nil clients after registering
// (as upstream's does), so it is only listed.
func TestUpstreamExamples(t *testing.T) {
	dir := t.TempDir()
	for _, example := range []string{"gosdk", "basic"} {
		t.Run(example, func(t *testing.T) {
			bin := filepath.Join(dir, example)
			build := exec.Command("go", "build", "-o", bin, "example.com/aitools/gomigrate/examples/"+example)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build ./examples/%s: %v\n%s", example, err, out)
			}
			cs := startExample(t, bin, example == "gosdk")
			if got, want := sortedKeys(listSDK(t, cs)), testServiceNames(t); !slices.Equal(got, want) {
				t.Fatalf("tools %v, want %v", got, want)
			}
			if example != "gosdk" {
				return
			}
			text, isError := callSDK(t, cs, "testdata_TestService_CreateItem", createItem)
			if isError || !reflect.DeepEqual(parsed(t, text), map[string]any{"id": "item-123"}) {
				t.Fatalf("CreateItem: %q (isError %v)", text, isError)
			}
		})
	}
}

// startExample starts bin and connects the official SDK's client to its
// stdin and stdout. With banner, bin first prints a line to stdout (the
// gosdk example's fmt.Println before it serves, as upstream's does, which a
// stdio client would take for a message): it is read and checked first.
func startExample(t *testing.T, bin string, banner bool) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	out := bufio.NewReader(stdout)
	if banner {
		line, err := out.ReadString('\n')
		if err != nil || line != "Serving over stdio with modelcontextprotocol/go-sdk\n" {
			t.Fatalf("first line %q (%v), want the example's banner", line, err)
		}
	}
	reader := struct {
		io.Reader
		io.Closer
	}{out, stdout}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: reader, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
