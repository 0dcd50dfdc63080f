package gentools_test

// FieldMask arguments (issue 31, CONTRACT31 M4): the model may write the
// paths in the schema's snake_case or in lowerCamel; the executor checks each
// path against the mask's message and sends the wire form, so the server
// reads the proto names; a bad path is refused with a suggestion, nothing
// sent.

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
)

func TestUpdateMaskReachesTheServerAsPaths(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	m := newModel(t, c, ws)
	createLinks(ctx, m, ws, 1)
	r := m.call(ctx, "page_themes_create", js(map[string]any{
		"workspace_id": ws, "name": "t", "background_color": "", "font": "", "palette": []any{},
	}))
	theme := str(t, r, "page_theme", "id")
	themes, err := linkhubv1.NewPageThemeServiceClient(c).ListPageThemes(ctx, &linkhubv1.ListPageThemesRequest{WorkspaceId: ws})
	if err != nil || len(themes.GetPageThemes()) != 1 {
		t.Fatalf("ListPageThemes: %v %v", themes, err)
	}
	themeID, linkID := themes.GetPageThemes()[0].GetId(), linkIDs(t, c, ws)[0]

	from := len(recorded(t))
	target, other := "https://example.com/moved", "https://example.com/camel"
	r = m.call(ctx, "links_update", js(map[string]any{
		"id": "link-1", "target_url": target, "page_theme_id": theme, "update_mask": "target_url, page_theme_id",
	}))
	if str(t, r, "link", "target_url") != target || str(t, r, "link", "page_theme_id") != theme {
		t.Errorf("links_update (snake_case mask): %v", r)
	}
	// lowerCamel paths are taken as they are.
	m.call(ctx, "links_update", js(map[string]any{"id": "link-1", "target_url": other, "update_mask": "targetUrl"}))
	expectRecordedFrom(t, from, []want{
		{"linkhub.v1.LinkService/UpdateLink", &linkhubv1.UpdateLinkRequest{
			Id: linkID, TargetUrl: &target, PageThemeId: &themeID,
			UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"target_url", "page_theme_id"}},
		}},
		{"linkhub.v1.LinkService/UpdateLink", &linkhubv1.UpdateLinkRequest{
			Id: linkID, TargetUrl: &other, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"target_url"}},
		}},
	})

	// A path naming no field of the request: the suggestion and the valid
	// fields, nothing sent.
	expectRejected(t, m.e, "links_update", `{"id":"link-1","title":"x","update_mask":"title,targt_url"}`,
		"invalid arguments, nothing was sent:\n- \"update_mask\": unknown field \"targt_url\" in path \"targt_url\"; "+
			"did you mean \"target_url\"? valid fields: id, target_url, title, page_theme_id, status, update_mask")
	expectRejected(t, m.e, "links_update", `{"id":"link-1","title":"x","update_mask":"title.text"}`,
		"invalid arguments, nothing was sent:\n- \"update_mask\": field \"title\" has no fields, in path \"title.text\"")

	// "*" reaches the server as it is (Go's protojson refuses it; the
	// executor sends it all the same), which refuses it for this method.
	_, err = m.e.Execute(ctx, "links_update", `{"id":"link-1","title":"x","update_mask":" * "}`)
	if err == nil || !strings.Contains(err.Error(), `update_mask path "*" is not an updatable field`) {
		t.Errorf("update_mask \"*\": %v", err)
	}
}

// A map key in a path reaches the server as written when protojson can
// carry it ([a-z][a-z0-9]*); any other key is refused, nothing sent
// (protojson would read "Prod" as "_prod").
func TestMaskMapKeys(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	m := newModel(t, c, newUUID())
	expectRejected(t, m.e, "samples_echo_loose", `{"mask":"byName.prod2,by_name.Prod"}`,
		"invalid arguments, nothing was sent:\n- \"mask\": map key \"Prod\" in path \"by_name.Prod\" cannot be sent in a field mask: "+
			"keys there take lower-case letters and digits only, starting with a letter")
	from := len(recorded(t))
	m.call(ctx, "samples_echo_loose", `{"mask":"byName.prod2, by_name.k"}`)
	expectRecordedFrom(t, from, []want{{"linkhub.v1.SampleService/EchoLoose",
		&linkhubv1.Sample{Mask: &fieldmaskpb.FieldMask{Paths: []string{"by_name.prod2", "by_name.k"}}}}})
}
