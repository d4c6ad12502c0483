package fakediscord

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/gif"  // attachment dimensions
	_ "image/jpeg" // attachment dimensions
	_ "image/png"  // attachment dimensions
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message flags the fake looks at.
const (
	FlagSuppressEmbeds        = int(discordgo.MessageFlagsSuppressEmbeds)        // 4
	FlagEphemeral             = int(discordgo.MessageFlagsEphemeral)             // 64
	FlagLoading               = int(discordgo.MessageFlagsLoading)               // 128: a deferred reply ("thinking")
	FlagSuppressNotifications = int(discordgo.MessageFlagsSuppressNotifications) // 4096
	FlagComponentsV2          = int(discordgo.MessageFlagsIsComponentsV2)        // 32768
)

// Message is a message as the fake stores it. Values returned by the Server
// are snapshots: later edits do not change them. Their slices (Embeds,
// Components, Attachments and their Data) are shared with the Server:
// treat them as read-only.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string
	Type      int // 0 default, 20 slash command reply, 23 context menu reply
	Content   string
	Flags     int
	Embeds    []*discordgo.MessageEmbed
	// Components decoded by discordgo, and the JSON as stored.
	Components     []discordgo.MessageComponent
	ComponentsJSON json.RawMessage
	Attachments    []Attachment
	// Edits counts edits after creation (PATCH, type 7 updates, the edit that
	// ends a deferred reply).
	Edits           int
	Deleted         bool
	AuthorID        string
	AuthorUsername  string
	AuthorBot       bool
	Timestamp       time.Time
	EditedTimestamp time.Time // zero if never edited
	// InteractionID and InteractionToken name the interaction whose response
	// or followup created this message ("" for channel posts).
	InteractionID    string
	InteractionToken string
	// Nonce is the nonce the message was created with, as text (an integer
	// nonce in decimal); "" for none.
	Nonce string

	nonceJSON json.RawMessage // the nonce as sent, echoed in the wire format
	created   bool            // created by the bot through the REST API
	meta      *ixMeta         // the interaction that created it, for the wire format
}

// ixMeta is what a message's wire format tells of the interaction that
// created it (interaction_metadata, and interaction for a command).
type ixMeta struct {
	id, token  string
	typ        discordgo.InteractionType
	command    string // application commands: the command's name
	user       map[string]any
	owners     map[string]string
	originalID string // the interaction's original response, when another message
	sourceID   string // the message its component was on
}

