// Command linkhub-worker runs the tools of the test API (e2e/proto/linkhub)
// in conversations kept in Redis (docs/store.md), with the generated
// gentools.ConversationExecutor and the runtime's redisstore: a worker of
// the load and fault tests, and of the mixed-language run, where a
// conversation started by one language's worker goes on in another's.
//
//	linkhub-worker --grpc 127.0.0.1:8080 --redis 127.0.0.1:6379 [--key-prefix ai-tools:] [--ttl 30m] [--parallel 1]
//	    [--redis-ca ca.crt] [--redis-cluster] [--store-timeout 5000] [--max-aliases 1000]
//
// --redis also takes a URL, redis://user:password@127.0.0.1:6379/0, or
// rediss:// for TLS, checked against --redis-ca (PEM) when given; with
// --redis-cluster it is a seed node of a Redis Cluster. --store-timeout is
// the store's timeout in ms (Options.Timeout), --max-aliases its cap of
// aliases per conversation (Options.MaxAliases; at least 1). A bad flag
// exits 2 naming it.
// It reads one JSON request per line from stdin and writes one JSON line
// per request to stdout, each with the request's "id" (any JSON value):
//
//	{"id":1,"op":"start"}                                             → {"id":1,"handle":"<handle>"}
//	{"id":2,"op":"call","handle":"<handle>","tool":"links_get","args":{"id":"link-1"}}
//	                                                                  → {"id":2,"result":{…}}
//	                                                                  or {"id":2,"error":{"reason":"conversation-expired","code":"NOT_FOUND","message":"…"}}
//	{"id":3,"op":"end","handle":"<handle>"}                           → {"id":3,"ok":true}
//	{"id":4,"op":"loadTools","handle":"<handle>","tools":["links_get"]} → {"id":4,"loaded":["links_get"]}
//	{"id":5,"op":"loadedTools","handle":"<handle>"}                   → {"id":5,"loaded":["links_get"]}
//
// loadTools appends the tools not yet loaded to the conversation's loaded
// tools (Store.LoadTools, with the epoch Store.Load reads) and answers the
// whole list; loadedTools answers it (docs/store.md, "Loaded tools").
//
// "args" is the tool's arguments, an object (or a string holding them);
// "result" is the tool's result (UUIDs shown as aliases), written as soon
// as the aliases it shows are stored. A request it cannot read gets
// {"id":…,"error":{"reason":"bad-request","message":…}}. With --parallel N
// it runs up to N requests at once and answers each as it finishes; it
// exits when stdin ends and every answer is written.
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"example.com/aitools/e2e/gentools"
)

// request is one line of stdin.
type request struct {
	ID     json.RawMessage `json:"id"`
	Op     string          `json:"op"`
	Handle string          `json:"handle"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Tools  []string        `json:"tools"`
}

// answer is one line of stdout.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Handle string          `json:"handle,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	OK     bool            `json:"ok,omitempty"`
	Loaded *[]string       `json:"loaded,omitempty"`
	Error  *answerError    `json:"error,omitempty"`
}

