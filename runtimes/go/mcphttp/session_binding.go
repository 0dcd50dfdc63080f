package mcphttp

import (
	"net/http"
	"sync"
	"time"
)

// sessionBinding remembers the subject that opened each 2025-11-25
// session (Mcp-Session-Id): a request of another subject, or with an id
// it never gave, gets 404 session_not_found, as the session would not
// exist (before the SDK's own 403 "session user mismatch").
type sessionBinding struct {
	mu       sync.Mutex
	sessions map[string]boundSession
}

type boundSession struct {
	subject  string
	lastSeen time.Time
}

// sessionIdle is how long an idle session is remembered: the SDK closes
// it after 30 minutes (newMCPTransportHandler).
const sessionIdle = 31 * time.Minute

func newSessionBinding() *sessionBinding {
	return &sessionBinding{sessions: map[string]boundSession{}}
}

// allowed reports whether subject may use session id.
func (b *sessionBinding) allowed(id, subject string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.sessions[id]
	if !ok || s.subject != subject {
		return false
	}
	s.lastSeen = time.Now()
	b.sessions[id] = s
	return true
}

// record remembers the session the SDK gave in its answer to a request
// without one (initialize), and forgets one a DELETE ended.
func (b *sessionBinding) record(r *http.Request, header http.Header, status int, subject string) {
	given, asked := header.Get("Mcp-Session-Id"), r.Header.Get("Mcp-Session-Id")
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case asked == "" && given != "" && status < 300:
		now := time.Now()
		for id, s := range b.sessions {
			if now.Sub(s.lastSeen) > sessionIdle {
				delete(b.sessions, id)
			}
		}
		b.sessions[given] = boundSession{subject, now}
	case asked != "" && r.Method == http.MethodDelete && status < 300:
		delete(b.sessions, asked)
	}
}

// sessionRecorder passes the SDK's answer on, recording its session.
type sessionRecorder struct {
	http.ResponseWriter
	record func(header http.Header, status int)
	done   bool
}

func (w *sessionRecorder) WriteHeader(status int) {
	if !w.done {
		w.done = true
		w.record(w.Header(), status)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *sessionRecorder) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets the SDK stream events through the recorder.
func (w *sessionRecorder) Flush() {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *sessionRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
