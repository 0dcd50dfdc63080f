package gentools_test

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	linkhubv1 "example.com/aitools/e2e/gen/linkhub/v1"
)

// Scenario 6: fifty conversations at once, one executor each, all on the one
// shared connection. Each numbers its aliases from 1, and they resolve to its
// own entities only.
func TestParallelConversationsStayApart(t *testing.T) {
	const conversations = 50
	c := needServer(t)
	resetServer(t)
	ctx := ctxT(t)

	type result struct {
		ws       string
		m        *model
		link2    string // link-2's UUID, as the server listed it
		step1    string
		theme2ID string
	}
	results := make([]result, conversations)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ws := newUUID()
			m := newModel(t, c, ws)
			results[i].ws, results[i].m = ws, m
			// Calls below only report (t.Errorf): t.Fatal must not run off the test goroutine.
			do := func(tool string, args any) map[string]any {
				out, err := m.e.Execute(ctx, tool, js(args))
				if err != nil {
					t.Errorf("conversation %d: %s: %v", i, tool, err)
					return nil
				}
				m.checkNoUUID(tool, out)
				return decodeObject(t, out)
			}
			expect := func(what string, got any, want string) {
				if got != want {
					t.Errorf("conversation %d: %s = %v, want %s", i, what, got, want)
				}
			}
			for k := 1; k <= 2; k++ {
				r := do("page_themes_create", map[string]any{
					"workspace_id": ws, "name": fmt.Sprintf("c%d theme %d", i, k), "background_color": "",
					"font": "", "palette": []any{},
				})
				expect("theme id", dig(r, "page_theme", "id"), fmt.Sprintf("theme-%d", k))
			}
			for k := 1; k <= 3; k++ {
				r := do("links_create", map[string]any{
					"workspace_id": ws, "target_url": fmt.Sprintf("https://example.com/c%d/%d", i, k), "slug": nil,
					"page_theme_id": fmt.Sprintf("theme-%d", 1+k%2), "labels": []any{}, "title": fmt.Sprintf("c%d link %d", i, k), "expire_after": nil,
				})
				expect("link id", dig(r, "link", "id"), fmt.Sprintf("link-%d", k))
				expect("link theme", dig(r, "link", "page_theme_id"), fmt.Sprintf("theme-%d", 1+k%2))
			}
			r := do("links_list", map[string]any{"workspace_id": ws, "page_theme_id": "theme-2"})
			expect("links of theme-2", words(dig(r, "links", 0, "id"), dig(r, "links", 1, "id"), dig(r, "links", 2, "id")), "link-1 link-3 <nil>")
			r = do("links_get", map[string]any{"id": "link-2"})
			expect("links_get link-2 title", dig(r, "link", "title"), fmt.Sprintf("c%d link 2", i))
			r = do("steps_create", map[string]any{"link_id": "link-3", "send_email": nil, "open_link": map[string]any{"link_id": "link-2"}, "wait": nil})
			expect("step", words(dig(r, "step", "id"), dig(r, "step", "link_id"), dig(r, "step", "open_link", "link_id")), "step-1 link-3 link-2")
			r = do("steps_list", map[string]any{"link_id": "link-3"})
			expect("steps of link-3", words(dig(r, "steps", 0, "id"), dig(r, "steps", 1, "id")), "step-1 <nil>")
		}()
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	// Every alias resolves to the conversation's own entities.
	links := linkhubv1.NewLinkServiceClient(c)
	themes := linkhubv1.NewPageThemeServiceClient(c)
	var got, wantGets []string
	for i, r := range results {
		am := r.m.e.GetAliasManager()
		ll, err := links.ListLinks(ctx, &linkhubv1.ListLinksRequest{WorkspaceId: r.ws})
		if err != nil || len(ll.GetLinks()) != 3 {
			t.Fatalf("conversation %d: ListLinks %v %v", i, ll, err)
		}
		tl, err := themes.ListPageThemes(ctx, &linkhubv1.ListPageThemesRequest{WorkspaceId: r.ws})
		if err != nil || len(tl.GetPageThemes()) != 2 {
			t.Fatalf("conversation %d: ListPageThemes %v %v", i, tl, err)
		}
		for k, l := range ll.GetLinks() {
			if a := fmt.Sprintf("link-%d", k+1); am.ResolveAlias(a) != l.GetId() {
				t.Errorf("conversation %d: %s = %s, server %s", i, a, am.ResolveAlias(a), l.GetId())
			}
		}
		for k, th := range tl.GetPageThemes() {
			if a := fmt.Sprintf("theme-%d", k+1); am.ResolveAlias(a) != th.GetId() {
				t.Errorf("conversation %d: %s = %s, server %s", i, a, am.ResolveAlias(a), th.GetId())
			}
		}
		state, _ := am.ExportState()
		if n := len(uuidRe.FindAllString(string(state), -1)); n != 6 {
			t.Errorf("conversation %d holds %d aliases, want 6: %s", i, n, state)
		}
		wantGets = append(wantGets, ll.GetLinks()[1].GetId())
	}
	// The server saw each conversation's link-2 UUID once in a GetLink.
	for _, rec := range recorded(t) {
		if rec.GetProcedure() == "linkhub.v1.LinkService/GetLink" {
			got = append(got, decodeRecorded(t, rec).(*linkhubv1.GetLinkRequest).GetId())
		}
		if a := aliasRe.FindString(rec.GetRequestJson()); a != "" {
			t.Errorf("%s carries the alias %s: %s", rec.GetProcedure(), a, rec.GetRequestJson())
		}
	}
	sort.Strings(got)
	sort.Strings(wantGets)
	if fmt.Sprint(got) != fmt.Sprint(wantGets) {
		t.Errorf("GetLink ids recorded:\n got  %v\n want %v", got, wantGets)
	}
}

// dig is get without a *testing.T, for goroutines: nil when the path is absent.
func dig(v any, path ...any) any {
	cur := v
	for _, p := range path {
		switch k := p.(type) {
		case string:
			obj, _ := cur.(map[string]any)
			cur = obj[k]
		case int:
			arr, _ := cur.([]any)
			if k >= len(arr) {
				return nil
			}
			cur = arr[k]
		}
	}
	return cur
}

// words writes values separated by spaces (nil as <nil>).
func words(vs ...any) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprint(v)
	}
	return out
}
