package redisstore

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The scripts of docs/store.md. create.lua, load.lua, register.lua,
// load-tools.lua and loaded-tools.lua here are their one committed copy: //go:embed reads only files inside this
// module, and `go get` users receive the module alone from the Go proxy, so
// the TypeScript and Python runtimes embed these files at build time instead
// (runtimes/ts/scripts/embed-redis-scripts.mjs, runtimes/python/setup.py).
var (
	//go:embed create.lua
	createLua string
	//go:embed load.lua
	loadLua string
	//go:embed register.lua
	registerLua string
	//go:embed load-tools.lua
	loadToolsLua string
	//go:embed loaded-tools.lua
	loadedToolsLua string

	createScript      = redis.NewScript(createLua)
	loadScript        = redis.NewScript(loadLua)
	registerScript    = redis.NewScript(registerLua)
	loadToolsScript   = redis.NewScript(loadToolsLua)
	loadedToolsScript = redis.NewScript(loadedToolsLua)
)

// DefaultKeyPrefix starts every key of a Store without Options.KeyPrefix.
const DefaultKeyPrefix = "ai-tools:"

// DefaultTTL is how long an idle conversation lives without Options.TTL.
const DefaultTTL = 30 * time.Minute

// DefaultTimeout is how long a Store waits for Redis without
// Options.Timeout.
const DefaultTimeout = 5 * time.Second

// DefaultMaxAliases is the most aliases a conversation holds without
// Options.MaxAliases (the generated code's DefaultMaxAliases).
const DefaultMaxAliases = 1000

// ErrConversationExpired is the error of Load and Register for a handle
// whose conversation is missing (unknown, expired, deleted, lost by Redis)
// or was made again under another epoch. The generated code recognizes it
// by its method ConversationExpired.
var ErrConversationExpired error = expiredError{}

type expiredError struct{}

func (expiredError) Error() string { return "conversation expired or unknown" }

// ConversationExpired reports that the conversation expired: true.
func (expiredError) ConversationExpired() bool { return true }

// ErrConversationCorrupt is the error of Load and Register for a
// conversation that cannot be read: its key holds another type than a hash
// (WRONGTYPE), or the reply is not fields and values. The generated code
// recognizes it by its method ConversationCorrupt, and reports it as a
// state the runtime refuses.
var ErrConversationCorrupt = errors.New("conversation cannot be read")

// corruptError is ErrConversationCorrupt with its cause.
type corruptError struct{ err error }

func (e corruptError) Error() string { return e.err.Error() }

func (e corruptError) Unwrap() error { return e.err }

func (e corruptError) Is(target error) bool { return target == ErrConversationCorrupt }

// ConversationCorrupt reports that the conversation cannot be read: true.
func (corruptError) ConversationCorrupt() bool { return true }

// failure is the error of a script that failed: an EXPIRED reply is
// ErrConversationExpired, a WRONGTYPE reply a corrupt conversation, any
// other the client's error.
func failure(err error) error {
	var reply redis.Error
	switch {
	case !errors.As(err, &reply):
		return err
	case strings.HasPrefix(reply.Error(), "EXPIRED"):
		return ErrConversationExpired
	case strings.HasPrefix(reply.Error(), "WRONGTYPE"):
		return corruptError{err}
	}
	return err
}

// Options configures a Store.
type Options struct {
	// KeyPrefix starts every key: "<KeyPrefix>conv:{<handle>}".
	// DefaultKeyPrefix when empty.
	KeyPrefix string
	// TTL is how long an idle conversation lives; each Load and Register
	// renews it. DefaultTTL when zero or negative; at least a millisecond.
	TTL time.Duration
	// Timeout bounds each operation (Create, Load, Register, Delete, the
	// EVALSHA->EVAL fallback included): the store returns at the deadline
	// with "redis did not answer within <ms> ms" whatever the client's own
	// settings. DefaultTimeout when zero; New panics on a negative one. Give
	// the client ContextTimeoutEnabled: true so that its connection is also
	// freed at the deadline (else it waits for its ReadTimeout).
	Timeout time.Duration
	// MaxAliases is the most aliases a conversation holds: a call in a
	// conversation holding that many or more is refused with
	// "conversation-full" before it is sent (docs/store.md, "Alias cap").
	// DefaultMaxAliases when zero; New panics on a negative one.
	MaxAliases int
}

