package gentools

// The executors of the Edition 2023 golden case against a gRPC server on a
// real socket: every feature of features.proto goes through the generated
// decode path, protoc-gen-go's message code and the wire, and back: explicit
// presence (unset stays unset), LEGACY_REQUIRED, a closed enum, DELIMITED
// fields (written as groups on the wire), EXPANDED repeated scalars,
// utf8_validation NONE and json_format LEGACY_BEST_EFFORT.

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"example.com/aitools/testgo/internal/testkit"
	ed2023v1 "example.com/aitools/testgo/pb/ed2023/v1"
)

const shapeUUID = "7f9c24e8-3b12-4c5a-9d1e-2a6b8c0d4e5f"

// shapeServer echoes each request and keeps the last one, as received.
type shapeServer struct {
	ed2023v1.UnimplementedShapeServiceServer
	ed2023v1.UnimplementedTwinServiceServer
	last *ed2023v1.ShapeRequest
	wire []byte
}

func (s *shapeServer) echo(req *ed2023v1.ShapeRequest) (*ed2023v1.ShapeResponse, error) {
	s.last = req
	wire, err := proto.Marshal(req)
	s.wire = wire
	return &ed2023v1.ShapeResponse{Shape: req, Size: req.Size, Shade: req.Shade, Name: req.Name}, err
}

func (s *shapeServer) ShapeStrict(_ context.Context, req *ed2023v1.ShapeRequest) (*ed2023v1.ShapeResponse, error) {
	return s.echo(req)
}

func (s *shapeServer) ShapeLoose(_ context.Context, req *ed2023v1.ShapeRequest) (*ed2023v1.ShapeResponse, error) {
	return s.echo(req)
}

func (s *shapeServer) PutStrict(_ context.Context, req *ed2023v1.PutRequest) (*ed2023v1.PutResponse, error) {
	return &ed2023v1.PutResponse{Id: req.Id, Mood: req.Mood, Note: req.Note}, nil
}

func startShapes(t *testing.T) (*Executor, *shapeServer) {
	s := &shapeServer{}
	conn := testkit.Serve(t, func(srv *grpc.Server) {
		ed2023v1.RegisterShapeServiceServer(srv, s)
		ed2023v1.RegisterTwinServiceServer(srv, s)
	})
	e := NewExecutor(conn)
	e.GetAliasManager().Register("shape", shapeUUID)
	return e, s
}

func TestEditionsFeaturesRoundTrip(t *testing.T) {
	e, s := startShapes(t)
	args := `{"name":"shape-1","label":null,"count":null,"size":"SIZE_LARGE","shade":"SHADE_DARK",
		"box":{"width":3,"height":null},"extra":{"width":4,"height":5},
		"boxes":[{"width":1,"height":2},{"width":6,"height":null}],"expanded":[1,2,3],
		"raw":"caf\u00e9","sizes":["SIZE_SMALL","SIZE_LARGE"],
		"shade_by_name":[{"key":"a","value":"SHADE_LIGHT"}],"title":{"text":"t"},
		"by_name":null,"by_box":{"width":9,"height":null}}`
	out, err := e.Execute(context.Background(), "shapes_strict", args)
	if err != nil {
		t.Fatal(err)
	}
	want := &ed2023v1.ShapeRequest{
		Name:        proto.String(shapeUUID),
		Size:        ed2023v1.Size_SIZE_LARGE.Enum(),
		Shade:       ed2023v1.Shade_SHADE_DARK,
		Box:         &ed2023v1.Box{Width: proto.Int32(3)},
		Extra:       &ed2023v1.Box{Width: proto.Int32(4), Height: proto.Int32(5)},
		Boxes:       []*ed2023v1.Box{{Width: proto.Int32(1), Height: proto.Int32(2)}, {Width: proto.Int32(6)}},
		Expanded:    []int32{1, 2, 3},
		Raw:         proto.String("café"),
		Sizes:       []ed2023v1.Size{ed2023v1.Size_SIZE_SMALL, ed2023v1.Size_SIZE_LARGE},
		ShadeByName: map[string]ed2023v1.Shade{"a": ed2023v1.Shade_SHADE_LIGHT},
		Title:       &ed2023v1.Label{Text: proto.String("t")},
		Pick:        &ed2023v1.ShapeRequest_ByBox{ByBox: &ed2023v1.Box{Width: proto.Int32(9)}},
	}
	if !proto.Equal(s.last, want) {
		t.Fatalf("server received %v\nwant %v", s.last, want)
	}
	// Explicit presence: null arguments stay unset, and the default shows.
	if s.last.Label != nil || s.last.Count != nil || s.last.GetCount() != 7 {
		t.Errorf("label %v count %v (default %d)", s.last.Label, s.last.Count, s.last.GetCount())
	}
	// DELIMITED: box (6), boxes (8) and by_box (15) are groups on the wire;
	// EXPANDED: expanded (9) is one varint per value, not packed.
	groups := map[protowire.Number]int{}
	expanded := 0
	for b := s.wire; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatal("bad wire")
		}
		if typ == protowire.StartGroupType {
			groups[num]++
		}
		if num == 9 && typ == protowire.VarintType {
			expanded++
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			t.Fatal("bad wire")
		}
		b = b[n+m:]
	}
	if groups[6] != 1 || groups[8] != 2 || groups[15] != 1 || groups[7] != 0 || expanded != 3 {
		t.Errorf("groups %v, expanded values %d", groups, expanded)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["name"] != "shape-1" || got["size"] != "SIZE_LARGE" || got["shade"] != "SHADE_DARK" {
		t.Errorf("result %s", out)
	}
	shape := got["shape"].(map[string]any)
	if shape["name"] != "shape-1" || shape["raw"] != "café" || shape["box"].(map[string]any)["width"] != 3.0 {
		t.Errorf("result shape %s", out)
	}
}

