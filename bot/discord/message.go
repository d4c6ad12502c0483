package discord

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// message is the body of every request that makes or edits a message:
// an interaction's callback data, an edit of its original, a followup, a
// channel post or its edit. discordgo v0.29.0's own types send
// "content":"" whatever is set (Components V2 refuse any content), have no
// flags on an edit (where a deferred reply's V2 flag must go), and no
// description on an attachment (its alt text).
type message struct {
	Content         json.RawMessage                             `json:"content,omitempty"` // a JSON string, or null to clear
	Embeds          *[]*discordgo.MessageEmbed                  `json:"embeds,omitempty"`
	Components      *[]discordgo.MessageComponent               `json:"components,omitempty"`
	Attachments     *[]attachment                               `json:"attachments,omitempty"`
	Flags           discordgo.MessageFlags                      `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions           `json:"allowed_mentions,omitempty"`
	Nonce           string                                      `json:"nonce,omitempty"`
	EnforceNonce    bool                                        `json:"enforce_nonce,omitempty"`
	Choices         []*discordgo.ApplicationCommandOptionChoice `json:"choices,omitempty"`

	files []bot.File // sent as files[N] beside the JSON
}

// attachment describes an uploaded file: id N is the request's files[N],
// written as a snowflake string, as Discord's spec types every id.
type attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// callback is an interaction response: its type and data.
type callback struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data *message                          `json:"data,omitempty"`
}

// replacing says what an edit does with what the message had.
type replacing uint8

const (
	creating     replacing = iota // a new message
	replaceAll                    // an edit that replaces every part, the files too
	keepOldFiles                  // an edit that keeps the files unless it brings new ones
)

// newMessage is r as a message body. A Components V2 message sends no
// content or embeds (an edit resets both to none, as converting a message
// needs); any other sends its content, and an edit its embeds and
// components whole, so that nothing old lingers. Files go with their
// descriptions; an edit that replaces all clears the files it brings none
// for.
func newMessage(r bot.Reply, mode replacing) *message {
	m := &message{files: r.Files}
	components := r.Components
	if components == nil {
		components = []discordgo.MessageComponent{} // removes old buttons
	}
	m.Components = &components
	switch {
	case r.V2:
		m.Flags |= discordgo.MessageFlagsIsComponentsV2
		if mode != creating {
			// Converting a message takes its content (null clears it) and
			// embeds away.
			m.Content, m.Embeds = json.RawMessage("null"), &[]*discordgo.MessageEmbed{}
		}
	default:
		m.Content, _ = json.Marshal(r.Content) // a string always marshals
		if r.Embeds != nil || mode != creating {
			embeds := r.Embeds
			if embeds == nil {
				embeds = []*discordgo.MessageEmbed{}
			}
			m.Embeds = &embeds
		}
	}
	if r.Ephemeral {
		m.Flags |= discordgo.MessageFlagsEphemeral
	}
	if len(r.Files) > 0 || mode == replaceAll {
		list := make([]attachment, len(r.Files))
		for i, f := range r.Files {
			list[i] = attachment{ID: strconv.Itoa(i), Filename: f.Name, Description: f.Description}
		}
		m.Attachments = &list
	}
	return m
}

// discordFiles makes fresh readers each time: a discordgo.File drains once.
func discordFiles(files []bot.File) []*discordgo.File {
	if len(files) == 0 {
		return nil
	}
	out := make([]*discordgo.File, len(files))
	for i, f := range files {
		out[i] = &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}
	}
	return out
}
