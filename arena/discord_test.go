package arena

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// stubBot is the wing's client as the unit tests have it: GET on
// transport (nil: http.DefaultTransport) at api, with the bot's token.
type stubBot struct {
	transport http.RoundTripper
	api       string // "" is https://discord.com/api/v9
}

func (b stubBot) Get(ctx context.Context, path, _ string) (int, []byte, error) {
	api := b.api
	if api == "" {
		api = "https://discord.com/api/v9"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, api+"/"+strings.TrimPrefix(path, "/"), nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bot x")
	rt := b.transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	res, err := rt.RoundTrip(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res.StatusCode, body, err
}
