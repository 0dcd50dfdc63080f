package gentools_test

// ForwardTo...Client over TLS with per-call credentials (issue 33 §2): the
// test server serves gRPC over TLS with the committed test certificate
// (e2e/server/testdata/tls), the client trusts the test CA, and both the
// per-call credentials and the metadata WithForwardIdentity adds arrive
// (the server's request log is the evidence).

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// callCredentials are per-call credentials that need a secure channel.
type callCredentials map[string]string

func (c callCredentials) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return c, nil
}

func (callCredentials) RequireTransportSecurity() bool { return true }

func TestMCPForwardToClientOverTLS(t *testing.T) {
	if os.Getenv("E2E_NO_SERVER") != "" {
		t.Fatal("needs the test server (E2E_NO_SERVER is set)")
	}
	tls := filepath.Join(repoRoot(), "e2e", "server", "testdata", "tls")
	stop, addr, err := startServer(serverMain(), 30*time.Second, "--tls-cert", filepath.Join(tls, "server.pem"), "--tls-key", filepath.Join(tls, "server-key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	ca, err := credentials.NewClientTLSFromFile(filepath.Join(tls, "ca.pem"), "")
	if err != nil {
		t.Fatal(err)
	}
	perCall := callCredentials{"authorization": "Bearer backend-service-token"}
	tlsConn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(ca), grpc.WithPerRPCCredentials(perCall))
	if err != nil {
		t.Fatal(err)
	}
	defer tlsConn.Close()

	server := mcp.NewServer(&mcp.Implementation{Name: "linkhub", Version: "1.0.0"}, nil)
	forward := gentools.ForwardIdentity{BackendCredentials: func(_ context.Context, id *gentools.Identity) (map[string]string, error) {
		if id != nil {
			t.Errorf("an identity without authorization: %+v", id)
		}
		return map[string]string{"X-App": "linkhub-e2e"}, nil
	}}
	gentools.ForwardToLinkServiceClient(server, linkhubv1.NewLinkServiceClient(tlsConn), gentools.WithForwardIdentity(forward))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "links_list", Arguments: map[string]any{"workspace_id": newUUID(), "page_theme_id": nil}})
	if err != nil || res.IsError {
		t.Fatalf("links_list over TLS: %v %+v", err, res)
	}

	got, err := control(tlsConn).GetRecorded(context.Background(), &linkhubv1.GetRecordedRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var list *linkhubv1.RecordedRequest
	for _, r := range got.GetRequests() {
		if r.GetProcedure() == "linkhub.v1.LinkService/ListLinks" {
			list = r
		}
	}
	if list == nil {
		t.Fatalf("ListLinks did not reach the TLS server: %v", got.GetRequests())
	}
	md := list.GetMetadata()
	if md["authorization"] != "Bearer backend-service-token" || md["x-app"] != "linkhub-e2e" {
		t.Errorf("metadata %v: want the per-call authorization and x-app", md)
	}

	// The same credentials refuse to go out on a channel without TLS.
	plain, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithPerRPCCredentials(perCall))
	if err == nil {
		plain.Close()
		t.Error("per-call credentials requiring TLS were accepted on an insecure channel")
	}
}
