package gentools_test

// cmd/linkhub-worker as a real process: requests in as JSON lines, answers
// matched to them by id.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// workerAnswer is one answer line of linkhub-worker.
type workerAnswer struct {
	ID     json.RawMessage `json:"id"`
	Handle string          `json:"handle"`
	Result json.RawMessage `json:"result"`
	OK     bool            `json:"ok"`
	Error  *workerError    `json:"error"`
}

// workerError is the error of an answer: a ToolError's reason, code and
// message.
type workerError struct {
	Reason  string `json:"reason"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// worker is one linkhub-worker process.
type worker struct {
	t       testing.TB
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	mu      sync.Mutex
	pending map[string]chan workerAnswer
	next    atomic.Int64
	done    chan struct{} // closed when stdout ends
}

// startWorker runs linkhub-worker against the test server and redisAddr,
// up to 64 requests at once; it stops with the test.
func startWorker(t testing.TB, redisAddr string) *worker {
	t.Helper()
	cmd := exec.Command(commandBinary(t, "linkhub-worker"), "--grpc", needServer(t).Target(), "--redis", redisAddr, "--parallel", "64")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &worker{t: t, cmd: cmd, stdin: stdin, pending: map[string]chan workerAnswer{}, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		in := bufio.NewScanner(stdout)
		in.Buffer(make([]byte, 1<<20), 16<<20)
		for in.Scan() {
			var a workerAnswer
			if err := json.Unmarshal(in.Bytes(), &a); err != nil {
				t.Errorf("worker wrote %q: %v", in.Text(), err)
				continue
			}
			w.mu.Lock()
			ch := w.pending[string(a.ID)]
			delete(w.pending, string(a.ID))
			w.mu.Unlock()
			if ch == nil {
				t.Errorf("worker answered an unknown id %s", a.ID)
				continue
			}
			ch <- a
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		waitOrKill(t, cmd, "linkhub-worker did not exit within 10 s of its stdin closing")
	})
	return w
}

// send writes one request and returns the channel of its answer.
func (w *worker) send(req map[string]any) chan workerAnswer {
	id := strconv.FormatInt(w.next.Add(1), 10)
	ch := make(chan workerAnswer, 1)
	w.mu.Lock()
	w.pending[strconv.Quote(id)] = ch // as the answer's id reads
	w.mu.Unlock()
	req["id"] = id
	line, _ := json.Marshal(req)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		ch <- workerAnswer{Error: &workerError{Reason: "worker-gone", Message: err.Error()}}
	}
	return ch
}

// do sends one request and waits for its answer (at most 60 s).
func (w *worker) do(req map[string]any) workerAnswer {
	select {
	case a := <-w.send(req):
		return a
	case <-w.done:
		return workerAnswer{Error: &workerError{Reason: "worker-gone", Message: "the worker exited"}}
	case <-time.After(60 * time.Second):
		return workerAnswer{Error: &workerError{Reason: "timeout", Message: fmt.Sprintf("no answer to %v within 60 s", req)}}
	}
}

// start begins a conversation; it fails the test on an error.
func (w *worker) start(t testing.TB) string {
	t.Helper()
	a := w.do(map[string]any{"op": "start"})
	if a.Error != nil || a.Handle == "" {
		t.Fatalf("start: %+v", a.Error)
	}
	return a.Handle
}

// call runs a tool in a conversation.
func (w *worker) call(handle, tool string, args any) workerAnswer {
	return w.do(map[string]any{"op": "call", "handle": handle, "tool": tool, "args": args})
}

// TestWorkerRefusesBadCounts: a count flag below 1 (--max-aliases 0
// included, as the TypeScript and Python workers refuse it) exits 2 with a
// line naming the flag, before anything is dialled.
func TestWorkerRefusesBadCounts(t *testing.T) {
	for _, flag := range []string{"--max-aliases", "--store-timeout", "--parallel"} {
		cmd := exec.Command(commandBinary(t, "linkhub-worker"), "--grpc", "127.0.0.1:1", "--redis", "127.0.0.1:1", flag, "0")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%s 0: %v, want exit status 2", flag, err)
		}
		if want := "linkhub-worker: " + flag + " must be at least 1 (got 0)\n"; string(out) != want {
			t.Errorf("%s 0 wrote %q, want %q", flag, out, want)
		}
	}
}
