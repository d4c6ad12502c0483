package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Poster sends and edits channel messages over the REST API: the
// poster of scheduled work (commands.Poster). It needs no gateway connection.
type Poster struct{ session *discordgo.Session }

// NewPoster posts through session's REST side.
func NewPoster(session *discordgo.Session) *Poster { return &Poster{session: session} }

// messageSend is a channel message create with the fields discordgo
// v0.29.0's MessageSend lacks: nonce and enforce_nonce.
type messageSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// Post sends a message to a channel, with nonce ("" for none) enforced:
// Discord then answers a repeat (discordgo's own retry of a 502, a retry
// by contest, another process's attempt) with the message it made the
// first time. ChannelMessageSendComplex cannot carry a nonce, so the
// request is made here with discordgo's REST helpers, on the same route and
// rate-limit bucket.
func (p *Poster) Post(ctx context.Context, channelID, nonce string, r Reply) (string, error) {
	data := messageSend{
		MessageSend: &discordgo.MessageSend{
			Content:         r.Content,
			Embeds:          r.Embeds,
			Components:      r.Components,
			AllowedMentions: noPings,
		},
		Nonce: nonce, EnforceNonce: nonce != "",
	}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var (
		body []byte
		err  error
	)
	if files := discordFiles(r.Files); len(files) > 0 {
		var contentType string
		contentType, body, err = discordgo.MultipartBodyWithJSON(data, files)
		if err == nil {
			body, err = p.session.RequestRaw("POST", endpoint, contentType, body, endpoint, 0, discordgo.WithContext(ctx))
		}
	} else {
		body, err = p.session.RequestWithBucketID("POST", endpoint, data, endpoint, discordgo.WithContext(ctx))
	}
	var msg discordgo.Message
	if err == nil {
		err = discordgo.Unmarshal(body, &msg)
	}
	if err != nil {
		return "", fmt.Errorf("post to channel %s: %w", channelID, err)
	}
	return msg.ID, nil
}

// Edit replaces a channel message's content, embeds and buttons.
func (p *Poster) Edit(ctx context.Context, channelID, messageID string, r Reply) error {
	components := nonNilComponents(r.Components)
	embeds := r.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	edit := &discordgo.MessageEdit{ID: messageID, Channel: channelID, Content: &r.Content, Embeds: &embeds, Components: &components, Files: discordFiles(r.Files), AllowedMentions: noPings}
	if len(r.Files) > 0 {
		edit.Attachments = &[]*discordgo.MessageAttachment{}
	}
	if _, err := p.session.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("edit message %s in channel %s: %w", messageID, channelID, err)
	}
	return nil
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

// Recent lists a channel's newest messages, newest first (Read Message
// History).
func (p *Poster) Recent(ctx context.Context, channelID string, limit int) ([]*discordgo.Message, error) {
	msgs, err := p.session.ChannelMessages(channelID, limit, "", "", "", discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("recent messages of channel %s: %w", channelID, err)
	}
	return msgs, nil
}

// noPings lets a scheduled post name members (<@id> renders as their name)
// without notifying each of them: a leaderboard is not a summons.
var noPings = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
