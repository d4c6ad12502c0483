package discord

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// discordHost is the host of every URL discordgo builds: its endpoint
// strings are computed once, at package init, from https://discord.com.
const discordHost = "discord.com"

// ParseAPIBase reads DISCORD_API_BASE: an http(s) URL such as
// https://discord.com, or the address of a REST proxy or a fake Discord.
func ParseAPIBase(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("DISCORD_API_BASE %q: want an http(s) URL such as https://discord.com", s)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

// rebased sends the requests meant for Discord to another base: the
// session's own transport, so that each session (each test's, each
// process's) can talk to its own Discord. discordgo's endpoints are
// process-wide globals, which one session cannot change for itself.
type rebased struct {
	base *url.URL
	next http.RoundTripper
}

// Rebase returns a transport that sends the requests for discord.com to
// base through next (http.DefaultTransport when nil) and every other
// request unchanged. A nil base is Discord itself: next.
func Rebase(base *url.URL, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if base == nil {
		return next
	}
	return &rebased{base: base, next: next}
}

func (t *rebased) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != discordHost {
		return t.next.RoundTrip(req)
	}
	// A RoundTripper must not change the request it was given.
	out := req.Clone(req.Context())
	out.URL.Scheme = t.base.Scheme
	out.URL.Host = t.base.Host
	out.URL.Path = t.base.Path + req.URL.Path
	if req.URL.RawPath != "" {
		out.URL.RawPath = t.base.Path + req.URL.RawPath
	}
	out.Host = ""
	return t.next.RoundTrip(out)
}
