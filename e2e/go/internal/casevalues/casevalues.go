// Package casevalues runs the schema-generated values of a generator golden
// case (gen/values/<case>.json, written by scripts/values.mjs) through the
// executor of the case's generated package (gencases/<case>), against a
// gRPC server of the case started on a real socket (Serve): issue 11,
// point 7, "admitted means decodable" for compact schemas and buf.validate
// keywords, and, for the latter, "a rule stated as a keyword holds for every
// value the schema admits" (protovalidate).
package casevalues

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"buf.build/go/protovalidate"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// AccountUUID is the id behind the alias a case's test registers (prefix
// acct, the validate case's account_id).
const AccountUUID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"

// Tool is what the test needs of a generated AgentTool.
type Tool struct {
	Name       string
	Strict     bool
	Parameters json.RawMessage
}

// Case is one generated package of a golden case.
type Case struct {
	// Name is the golden case: compact, validate.
	Name  string
	Tools []Tool
	// Execute and CanExecute are the generated Executor's.
	Execute    func(ctx context.Context, tool, args string) (string, error)
	CanExecute func(tool string) bool
	// Decode is the executor's argument path (aliases resolved, the
	// fix-up, protojson), for the tools without an auto-executor.
	Decode func(tool, args string, req proto.Message, strict bool) error
	// Alias names AccountUUID for the executor; "" when the case has no
	// aliases.
	Alias string
	// Described lists, per tool, the fields whose buf.validate rules the
	// schema states in a sentence rather than a keyword. When set, every
	// decoded request is checked with protovalidate, as a server would
	// check it: only these fields may break their rules.
	Described map[string][]string
}

// Server is a gRPC server answering every method with an empty response
// and recording what it decoded.
type Server struct {
	// Conn is a client connection to it.
	Conn     *grpc.ClientConn
	mu       sync.Mutex
	received []received
}

type received struct {
	method string
	msg    proto.Message
}

// Serve starts a Server on 127.0.0.1 for the test. It answers any method
// of the linked protos (protoregistry.GlobalFiles), decoding the request
// with the method's input type.
func Serve(t *testing.T) *Server {
	t.Helper()
	s := &Server{}
	srv := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		full, _ := grpc.MethodFromServerStream(stream)
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(strings.ReplaceAll(strings.TrimPrefix(full, "/"), "/", ".")))
		if err != nil {
			return err
		}
		md := d.(protoreflect.MethodDescriptor)
		req := dynamicpb.NewMessage(md.Input())
		if err := stream.RecvMsg(req); err != nil {
			return err
		}
		s.mu.Lock()
		s.received = append(s.received, received{full, req})
		s.mu.Unlock()
		return stream.SendMsg(dynamicpb.NewMessage(md.Output()))
	}))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	s.Conn, err = grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Conn.Close()
		srv.Stop()
	})
	return s
}

func (s *Server) since(n int) []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.received[n:]...)
}

func (s *Server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.received)
}

type valuesFile struct {
	Case  string `json:"case"`
	Tools []struct {
		Tool        string   `json:"tool"`
		Strict      bool     `json:"strict"`
		Method      string   `json:"method"`
		RequestType string   `json:"requestType"`
		SchemaJSON  string   `json:"schemaJson"`
		Values      []string `json:"values"`
	} `json:"tools"`
}

