package gentools_test

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// Scenario 5: server errors reach the caller as *ToolErrors that are gRPC
// status errors, code, message and details intact.
func TestServerErrorsKeepCodeMessageAndDetails(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	m := newModel(t, c, ws)
	createLinks(ctx, m, ws, 2)
	ids := linkIDs(t, c, ws)

	// A deleted link's alias still resolves; the server answers NOT_FOUND.
	// The message the model reads names the alias, not the UUID the server
	// wrote; the details keep the raw id for the application.
	m.call(ctx, "links_delete", `{"id":"link-2"}`)
	from := len(recorded(t))
	_, err := m.e.Execute(ctx, "links_get", `{"id":"link-2"}`)
	expectStatus(t, err, codes.NotFound, `link "link-2" not found`,
		&linkhubv1.ResourceInfo{ResourceType: "link", ResourceId: ids[1]})
	_, err = m.e.Execute(ctx, "steps_create", `{"link_id":"link-2","send_email":null,"open_link":null,"wait":{"duration":"60s"}}`)
	if status.Code(err) != codes.NotFound {
		t.Errorf("steps_create on a deleted link: %v, want NOT_FOUND", err)
	}
	expectRecordedFrom(t, from, []want{
		{"linkhub.v1.LinkService/GetLink", &linkhubv1.GetLinkRequest{Id: ids[1]}},
		{"linkhub.v1.WorkflowService/CreateStep", &linkhubv1.CreateStepRequest{
			LinkId: ids[1], Action: &linkhubv1.CreateStepRequest_Wait{Wait: &linkhubv1.Wait{Duration: durationOf(60)}},
		}},
	})

	// A bad target_url: INVALID_ARGUMENT with a FieldViolation.
	_, err = m.e.Execute(ctx, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "ftp://example.com/file", "slug": nil,
		"page_theme_id": "", "labels": []any{}, "title": nil, "expire_after": nil,
	}))
	msg := `target_url "ftp://example.com/file" is not an absolute http(s) URL`
	expectStatus(t, err, codes.InvalidArgument, msg, &linkhubv1.FieldViolation{Field: "target_url", Description: msg})
	_, err = m.e.Execute(ctx, "links_update", `{"id":"link-1","target_url":"not a url","update_mask":"targetUrl"}`)
	msg = `target_url "not a url" is not an absolute http(s) URL`
	expectStatus(t, err, codes.InvalidArgument, msg, &linkhubv1.FieldViolation{Field: "target_url", Description: msg})

	// A step without an action: INVALID_ARGUMENT with a FieldViolation.
	_, err = m.e.Execute(ctx, "steps_create", `{"link_id":"link-1","send_email":null,"open_link":null,"wait":null}`)
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument || len(st.Details()) != 1 {
		t.Errorf("steps_create without an action: %v", err)
	} else if fv, ok := st.Details()[0].(*linkhubv1.FieldViolation); !ok || fv.GetDescription() != st.Message() {
		t.Errorf("steps_create without an action: detail %v", st.Details())
	}

	// The executor's own refusals are *ToolErrors too: INVALID_ARGUMENT,
	// oneof members named as in the schema, nothing sent.
	from = len(recorded(t))
	_, err = m.e.Execute(ctx, "steps_create", `{"link_id":"link-1","send_email":{"to":"a@example.com","subject":"s"},"open_link":{"link_id":"link-1"},"wait":null}`)
	want := "invalid arguments, nothing was sent:\n- \"open_link\": \"send_email\" and \"open_link\" are members of oneof \"action\": set only one"
	var te *gentools.ToolError
	if !errors.As(err, &te) || err.Error() != want || te.Reason != "invalid-arguments" || status.Code(err) != codes.InvalidArgument {
		t.Errorf("two oneof members: %v, want %s (INVALID_ARGUMENT)", err, want)
	}
	if len(recorded(t)) != from {
		t.Errorf("a refused call reached the server")
	}
}

func expectStatus(t *testing.T, err error, code codes.Code, msg string, detail proto.Message) {
	t.Helper()
	if err == nil {
		t.Errorf("no error; want %s %q", code, msg)
		return
	}
	st, ok := status.FromError(err)
	if !ok {
		t.Errorf("%v is not a gRPC status error", err)
		return
	}
	var se interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &se) {
		t.Errorf("%T does not carry a status", err)
	}
	if st.Code() != code || st.Message() != msg {
		t.Errorf("status %s %q, want %s %q", st.Code(), st.Message(), code, msg)
	}
	details := st.Details()
	if len(details) != 1 {
		t.Errorf("details %v, want [%v]", details, detail)
		return
	}
	got, ok := details[0].(proto.Message)
	if !ok || !proto.Equal(got, detail) {
		t.Errorf("detail %v, want %v", details[0], detail)
	}
}
