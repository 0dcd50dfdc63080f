package gentools_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
	"example.com/aitools/e2e/gentools"
)

// createLinks has the model create n links in ws; returns the aliases it saw.
func createLinks(ctx context.Context, m *model, ws string, n int) []string {
	m.t.Helper()
	var aliases []string
	for i := 1; i <= n; i++ {
		r := m.call(ctx, "links_create", js(map[string]any{
			"workspace_id": ws, "target_url": fmt.Sprintf("https://example.com/%d", i), "slug": nil,
			"page_theme_id": "", "labels": []any{}, "title": fmt.Sprintf("link %d", i), "expire_after": nil,
		}))
		aliases = append(aliases, str(m.t, r, "link", "id"))
	}
	return aliases
}

// linkIDs is what the server holds for ws, oldest first, asked outside the
// conversation (the request is recorded like any other).
func linkIDs(t *testing.T, c grpc.ClientConnInterface, ws string) []string {
	t.Helper()
	resp, err := linkhubv1.NewLinkServiceClient(c).ListLinks(ctxT(t), &linkhubv1.ListLinksRequest{WorkspaceId: ws})
	if err != nil {
		t.Fatalf("ListLinks: %v", err)
	}
	var ids []string
	for _, l := range resp.GetLinks() {
		ids = append(ids, l.GetId())
	}
	return ids
}

// Scenario 2: with twelve links, link-10, link-11 and link-12 are never read
// as link-1 (nor link-1 as one of them).
func TestTwelveLinksResolveExactly(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	m := newModel(t, c, ws)
	aliases := createLinks(ctx, m, ws, 12)
	for i, a := range aliases {
		if a != fmt.Sprintf("link-%d", i+1) {
			t.Fatalf("aliases %v, want link-1..link-12", aliases)
		}
	}
	ids := linkIDs(t, c, ws)
	if len(ids) != 12 {
		t.Fatalf("server holds %d links", len(ids))
	}
	from := len(recorded(t))
	var wants []want
	for _, n := range []int{10, 11, 12, 1} {
		alias, id := fmt.Sprintf("link-%d", n), ids[n-1]
		r := m.call(ctx, "links_get", js(map[string]any{"id": alias}))
		if str(t, r, "link", "id") != alias || str(t, r, "link", "title") != fmt.Sprintf("link %d", n) {
			t.Errorf("links_get %s: %v", alias, r)
		}
		title := fmt.Sprintf("renamed %d", n)
		r = m.call(ctx, "links_update", js(map[string]any{"id": alias, "title": title, "update_mask": "title"}))
		if str(t, r, "link", "id") != alias || str(t, r, "link", "title") != title {
			t.Errorf("links_update %s: %v", alias, r)
		}
		wants = append(wants,
			want{"linkhub.v1.LinkService/GetLink", &linkhubv1.GetLinkRequest{Id: id}},
			want{"linkhub.v1.LinkService/UpdateLink", &linkhubv1.UpdateLinkRequest{
				Id: id, Title: &title, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"title"}},
			}})
	}
	expectRecordedFrom(t, from, wants)
	// The server's state agrees: exactly those four links were renamed.
	resp, err := linkhubv1.NewLinkServiceClient(c).ListLinks(ctx, &linkhubv1.ListLinksRequest{WorkspaceId: ws})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range resp.GetLinks() {
		n, title := i+1, fmt.Sprintf("link %d", i+1)
		if n == 1 || n >= 10 {
			title = fmt.Sprintf("renamed %d", n)
		}
		if l.GetTitle() != title {
			t.Errorf("link %d (%s) has title %q, want %q", n, l.GetId(), l.GetTitle(), title)
		}
	}
}

// expectRejected runs a call that must fail with exactly msg before any
// request reaches the server.
func expectRejected(t *testing.T, e *gentools.Executor, tool, args, msg string) {
	t.Helper()
	before := len(recorded(t))
	_, err := e.Execute(ctxT(t), tool, args)
	if err == nil || err.Error() != msg {
		t.Errorf("%s %s:\n got  %v\n want %s", tool, args, err, msg)
	}
	if after := len(recorded(t)); after != before {
		t.Errorf("%s %s: %d request(s) reached the server", tool, args, after-before)
	}
}