func TestEditionsLegacyRequiredAndClosedEnum(t *testing.T) {
	e, s := startShapes(t)
	ctx := context.Background()
	// Non-strict: only name, box, extra, boxes, ... are required by the
	// schema; a call without the explicit-presence fields leaves them unset.
	if _, err := e.Execute(ctx, "shapes_loose", `{"name":"shape-1","box":{"width":1}}`); err != nil {
		t.Fatal(err)
	}
	if s.last.Size != nil || s.last.Label != nil || s.last.GetBox().Height != nil {
		t.Errorf("unset fields came through set: %v", s.last)
	}
	// A name the closed enum does not declare is refused before the call,
	// as for every enum (the decoder, with DiscardUnknown, would drop it and
	// leave the field unset).
	s.last = nil
	_, err := e.Execute(ctx, "shapes_loose", `{"name":"shape-1","box":{"width":1},"size":"SIZE_HUGE"}`)
	const want = "invalid arguments, nothing was sent:\n- \"size\": expected a name of enum aitools.test.ed2023.v1.Size (SIZE_SMALL, SIZE_LARGE), got \"SIZE_HUGE\""
	if err == nil || err.Error() != want {
		t.Errorf("error %v; want %s", err, want)
	}
	if s.last != nil {
		t.Errorf("the call was sent: %v", s.last)
	}
	// A missing LEGACY_REQUIRED field inside a message is refused by the
	// structure check (the argument table) before the call.
	_, err = e.Execute(ctx, "shapes_loose", `{"name":"shape-1","box":{"height":1}}`)
	if err == nil || err.Error() != "invalid arguments, nothing was sent:\n- \"box.width\": missing required field" {
		t.Errorf("a Box without its required width: %v", err)
	}
}

func TestEditionsTwinImplicitPresence(t *testing.T) {
	e, _ := startShapes(t)
	e.GetAliasManager().Register("rec", "0b7e3f0c-8d4a-4c1e-9f2b-5a6d7e8f9a0b")
	out, err := e.Execute(context.Background(), "twin_put_strict", `{"id":"rec-1","note":null,"big":0,"mood":"MOOD_CALM",
		"maybe_mood":null,"item":{"name":"","count":0},"items":[],"numbers":[],"by_name":[],"at":"2026-01-02T03:04:05Z",
		"blob":"","ratio":0,"flag":null,"text":"x","other":null}`)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// Implicit presence: the id and mood are written; the unset note is not.
	if got["id"] != "rec-1" || got["mood"] != "MOOD_CALM" {
		t.Errorf("result %s", out)
	}
	if _, ok := got["note"]; ok {
		t.Errorf("unset note written: %s", out)
	}
}
