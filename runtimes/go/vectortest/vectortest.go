// Package vectortest loads the shared vectors of e2e/vectors and runs those
// that need an executor (errors/*.json) and the leak cases, for this module's
// tests and for the tests of the generated files (generator/test-go, which
// requires this module through a replace directive). It is not inlined into
// generated files.
package vectortest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Dir is $AITOOLS_VECTORS, else the e2e/vectors directory above the working
// directory.
func Dir(t testing.TB) string {
	if dir := os.Getenv("AITOOLS_VECTORS"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "e2e", "vectors")); err == nil && st.IsDir() {
			return filepath.Join(dir, "e2e", "vectors")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no e2e/vectors above the working directory (set AITOOLS_VECTORS)")
		}
		dir = parent
	}
}

// Load decodes every <Dir>/<sub>/*.json file, by base name. It fails the
// test when there is none.
func Load[T any](t testing.TB, sub string) map[string]T {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(t), sub, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", filepath.Join(Dir(t), sub), err)
	}
	out := map[string]T{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out[filepath.Base(file)] = v
	}
	return out
}

// Registration is one alias registered before an error case.
type Registration struct {
	Prefix string `json:"prefix"`
	UUID   string `json:"uuid"`
}

// ErrorVector is one errors/*.json file.
type ErrorVector struct {
	Register []Registration `json:"register"`
	Cases    []struct {
		Name   string `json:"name"`
		Tool   string `json:"tool"`
		Args   string `json:"args"`
		Status *struct {
			Code       codes.Code `json:"code"`
			Message    string     `json:"message"`
			BadRequest []struct {
				Field       string `json:"field"`
				Description string `json:"description"`
			} `json:"badRequest"`
		} `json:"server"`
		Sent   bool `json:"sent"`
		Expect *struct {
			Reason     string     `json:"reason"`
			Code       codes.Code `json:"code"`
			Message    string     `json:"message"`
			RawMessage string     `json:"rawMessage"`
		} `json:"expect"`
	} `json:"cases"`
}

// Call runs one error case on a fresh executor: it registers register on
// the executor's alias manager, makes the server answer the call with
// server when it is not nil, and calls tool with args. It returns the
// executor's error and whether the server received a call.
type Call func(register []Registration, server *status.Status, tool, args string) (err error, sent bool)

// RunErrors runs every errors/*.json case through call and checks the
// reason, code, message and raw message of the *ToolError (read by field
// name, so any package's ToolError works), its gRPC status, what was sent,
// and that no registered UUID reaches the model.
func RunErrors(t *testing.T, call Call) {
	vectors := Load[ErrorVector](t, "errors")
	names := make([]string, 0, len(vectors))
	for name := range vectors {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		vec := vectors[name]
		t.Run(name, func(t *testing.T) {
			if len(vec.Cases) == 0 {
				t.Fatal("no cases")
			}
			for _, c := range vec.Cases {
				var server *status.Status
				if c.Status != nil {
					server = status.New(c.Status.Code, c.Status.Message)
					if len(c.Status.BadRequest) > 0 {
						br := &errdetails.BadRequest{}
						for _, v := range c.Status.BadRequest {
							br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: v.Field, Description: v.Description})
						}
						var err error
						if server, err = server.WithDetails(br); err != nil {
							t.Fatal(err)
						}
					}
				}
				err, sent := call(vec.Register, server, c.Tool, c.Args)
				if sent != c.Sent {
					t.Errorf("%s: sent = %v, want %v", c.Name, sent, c.Sent)
				}
				if c.Expect == nil {
					if err != nil {
						t.Errorf("%s: %v", c.Name, err)
					}
					continue
				}
				reason, raw, ok := Fields(err)
				if !ok {
					t.Errorf("%s: %T %v is not a *ToolError", c.Name, err, err)
					continue
				}
				got := [4]string{reason, status.Code(err).String(), err.Error(), raw}
				want := [4]string{c.Expect.Reason, c.Expect.Code.String(), c.Expect.Message, c.Expect.RawMessage}
				if got != want {
					t.Errorf("%s:\n got  %q\n want %q", c.Name, got, want)
				}
				if st, ok := status.FromError(err); !ok || st.Message() != c.Expect.RawMessage {
					t.Errorf("%s: status %v", c.Name, st)
				}
				for _, r := range vec.Register {
					if strings.Contains(err.Error()+raw, r.UUID) {
						t.Errorf("%s: a registered UUID reached the model: %s", c.Name, err)
					}
				}
			}
		})
	}
}

// Fields reads Reason and RawMessage of a *ToolError of any package.
func Fields(err error) (reason, rawMessage string, ok bool) {
	v := reflect.ValueOf(err)
	if err == nil || v.Kind() != reflect.Pointer || v.Elem().Type().Name() != "ToolError" {
		return "", "", false
	}
	return v.Elem().FieldByName("Reason").String(), v.Elem().FieldByName("RawMessage").String(), true
}

// LeakArgs are arguments for a tool of FixupRequest that put the alias
// acct-1 (registered for uuid) or uuid itself where they do not fit: an
// int32, a bool, a Duration, bytes, the whole arguments, map keys, oneofs,
// invalid JSON.
func LeakArgs(uuid string) []string {
	return []string{
		`{"count":"acct-1"}`,
		`{"enabled":"acct-1"}`,
		`{"timeout":"acct-1"}`,
		`{"data":"acct-1"}`,
		`{"data":"acct-1*"}`,
		`"acct-1"`,
		`["acct-1"]`,
		`{"count":"` + uuid + `"}`,
		`{"items_by_num":{"` + uuid + `":{}}}`,
		`{"items_by_num":[{"key":"acct-1","value":{}}]}`,
		`{"labels":{"acct-1":{"x":"acct-1"}}}`,
		`{"attrs":[{"key":1,"value":"acct-1"}]}`,
		`{"text":"acct-1","number":"acct-1"}`,
		`{"note":"acct-1 ` + uuid + `"`,
	}
}

// ModelText is what the model reads of a call: the output, or the error's
// message and raw message.
func ModelText(out string, err error) string {
	if err == nil {
		return out
	}
	_, raw, _ := Fields(err)
	return err.Error() + " " + raw
}
