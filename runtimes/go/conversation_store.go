//aitools:inline executors

package aitools

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

//aitools:if aliases

// ConversationStore keeps conversations, one alias table each, under
// handles (docs/store.md): in memory (MemoryConversationStore), or shared by
// every process of an application (the runtime's package redisstore). Only
// built-in types appear in it, so that a store of another package
// implements it for every generated package.
type ConversationStore interface {
	// Create starts an empty conversation under a new handle (128 random
	// bits, base64url) and a new epoch.
	Create(ctx context.Context) (handle string, err error)
	// Load returns the conversation's epoch and its state, in the form
	// AliasManager.ExportState writes, and renews its idle TTL. A store that
	// finds a conversation it cannot read returns an error with the method
	// ConversationCorrupt() bool returning true.
	Load(ctx context.Context, handle string) (epoch, state string, err error)
	// Register gives each (prefix, UUID) pair its alias, in order and
	// atomically (a UUID already known keeps its alias), returns the new
	// state and renews the idle TTL. It fails when the conversation is not
	// the one of epoch: missing, or made again since Load.
	Register(ctx context.Context, handle, epoch string, pairs [][2]string) (state string, err error)
	// Delete ends the conversation; an unknown handle is not an error.
	Delete(ctx context.Context, handle string) error
}

// ErrConversationExpired is the error of a MemoryConversationStore's Load
// and Register when the conversation is missing (unknown, expired, ended)
// or of another epoch. The runtime recognizes such an error from any store
// by its method ConversationExpired() bool, which returns true.
var ErrConversationExpired error = conversationExpiredError{}

type conversationExpiredError struct{}

func (conversationExpiredError) Error() string { return "conversation expired or unknown" }

// ConversationExpired reports that the conversation expired: true.
func (conversationExpiredError) ConversationExpired() bool { return true }

// DefaultConversationTTL is how long an idle conversation of a
// MemoryConversationStore lives.
const DefaultConversationTTL = 30 * time.Minute

// DefaultMaxAliases is the most aliases a conversation holds before its
// calls are refused with "conversation-full" (docs/store.md, "Alias cap"),
// for a store without the method MaxAliases() int.
const DefaultMaxAliases = 1000

// MemoryConversationStore is a ConversationStore in memory, the default: a
// conversation expires after it was idle for the store's TTL; each Load and
// Register renews it.
type MemoryConversationStore struct {
	mu         sync.Mutex
	ttl        time.Duration
	maxAliases int
	now        func() time.Time
	entries    map[string]*memoryConversation
	lastSweep  time.Time
}

type memoryConversation struct {
	epoch   string
	aliases *AliasManager
	tools   []string // loaded tools, in load order
	expires time.Time
}

// MemoryStoreOption configures a MemoryConversationStore.
type MemoryStoreOption func(*MemoryConversationStore)

// WithMaxAliases sets the most aliases a conversation of the store holds
// before its calls are refused with "conversation-full" (default
// DefaultMaxAliases); it panics unless n is positive.
func WithMaxAliases(n int) MemoryStoreOption {
	if n <= 0 {
		panic(fmt.Sprintf("WithMaxAliases must be a positive number of aliases (got %d)", n))
	}
	return func(s *MemoryConversationStore) { s.maxAliases = n }
}

// NewMemoryConversationStore returns an empty store whose conversations
// expire after ttl idle (DefaultConversationTTL when ttl <= 0).
func NewMemoryConversationStore(ttl time.Duration, opts ...MemoryStoreOption) *MemoryConversationStore {
	if ttl <= 0 {
		ttl = DefaultConversationTTL
	}
	s := &MemoryConversationStore{ttl: ttl, maxAliases: DefaultMaxAliases, now: time.Now, entries: map[string]*memoryConversation{}}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// MaxAliases is the most aliases a conversation holds before its calls are
// refused with "conversation-full".
func (s *MemoryConversationStore) MaxAliases() int { return s.maxAliases }

// Create starts a conversation under a new handle of 128 random bits.
func (s *MemoryConversationStore) Create(ctx context.Context) (string, error) {
	return s.CreateWithSuffix(ctx, "")
}

// CreateWithSuffix starts a conversation under a new handle followed by
// suffix, and returns that key: the MCP server binds a handle to its caller
// so (conversationKey).
func (s *MemoryConversationStore) CreateWithSuffix(ctx context.Context, suffix string) (string, error) {
	handle, err := newConversationHandle()
	if err != nil {
		return "", err
	}
	handle += suffix
	epoch, err := newConversationEpoch()
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
	s.entries[handle] = &memoryConversation{epoch: epoch, aliases: NewAliasManager(), expires: now.Add(s.ttl)}
	return handle, nil
}

// Load returns the conversation's epoch and state, and renews it.
func (s *MemoryConversationStore) Load(ctx context.Context, handle string) (string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(handle)
	if err != nil {
		return "", "", err
	}
	state, err := c.aliases.ExportState()
	return c.epoch, string(state), err
}

// Register gives the pairs their aliases, returns the state and renews it.
func (s *MemoryConversationStore) Register(ctx context.Context, handle, epoch string, pairs [][2]string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(handle)
	if err != nil {
		return "", err
	}
	if c.epoch != epoch {
		return "", ErrConversationExpired
	}
	for _, pair := range pairs {
		c.aliases.Register(pair[0], pair[1])
	}
	state, err := c.aliases.ExportState()
	return string(state), err
}

// LoadTools appends each name not yet loaded to the conversation's loaded
// tools, in order, and returns the whole list in load order; it renews the
// conversation. It fails with ErrConversationExpired when the conversation
// is missing or not the one of epoch.
func (s *MemoryConversationStore) LoadTools(ctx context.Context, handle, epoch string, names []string) ([]string, error) {
	if err := checkToolNames(names); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(handle)
	if err != nil {
		return nil, err
	}
	if c.epoch != epoch {
		return nil, ErrConversationExpired
	}
	for _, name := range names {
		if !slices.Contains(c.tools, name) {
			c.tools = append(c.tools, name)
		}
	}
	return append([]string{}, c.tools...), nil
}

// LoadedTools returns the conversation's loaded tools in load order, and
// renews it.
func (s *MemoryConversationStore) LoadedTools(ctx context.Context, handle string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.live(handle)
	if err != nil {
		return nil, err
	}
	return append([]string{}, c.tools...), nil
}

// checkToolNames refuses a name no store keeps: the empty string.
func checkToolNames(names []string) error {
	for _, name := range names {
		if name == "" {
			return errors.New(`cannot load the tool name "": pass the names of tools`)
		}
	}
	return nil
}

// live returns the conversation of handle, renewed, or
// ErrConversationExpired; s.mu is held.
func (s *MemoryConversationStore) live(handle string) (*memoryConversation, error) {
	c, ok := s.entries[handle]
	now := s.now()
	if !ok || !now.Before(c.expires) {
		delete(s.entries, handle)
		return nil, ErrConversationExpired
	}
	c.expires = now.Add(s.ttl)
	return c, nil
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

// newConversationEpoch returns 128 random bits as 32 lower-case hex digits.
func newConversationEpoch() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

//aitools:end
