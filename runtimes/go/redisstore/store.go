package redisstore

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The scripts of docs/store.md, copies of e2e/vectors/store/*.lua.
var (
	//go:embed create.lua
	createLua string
	//go:embed load.lua
	loadLua string
	//go:embed register.lua
	registerLua string

	createScript   = redis.NewScript(createLua)
	loadScript     = redis.NewScript(loadLua)
	registerScript = redis.NewScript(registerLua)
)

// DefaultKeyPrefix starts every key of a Store without Options.KeyPrefix.
const DefaultKeyPrefix = "ai-tools:"

// DefaultTTL is how long an idle conversation lives without Options.TTL.
const DefaultTTL = 30 * time.Minute

// ErrConversationExpired is the error of Load and Register for a handle
// whose conversation is missing (unknown, expired, deleted, lost by Redis)
// or was made again under another epoch. The generated code recognizes it
// by its method ConversationExpired.
var ErrConversationExpired error = expiredError{}

type expiredError struct{}

func (expiredError) Error() string { return "conversation expired or unknown" }

// ConversationExpired reports that the conversation expired: true.
func (expiredError) ConversationExpired() bool { return true }

// Options configures a Store.
type Options struct {
	// KeyPrefix starts every key: "<KeyPrefix>conv:{<handle>}".
	// DefaultKeyPrefix when empty.
	KeyPrefix string
	// TTL is how long an idle conversation lives; each Load and Register
	// renews it. DefaultTTL when zero or negative; at least a millisecond.
	TTL time.Duration
}

// Store is a conversation store on Redis. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
	ttl    string // milliseconds, as the scripts take it
}

// New returns a store on client, which it never closes.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = DefaultKeyPrefix
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	ms := max(opts.TTL.Milliseconds(), 1)
	return &Store{client: client, prefix: opts.KeyPrefix, ttl: strconv.FormatInt(ms, 10)}
}

// Key returns the Redis key of a conversation: "<prefix>conv:{<handle>}",
// the handle being the Redis Cluster hash tag.
func (s *Store) Key(handle string) string {
	return s.prefix + "conv:{" + handle + "}"
}

// Create starts an empty conversation under a new handle (128 random bits,
// base64url) and a new epoch.
func (s *Store) Create(ctx context.Context) (string, error) {
	for range 8 {
		handle, err := randomText(base64.RawURLEncoding.EncodeToString)
		if err != nil {
			return "", err
		}
		epoch, err := randomText(hex.EncodeToString)
		if err != nil {
			return "", err
		}
		if created, err := s.create(ctx, handle, epoch); err != nil || created {
			return handle, err
		}
	}
	return "", errors.New("redisstore: every new handle was taken")
}

// create runs create.lua: false when the key exists.
func (s *Store) create(ctx context.Context, handle, epoch string) (bool, error) {
	n, err := createScript.Run(ctx, s.client, []string{s.Key(handle)}, s.ttl, epoch).Int()
	return n == 1, err
}

// Load returns the conversation's epoch and its state (docs/runtime.md,
// "Export and restore"), and renews its idle TTL.
func (s *Store) Load(ctx context.Context, handle string) (epoch, state string, err error) {
	fields, err := loadScript.Run(ctx, s.client, []string{s.Key(handle)}, s.ttl).StringSlice()
	if errors.Is(err, redis.Nil) {
		return "", "", ErrConversationExpired
	}
	if err != nil {
		return "", "", err
	}
	return stateOf(fields)
}

// Register gives each (prefix, UUID) pair its alias, in order, in one
// script: a UUID already known keeps its alias. It returns the new state
// and renews the idle TTL.
func (s *Store) Register(ctx context.Context, handle, epoch string, pairs [][2]string) (string, error) {
	args := make([]any, 0, 2+2*len(pairs))
	args = append(args, s.ttl, epoch)
	for _, p := range pairs {
		args = append(args, p[0], p[1])
	}
	fields, err := registerScript.Run(ctx, s.client, []string{s.Key(handle)}, args...).StringSlice()
	if err != nil {
		if strings.HasPrefix(err.Error(), "EXPIRED") {
			return "", ErrConversationExpired
		}
		return "", err
	}
	_, state, err := stateOf(fields)
	return state, err
}

// Delete ends the conversation; an unknown handle is not an error.
func (s *Store) Delete(ctx context.Context, handle string) error {
	return s.client.Del(ctx, s.Key(handle)).Err()
}

// integer is a field value written into the state as a JSON number; any
// other value is written as a JSON string, which the runtime refuses.
var integer = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

// stateOf builds the state from a hash's fields and values: aliases from
// the "a:" fields, counters from the "n:" fields, version from "v".
func stateOf(fields []string) (epoch, state string, err error) {
	if len(fields)%2 != 0 {
		return "", "", errors.New("redisstore: a hash reply of odd length")
	}
	number := func(v string) json.RawMessage {
		if integer.MatchString(v) {
			return json.RawMessage(v)
		}
		b, _ := json.Marshal(v)
		return b
	}
	st := struct {
		Aliases  map[string]string          `json:"aliases"`
		Counters map[string]json.RawMessage `json:"counters"`
		Version  json.RawMessage            `json:"version"`
	}{map[string]string{}, map[string]json.RawMessage{}, json.RawMessage("null")}
	for i := 0; i < len(fields); i += 2 {
		name, value := fields[i], fields[i+1]
		switch {
		case name == "v":
			st.Version = number(value)
		case name == "epoch":
			epoch = value
		case strings.HasPrefix(name, "a:"):
			st.Aliases[name[2:]] = value
		case strings.HasPrefix(name, "n:"):
			st.Counters[name[2:]] = number(value)
		}
	}
	b, err := json.Marshal(st)
	return epoch, string(b), err
}

// randomText returns 128 random bits written by encode.
func randomText(encode func([]byte) string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return encode(b[:]), nil
}