// Scenario 3: invented and stale aliases are refused with the valid ones,
// and nothing is sent.
func TestUnknownAliasesAreRefusedBeforeAnyRequest(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	a := newModel(t, c, ws)
	createLinks(ctx, a, ws, 3)
	a.call(ctx, "page_themes_create", js(map[string]any{
		"workspace_id": ws, "name": "t", "background_color": "", "font": "", "palette": []any{},
	}))

	// Invented.
	expectRejected(t, a.e, "links_get", `{"id":"link-99"}`,
		"invalid arguments, nothing was sent:\n- \"id\": unknown alias \"link-99\"; valid link aliases: link-1, link-2, link-3")
	expectRejected(t, a.e, "steps_create", `{"link_id":"link-1","send_email":null,"open_link":{"link_id":"link-4"},"wait":null}`,
		"invalid arguments, nothing was sent:\n- \"open_link.link_id\": unknown alias \"link-4\"; valid link aliases: link-1, link-2, link-3")
	expectRejected(t, a.e, "links_update", `{"id":"link-2","page_theme_id":"theme-2","update_mask":"pageThemeId"}`,
		"invalid arguments, nothing was sent:\n- \"page_theme_id\": unknown alias \"theme-2\"; valid theme aliases: theme-1")
	expectRejected(t, a.e, "steps_list", `{"link_id":"step-1"}`,
		"invalid arguments, nothing was sent:\n- \"link_id\": unknown alias \"step-1\"; no step aliases exist yet: call a tool that returns steps first")

	// Stale: seen in another conversation. b has one link of its own.
	b := newModel(t, c, ws)
	createLinks(ctx, b, ws, 1)
	expectRejected(t, b.e, "links_get", `{"id":"link-3"}`,
		"invalid arguments, nothing was sent:\n- \"id\": unknown alias \"link-3\"; valid link aliases: link-1")
	expectRejected(t, b.e, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "https://example.com/x", "slug": nil,
		"page_theme_id": "theme-1", "labels": []any{}, "title": nil, "expire_after": nil,
	}), "invalid arguments, nothing was sent:\n- \"page_theme_id\": unknown alias \"theme-1\"; no theme aliases exist yet: call a tool that returns themes first")
	// A third conversation, fresh: nothing is known yet.
	fresh := gentools.NewExecutor(c)
	expectRejected(t, fresh, "links_delete", `{"id":"link-1"}`,
		"invalid arguments, nothing was sent:\n- \"id\": unknown alias \"link-1\"; no link aliases exist yet: call a tool that returns links first")

	// Stale: from before a restore of a fresh state.
	empty, err := gentools.NewAliasManager().ExportState()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.e.GetAliasManager().RestoreState(empty); err != nil {
		t.Fatal(err)
	}
	expectRejected(t, a.e, "links_get", `{"id":"link-2"}`,
		"invalid arguments, nothing was sent:\n- \"id\": unknown alias \"link-2\"; no link aliases exist yet: call a tool that returns links first")

	// Free text that mentions an alias is not an alias: it is sent as written.
	before := len(recorded(t))
	r := a.call(ctx, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "https://example.com/y", "slug": nil,
		"page_theme_id": "", "labels": []any{map[string]any{"key": "note", "value": "like link-99"}},
		"title": "copy of link-99", "expire_after": nil,
	}))
	if str(t, r, "link", "id") != "link-1" || str(t, r, "link", "title") != "copy of link-99" {
		t.Errorf("links_create after restore: %v", r)
	}
	title := "copy of link-99"
	expectRecordedFrom(t, before, []want{{"linkhub.v1.LinkService/CreateLink", &linkhubv1.CreateLinkRequest{
		WorkspaceId: ws, TargetUrl: "https://example.com/y", Title: &title, Labels: map[string]string{"note": "like link-99"},
	}}})
}

