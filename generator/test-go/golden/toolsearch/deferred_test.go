package gentools

// The deferred tools in a file without conversations (tools=all, no
// aliases: no ConversationStore nor MemoryConversationStore here): any
// store with Load, LoadTools and LoadedTools keeps the loaded tools, and
// its errors come back as it wrote them.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

// loadedToolsStore keeps loaded tools per handle, in memory; down makes
// every operation fail.
type loadedToolsStore struct {
	mu     sync.Mutex
	loaded map[string][]string
	down   error
}

func (s *loadedToolsStore) Load(ctx context.Context, handle string) (string, string, error) {
	return "epoch", "{}", s.down
}

func (s *loadedToolsStore) LoadTools(ctx context.Context, handle, epoch string, names []string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down != nil {
		return nil, s.down
	}
	for _, name := range names {
		if !slices.Contains(s.loaded[handle], name) {
			s.loaded[handle] = append(s.loaded[handle], name)
		}
	}
	return slices.Clone(s.loaded[handle]), nil
}

func (s *loadedToolsStore) LoadedTools(ctx context.Context, handle string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.loaded[handle]), s.down
}

func TestDeferredToolsWithoutConversations(t *testing.T) {
	ctx := context.Background()
	store := &loadedToolsStore{loaded: map[string][]string{}}
	deferred, err := NewDeferredTools(DeferredToolsOptions{Tools: AllTools(), Search: ToolSearchData, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	// Nothing loaded yet: an empty list, not nil (JSON [], as in TypeScript).
	if loaded, err := deferred.Loaded(ctx, "h"); err != nil || loaded == nil || len(loaded) != 0 {
		t.Fatalf("Loaded before a search: %#v, %v", loaded, err)
	}
	found, err := deferred.Search(ctx, "h", "move a book to another shelf", 1)
	if err != nil || !slices.Equal(found.Found, []string{"LibraryService_MoveBook"}) || !slices.Equal(found.Loaded, found.Found) {
		t.Fatalf("Search: %+v, %v", found, err)
	}
	chat, err := deferred.OpenAIChat(ctx, "h")
	if err != nil || len(chat) != 2 || chat[0].Function.Name != "search_tools" || chat[1].Function.Name != "LibraryService_MoveBook" {
		t.Fatalf("OpenAIChat: %+v, %v", chat, err)
	}
	if !strings.Contains(chat[0].Function.Description, "LibraryService_Books (") {
		t.Errorf("search_tools description %q names no namespace", chat[0].Function.Description)
	}
	// The Gemini OpenAPI form is the generated one.
	if decls, err := deferred.Gemini(ctx, "h", true); err != nil || len(decls) != 2 || decls[0].Parameters == nil {
		t.Fatalf("Gemini: %+v, %v", decls, err)
	}
	namespaces, _ := ToolSearchData.Namespaces()
	items, err := deferred.OpenAIResponses(ctx, "h", OpenAIDeferredOptions{Search: "hosted"})
	if err != nil || len(items) != len(namespaces)+1 {
		t.Fatalf("OpenAIResponses: %d items, %v", len(items), err)
	}
	tool, err := deferred.ToolOf("LibraryService_Books", "MoveBook")
	if err != nil || tool != "LibraryService_MoveBook" {
		t.Fatalf("ToolOf: %q, %v", tool, err)
	}

	// Without conversations the store's error is returned as it is.
	store.down = errors.New("store down")
	if _, err := deferred.Search(ctx, "h", "books", 0); err != store.down {
		t.Errorf("Search with the store down: %v", err)
	}
	if _, err := deferred.Loaded(ctx, "h"); err != store.down {
		t.Errorf("Loaded with the store down: %v", err)
	}
}