type answerError struct {
	Reason  string `json:"reason"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

func main() {
	grpcAddr := flag.String("grpc", "", "the linkhub.v1 gRPC server, host:port (required)")
	redisAddr := flag.String("redis", "", "the Redis server, host:port or a redis:// URL (required)")
	keyPrefix := flag.String("key-prefix", redisstore.DefaultKeyPrefix, "the prefix of every Redis key")
	ttl := flag.Duration("ttl", redisstore.DefaultTTL, "how long an idle conversation lives")
	parallel := flag.Int("parallel", 1, "how many requests run at once")
	caFile := flag.String("redis-ca", "", "the CA (PEM) of a TLS Redis (rediss://)")
	cluster := flag.Bool("redis-cluster", false, "--redis is a seed node of a Redis Cluster")
	timeoutMs := flag.Int("store-timeout", int(redisstore.DefaultTimeout/time.Millisecond), "the store's timeout of each operation, in ms")
	maxAliases := flag.Int("max-aliases", redisstore.DefaultMaxAliases, "the aliases a conversation holds before its calls are refused")
	flag.Parse()
	for _, f := range []struct {
		name string
		n    int
	}{{"parallel", *parallel}, {"store-timeout", *timeoutMs}, {"max-aliases", *maxAliases}} {
		if f.n < 1 {
			fmt.Fprintf(os.Stderr, "linkhub-worker: --%s must be at least 1 (got %d)\n", f.name, f.n)
			os.Exit(2)
		}
	}
	if *grpcAddr == "" || *redisAddr == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: linkhub-worker --grpc host:port --redis host:port|redis[s]://… [--redis-ca ca.crt] [--redis-cluster] [--store-timeout ms] [--max-aliases n] [--key-prefix p] [--ttl 30m] [--parallel n] < requests.jsonl")
		os.Exit(2)
	}
	client, err := redisClient(*redisAddr, *caFile, *cluster)
	if err != nil {
		fmt.Fprintln(os.Stderr, "linkhub-worker:", err)
		os.Exit(1)
	}
	defer client.Close()
	store := redisstore.New(client, redisstore.Options{KeyPrefix: *keyPrefix, TTL: *ttl, Timeout: time.Duration(*timeoutMs) * time.Millisecond, MaxAliases: *maxAliases})
	if err := run(*grpcAddr, store, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, "linkhub-worker:", err)
		os.Exit(1)
	}
}

// redisClient is the client of addr (host:port or a redis:// or rediss://
// URL with user:password@): a cluster client when cluster, TLS checked
// against the CA in caFile when given, context deadlines honoured on the
// socket (ContextTimeoutEnabled). It keeps go-redis's retries (MaxRetries
// 3; the store's timeout bounds them): over TLS a pooled connection the
// server closed is only seen when used, and the retry dials again.
func redisClient(addr, caFile string, cluster bool) (redis.UniversalClient, error) {
	opts := &redis.Options{Addr: addr}
	if strings.Contains(addr, "://") {
		var err error
		if opts, err = redis.ParseURL(addr); err != nil {
			return nil, err
		}
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--redis-ca %q holds no PEM certificate", caFile)
		}
		if opts.TLSConfig == nil {
			host, _, _ := strings.Cut(opts.Addr, ":")
			opts.TLSConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
		}
		opts.TLSConfig.RootCAs = pool
	}
	dial, io := time.Second, 2*time.Second
	if cluster {
		return redis.NewClusterClient(&redis.ClusterOptions{
			Addrs: []string{opts.Addr}, Username: opts.Username, Password: opts.Password, TLSConfig: opts.TLSConfig,
			DialTimeout: dial, ReadTimeout: io, WriteTimeout: io, ContextTimeoutEnabled: true,
		}), nil
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout, opts.ContextTimeoutEnabled = dial, io, io, true
	return redis.NewClient(opts), nil
}

func run(grpcAddr string, store *redisstore.Store, parallel int) error {
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	executor := gentools.NewConversationExecutor(conn, store)

	out := json.NewEncoder(os.Stdout)
	var mu sync.Mutex // one answer per line
	write := func(a answer) {
		mu.Lock()
		defer mu.Unlock()
		_ = out.Encode(a)
	}
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			write(serve(executor, store, line))
		}()
	}
	wg.Wait()
	return in.Err()
}

// serve answers one request line.
func serve(executor *gentools.ConversationExecutor, store *redisstore.Store, line string) answer {
	var req request
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		return answer{ID: json.RawMessage("null"), Error: &answerError{Reason: "bad-request", Message: "not a JSON request: " + err.Error()}}
	}
	if req.ID == nil {
		req.ID = json.RawMessage("null")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch req.Op {
	case "start":
		handle, err := executor.Start(ctx)
		if err != nil {
			return failed(req.ID, err)
		}
		return answer{ID: req.ID, Handle: handle}
	case "call":
		args := string(req.Args)
		var text string
		if json.Unmarshal(req.Args, &text) == nil {
			args = text
		}
		if len(req.Args) == 0 {
			args = "{}"
		}
		result, err := executor.Execute(ctx, req.Handle, req.Tool, args)
		if err != nil {
			return failed(req.ID, err)
		}
		return answer{ID: req.ID, Result: json.RawMessage(result)}
	case "end":
		if err := executor.End(ctx, req.Handle); err != nil {
			return failed(req.ID, err)
		}
		return answer{ID: req.ID, OK: true}
	case "loadTools", "loadedTools":
		loaded, err := loadedTools(ctx, store, req)
		if err != nil {
			return storeFailed(req.ID, req.Handle, err)
		}
		return answer{ID: req.ID, Loaded: &loaded}
	}
	return answer{ID: req.ID, Error: &answerError{Reason: "bad-request", Message: fmt.Sprintf("unknown op %q: use start, call, end, loadTools or loadedTools", req.Op)}}
}

// loadedTools is the store's loaded tools after a loadTools request (with
// the epoch Load reads) or for a loadedTools one.
func loadedTools(ctx context.Context, store *redisstore.Store, req request) ([]string, error) {
	if req.Op == "loadedTools" {
		return store.LoadedTools(ctx, req.Handle)
	}
	epoch, _, err := store.Load(ctx, req.Handle)
	if err != nil {
		return nil, err
	}
	return store.LoadTools(ctx, req.Handle, epoch, req.Tools)
}

// storeFailed is the answer of a store operation that failed, with the
// reasons and texts of docs/store.md (those of the TypeScript and Python
// workers).
func storeFailed(id json.RawMessage, handle string, err error) answer {
	var expired interface{ ConversationExpired() bool }
	var corrupt interface{ ConversationCorrupt() bool }
	quoted, _ := json.Marshal(handle)
	switch {
	case errors.As(err, &expired) && expired.ConversationExpired():
		return answer{ID: id, Error: &answerError{Reason: "conversation-expired", Code: "NOT_FOUND", Message: fmt.Sprintf("conversation %s expired or unknown: start a new conversation", quoted)}}
	case errors.As(err, &corrupt) && corrupt.ConversationCorrupt():
		return answer{ID: id, Error: &answerError{Reason: "conversation-corrupt", Code: "DATA_LOSS", Message: fmt.Sprintf("conversation %s cannot be read: %v", quoted, err)}}
	}
	return answer{ID: id, Error: &answerError{Reason: "store-unavailable", Code: "UNAVAILABLE", Message: "conversation store unavailable: " + err.Error()}}
}

// failed is the answer of a failed request: a ToolError's reason, code
// (upper-case gRPC name) and message.
func failed(id json.RawMessage, err error) answer {
	var te *gentools.ToolError
	if !errors.As(err, &te) {
		return answer{ID: id, Error: &answerError{Reason: "internal", Message: err.Error()}}
	}
	return answer{ID: id, Error: &answerError{Reason: te.Reason, Code: codeName(te.Code), Message: te.Message}}
}

// codeName is the upper-case name of a gRPC code: "NOT_FOUND" (and
// "CANCELLED", as the TypeScript and Python workers write it).
func codeName(c codes.Code) string {
	if c == codes.Canceled {
		return "CANCELLED"
	}
	var b strings.Builder
	for i, r := range c.String() {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}
