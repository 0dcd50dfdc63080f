package mcphttp

import (
	"net"
	"net/url"
	"slices"
	"strings"
)

// loopbackNames are the Host names of a loopback server, any port.
var loopbackNames = []string{"localhost", "127.0.0.1", "[::1]"}

// hostOrigin is the Host and Origin allow-lists that keep a DNS-rebinding
// page off the server.
type hostOrigin struct {
	hosts          []string // "host" (any port) or "host:port", lower case
	origins        []string // exact origins, lower case
	loopbackOrigin bool     // any http(s) origin of a loopback host
}

// newHostOrigin makes the lists: the options', else the loopback names and
// the public URL's host, and the public URL's origin plus, when loopback,
// any loopback origin.
func newHostOrigin(o HTTPOptions, loopback bool) hostOrigin {
	var h hostOrigin
	var public *url.URL
	if o.PublicURL != "" {
		public, _ = url.Parse(o.PublicURL)
	}
	if len(o.AllowedHosts) > 0 {
		h.hosts = lower(o.AllowedHosts)
	} else {
		h.hosts = slices.Clone(loopbackNames)
		if public != nil {
			h.hosts = append(h.hosts, withoutDefaultPort(public))
		}
	}
	if len(o.AllowedOrigins) > 0 {
		h.origins = lower(o.AllowedOrigins)
	} else {
		if public != nil {
			h.origins = []string{strings.ToLower(public.Scheme) + "://" + withoutDefaultPort(public)}
		}
		h.loopbackOrigin = loopback
	}
	return h
}

// withoutDefaultPort is u's host, lower case, without the scheme's default
// port (":443" of https, ":80" of http), as browsers write an Origin.
func withoutDefaultPort(u *url.URL) string {
	host := strings.ToLower(u.Host)
	switch port := u.Port(); {
	case port == "443" && strings.EqualFold(u.Scheme, "https"), port == "80" && strings.EqualFold(u.Scheme, "http"):
		return strings.TrimSuffix(host, ":"+port)
	}
	return host
}

func lower(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(strings.TrimSuffix(s, "/"))
	}
	return out
}

// hostAllowed reports whether a Host header is listed, as host:port or as
// its host alone.
func (h hostOrigin) hostAllowed(host string) bool {
	host = strings.ToLower(host)
	if slices.Contains(h.hosts, host) {
		return true
	}
	name, _, err := net.SplitHostPort(host)
	if err != nil {
		return false
	}
	if strings.Contains(name, ":") {
		name = "[" + name + "]"
	}
	return slices.Contains(h.hosts, name)
}

// originAllowed reports whether an Origin header (present) is listed, or
// is a loopback origin where those are.
func (h hostOrigin) originAllowed(origin string) bool {
	origin = strings.ToLower(origin)
	if slices.Contains(h.origins, origin) {
		return true
	}
	if !h.loopbackOrigin {
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && isLoopbackHost(u.Hostname())
}
