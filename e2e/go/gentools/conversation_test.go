package gentools_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
)

// Scenario 1: a scripted conversation over every kind of tool. The model only
// ever sees aliases (its workspace id stays raw); the server only ever
// receives the exact UUIDs.
func TestScriptedConversation(t *testing.T) {
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)
	ws := newUUID()
	m := newModel(t, c, ws)

	// The model creates a theme, then two links on it.
	r := m.call(ctx, "page_themes_create", js(map[string]any{
		"workspace_id": ws, "name": "Spring", "background_color": "#ffeedd",
		"font": "Inter", "palette": []any{map[string]any{"key": "accent", "value": "#ff0066"}},
	}))
	theme := str(t, r, "page_theme", "id")
	if theme != "theme-1" || str(t, r, "page_theme", "workspace_id") != ws {
		t.Fatalf("page_themes_create: %v", r)
	}
	r = m.call(ctx, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "https://example.com/spring", "slug": nil,
		"page_theme_id": theme, "labels": []any{map[string]any{"key": "campaign", "value": "spring"}},
		"title": "Spring sale", "expire_after": "86400s",
	}))
	link1 := str(t, r, "link", "id")
	if link1 != "link-1" || str(t, r, "link", "page_theme_id") != "theme-1" || str(t, r, "link", "workspace_id") != ws {
		t.Fatalf("links_create: %v", r)
	}
	r = m.call(ctx, "links_create", js(map[string]any{
		"workspace_id": ws, "target_url": "https://example.com/summer", "slug": "summer",
		"page_theme_id": "", "labels": []any{}, "title": nil, "expire_after": nil,
	}))
	link2 := str(t, r, "link", "id")
	if link2 != "link-2" {
		t.Fatalf("second links_create: %v", r)
	}

	// It lists them, and the list shows the same aliases.
	r = m.call(ctx, "links_list", js(map[string]any{"workspace_id": ws, "page_theme_id": nil}))
	if str(t, r, "links", 0, "id") != link1 || str(t, r, "links", 1, "id") != link2 || len(get(t, r, "links").([]any)) != 2 {
		t.Fatalf("links_list: %v", r)
	}

	// What the server really holds, learnt outside the conversation.
	links, err := linkhubv1.NewLinkServiceClient(c).ListLinks(ctx, &linkhubv1.ListLinksRequest{WorkspaceId: ws})
	if err != nil || len(links.GetLinks()) != 2 {
		t.Fatalf("ListLinks: %v %v", links, err)
	}
	themeID, link1ID, link2ID := links.GetLinks()[0].GetPageThemeId(), links.GetLinks()[0].GetId(), links.GetLinks()[1].GetId()
	for _, id := range []string{themeID, link1ID, link2ID} {
		if !uuidRe.MatchString(id) || id == ws {
			t.Fatalf("server id %q is not an entity UUID", id)
		}
	}

	// A step of link-1 opens link-2.
	r = m.call(ctx, "steps_create", js(map[string]any{
		"link_id": link1, "send_email": nil, "open_link": map[string]any{"link_id": link2}, "wait": nil,
	}))
	if str(t, r, "step", "id") != "step-1" || str(t, r, "step", "link_id") != link1 || str(t, r, "step", "open_link", "link_id") != link2 {
		t.Fatalf("steps_create: %v", r)
	}

	// It renames and pauses link-2 (non-strict tool: only what it changes).
	r = m.call(ctx, "links_update", js(map[string]any{
		"id": link2, "title": "Summer", "status": "LINK_STATUS_PAUSED", "update_mask": "title,status",
	}))
	if str(t, r, "link", "id") != link2 || str(t, r, "link", "title") != "Summer" || str(t, r, "link", "status") != "LINK_STATUS_PAUSED" {
		t.Fatalf("links_update: %v", r)
	}

	// Deletes it, and pings.
	if r = m.call(ctx, "links_delete", js(map[string]any{"id": link2})); len(r) != 0 {
		t.Fatalf("links_delete: %v", r)
	}
	if r = m.call(ctx, "ping", `{}`); str(t, r, "server_time") == "" {
		t.Fatalf("ping: %v", r)
	}

	// The aliases are the server's entities.
	am := m.e.GetAliasManager()
	for alias, id := range map[string]string{"theme-1": themeID, "link-1": link1ID, "link-2": link2ID} {
		if got := am.ResolveAlias(alias); got != id {
			t.Errorf("%s resolves to %s, want %s", alias, got, id)
		}
	}

	// Everything that reached the server, exactly: raw UUIDs, never an alias.
	title, summer := "Spring sale", "summer"
	steps, err := linkhubv1.NewWorkflowServiceClient(c).ListSteps(ctx, &linkhubv1.ListStepsRequest{LinkId: link1ID})
	if err != nil || len(steps.GetSteps()) != 1 || am.ResolveAlias("step-1") != steps.GetSteps()[0].GetId() {
		t.Fatalf("ListSteps: %v %v (step-1 = %s)", steps, err, am.ResolveAlias("step-1"))
	}
	expectRecorded(t, []want{
		{"linkhub.v1.PageThemeService/CreatePageTheme", &linkhubv1.CreatePageThemeRequest{
			WorkspaceId: ws, Name: "Spring", BackgroundColor: "#ffeedd",
			Font: wrapperspb.String("Inter"), Palette: map[string]string{"accent": "#ff0066"},
		}},
		{"linkhub.v1.LinkService/CreateLink", &linkhubv1.CreateLinkRequest{
			WorkspaceId: ws, TargetUrl: "https://example.com/spring", PageThemeId: themeID,
			Labels: map[string]string{"campaign": "spring"}, Title: &title, ExpireAfter: durationpb.New(86400e9),
		}},
		{"linkhub.v1.LinkService/CreateLink", &linkhubv1.CreateLinkRequest{
			WorkspaceId: ws, TargetUrl: "https://example.com/summer", Slug: &summer,
		}},
		{"linkhub.v1.LinkService/ListLinks", &linkhubv1.ListLinksRequest{WorkspaceId: ws}},
		{"linkhub.v1.LinkService/ListLinks", &linkhubv1.ListLinksRequest{WorkspaceId: ws}}, // ours
		{"linkhub.v1.WorkflowService/CreateStep", &linkhubv1.CreateStepRequest{
			LinkId: link1ID, Action: &linkhubv1.CreateStepRequest_OpenLink{OpenLink: &linkhubv1.OpenLink{LinkId: link2ID}},
		}},
		{"linkhub.v1.LinkService/UpdateLink", &linkhubv1.UpdateLinkRequest{
			Id: link2ID, Title: proto2("Summer"), Status: linkhubv1.LinkStatus_LINK_STATUS_PAUSED,
			UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"title", "status"}},
		}},
		{"linkhub.v1.LinkService/DeleteLink", &linkhubv1.DeleteLinkRequest{Id: link2ID}},
		{"linkhub.v1.WorkflowService/Ping", &emptypb.Empty{}},
		{"linkhub.v1.WorkflowService/ListSteps", &linkhubv1.ListStepsRequest{LinkId: link1ID}}, // ours
	})
}

func proto2(s string) *string { return &s }