// Ephemeral reports whether flag 64 is set.
func (m *Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports whether the message is a deferred reply not yet edited.
func (m *Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// Buttons lists the message's buttons in display order.
func (m *Message) Buttons() []Button { return buttonsOf(m.ComponentsJSON) }

// Button returns the button with customID, or nil.
func (m *Message) Button(customID string) *Button {
	for _, b := range m.Buttons() {
		if b.CustomID == customID {
			return &b
		}
	}
	return nil
}

// Attachment returns the attachment named filename, or nil.
func (m *Message) Attachment(filename string) *Attachment {
	for i := range m.Attachments {
		if m.Attachments[i].Filename == filename {
			return &m.Attachments[i]
		}
	}
	return nil
}

// Attachment is a file on a message. Data is shared with the server: treat
// it as read-only.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Size        int
	Width       int // images only
	Height      int
	URL         string // served by the fake
	Data        []byte
	Description string // alt text, from the payload's attachments list
}

// Spoiler reports whether Discord would hide the file (SPOILER_ prefix).
func (a *Attachment) Spoiler() bool { return strings.HasPrefix(a.Filename, "SPOILER_") }

// Button is a button component as a user sees it.
type Button struct {
	CustomID string
	Label    string
	Style    int
	Disabled bool
	Emoji    string // unicode emoji, or the custom emoji's name
	EmojiID  string
	URL      string
	Row      int // index of the action row (or top-level component)
}

// rawComponent is the union of the component fields the fake checks.
type rawComponent struct {
	Type        int                       `json:"type"`
	CustomID    *string                   `json:"custom_id"`
	Style       int                       `json:"style"`
	Label       string                    `json:"label"`
	URL         string                    `json:"url"`
	SKUID       string                    `json:"sku_id"`
	Disabled    bool                      `json:"disabled"`
	Emoji       *discordgo.ComponentEmoji `json:"emoji"`
	Title       string                    `json:"title"`
	Components  []rawComponent            `json:"components"`
	Accessory   *rawComponent             `json:"accessory"`
	Placeholder string                    `json:"placeholder"`
	// Components V2.
	Content     string         `json:"content"` // text display
	Items       []rawMediaItem `json:"items"`   // media gallery
	Media       *rawMedia      `json:"media"`   // thumbnail
	File        *rawMedia      `json:"file"`    // file
	Description *string        `json:"description"`
	Spacing     int            `json:"spacing"`
}

// rawMedia is an unfurled media item: a URL or attachment://name.
type rawMedia struct {
	URL string `json:"url"`
}

type rawMediaItem struct {
	Media       *rawMedia `json:"media"`
	Description *string   `json:"description"`
}

func buttonsOf(raw json.RawMessage) []Button {
	var comps []rawComponent
	if len(raw) == 0 || json.Unmarshal(raw, &comps) != nil {
		return nil
	}
	var out []Button
	var walk func(c rawComponent, row int)
	walk = func(c rawComponent, row int) {
		if c.Type == int(discordgo.ButtonComponent) {
			b := Button{Label: c.Label, Style: c.Style, Disabled: c.Disabled, URL: c.URL, Row: row}
			if c.CustomID != nil {
				b.CustomID = *c.CustomID
			}
			if c.Emoji != nil {
				b.Emoji, b.EmojiID = c.Emoji.Name, c.Emoji.ID
			}
			out = append(out, b)
		}
		for _, child := range c.Components {
			walk(child, row)
		}
		if c.Accessory != nil {
			walk(*c.Accessory, row)
		}
	}
	for i, c := range comps {
		walk(c, i)
	}
	return out
}

// decodeComponents turns stored component JSON into discordgo components.
func decodeComponents(raw json.RawMessage) []discordgo.MessageComponent {
	var parts []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	out := make([]discordgo.MessageComponent, 0, len(parts))
	for _, p := range parts {
		c, err := discordgo.MessageComponentFromJSON(p)
		if err != nil {
			continue
		}
		out = append(out, c)
	}
	return out
}

func cloneEmbeds(in []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	if in == nil {
		return nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil
	}
	var out []*discordgo.MessageEmbed
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// snapshot copies a stored message for a caller. A stored message is never
// changed (an edit stores a new version), so the copy shares its slices.
func (m *Message) snapshot() *Message {
	c := *m
	return &c
}

// ---- wire format ----

// ---- wire format ----

type wireUser struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	GlobalName    *string `json:"global_name"`
	Discriminator string  `json:"discriminator"`
	Avatar        *string `json:"avatar"`
	Bot           bool    `json:"bot,omitempty"`
	PublicFlags   int     `json:"public_flags"`
}

type wireAttachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	ContentType string `json:"content_type,omitempty"`
	Description string `json:"description,omitempty"`
	Width       int    `json:"width,omitempty"`
	Height      int    `json:"height,omitempty"`
	Ephemeral   bool   `json:"ephemeral,omitempty"`
}

type wireMessage struct {
	ID                  string                    `json:"id"`
	Type                int                       `json:"type"`
	ChannelID           string                    `json:"channel_id"`
	GuildID             string                    `json:"guild_id,omitempty"`
	Content             string                    `json:"content"`
	Author              wireUser                  `json:"author"`
	Attachments         []wireAttachment          `json:"attachments"`
	Embeds              []*discordgo.MessageEmbed `json:"embeds"`
	Components          json.RawMessage           `json:"components"`
	Mentions            []any                     `json:"mentions"`
	MentionRoles        []string                  `json:"mention_roles"`
	MentionEveryone     bool                      `json:"mention_everyone"`
	Pinned              bool                      `json:"pinned"`
	TTS                 bool                      `json:"tts"`
	Timestamp           string                    `json:"timestamp"`
	EditedTimestamp     *string                   `json:"edited_timestamp"`
	Flags               int                       `json:"flags"`
	WebhookID           string                    `json:"webhook_id,omitempty"`
	ApplicationID       string                    `json:"application_id,omitempty"`
	Nonce               json.RawMessage           `json:"nonce,omitempty"`
	InteractionMetadata map[string]any            `json:"interaction_metadata,omitempty"`
	Interaction         map[string]any            `json:"interaction,omitempty"`
}

