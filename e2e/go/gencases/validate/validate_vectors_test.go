package gentools

// The shared buf.validate vectors (e2e/vectors/validate/*.json) through the
// executor of this golden case, generated with validate=true: protovalidate
// runs on the decoded request, UUIDs in place; a request that keeps every
// rule is sent, to a port nobody listens on, and fails as unavailable.

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type validateVector struct {
	Tool     string `json:"tool"`
	Register []struct {
		Prefix string `json:"prefix"`
		UUID   string `json:"uuid"`
	} `json:"register"`
	Base  map[string]any `json:"base"`
	Cases []struct {
		Name   string         `json:"name"`
		Set    map[string]any `json:"set"`
		Unset  []string       `json:"unset"`
		Expect struct {
			Reason     string      `json:"reason"`
			Code       string      `json:"code"`
			Violations []Violation `json:"violations"`
			Message    *string     `json:"message"`
		} `json:"expect"`
	} `json:"cases"`
}

// closedPort is a local address nobody listens on.
func closedPort(t *testing.T) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return addr
}

func TestValidateVectors(t *testing.T) {
	conn, err := grpc.NewClient(closedPort(t), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	codeNames := map[string]string{"INVALID_ARGUMENT": "InvalidArgument", "UNAVAILABLE": "Unavailable"}
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "vectors", "validate", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no e2e/vectors/validate/*.json: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vec validateVector
		if err := json.Unmarshal(data, &vec); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !NewExecutor(nil).CanExecute(vec.Tool) || len(vec.Cases) == 0 {
			t.Fatalf("%s: tool %q, %d cases", file, vec.Tool, len(vec.Cases))
		}
		for _, c := range vec.Cases {
			args := map[string]any{}
			for k, v := range vec.Base {
				args[k] = v
			}
			for k, v := range c.Set {
				args[k] = v
			}
			for _, k := range c.Unset {
				delete(args, k)
			}
			text, _ := json.Marshal(args)
			e := NewExecutor(conn)
			for _, r := range vec.Register {
				e.GetAliasManager().Register(r.Prefix, r.UUID)
			}
			_, err := e.Execute(context.Background(), vec.Tool, string(text))
			var te *ToolError
			if !errors.As(err, &te) {
				t.Errorf("%s/%s: %v", file, c.Name, err)
				continue
			}
			if te.Reason != c.Expect.Reason || te.Code.String() != codeNames[c.Expect.Code] {
				t.Errorf("%s/%s: %s %s (%s), want %s %s", file, c.Name, te.Reason, te.Code, te.Message, c.Expect.Reason, c.Expect.Code)
				continue
			}
			if c.Expect.Message == nil {
				continue
			}
			if te.Message != *c.Expect.Message || !reflect.DeepEqual(te.Violations, c.Expect.Violations) {
				t.Errorf("%s/%s:\n got  %q %q\n want %q %q", file, c.Name, te.Message, te.Violations, *c.Expect.Message, c.Expect.Violations)
			}
		}
	}
}