// Scenario 7: a conversation's alias state, exported and restored into a
// new executor, carries on where it stopped.
func TestExportRestoreContinuesTheConversation(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	a := newModel(t, c, ws)
	r := a.call(ctx, "page_themes_create", js(map[string]any{
		"workspace_id": ws, "name": "t", "background_color": "#000000", "font": "", "palette": []any{},
	}))
	if str(t, r, "page_theme", "id") != "theme-1" {
		t.Fatalf("page_themes_create: %v", r)
	}
	createLinks(ctx, a, ws, 2)
	state, err := a.e.GetAliasManager().ExportState()
	if err != nil {
		t.Fatal(err)
	}
	ids := linkIDs(t, c, ws)
	themes, err := linkhubv1.NewPageThemeServiceClient(c).ListPageThemes(ctx, &linkhubv1.ListPageThemesRequest{WorkspaceId: ws})
	if err != nil || len(themes.GetPageThemes()) != 1 || len(ids) != 2 {
		t.Fatalf("server state: %v %v %v", ids, themes, err)
	}
	themeID := themes.GetPageThemes()[0].GetId()
	wantState := fmt.Sprintf(`{"aliases":{"link-1":%q,"link-2":%q,"theme-1":%q},"counters":{"link":2,"theme":1},"version":1}`, ids[0], ids[1], themeID)
	if string(state) != wantState {
		t.Errorf("ExportState:\n got  %s\n want %s", state, wantState)
	}

	// Another process, another executor: restore, and go on.
	b := newModel(t, c, ws)
	if err := b.e.GetAliasManager().RestoreState(state); err != nil {
		t.Fatal(err)
	}
	from := len(recorded(t))
	r = b.call(ctx, "links_get", `{"id":"link-2"}`)
	if str(t, r, "link", "id") != "link-2" {
		t.Errorf("links_get link-2 after restore: %v", r)
	}
	r = b.call(ctx, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "https://example.com/3", "slug": nil,
		"page_theme_id": "theme-1", "labels": []any{}, "title": nil, "expire_after": nil,
	}))
	if str(t, r, "link", "id") != "link-3" || str(t, r, "link", "page_theme_id") != "theme-1" {
		t.Errorf("links_create after restore: %v", r)
	}
	r = b.call(ctx, "page_themes_create", js(map[string]any{
		"workspace_id": ws, "name": "u", "background_color": "", "font": "", "palette": []any{},
	}))
	if str(t, r, "page_theme", "id") != "theme-2" {
		t.Errorf("page_themes_create after restore: %v", r)
	}
	r = b.call(ctx, "links_list", js(map[string]any{"workspace_id": ws, "page_theme_id": "theme-1"}))
	var listed []string
	for i := range get(t, r, "links").([]any) {
		listed = append(listed, str(t, r, "links", i, "id"))
	}
	if fmt.Sprint(listed) != "[link-3]" {
		t.Errorf("links_list of theme-1: %v, want [link-3]", listed)
	}
	all := linkIDs(t, c, ws)
	if len(all) != 3 || b.e.GetAliasManager().ResolveAlias("link-3") != all[2] {
		t.Fatalf("link-3 = %s, server %v", b.e.GetAliasManager().ResolveAlias("link-3"), all)
	}
	expectRecordedFrom(t, from, []want{
		{"linkhub.v1.LinkService/GetLink", &linkhubv1.GetLinkRequest{Id: ids[1]}},
		{"linkhub.v1.LinkService/CreateLink", &linkhubv1.CreateLinkRequest{WorkspaceId: ws, TargetUrl: "https://example.com/3", PageThemeId: themeID}},
		{"linkhub.v1.PageThemeService/CreatePageTheme", &linkhubv1.CreatePageThemeRequest{WorkspaceId: ws, Name: "u", Font: wrapperspb.String("")}},
		{"linkhub.v1.LinkService/ListLinks", &linkhubv1.ListLinksRequest{WorkspaceId: ws, PageThemeId: &themeID}},
		{"linkhub.v1.LinkService/ListLinks", &linkhubv1.ListLinksRequest{WorkspaceId: ws}}, // ours
	})
	// The first conversation is untouched by the second's progress.
	if got := a.e.GetAliasManager().ResolveAlias("link-3"); got != "link-3" {
		t.Errorf("link-3 leaked into the first conversation: %s", got)
	}
}
