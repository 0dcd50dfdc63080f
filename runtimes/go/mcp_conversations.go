//aitools:inline mcp

package aitools

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"
	"time"
)

//aitools:if aliases

// ErrConversationNotFound is the error of ConversationStore.Load for a
// handle it does not know or whose conversation expired.
var ErrConversationNotFound = errors.New("conversation not found")

// ConversationStore keeps the alias tables of MCP conversations, one per
// handle (docs/mcp.md, "Conversations"). Every method may fail, so that a
// shared store (Redis) fits the same interface; the MCP server shows a
// failure to the model as an isError result.
type ConversationStore interface {
	// Create starts an empty conversation and returns its new handle.
	Create(ctx context.Context) (string, error)
	// Load returns the aliases of a conversation, ErrConversationNotFound
	// when the handle is unknown or expired.
	Load(ctx context.Context, handle string) (*AliasManager, error)
	// Save stores the aliases of a conversation after a call.
	Save(ctx context.Context, handle string, aliases *AliasManager) error
	// Delete ends a conversation; an unknown handle is not an error.
	Delete(ctx context.Context, handle string) error
}

// DefaultConversationTTL is how long an idle conversation of a
// MemoryConversationStore lives.
const DefaultConversationTTL = 30 * time.Minute

// MemoryConversationStore is a ConversationStore in memory: a conversation
// expires after it was idle for the store's TTL; each Load and Save renews
// it.
type MemoryConversationStore struct {
	mu        sync.Mutex
	ttl       time.Duration
	now       func() time.Time
	entries   map[string]*memoryConversation
	lastSweep time.Time
}

type memoryConversation struct {
	aliases *AliasManager
	expires time.Time
}

// NewMemoryConversationStore returns an empty store whose conversations
// expire after ttl idle (DefaultConversationTTL when ttl <= 0).
func NewMemoryConversationStore(ttl time.Duration) *MemoryConversationStore {
	if ttl <= 0 {
		ttl = DefaultConversationTTL
	}
	return &MemoryConversationStore{ttl: ttl, now: time.Now, entries: map[string]*memoryConversation{}}
}

// Create starts a conversation under a new handle of 128 random bits.
func (s *MemoryConversationStore) Create(ctx context.Context) (string, error) {
	handle, err := newConversationHandle()
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if now.Sub(s.lastSweep) >= s.ttl/4 {
		for h, c := range s.entries {
			if !now.Before(c.expires) {
				delete(s.entries, h)
			}
		}
		s.lastSweep = now
	}
	s.entries[handle] = &memoryConversation{aliases: NewAliasManager(), expires: now.Add(s.ttl)}
	return handle, nil
}

// Load returns the conversation's aliases and renews it.
func (s *MemoryConversationStore) Load(ctx context.Context, handle string) (*AliasManager, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.entries[handle]
	now := s.now()
	if !ok || !now.Before(c.expires) {
		delete(s.entries, handle)
		return nil, ErrConversationNotFound
	}
	c.expires = now.Add(s.ttl)
	return c.aliases, nil
}

// Save keeps aliases as the conversation's and renews it.
func (s *MemoryConversationStore) Save(ctx context.Context, handle string, aliases *AliasManager) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[handle] = &memoryConversation{aliases: aliases, expires: s.now().Add(s.ttl)}
	return nil
}

// Delete forgets the conversation.
func (s *MemoryConversationStore) Delete(ctx context.Context, handle string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, handle)
	return nil
}

// newConversationHandle returns 128 random bits, base64url without padding
// (22 characters).
func newConversationHandle() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

//aitools:end
