package fakediscord

import "net/http"

// discordHost is the host of every URL discordgo builds: its endpoint
// strings are computed once, at package init, from https://discord.com.
const discordHost = "discord.com"

// Transport returns a RoundTripper that sends the requests meant for
// Discord (https://discord.com/…, as discordgo builds every URL) to this
// Server, and any other request unchanged. Give it to a discordgo
// session (Session.Client, or HTTPClient) instead of re-pointing discordgo's
// endpoints, which are process-wide: each test can then have a Server of
// its own. The gateway needs nothing more: GET /gateway answers this
// Server's websocket URL.
func (s *Server) Transport() http.RoundTripper {
	return &toServer{server: s, next: s.hs.Client().Transport}
}

// HTTPClient is an HTTP client on Transport.
func (s *Server) HTTPClient() *http.Client { return &http.Client{Transport: s.Transport()} }

type toServer struct {
	server *Server
	next   http.RoundTripper
}

func (t *toServer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != discordHost {
		return t.next.RoundTrip(req)
	}
	// A RoundTripper must not change the request it was given.
	out := req.Clone(req.Context())
	out.URL.Scheme = "http"
	out.URL.Host = t.server.hs.Listener.Addr().String()
	out.Host = ""
	return t.next.RoundTrip(out)
}
