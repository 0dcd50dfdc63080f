package gentools_test

// The Edition 2023 samples (e2e/editions/proto), generated into this
// package by e2e/editions/generate.mjs: their tools have the schemas of
// their proto3 twins (gentools), the schema-generated values of the
// samples_echo_* tools mean the same message through either executor, and
// the features that change the wire (DELIMITED, EXPANDED, LEGACY_REQUIRED, a
// closed enum) survive protoc-gen-go's code and a gRPC server on a real
// socket.

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	edtools "example.com/aitools/e2e/edtools"
	edsamplesv1 "example.com/aitools/e2e/gen/edsamples/v1"
	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// echoServer echoes the proto3 and the Editions samples and the shapes, and
// keeps what it received last, as decoded and as bytes.
type echoServer struct {
	linkhubv1.UnimplementedSampleServiceServer
	edsamplesv1.UnimplementedEdSampleServiceServer
	edsamplesv1.UnimplementedShapeServiceServer
	mu      sync.Mutex
	proto3  *linkhubv1.Sample
	edition *edsamplesv1.Sample
	shape   *edsamplesv1.Shape
}

func (s *echoServer) EchoStrict(_ context.Context, r *linkhubv1.Sample) (*linkhubv1.Sample, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.proto3 = r
	return r, nil
}

func (s *echoServer) EchoLoose(ctx context.Context, r *linkhubv1.Sample) (*linkhubv1.Sample, error) {
	return s.EchoStrict(ctx, r)
}

type edSamples struct{ *echoServer }

func (s edSamples) EchoStrict(_ context.Context, r *edsamplesv1.Sample) (*edsamplesv1.Sample, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.edition = r
	return r, nil
}

func (s edSamples) EchoLoose(ctx context.Context, r *edsamplesv1.Sample) (*edsamplesv1.Sample, error) {
	return s.EchoStrict(ctx, r)
}

func (s *echoServer) Echo(_ context.Context, r *edsamplesv1.Shape) (*edsamplesv1.Shape, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shape = r
	return r, nil
}

func serve(t *testing.T) (*grpc.ClientConn, *echoServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	s := &echoServer{}
	linkhubv1.RegisterSampleServiceServer(srv, s)
	edsamplesv1.RegisterEdSampleServiceServer(srv, edSamples{s})
	edsamplesv1.RegisterShapeServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Stop() })
	return conn, s
}

func TestEditionsTwinsHaveTheProto3Schemas(t *testing.T) {
	for _, pair := range []struct {
		proto3  gentools.AgentTool
		edition edtools.AgentTool
	}{
		{gentools.SamplesEchoStrict, edtools.EdSamplesEchoStrict},
		{gentools.SamplesEchoLoose, edtools.EdSamplesEchoLoose},
	} {
		p3, ed := pair.proto3, pair.edition
		if string(p3.Parameters) != string(ed.Parameters) || p3.Strict != ed.Strict || p3.Description != ed.Description {
			t.Errorf("%s and %s differ:\n %s\n %s", p3.Name, ed.Name, p3.Parameters, ed.Parameters)
		}
	}
}

// The values scripts/values.mjs wrote for the proto3 tools (the first 40
// of each: all of .ci/run's, 40 of the nightly run's 200), sent through
// both executors: the Editions server receives the message the proto3 one
// does (compared after a trip through the wire format), and both results
// are the same JSON.
func TestEditionsSampleValues(t *testing.T) {
	dir := os.Getenv("E2E_VALUES_DIR")
	if dir == "" {
		dir = filepath.Join("..", "gen", "values")
	}
	conn, s := serve(t)
	p3, ed := gentools.NewExecutor(conn), edtools.NewExecutor(conn)
	ctx := context.Background()
	for _, names := range [][2]string{
		{gentools.SamplesEchoStrict.Name, edtools.EdSamplesEchoStrict.Name},
		{gentools.SamplesEchoLoose.Name, edtools.EdSamplesEchoLoose.Name},
	} {
		data, err := os.ReadFile(filepath.Join(dir, names[0]+".json"))
		if err != nil {
			t.Fatalf("%v (scripts/run.mjs writes the values)", err)
		}
		var vf struct{ Values []string }
		if err := json.Unmarshal(data, &vf); err != nil {
			t.Fatal(err)
		}
		// 40 of them: under -race, each costs two calls of a few ms.
		if len(vf.Values) < 40 {
			t.Fatalf("%s: only %d values", names[0], len(vf.Values))
		}
		vf.Values = vf.Values[:40]
		for i, args := range vf.Values {
			want, err := p3.Execute(ctx, names[0], args)
			got, edErr := ed.Execute(ctx, names[1], args)
			var te *gentools.ToolError
			if errors.As(err, &te) && len(te.Violations) > 0 && te.Violations[0].Message == "unknown field; no fields are valid here" &&
				edErr != nil && edErr.Error() == err.Error() {
				continue // both refuse keys in an empty message, which the loose schema leaves open
			}
			if err != nil {
				t.Fatalf("%s value %d: %v", names[0], i, err)
			}
			if edErr != nil {
				t.Fatalf("%s value %d: %v", names[1], i, edErr)
			}
			wire, err := proto.Marshal(s.edition)
			if err != nil {
				t.Fatal(err)
			}
			back := &linkhubv1.Sample{}
			if err := proto.Unmarshal(wire, back); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(back, s.proto3) {
				t.Errorf("value %d: the Editions server received %v\n the proto3 one %v", i, s.edition, s.proto3)
			}
			if !jsonEqual(t, want, got) {
				t.Errorf("value %d: results differ:\n proto3   %s\n editions %s", i, want, got)
			}
		}
		t.Logf("%s: %d values, the same through %s", names[0], len(vf.Values), names[1])
	}
}

