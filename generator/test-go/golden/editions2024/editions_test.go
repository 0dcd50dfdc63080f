package gentools

// The executors of the Edition 2024 golden case against a gRPC server on a
// real socket. protoc-gen-go writes the opaque API for Edition 2024 (no
// exported fields: getters, setters and builders); the executors only use
// protojson and the message descriptors, so they work unchanged.

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/grpc"

	"example.com/aitools/testgo/internal/testkit"
	ed2024v1 "example.com/aitools/testgo/pb/ed2024/v1"
)

type twinServer struct {
	ed2024v1.UnimplementedTwinServiceServer
	last *ed2024v1.PutRequest
}

func (s *twinServer) PutStrict(_ context.Context, req *ed2024v1.PutRequest) (*ed2024v1.PutResponse, error) {
	s.last = req
	resp := ed2024v1.PutResponse_builder{Id: req.GetId(), Mood: req.GetMood()}
	if req.HasNote() {
		resp.Note = new(string)
		*resp.Note = req.GetNote()
	}
	return resp.Build(), nil
}

func TestEdition2024OpaqueRoundTrip(t *testing.T) {
	s := &twinServer{}
	conn := testkit.Serve(t, func(srv *grpc.Server) { ed2024v1.RegisterTwinServiceServer(srv, s) })
	e := NewExecutor(conn)
	e.GetAliasManager().Register("rec", "0b7e3f0c-8d4a-4c1e-9f2b-5a6d7e8f9a0b")
	out, err := e.Execute(context.Background(), "twin_put_strict", `{"id":"rec-1","note":"hi","big":"12","mood":"MOOD_BUSY",
		"maybe_mood":null,"item":{"name":"n","count":2},"items":[{"name":"a","count":1}],"numbers":[1,2],
		"by_name":[{"key":"k","value":{"name":"v","count":3}}],"at":"2026-01-02T03:04:05Z",
		"blob":"aGk=","ratio":0.5,"flag":true,"text":null,"other":{"name":"o","count":4}}`)
	if err != nil {
		t.Fatal(err)
	}
	r := s.last
	if r.GetId() != "0b7e3f0c-8d4a-4c1e-9f2b-5a6d7e8f9a0b" || r.GetBig() != 12 || !r.HasNote() || r.HasMaybeMood() ||
		!r.GetFlag() || !r.HasFlag() || r.GetOther().GetCount() != 4 || r.GetByName()["k"].GetCount() != 3 ||
		string(r.GetBlob()) != "hi" || len(r.GetNumbers()) != 2 || r.GetAt().GetSeconds() == 0 {
		t.Errorf("server received %v", r)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["id"] != "rec-1" || got["mood"] != "MOOD_BUSY" || got["note"] != "hi" {
		t.Errorf("result %s", out)
	}
}