// Store is a conversation store on Redis. It is safe for concurrent use.
type Store struct {
	client     redis.UniversalClient
	prefix     string
	ttl        string // milliseconds, as the scripts take it
	timeout    time.Duration
	maxAliases int
}

// New returns a store on client (a *redis.Client, a *redis.ClusterClient,
// any redis.UniversalClient), which it never closes. It panics on a
// negative Options.Timeout or Options.MaxAliases.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = DefaultKeyPrefix
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.Timeout < 0 {
		panic(fmt.Sprintf("redisstore: Options.Timeout must be positive (got %v); zero is DefaultTimeout", opts.Timeout))
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxAliases < 0 {
		panic(fmt.Sprintf("redisstore: Options.MaxAliases must be positive (got %d); zero is DefaultMaxAliases", opts.MaxAliases))
	}
	if opts.MaxAliases == 0 {
		opts.MaxAliases = DefaultMaxAliases
	}
	ms := max(opts.TTL.Milliseconds(), 1)
	return &Store{client: client, prefix: opts.KeyPrefix, ttl: strconv.FormatInt(ms, 10), timeout: opts.Timeout, maxAliases: opts.MaxAliases}
}

// MaxAliases is the most aliases a conversation holds before its calls are
// refused with "conversation-full"; the generated code reads it.
func (s *Store) MaxAliases() int { return s.maxAliases }

// Key returns the Redis key of a conversation: "<prefix>conv:{<handle>}",
// the handle being the Redis Cluster hash tag.
func (s *Store) Key(handle string) string {
	return s.prefix + "conv:{" + handle + "}"
}

// Create starts an empty conversation under a new handle (128 random bits,
// base64url) and a new epoch, minting another handle when one is taken, at
// most createTries times (docs/store.md).
func (s *Store) Create(ctx context.Context) (string, error) {
	return s.CreateWithSuffix(ctx, "")
}

// CreateWithSuffix starts a conversation under a new handle followed by
// suffix, and returns that key: the MCP server binds a handle to its
// caller so.
func (s *Store) CreateWithSuffix(ctx context.Context, suffix string) (string, error) {
	return within(ctx, s, func(ctx context.Context) (string, error) { return s.createWithSuffix(ctx, suffix) })
}

func (s *Store) createWithSuffix(ctx context.Context, suffix string) (string, error) {
	for range createTries {
		handle, err := randomText(base64.RawURLEncoding.EncodeToString)
		if err != nil {
			return "", err
		}
		handle += suffix
		epoch, err := randomText(hex.EncodeToString)
		if err != nil {
			return "", err
		}
		created, err := s.create(ctx, handle, epoch)
		if err != nil {
			return "", err
		}
		if created {
			return handle, nil
		}
	}
	return "", fmt.Errorf("redisstore: no free conversation handle in %d tries: is the random source broken?", createTries)
}

// createTries is how many fresh handles Create tries: 128 random bits
// collide only when the random source is broken.
const createTries = 8

// create runs create.lua: false when the key exists.
func (s *Store) create(ctx context.Context, handle, epoch string) (bool, error) {
	n, err := createScript.Run(ctx, s.client, []string{s.Key(handle)}, s.ttl, epoch).Int()
	return n == 1, failure(err)
}

// Load returns the conversation's epoch and its state (docs/runtime.md,
// "Export and restore"), and renews its idle TTL.
func (s *Store) Load(ctx context.Context, handle string) (epoch, state string, err error) {
	reply, err := within(ctx, s, func(ctx context.Context) (any, error) {
		return loadScript.Run(ctx, s.client, []string{s.Key(handle)}, s.ttl).Result()
	})
	if errors.Is(err, redis.Nil) {
		return "", "", ErrConversationExpired
	}
	if err != nil {
		return "", "", failure(err)
	}
	return stateOf(reply)
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
	reply, err := within(ctx, s, func(ctx context.Context) (any, error) {
		return registerScript.Run(ctx, s.client, []string{s.Key(handle)}, args...).Result()
	})
	if err != nil {
		return "", failure(err)
	}
	_, state, err := stateOf(reply)
	return state, err
}

