package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// Poster sends and edits channel messages over the REST API: the
// poster of scheduled work (commands.Poster). It needs no gateway connection.
type Poster struct{ session *discordgo.Session }

// NewPoster posts through session's REST side.
func NewPoster(session *discordgo.Session) *Poster { return &Poster{session: session} }

// Post sends a message to a channel, with nonce ("" for none) enforced:
// Discord then answers a repeat (discordgo's own retry of a 502, a retry
// by contest, another process's attempt) with the message it made the
// first time. ChannelMessageSendComplex cannot carry a nonce, so the
// request is made here with discordgo's REST helpers, on the same route and
// rate-limit bucket.
func (p *Poster) Post(ctx context.Context, channelID, nonce string, r bot.Reply) (string, error) {
	m := newMessage(r, creating)
	m.AllowedMentions, m.Nonce, m.EnforceNonce = pings(r.Pings), nonce, nonce != ""
	msg, err := p.send(ctx, "POST", discordgo.EndpointChannelMessages(channelID), discordgo.EndpointChannelMessages(channelID), m)
	if err != nil {
		return "", fmt.Errorf("post to channel %s: %w", channelID, err)
	}
	return msg.ID, nil
}

// Followup posts r as a followup of the application's interaction whose
// token it is, after its handler returned: Maze Arena's result card in a
// group DM, where the bot may not post but the launch's followups show.
// It goes the interactions' way (interactionREST): no bot token, the
// interaction's own limits, and errors that never carry the token.
func (p *Poster) Followup(ctx context.Context, appID, token string, r bot.Reply) error {
	m := newMessage(r, creating)
	m.AllowedMentions = pings(r.Pings)
	if err := newInteractionREST(p.session).Followup(ctx, &discordgo.Interaction{AppID: appID, Token: token}, m); err != nil {
		return fmt.Errorf("followup: %w", err)
	}
	return nil
}

// Edit replaces a channel message's content, embeds and buttons; its
// files stay unless r brings new ones.
func (p *Poster) Edit(ctx context.Context, channelID, messageID string, r bot.Reply) error {
	m := newMessage(r, keepOldFiles)
	m.AllowedMentions = noPings
	if _, err := p.send(ctx, "PATCH", discordgo.EndpointChannelMessage(channelID, messageID), discordgo.EndpointChannelMessage(channelID, ""), m); err != nil {
		return fmt.Errorf("edit message %s in channel %s: %w", messageID, channelID, err)
	}
	return nil
}

// send makes one request of m, as multipart when it has files, through
// the session's rate limiter under bucket.
func (p *Poster) send(ctx context.Context, method, endpoint, bucket string, m *message) (*discordgo.Message, error) {
	var (
		body []byte
		err  error
	)
	if files := discordFiles(m.files); len(files) > 0 {
		var contentType string
		contentType, body, err = discordgo.MultipartBodyWithJSON(m, files)
		if err == nil {
			body, err = p.session.RequestRaw(method, endpoint, contentType, body, bucket, 0, discordgo.WithContext(ctx))
		}
	} else {
		body, err = p.session.RequestWithBucketID(method, endpoint, m, bucket, discordgo.WithContext(ctx))
	}
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := discordgo.Unmarshal(body, &msg); err != nil {
		return nil, err
	}
	return &msg, nil
}

// GuildLocale is a server's primary language as its admins set it in
// Discord (preferred_locale, GET /guilds/{id}).
func (p *Poster) GuildLocale(ctx context.Context, guildID string) (string, error) {
	g, err := p.session.Guild(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("server %s: %w", guildID, err)
	}
	return g.PreferredLocale, nil
}

// DMChannel opens (or finds) the DM channel with a user: POST
// /users/@me/channels with the recipient.
func (p *Poster) DMChannel(ctx context.Context, userID string) (string, error) {
	ch, err := p.session.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("DM channel with %s: %w", userID, err)
	}
	return ch.ID, nil
}

// Recent lists a channel's newest messages, newest first (Read Message
// History).
func (p *Poster) Recent(ctx context.Context, channelID string, limit int) ([]*discordgo.Message, error) {
	msgs, err := p.session.ChannelMessages(channelID, limit, "", "", "", discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("recent messages of channel %s: %w", channelID, err)
	}
	return msgs, nil
}

// pings lets a post notify the members users, and nobody else; noPings
// when there are none.
func pings(users []string) *discordgo.MessageAllowedMentions {
	if len(users) == 0 {
		return noPings
	}
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: users}
}

// noPings lets a scheduled post name members (<@id> renders as their name)
// without notifying each of them: a leaderboard is not a summons.
var noPings = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}

// Get sends GET path (below /api/v9, e.g. "/applications/@me") with the
// bot's token on the session, under the rate-limit bucket bucket, and
// answers Discord's status and body: Maze Arena's requests with the token
// go this way, so they share the bot's one rate limiter (discordgo's
// buckets, GlobalLimit's pace and its record of a global 429). A request
// that a 429 still holds is not sent, nor waited for: status 429 at once,
// for the caller to say "try again later".
func (p *Poster) Get(ctx context.Context, path, bucket string) (int, []byte, error) {
	rl := p.session.Ratelimiter
	if rl.GetWaitTime(rl.GetBucket(bucket), 1) > 0 {
		return http.StatusTooManyRequests, nil, nil
	}
	body, err := p.session.RequestWithBucketID(http.MethodGet, discordgo.EndpointAPI+strings.TrimPrefix(path, "/"), nil, bucket, discordgo.WithContext(Impatient(ctx)))
	var (
		rest    *discordgo.RESTError
		limited *discordgo.RateLimitError
	)
	switch {
	case err == nil:
		return http.StatusOK, body, nil
	case errors.As(err, &limited), errors.Is(err, ErrHeld):
		return http.StatusTooManyRequests, nil, nil
	case errors.As(err, &rest) && rest.Response != nil:
		return rest.Response.StatusCode, rest.ResponseBody, nil
	}
	return 0, nil, fmt.Errorf("GET %s: %w", bucket, stripURL(err))
}

// RetryRateLimited calls do up to tries times while Discord answers it 429
// (a *discordgo.RateLimitError), waiting out each retry_after within ctx:
// for a request that a repeat cannot make twice (a role, a post with its
// nonce enforced), since a 429 was not carried out.
func RetryRateLimited(ctx context.Context, tries int, do func() error) error {
	for try := 1; ; try++ {
		err := do()
		var limited *discordgo.RateLimitError
		if err == nil || !errors.As(err, &limited) || limited.RateLimit == nil || try >= tries {
			return err
		}
		t := time.NewTimer(max(limited.RetryAfter, 100*time.Millisecond))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return errors.Join(ctx.Err(), err)
		}
	}
}
