package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands"
)

// Poster sends and edits channel messages over the REST API: the
// commands.Poster of scheduled work. It needs no gateway connection.
type Poster struct{ session *discordgo.Session }

// NewPoster posts through session's REST side.
func NewPoster(session *discordgo.Session) *Poster { return &Poster{session: session} }

// Post sends a message to a channel.
func (p *Poster) Post(ctx context.Context, channelID string, r commands.Reply) (string, error) {
	msg, err := p.session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:         r.Content,
		Embeds:          r.Embeds,
		Components:      r.Components,
		Files:           discordFiles(r.Files),
		AllowedMentions: noPings,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("post to channel %s: %w", channelID, err)
	}
	return msg.ID, nil
}

// Edit replaces a channel message's content, embeds and buttons.
func (p *Poster) Edit(ctx context.Context, channelID, messageID string, r commands.Reply) error {
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

var _ commands.Poster = (*Poster)(nil)

// noPings lets a scheduled post name members (<@id> renders as their name)
// without notifying each of them: a leaderboard is not a summons.
var noPings = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
