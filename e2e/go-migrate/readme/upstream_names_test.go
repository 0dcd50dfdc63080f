package readme

import (
	"os"
	"slices"
	"strings"
	"testing"

	testdatamcp "example.com/aitools/gomigrate/testdatamcp"
)

// upstreamNames are the tool names of protoc-gen-go-mcp's generated
// testdatamcp/*.pb.mcp.go (954bf16) for the same protos
// (proto/upstream-tool-names.txt, one a line).
func upstreamNames(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../proto/upstream-tool-names.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// With tools=all our derived names are theirs (pkg_Service_Method, the
// 64-character rule unused here): the same 13 names, none more.
func TestToolNamesEqualProtocGenGoMcp(t *testing.T) {
	want := upstreamNames(t)
	var got []string
	for _, tool := range testdatamcp.AllTools() {
		got = append(got, tool.Name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("our %d tool names\n%v\nprotoc-gen-go-mcp's %d\n%v", len(got), got, len(want), want)
	}
	t.Logf("%d tool names, equal to protoc-gen-go-mcp's %d", len(got), len(want))
}