// Run checks every value of the case: it decodes through the executor's
// argument path, and, for a tool with an auto-executor, reaches the server
// as that request. Every other value whose account_id is a string names
// the account by c.Alias (when set), which must arrive as AccountUUID.
func Run(t *testing.T, s *Server, c Case) {
	t.Helper()
	dir := os.Getenv("E2E_VALUES_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "gen", "values")
	}
	data, err := os.ReadFile(filepath.Join(dir, c.Name+".json"))
	if err != nil {
		t.Fatalf("%v (scripts/run.mjs writes the values with scripts/values.mjs)", err)
	}
	var vf valuesFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	tools := map[string]Tool{}
	for _, tool := range c.Tools {
		tools[tool.Name] = tool
	}
	if len(vf.Tools) != len(tools) {
		t.Fatalf("%d tools in the values file, %d generated", len(vf.Tools), len(tools))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, vt := range vf.Tools {
		t.Run(vt.Tool, func(t *testing.T) {
			tool, ok := tools[vt.Tool]
			if !ok || vt.SchemaJSON != string(tool.Parameters) || vt.Strict != tool.Strict {
				t.Fatalf("values were generated from another schema than the Go file's:\n %s\n %s", vt.SchemaJSON, tool.Parameters)
			}
			if len(vt.Values) != valuesPerTool() {
				t.Fatalf("%d values", len(vt.Values))
			}
			mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(vt.RequestType))
			if err != nil {
				t.Fatal(err)
			}
			sent, aliased := 0, 0
			broken := map[string]int{}
			for i, args := range vt.Values {
				useAlias := false
				if c.Alias != "" && i%2 == 1 {
					args, useAlias = withAlias(t, args, c.Alias)
				}
				want := mt.New().Interface()
				// A value may break a rule the schema states only in words:
				// a file that validates (validate=true) refuses it after
				// decoding, and sends nothing.
				refused := false
				if err := c.Decode(vt.Tool, args, want, vt.Strict); err != nil {
					if refused = c.Described != nil && reasonOf(err) == "failed-validation"; !refused {
						t.Fatalf("value %d does not decode: %v\n%s", i, err, args)
					}
				}
				if useAlias {
					if got := want.ProtoReflect().Get(mt.Descriptor().Fields().ByName("account_id")).String(); got != AccountUUID {
						t.Fatalf("value %d: account_id %q, want %q", i, got, AccountUUID)
					}
					aliased++
				}
				if c.Described != nil {
					for _, field := range violatedFields(t, want) {
						if !slices.Contains(c.Described[vt.Tool], field) {
							t.Errorf("value %d breaks the rules of %q, which the schema states as keywords\n%s", i, field, args)
						}
						broken[field]++
					}
				}
				if !c.CanExecute(vt.Tool) {
					continue
				}
				before := s.count()
				if refused {
					if _, err := c.Execute(ctx, vt.Tool, args); reasonOf(err) != "failed-validation" || s.count() != before {
						t.Fatalf("value %d: %v, %d requests sent; want failed-validation, none", i, err, s.count()-before)
					}
					continue
				}
				out, err := c.Execute(ctx, vt.Tool, args)
				if err != nil {
					t.Fatalf("value %d: %v\n%s", i, err, args)
				}
				if out != "{}" {
					t.Fatalf("value %d: result %s", i, out)
				}
				got := s.since(before)
				if len(got) != 1 || got[0].method != vt.Method {
					t.Fatalf("value %d: the server received %d requests", i, len(got))
				}
				if !proto.Equal(got[0].msg, want) {
					t.Errorf("value %d: the server received\n %s\nwant %s\nargs %s", i, protojson.Format(got[0].msg), protojson.Format(want), args)
				}
				sent++
			}
			t.Logf("%s: %d values decoded (%d with an alias), %d sent through the executor", vt.Tool, len(vt.Values), aliased, sent)
			if c.Described != nil {
				t.Logf("%s: described rules broken (protovalidate), by field: %v", vt.Tool, broken)
			}
		})
	}
}

// reasonOf is the Reason of err, a *ToolError of a generated package, or "".
func reasonOf(err error) string {
	v := reflect.ValueOf(err)
	if err == nil || v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return ""
	}
	if f := v.Elem().FieldByName("Reason"); f.IsValid() && f.Kind() == reflect.String {
		return f.String()
	}
	return ""
}

// violatedFields checks msg with protovalidate and returns the top-level
// field of each violation ("" for a message rule).
func violatedFields(t *testing.T, msg proto.Message) []string {
	err := protovalidate.Validate(msg)
	if err == nil {
		return nil
	}
	var verr *protovalidate.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("protovalidate: %v", err)
	}
	var fields []string
	for _, v := range verr.Violations {
		field := ""
		if elements := v.Proto.GetField().GetElements(); len(elements) > 0 {
			field = elements[0].GetFieldName()
		}
		fields = append(fields, field)
	}
	return fields
}

// withAlias returns args with a string account_id replaced by alias.
func withAlias(t *testing.T, args, alias string) (string, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		t.Fatal(err)
	}
	if v, ok := obj["account_id"]; !ok || len(v) == 0 || v[0] != '"' {
		return args, false
	}
	obj["account_id"], _ = json.Marshal(alias)
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), true
}

// valuesPerTool is what scripts/values.mjs writes: 200 values a tool in the
// nightly run (AI_TOOLS_NIGHTLY=1), 40 in .ci/run.
func valuesPerTool() int {
	if os.Getenv("AI_TOOLS_NIGHTLY") == "1" {
		return 200
	}
	return 40
}
