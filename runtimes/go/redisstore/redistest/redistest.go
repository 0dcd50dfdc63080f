// Package redistest starts a real redis-server for tests: on a free local
// port, without persistence, stopped when the test ends. It fails the test
// when redis-server is missing (Debian: apt-get install redis-server); it
// never skips.
package redistest

import (
	"context"
	"crypto/tls"
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is one redis-server process, which Kill and Restart replace.
type Server struct {
	// Addr is host:port; it stays the same across restarts.
	Addr string
	// TLS is the client configuration of a server started with
	// Config.TLS (its CA, ServerName 127.0.0.1), nil otherwise; CAFile is
	// that CA in PEM.
	TLS    *tls.Config
	CAFile string
	t      testing.TB
	cmd    *exec.Cmd
	done   chan struct{}
	args   []string // added to the command line
}

// Config configures StartWith.
type Config struct {
	// TLS serves TLS only (no plain port), with a certificate for
	// 127.0.0.1 and localhost from a CA made for the test.
	TLS bool
	// Args are added to redis-server's command line.
	Args []string
}

// Start runs redis-server on a free port of 127.0.0.1 ($REDIS_SERVER, else
// redis-server on PATH) and waits until it answers PING.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t, Config{})
}

// StartWith runs redis-server as Start does, configured by cfg.
func StartWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := &Server{Addr: freeAddr(t), t: t, args: cfg.Args}
	if cfg.TLS {
		s.TLS, s.CAFile, s.args = makeTLS(t, s.args)
	}
	s.start()
	t.Cleanup(func() { s.stop(syscall.SIGTERM) })
	return s
}

// freeAddr is a free port of 127.0.0.1.
func freeAddr(t testing.TB) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return lis.Addr().String()
}

// Pause stops the process (SIGSTOP): the kernel still accepts connections
// and commands, nothing answers: a hung Redis. Resume continues it.
func (s *Server) Pause() { _ = s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() { _ = s.cmd.Process.Signal(syscall.SIGCONT) }

// Kill ends the server with SIGKILL: everything it held is lost.
func (s *Server) Kill() {
	s.t.Helper()
	s.stop(syscall.SIGKILL)
}

// Restart starts a new, empty server on the same port.
func (s *Server) Restart() {
	s.t.Helper()
	s.start()
}

// Client returns a client of the server, closed when the test ends.
func (s *Server) Client(opts *redis.Options) *redis.Client {
	o := redis.Options{}
	if opts != nil {
		o = *opts
	}
	o.Addr = s.Addr
	if o.TLSConfig == nil && s.TLS != nil {
		o.TLSConfig = s.TLS.Clone()
	}
	c := redis.NewClient(&o)
	s.t.Cleanup(func() { c.Close() })
	return c
}

func (s *Server) start() {
	s.t.Helper()
	bin := os.Getenv("REDIS_SERVER")
	if bin == "" {
		bin = "redis-server"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		s.t.Fatalf("%s not found (Debian: apt-get install redis-server): %v", bin, err)
	}
	host, port, _ := net.SplitHostPort(s.Addr)
	dir := s.t.TempDir()
	args := []string{"--port", port, "--bind", host, "--save", "", "--appendonly", "no", "--dir", dir}
	if s.TLS != nil {
		args[1] = "0"
		args = append(args, "--tls-port", port)
	}
	s.cmd = exec.Command(path, append(args, s.args...)...)
	s.cmd.Stdout, s.cmd.Stderr = nil, os.Stderr
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { _ = cmd.Wait(); close(done) }(s.cmd, s.done)
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, TLSConfig: s.TLS})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		select {
		case <-s.done:
			s.t.Fatalf("redis-server on port %s exited at start", port)
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %s: no PONG within 10 s: %v", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) stop(sig syscall.Signal) {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT) // a paused server ends too
	_ = s.cmd.Process.Signal(sig)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}