// Delete ends the conversation; an unknown handle is not an error.
func (s *Store) Delete(ctx context.Context, handle string) error {
	_, err := within(ctx, s, func(ctx context.Context) (int64, error) {
		return s.client.Del(ctx, s.Key(handle)).Result()
	})
	return err
}

// LoadTools appends each name not yet loaded to the conversation's loaded
// tools, in order, in one script (docs/store.md, "Loaded tools"), and
// returns the whole list in load order; it renews the idle TTL. A missing
// conversation or another epoch is ErrConversationExpired; a layout version
// other than 1 or broken positions, ErrConversationCorrupt.
func (s *Store) LoadTools(ctx context.Context, handle, epoch string, names []string) ([]string, error) {
	args := make([]any, 0, 2+len(names))
	args = append(args, s.ttl, epoch)
	for _, name := range names {
		if name == "" {
			return nil, errors.New(`cannot load the tool name "": pass the names of tools`)
		}
		args = append(args, name)
	}
	reply, err := within(ctx, s, func(ctx context.Context) (any, error) {
		return loadToolsScript.Run(ctx, s.client, []string{s.Key(handle)}, args...).Result()
	})
	if err != nil {
		return nil, failure(err)
	}
	return loadedOf(reply)
}

// LoadedTools returns the conversation's loaded tools in load order, and
// renews its idle TTL.
func (s *Store) LoadedTools(ctx context.Context, handle string) ([]string, error) {
	reply, err := within(ctx, s, func(ctx context.Context) (any, error) {
		return loadedToolsScript.Run(ctx, s.client, []string{s.Key(handle)}, s.ttl).Result()
	})
	if errors.Is(err, redis.Nil) {
		return nil, ErrConversationExpired
	}
	if err != nil {
		return nil, failure(err)
	}
	return loadedOf(reply)
}

// position is a load position: 1 or more, without leading zeros.
var position = regexp.MustCompile(`^[1-9][0-9]{0,15}$`)

// loadedOf returns the loaded tools, in load order, from the "v" and "t:"
// fields and values a loaded-tools script returns; a version other than 1
// or positions other than 1 to n, each once, are a corrupt conversation.
func loadedOf(reply any) ([]string, error) {
	items, _ := reply.([]any)
	fields := make([]string, 0, len(items))
	for _, item := range items {
		if f, ok := item.(string); ok {
			fields = append(fields, f)
		}
	}
	if items == nil && reply != nil || len(fields) != len(items) || len(fields)%2 != 0 {
		return nil, corruptError{errors.New("the store's reply is not a list of fields and values")}
	}
	version := "null"
	byPosition := map[string]string{}
	count := 0
	for i := 0; i < len(fields); i += 2 {
		name, value := fields[i], fields[i+1]
		switch {
		case name == "v":
			version = strconv.Quote(value)
		case strings.HasPrefix(name, "t:"):
			count++
			if position.MatchString(value) {
				byPosition[value] = name[2:]
			}
		}
	}
	if version != `"1"` {
		return nil, corruptError{fmt.Errorf("the conversation's layout version is %s, not 1", version)}
	}
	loaded := make([]string, 0, count)
	for i := 1; i <= count; i++ {
		name, ok := byPosition[strconv.Itoa(i)]
		if !ok {
			return nil, corruptError{fmt.Errorf("the loaded tools' positions are not 1 to %d, each once", count)}
		}
		loaded = append(loaded, name)
	}
	return loaded, nil
}

// integer is a field value written into the state as a JSON number; any
// other value is written as a JSON string, which the runtime refuses.
var integer = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

// stateOf builds the state from a script's reply, a hash's fields and
// values: aliases from the "a:" fields, counters from the "n:" fields,
// version from "v". Another reply is a corrupt conversation.
func stateOf(reply any) (epoch, state string, err error) {
	items, _ := reply.([]any)
	fields := make([]string, 0, len(items))
	for _, item := range items {
		if f, ok := item.(string); ok {
			fields = append(fields, f)
		}
	}
	if items == nil || len(fields) != len(items) || len(fields)%2 != 0 {
		return "", "", corruptError{errors.New("the store's reply is not a list of fields and values")}
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
