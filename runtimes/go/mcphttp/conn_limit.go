package mcphttp

import (
	"net"
	"sync"
)

// connLimit is a listener with at most cap(slots) connections open: one
// accepted over it is closed at once, so idle or slow clients cannot hold
// the server's file descriptors.
type connLimit struct {
	net.Listener
	slots chan struct{}
}

func newConnLimit(lis net.Listener, n int) *connLimit {
	return &connLimit{Listener: lis, slots: make(chan struct{}, n)}
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitedConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
		default:
			_ = c.Close()
		}
	}
}

// limitedConn gives its slot back when closed.
type limitedConn struct {
	net.Conn
	release func()
}

func (c *limitedConn) Close() error {
	c.release()
	return c.Conn.Close()
}
