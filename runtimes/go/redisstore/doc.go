// Package redisstore keeps the conversations of protoc-gen-ai-tools'
// generated Go code in Redis (docs/store.md), so that every process of an
// application, in any of the three languages, continues any conversation.
//
// A *Store is a ConversationStore of every generated package: give it to
// NewConversationExecutor, or to the MCP server with WithConversationStore.
//
//	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", ContextTimeoutEnabled: true})
//	store := redisstore.New(client, redisstore.Options{})
//	executor := gentools.NewConversationExecutor(conn, store)
//
// Each operation gives up after Options.Timeout (5 s by default) with
// "redis did not answer within <ms> ms", whatever the client's own
// timeouts and retries; ContextTimeoutEnabled also frees the client's
// connection at that deadline; keep go-redis's retries (do not set
// MaxRetries: -1: over TLS a connection the server closed is only seen when
// used). A *redis.ClusterClient works as well (every key of a conversation
// is one hash slot; after a failure that is no reply of Redis, a dead
// primary's dial error for one, the store has it reload its slot map with
// ReloadState, which go-redis otherwise does only every
// ClusterStateReloadInterval, 60 s by default), and so do TLS (rediss:// URLs,
// Options.TLSConfig) and ACL users (docs/production.md has the
// least-privilege line). Options.MaxAliases caps the aliases of a
// conversation (default 1,000).
//
// One hash per conversation, "<prefix>conv:{<handle>}", changed only by the
// Lua scripts of docs/store.md (create.lua, load.lua, register.lua, and
// load-tools.lua and loaded-tools.lua for the conversation's loaded tools,
// Store.LoadTools and Store.LoadedTools, in this module, which the other
// languages' runtimes embed at build time), run with EVALSHA and, after a NOSCRIPT
// reply, EVAL: two processes registering in one conversation at once are
// serialized by Redis, and numbering has no gaps. A conversation Redis lost
// is never made again: Load and Register return an error for which
// errors.Is(err, ErrConversationExpired) holds.
//
// Tested against Redis 7.0; Valkey runs the same commands and is expected
// to work, but is not tested.
package redisstore
