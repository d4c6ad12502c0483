package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// interactionREST answers interactions over Discord's interaction and
// webhook routes with the session's HTTP client, not through discordgo's
// request path, which
//
//   - waits on its session-wide global rate limit and on buckets, one of them
//     ("webhooks//") shared by every interaction's edits, in sleeps no
//     context can cut short; Discord limits interaction routes per
//     interaction and exempts them from the global limit;
//   - sleeps through a 429's whole retry_after and retries every 502, even
//     past a first response's 3 s deadline, or for a POST Discord may
//     already have carried out;
//   - puts the request URL, which carries the interaction's token, in its
//     errors, and so in logs.
//
// Requests carry no bot token: these routes are authorised by the
// interaction's own.
type interactionREST struct {
	client    *http.Client
	userAgent string
}

func newInteractionREST(s *discordgo.Session) *interactionREST {
	return &interactionREST{client: s.Client, userAgent: s.UserAgent}
}

const (
	// maxAttempts bounds the tries of one call.
	maxAttempts = 4
	// globalLimitPause is the wait after a global 429 on an interaction
	// route: the global limit does not apply there, so retry nearly at once
	// instead of after its retry_after.
	globalLimitPause = 100 * time.Millisecond
	// unsurePause is the wait before repeating a request whose outcome is
	// unknown (a 5xx or a dropped connection).
	unsurePause = 100 * time.Millisecond
	// maxErrorBody bounds what is read of an answer.
	maxErrorBody = 1 << 20
)

// Routes, as logs name them: never the URL, which carries the token.
const (
	routeCallback = "POST /interactions/{id}/{token}/callback"
	routeEdit     = "PATCH /webhooks/{application}/{token}/messages/@original"
	routeDelete   = "DELETE /webhooks/{application}/{token}/messages/@original"
	routeFollowup = "POST /webhooks/{application}/{token}"
)

// call is one REST request.
type call struct {
	method, url, route string
	contentType        string
	body               []byte
	// repeatable: a request whose outcome is unknown may be sent again.
	// True for edits and deletes (idempotent) and first callbacks, where
	// Discord refuses a second acknowledgement (doneCode).
	repeatable bool
	// doneCode is the error code that, after an unsure attempt, means
	// that attempt went through.
	doneCode int
}

// Respond sends an interaction's first response. A 429 is waited out only
// when the wait ends before ctx's deadline (the response deadline); a longer
// one fails at once with errPastDeadline.
func (c *interactionREST) Respond(ctx context.Context, ix *discordgo.Interaction, resp *callback) error {
	var files []bot.File
	if resp.Data != nil {
		files = resp.Data.files
	}
	req, err := newCall(http.MethodPost, discordgo.EndpointInteractionResponse(ix.ID, ix.Token), routeCallback, resp, files)
	if err != nil {
		return err
	}
	req.repeatable, req.doneCode = true, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged
	_, err = c.do(ctx, req)
	return err
}

// EditOriginal edits the first response.
func (c *interactionREST) EditOriginal(ctx context.Context, ix *discordgo.Interaction, m *message) error {
	req, err := newCall(http.MethodPatch, discordgo.EndpointInteractionResponseActions(ix.AppID, ix.Token), routeEdit, m, m.files)
	if err != nil {
		return err
	}
	req.repeatable = true
	_, err = c.message(ctx, req)
	return err
}

// DeleteOriginal deletes the first response.
func (c *interactionREST) DeleteOriginal(ctx context.Context, ix *discordgo.Interaction) error {
	req := &call{method: http.MethodDelete, url: discordgo.EndpointInteractionResponseActions(ix.AppID, ix.Token), route: routeDelete, repeatable: true}
	_, err := c.do(ctx, req)
	return err
}

// Followup sends another message. It is not repeated when its outcome is
// unknown: that could post it twice.
func (c *interactionREST) Followup(ctx context.Context, ix *discordgo.Interaction, m *message) error {
	req, err := newCall(http.MethodPost, discordgo.EndpointFollowupMessage(ix.AppID, ix.Token)+"?wait=true", routeFollowup, m, m.files)
	if err != nil {
		return err
	}
	_, err = c.message(ctx, req)
	return err
}

// newCall encodes data as JSON, or as multipart with files, once: a
// retry must send the same bytes.
func newCall(method, url, route string, data any, files []bot.File) (*call, error) {
	req := &call{method: method, url: url, route: route, contentType: "application/json"}
	var err error
	if len(files) > 0 {
		req.contentType, req.body, err = discordgo.MultipartBodyWithJSON(data, discordFiles(files))
	} else {
		req.body, err = json.Marshal(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: encode: %w", route, err)
	}
	return req, nil
}

func (c *interactionREST) message(ctx context.Context, req *call) (*discordgo.Message, error) {
	body, err := c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%s: decode the message: %w", req.route, err)
	}
	return &m, nil
}