// wire renders m as Discord sends a message.
func (s *Server) wire(m *Message) wireMessage {
	w := wireMessage{
		ID:           m.ID,
		Type:         m.Type,
		ChannelID:    m.ChannelID,
		GuildID:      m.GuildID,
		Content:      m.Content,
		Author:       wireUser{ID: m.AuthorID, Username: m.AuthorUsername, Discriminator: "0", Bot: m.AuthorBot},
		Attachments:  []wireAttachment{},
		Embeds:       m.Embeds,
		Components:   m.ComponentsJSON,
		Mentions:     []any{},
		MentionRoles: []string{},
		Timestamp:    m.Timestamp.Format(time.RFC3339Nano),
		Flags:        m.Flags,
		Nonce:        m.nonceJSON,
	}
	if w.Embeds == nil {
		w.Embeds = []*discordgo.MessageEmbed{}
	}
	if len(w.Components) == 0 {
		w.Components = json.RawMessage("[]")
	}
	if !m.EditedTimestamp.IsZero() {
		t := m.EditedTimestamp.Format(time.RFC3339Nano)
		w.EditedTimestamp = &t
	}
	for _, a := range m.Attachments {
		w.Attachments = append(w.Attachments, wireAttachment{
			ID: a.ID, Filename: a.Filename, Size: a.Size, URL: a.URL, ProxyURL: a.URL,
			ContentType: a.ContentType, Description: a.Description, Width: a.Width, Height: a.Height, Ephemeral: m.Ephemeral(),
		})
	}
	if ix := m.meta; ix != nil {
		w.WebhookID = s.cfg.AppID
		w.ApplicationID = s.cfg.AppID
		w.InteractionMetadata = map[string]any{
			"id":                             ix.id,
			"type":                           int(ix.typ),
			"user":                           ix.user,
			"authorizing_integration_owners": ix.owners,
		}
		if ix.originalID != "" && ix.originalID != m.ID {
			w.InteractionMetadata["original_response_message_id"] = ix.originalID
		}
		if ix.sourceID != "" {
			w.InteractionMetadata["interacted_message_id"] = ix.sourceID
		}
		if ix.typ == discordgo.InteractionApplicationCommand {
			w.Interaction = map[string]any{"id": ix.id, "type": int(ix.typ), "name": ix.command, "user": ix.user}
		}
	}
	return w
}

// Text is what a message says, as a reader reads it: the content, then
// each text display of a Components V2 message, in order, one per line.
// (Embeds and button labels are in Texts.)
func (m *Message) Text() string { return textOf(m.Content, m.ComponentsJSON) }

func textOf(content string, components json.RawMessage) string {
	var lines []string
	if content != "" {
		lines = append(lines, content)
	}
	var comps []rawComponent
	if len(components) > 0 && json.Unmarshal(components, &comps) == nil {
		var walk func(cs []rawComponent)
		walk = func(cs []rawComponent) {
			for _, c := range cs {
				if c.Type == typeTextDisplay && c.Content != "" {
					lines = append(lines, c.Content)
				}
				walk(c.Components)
			}
		}
		walk(comps)
	}
	return strings.Join(lines, "\n")
}

// Texts lists the texts of a message a reader sees, each on its own: the
// content, each embed's title, description, field names and values,
// footer and author, and the texts, labels and placeholders of its
// components (text displays, buttons, selects, sections). Empty ones are
// left out.
func (m *Message) Texts() []string {
	var out []string
	add := func(ss ...string) {
		for _, s := range ss {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	add(m.Content)
	for _, e := range m.Embeds {
		add(e.Title, e.Description)
		for _, f := range e.Fields {
			add(f.Name, f.Value)
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
		if e.Author != nil {
			add(e.Author.Name)
		}
	}
	var comps []rawComponent
	if len(m.ComponentsJSON) > 0 && json.Unmarshal(m.ComponentsJSON, &comps) == nil {
		var walk func(cs []rawComponent)
		walk = func(cs []rawComponent) {
			for _, c := range cs {
				add(c.Content, c.Label, c.Placeholder, c.Title)
				walk(c.Components)
				if c.Accessory != nil {
					walk([]rawComponent{*c.Accessory})
				}
			}
		}
		walk(comps)
	}
	return out
}

// newAttachment describes an upload.
func newAttachment(filename, contentType string, data []byte) Attachment {
	a := Attachment{Filename: filename, Size: len(data), Data: data}
	ct := contentType
	if ct == "" || ct == "application/octet-stream" {
		if byExt := mime.TypeByExtension(path.Ext(filename)); byExt != "" {
			ct = byExt
		} else {
			ct = http.DetectContentType(data)
		}
	}
	a.ContentType = ct
	if strings.HasPrefix(ct, "image/") {
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			a.Width, a.Height = cfg.Width, cfg.Height
		}
	}
	return a
}