func TestEditionsFeaturesOnTheWire(t *testing.T) {
	conn, s := serve(t)
	e := edtools.NewExecutor(conn)
	ctx := context.Background()
	out, err := e.Execute(ctx, edtools.EdShapesEcho.Name, `{"name":"n","label":null,"count":null,"size":"SIZE_LARGE",
		"box":{"width":2,"height":null},"boxes":[{"width":3,"height":4}],"expanded":[5,6],"raw":"r\u00e9",
		"sizes":["SIZE_SMALL"],"by_name":null,"by_box":{"width":7,"height":null}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := &edsamplesv1.Shape{
		Name:     proto.String("n"),
		Size:     edsamplesv1.Size_SIZE_LARGE.Enum(),
		Box:      &edsamplesv1.Box{Width: proto.Int32(2)},
		Boxes:    []*edsamplesv1.Box{{Width: proto.Int32(3), Height: proto.Int32(4)}},
		Expanded: []int32{5, 6},
		Raw:      proto.String("ré"),
		Sizes:    []edsamplesv1.Size{edsamplesv1.Size_SIZE_SMALL},
		Pick:     &edsamplesv1.Shape_ByBox{ByBox: &edsamplesv1.Box{Width: proto.Int32(7)}},
	}
	if !proto.Equal(s.shape, want) || s.shape.Label != nil || s.shape.GetCount() != 7 {
		t.Fatalf("server received %v\n want %v", s.shape, want)
	}
	// Groups for box (5), boxes (6) and by_box (11); one varint per value
	// of expanded (7).
	wire, _ := proto.Marshal(s.shape)
	groups, varints := map[protowire.Number]int{}, 0
	for b := wire; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if n < 0 || m < 0 {
			t.Fatal("bad wire format")
		}
		if typ == protowire.StartGroupType {
			groups[num]++
		}
		if num == 7 && typ == protowire.VarintType {
			varints++
		}
		b = b[n+m:]
	}
	if groups[5] != 1 || groups[6] != 1 || groups[11] != 1 || varints != 2 {
		t.Errorf("groups %v, expanded varints %d", groups, varints)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// The result is protobuf JSON: unset explicit-presence fields are left
	// out, the Box read back from groups is whole.
	_, label := got["label"]
	_, count := got["count"]
	if got["size"] != "SIZE_LARGE" || got["raw"] != "ré" || label || count ||
		!reflect.DeepEqual(got["by_box"], map[string]any{"width": 7.0}) {
		t.Errorf("result %s", out)
	}
	// A Box without its LEGACY_REQUIRED width is refused before the call.
	s.shape = nil
	if _, err := e.Execute(ctx, edtools.EdShapesEcho.Name, `{"name":"n","label":null,"count":null,"size":null,
		"box":{"width":null,"height":1},"boxes":[],"expanded":[],"raw":null,"sizes":[],"by_name":null,"by_box":null}`); err == nil ||
		err.Error() != "invalid arguments, nothing was sent:\n- \"box.width\": missing required field" {
		t.Errorf("a Box without width: %v", err)
	}
	if s.shape != nil {
		t.Errorf("the server received %v", s.shape)
	}
}

func TestEditionsUndeclaredClosedEnumNumber(t *testing.T) {
	// name = "n" (field 1), size = 9 (field 4): 9 is no Size value.
	data := []byte{0x0a, 0x01, 0x6e, 0x20, 0x09}
	shape := &edsamplesv1.Shape{}
	if err := proto.Unmarshal(data, shape); err != nil {
		t.Fatal(err)
	}
	// protobuf-go treats every enum as open (its documented non-conformance
	// with closed enums): the field holds 9, where protobuf-es and Python's
	// protobuf keep 9 as an unknown field and leave the field unset (the
	// TypeScript and Python suites check that). docs/editions.md says what
	// follows for the Go executors' results.
	if shape.Size == nil || shape.GetSize() != 9 {
		t.Errorf("size %v: protobuf-go now reads closed enums as closed; update docs/editions.md", shape.Size)
	}
	if back, err := proto.Marshal(shape); err != nil || string(back) != string(data) {
		t.Errorf("marshaled back %x (%v), want %x", back, err, data)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}
