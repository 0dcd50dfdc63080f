package gentools_test

// TestMain starts the real linkhub.v1 test server (e2e/server/dist/main.js),
// waits for its "ready 127.0.0.1:<port>" line and opens the one gRPC
// connection every test shares. The server's stdin is a pipe held open for
// the whole run: closing it (also when this process dies) stops the server.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// conn is the shared connection to the test server; nil with E2E_NO_SERVER.
var conn *grpc.ClientConn

var readyLine = regexp.MustCompile(`^ready (127\.0\.0\.1:[0-9]{1,5})$`)

func TestMain(m *testing.M) {
	if os.Getenv("E2E_NO_SERVER") != "" {
		os.Exit(m.Run())
	}
	stop, addr, err := startServer(serverMain(), 30*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: cannot start the test server:", err)
		os.Exit(1)
	}
	conn, err = grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		stop()
		fmt.Fprintln(os.Stderr, "e2e: grpc.NewClient:", err)
		os.Exit(1)
	}
	code := m.Run()
	conn.Close()
	if err := stop(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: stopping the test server:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// repoRoot is $E2E_REPO_ROOT, else three levels up from e2e/go/gentools.
func repoRoot() string {
	if dir := os.Getenv("E2E_REPO_ROOT"); dir != "" {
		return dir
	}
	dir, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	return dir
}

func serverMain() string {
	if p := os.Getenv("E2E_SERVER_MAIN"); p != "" {
		return p
	}
	return filepath.Join(repoRoot(), "e2e", "server", "dist", "main.js")
}

// startServer runs `node main args...`, and returns once it printed its
// ready line.
// stop closes its stdin, waits for it to exit (SIGTERM, then SIGKILL, if it
// does not) and reports an exit that was not clean.
func startServer(main string, timeout time.Duration, args ...string) (stop func() error, addr string, err error) {
	if _, err := os.Stat(main); err != nil {
		return nil, "", fmt.Errorf("%w (build it: npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-server build)", err)
	}
	cmd := exec.Command("node", append([]string{main}, args...)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	exited := make(chan error, 1)
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, err := r.ReadString('\n')
		if err == nil {
			lines <- strings.TrimRight(line, "\r\n")
		} else {
			close(lines)
		}
		// Anything printed later goes to stderr, so the server never blocks.
		_, _ = io.Copy(os.Stderr, r)
		exited <- cmd.Wait()
	}()
	stop = func() error {
		stdin.Close()
		select {
		case err := <-exited:
			return err
		case <-time.After(10 * time.Second):
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
			return fmt.Errorf("server did not exit within 10 s of its stdin closing")
		case <-time.After(5 * time.Second):
		}
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("server had to be killed")
	}
	select {
	case line, ok := <-lines:
		if !ok {
			stop()
			return nil, "", fmt.Errorf("server exited before printing its ready line")
		}
		mm := readyLine.FindStringSubmatch(line)
		if mm == nil {
			stop()
			return nil, "", fmt.Errorf("first stdout line %q is not `ready 127.0.0.1:<port>`", line)
		}
		return stop, mm[1], nil
	case <-time.After(timeout):
		stop()
		return nil, "", fmt.Errorf("no ready line within %s", timeout)
	}
}

// needServer skips nothing: a test that needs the server fails without it.
func needServer(t testing.TB) *grpc.ClientConn {
	t.Helper()
	if conn == nil {
		t.Fatal("no test server (E2E_NO_SERVER is set)")
	}
	return conn
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
