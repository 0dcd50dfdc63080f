package gentools

// The tool-search data of tool_search=true as the generated file declares
// it (ToolSearchData), read by the inlined runtime: the namespaces (a
// service of more than 10 tools split by resource, one of one resource kept
// whole, a service without a comment) and a ranking over the index.

import (
	"strings"
	"testing"
)

func TestToolSearchNamespaces(t *testing.T) {
	namespaces, err := ToolSearchData.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	var order []string
	for _, ns := range namespaces {
		order = append(order, ns.Name)
		for _, tool := range ns.Tools {
			got[ns.Name] = append(got[ns.Name], tool.Function+"="+tool.Tool)
		}
	}
	wantOrder := "LibraryService_Health LibraryService_Books LibraryService_Shelves NoteService VolumeService"
	if strings.Join(order, " ") != wantOrder {
		t.Fatalf("namespaces %v, want %s", order, wantOrder)
	}
	if books := strings.Join(got["LibraryService_Books"], " "); books != "CreateBook=LibraryService_CreateBook DeleteBook=LibraryService_DeleteBook GetBook=LibraryService_GetBook ListBooks=LibraryService_ListBooks MoveBook=LibraryService_MoveBook UpdateBook=LibraryService_UpdateBook" {
		t.Errorf("LibraryService_Books: %s", books)
	}
	if n := len(got["VolumeService"]); n != 11 {
		t.Errorf("VolumeService has %d functions, want 11 (one resource: not split)", n)
	}
	for _, ns := range namespaces {
		if ns.Name == "NoteService" && !strings.HasPrefix(ns.Description, "Tools of the aitools.test.toolsearch.v1.NoteService service.") {
			t.Errorf("NoteService description %q", ns.Description)
		}
	}
}

func TestToolSearchRanking(t *testing.T) {
	hits, err := RankTools(ToolSearchData, "move a book to another shelf", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Name != "LibraryService_MoveBook" {
		t.Fatalf("hits %v, want LibraryService_MoveBook first", hits)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hits not by score: %v", hits)
		}
	}
	if _, err := RankTools(ToolSearchData, "books", 0); err == nil {
		t.Error("limit 0: no error")
	}
}