// do sends req until it succeeds, fails for good, or a wait would pass
// ctx's deadline. A 429 was not carried out, so it is retried after its
// retry_after (or at once for a global one); a 5xx or a dropped connection
// may have been, so only a repeatable request is sent again.
func (c *interactionREST) do(ctx context.Context, req *call) ([]byte, error) {
	unsure := false
	for attempt := 1; ; attempt++ {
		status, header, body, err := c.send(ctx, req)
		var wait time.Duration
		switch {
		case err != nil:
			rerr := &restError{route: req.route, msg: "no answer", err: err, maybeDone: !req.repeatable}
			if !req.repeatable || attempt == maxAttempts || ctx.Err() != nil {
				return nil, rerr
			}
			unsure, wait = true, unsurePause
		case status >= 200 && status < 300:
			return body, nil
		case status == http.StatusTooManyRequests:
			rl := rateLimit(header, body)
			rerr := &restError{route: req.route, status: status, msg: rl.String(), retryAfter: rl.after}
			if attempt == maxAttempts {
				return nil, rerr
			}
			wait = rl.after
			if rl.global {
				wait = min(wait, globalLimitPause)
			}
			if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
				rerr.err = errPastDeadline
				return nil, rerr
			}
		case status >= 500:
			rerr := newAPIError(req.route, status, body)
			rerr.maybeDone = !req.repeatable
			if !req.repeatable || attempt == maxAttempts {
				return nil, rerr
			}
			unsure, wait = true, unsurePause
		default:
			rerr := newAPIError(req.route, status, body)
			if unsure && req.doneCode != 0 && rerr.code == req.doneCode {
				return nil, nil // the unsure attempt was carried out
			}
			return nil, rerr
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &restError{route: req.route, msg: "gave up waiting to retry", err: ctx.Err()}
		case <-t.C:
		}
	}
}

// send makes one request. Its error never holds the URL.
func (c *interactionREST) send(ctx context.Context, req *call) (int, http.Header, []byte, error) {
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, req.url, body)
	if err != nil {
		return 0, nil, nil, stripURL(err)
	}
	if req.body != nil {
		hr.Header.Set("Content-Type", req.contentType)
	}
	hr.Header.Set("User-Agent", c.userAgent)
	res, err := c.client.Do(hr)
	if err != nil {
		return 0, nil, nil, stripURL(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	if err != nil {
		return 0, nil, nil, stripURL(err)
	}
	return res.StatusCode, res.Header, b, nil
}

// errPastDeadline: Discord asked for a wait that ends after the deadline.
var errPastDeadline = errors.New("rate-limited past the deadline")

// restError is a failed call to Discord, told without its URL: the URLs of
// interaction routes carry the interaction's token.
type restError struct {
	route      string        // "PATCH /webhooks/{application}/{token}/messages/@original"
	status     int           // 0 when no answer came
	code       int           // Discord's JSON error code, when it sent one
	msg        string        // Discord's message, or what went wrong
	retryAfter time.Duration // of a 429
	err        error         // the cause, if any: a context or transport error, errPastDeadline
	// maybeDone: a request sent once (a followup), whose answer was a
	// 5xx or never came: Discord may have carried it out.
	maybeDone bool
}

// Is makes errors.Is(err, bot.ErrMaybeDelivered) find an unsure send.
func (e *restError) Is(target error) bool { return target == bot.ErrMaybeDelivered && e.maybeDone }

func newAPIError(route string, status int, body []byte) *restError {
	e := &restError{route: route, status: status, msg: http.StatusText(status)}
	var m discordgo.APIErrorMessage
	if json.Unmarshal(body, &m) == nil && (m.Code != 0 || m.Message != "") {
		e.code, e.msg = m.Code, m.Message
	}
	return e
}

func (e *restError) Error() string {
	var b strings.Builder
	b.WriteString(e.route)
	b.WriteString(": ")
	if e.status != 0 {
		fmt.Fprintf(&b, "HTTP %d", e.status)
		if e.code != 0 {
			fmt.Fprintf(&b, " code %d", e.code)
		}
		b.WriteString(", ")
	}
	b.WriteString(e.msg)
	if e.err != nil {
		b.WriteString(": ")
		b.WriteString(e.err.Error())
	}
	return b.String()
}

func (e *restError) Unwrap() error { return e.err }

// apiCode returns the Discord error code in err, or 0.
func apiCode(err error) int {
	if e, ok := errors.AsType[*restError](err); ok {
		return e.code
	}
	return 0
}

// stripURL drops the URL from a transport error: net/http's *url.Error
// prints it, token and all.
func stripURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

// tokenPath matches the token segment of interaction and webhook URLs:
// /interactions/{id}/{token}/… and /webhooks/{id}/{token}…, compiled on
// first use (a command-line maze, linked with this package, should not pay
// for it at start).
var tokenPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(/(?:interactions|webhooks)/[0-9]+/)[^/?#\s"']+`)
})

// RedactTokens replaces the tokens in any interaction or webhook URL in s
// with "{token}". The errors of this package never hold such a URL; this
// is the logger's last line of defence against others' errors that do.
func RedactTokens(s string) string {
	if !strings.Contains(s, "/interactions/") && !strings.Contains(s, "/webhooks/") {
		return s
	}
	return tokenPath().ReplaceAllString(s, "${1}{token}")
}
