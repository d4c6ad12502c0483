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
	"unicode/utf8"

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
// are snapshots: later edits do not change them.
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

// snapshot copies a stored message for a caller.
func (m *Message) snapshot() *Message {
	c := *m
	c.Embeds = cloneEmbeds(m.Embeds)
	c.ComponentsJSON = append(json.RawMessage(nil), m.ComponentsJSON...)
	c.Components = decodeComponents(m.ComponentsJSON)
	c.Attachments = append([]Attachment(nil), m.Attachments...)
	return &c
}

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

// wireLocked renders m as Discord sends a message. s.mu must be held.
func (s *Server) wireLocked(m *Message) wireMessage {
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
			ContentType: a.ContentType, Width: a.Width, Height: a.Height, Ephemeral: m.Ephemeral(),
		})
	}
	if ix := s.interactions[m.InteractionID]; ix != nil {
		w.WebhookID = s.cfg.AppID
		w.ApplicationID = s.cfg.AppID
		user := ix.user
		w.InteractionMetadata = map[string]any{
			"id":                             ix.ID,
			"type":                           int(ix.Type),
			"user":                           user,
			"authorizing_integration_owners": ix.owners,
		}
		if ix.originalID != "" && ix.originalID != m.ID {
			w.InteractionMetadata["original_response_message_id"] = ix.originalID
		}
		if ix.sourceID != "" {
			w.InteractionMetadata["interacted_message_id"] = ix.sourceID
		}
		if ix.Type == discordgo.InteractionApplicationCommand {
			w.Interaction = map[string]any{"id": ix.ID, "type": int(ix.Type), "name": ix.CommandName, "user": user}
		}
	}
	return w
}

// ---- request payloads ----

// msgFields is a message payload: presence flags tell an edit which fields
// to replace (a JSON null clears the field).
type msgFields struct {
	content        string
	hasContent     bool
	embeds         []*discordgo.MessageEmbed
	hasEmbeds      bool
	components     json.RawMessage
	hasComponents  bool
	keep           []string // ids from an attachments list
	hasAttachments bool
	flags          int
	hasFlags       bool
	files          []Attachment // new uploads, in files[N] order
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// decodeMsgFields reads the message fields of obj; errors are reported at
// prefix (e.g. "data" for interaction callbacks).
func decodeMsgFields(obj map[string]json.RawMessage, files []Attachment, prefix ...string) (*msgFields, *apiError) {
	f := &msgFields{files: files}
	fe := newFormErrors()
	at := func(field ...string) []string { return append(append([]string(nil), prefix...), field...) }
	if raw, ok := obj["content"]; ok {
		f.hasContent = true
		if !isNull(raw) && json.Unmarshal(raw, &f.content) != nil {
			fe.add(at("content"), "STRING_TYPE_CONVERT", "Could not interpret value as string.")
		}
	}
	if raw, ok := obj["embeds"]; ok {
		f.hasEmbeds = true
		if !isNull(raw) && json.Unmarshal(raw, &f.embeds) != nil {
			fe.add(at("embeds"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		}
		for _, e := range f.embeds {
			if e != nil && e.Type == "" {
				e.Type = discordgo.EmbedTypeRich
			}
		}
	}
	if raw, ok := obj["components"]; ok {
		f.hasComponents = true
		if isNull(raw) {
			f.components = json.RawMessage("[]")
		} else {
			var probe []json.RawMessage
			if json.Unmarshal(raw, &probe) != nil {
				fe.add(at("components"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
			} else {
				var buf bytes.Buffer
				if err := json.Compact(&buf, raw); err == nil {
					f.components = buf.Bytes()
				}
			}
		}
	}
	if raw, ok := obj["attachments"]; ok {
		f.hasAttachments = true
		var list []struct {
			ID json.RawMessage `json:"id"`
		}
		if !isNull(raw) && json.Unmarshal(raw, &list) != nil {
			fe.add(at("attachments"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		}
		for _, a := range list {
			f.keep = append(f.keep, strings.Trim(string(a.ID), `"`))
		}
	}
	if raw, ok := obj["flags"]; ok {
		f.hasFlags = true
		if !isNull(raw) && json.Unmarshal(raw, &f.flags) != nil {
			fe.add(at("flags"), "NUMBER_TYPE_COERCE", "Value is not int.")
		}
	}
	if fe.any() {
		return nil, fe.err()
	}
	return f, nil
}

// Limits Discord enforces on messages.
const (
	MaxContent          = 2000 // code points
	MaxEmbeds           = 10
	MaxEmbedTotal       = 6000
	MaxEmbedTitle       = 256
	MaxEmbedDescription = 4096
	MaxEmbedFields      = 25
	MaxFieldName        = 256
	MaxFieldValue       = 1024
	MaxFooterText       = 2048
	MaxAuthorName       = 256
	MaxActionRows       = 5
	MaxRowButtons       = 5
	MaxCustomID         = 100
	MaxButtonLabel      = 80
	MaxFiles            = 10
	MaxFileSize         = 10 << 20 // default upload limit per file
	MaxRequestSize      = 25 << 20
)

// validate checks the fields f would set. newMessage requires a non-empty
// message. flags are the flags the message will have (for components v2).
func validateFields(f *msgFields, flags int, newMessage bool, prefix ...string) *apiError {
	fe := newFormErrors()
	at := func(field ...string) []string { return append(append([]string(nil), prefix...), field...) }
	if f.hasContent && runeLen(f.content) > MaxContent {
		fe.add(at("content"), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	if f.hasEmbeds {
		validateEmbeds(fe, f.embeds, at("embeds"))
	}
	if f.hasComponents {
		validateComponents(fe, f.components, flags&FlagComponentsV2 != 0, at("components"))
	}
	if len(f.files) > MaxFiles {
		fe.add(at("files"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
	}
	if fe.any() {
		return fe.err()
	}
	for _, a := range f.files {
		if a.Size > MaxFileSize {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large",
				Detail: a.Filename + " is larger than 10 MiB"}
		}
	}
	if newMessage && f.content == "" && len(f.embeds) == 0 && len(f.files) == 0 && !hasComponents(f.components) {
		return &apiError{Status: http.StatusBadRequest, Code: 50006, Message: "Cannot send an empty message"}
	}
	return nil
}

func hasComponents(raw json.RawMessage) bool {
	var parts []json.RawMessage
	return len(raw) > 0 && json.Unmarshal(raw, &parts) == nil && len(parts) > 0
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func validateEmbeds(fe *formErrors, embeds []*discordgo.MessageEmbed, at []string) {
	if len(embeds) > MaxEmbeds {
		fe.add(at, "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
		return
	}
	total := 0
	for i, e := range embeds {
		if e == nil {
			continue
		}
		p := func(field ...string) []string { return append(append(append([]string(nil), at...), itoa(i)), field...) }
		check := func(v string, max int, field ...string) {
			n := runeLen(v)
			total += n
			if n > max {
				fe.add(p(field...), "BASE_TYPE_MAX_LENGTH", "Must be "+itoa(max)+" or fewer in length.")
			}
		}
		check(e.Title, MaxEmbedTitle, "title")
		check(e.Description, MaxEmbedDescription, "description")
		if e.Footer != nil {
			check(e.Footer.Text, MaxFooterText, "footer", "text")
		}
		if e.Author != nil {
			check(e.Author.Name, MaxAuthorName, "author", "name")
		}
		if len(e.Fields) > MaxEmbedFields {
			fe.add(p("fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		for j, fl := range e.Fields {
			if fl == nil {
				continue
			}
			check(fl.Name, MaxFieldName, "fields", itoa(j), "name")
			check(fl.Value, MaxFieldValue, "fields", itoa(j), "value")
			if fl.Name == "" {
				fe.add(p("fields", itoa(j), "name"), "BASE_TYPE_REQUIRED", "This field is required")
			}
			if fl.Value == "" {
				fe.add(p("fields", itoa(j), "value"), "BASE_TYPE_REQUIRED", "This field is required")
			}
		}
	}
	if total > MaxEmbedTotal {
		fe.add(at, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
	}
}

// knownComponent lists the component types discordgo v0.29.0 can decode.
func knownComponent(t int) bool {
	return (t >= 1 && t <= 14) || t == 17
}

func isSelect(t int) bool {
	return t == int(discordgo.SelectMenuComponent) || (t >= 5 && t <= 8)
}

func validateComponents(fe *formErrors, raw json.RawMessage, v2 bool, at []string) {
	var comps []rawComponent
	if len(raw) == 0 {
		return
	}
	if err := json.Unmarshal(raw, &comps); err != nil {
		fe.add(at, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		return
	}
	seen := map[string]bool{}
	checkID := func(c rawComponent, p []string, required bool) {
		if c.CustomID == nil || *c.CustomID == "" {
			if required {
				fe.add(append(p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
			}
			return
		}
		id := *c.CustomID
		if runeLen(id) > MaxCustomID {
			fe.add(append(p, "custom_id"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
		}
		if seen[id] {
			fe.add(append(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		seen[id] = true
	}
	var child func(c rawComponent, p []string)
	child = func(c rawComponent, p []string) {
		switch {
		case !knownComponent(c.Type):
			fe.add(append(p, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of known component types.")
		case c.Type == int(discordgo.ButtonComponent):
			switch c.Style {
			case int(discordgo.LinkButton):
				if c.URL == "" {
					fe.add(append(p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
				}
				if c.CustomID != nil && *c.CustomID != "" {
					fe.add(append(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_OR_URL", "A custom id and url cannot both be specified")
				}
			case int(discordgo.PremiumButton):
				if c.SKUID == "" {
					fe.add(append(p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
				}
			case 1, 2, 3, 4:
				checkID(c, p, true)
			default:
				fe.add(append(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
			}
			if runeLen(c.Label) > MaxButtonLabel {
				fe.add(append(p, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
			}
		case isSelect(c.Type):
			checkID(c, p, true)
		case c.Type == int(discordgo.TextInputComponent):
			fe.add(append(p, "type"), "COMPONENT_TYPE_INVALID", "Text inputs are only allowed in modals.")
		default:
			checkID(c, p, false)
			for i, cc := range c.Components {
				child(cc, append(append([]string(nil), p...), "components", itoa(i)))
			}
			if c.Accessory != nil {
				child(*c.Accessory, append(append([]string(nil), p...), "accessory"))
			}
		}
	}
	if v2 {
		for i, c := range comps {
			child(c, append(append([]string(nil), at...), itoa(i)))
		}
		return
	}
	if len(comps) > MaxActionRows {
		fe.add(at, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	for i, row := range comps {
		p := append(append([]string(nil), at...), itoa(i))
		if row.Type != int(discordgo.ActionsRowComponent) {
			fe.add(append(p, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
			continue
		}
		if n := len(row.Components); n < 1 || n > MaxRowButtons {
			fe.add(append(p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		for j, c := range row.Components {
			cp := append(append([]string(nil), p...), "components", itoa(j))
			if c.Type != int(discordgo.ButtonComponent) && !isSelect(c.Type) {
				fe.add(append(cp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
				continue
			}
			if isSelect(c.Type) && len(row.Components) > 1 {
				fe.add(append(p, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
			}
			child(c, cp)
		}
	}
}

// validateModal checks a type 9 callback's data.
func validateModal(obj map[string]json.RawMessage) (customID, title string, comps json.RawMessage, e *apiError) {
	fe := newFormErrors()
	_ = json.Unmarshal(obj["custom_id"], &customID)
	_ = json.Unmarshal(obj["title"], &title)
	if customID == "" {
		fe.add([]string{"data", "custom_id"}, "BASE_TYPE_REQUIRED", "This field is required")
	} else if runeLen(customID) > MaxCustomID {
		fe.add([]string{"data", "custom_id"}, "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	if title == "" {
		fe.add([]string{"data", "title"}, "BASE_TYPE_REQUIRED", "This field is required")
	} else if runeLen(title) > 45 {
		fe.add([]string{"data", "title"}, "BASE_TYPE_MAX_LENGTH", "Must be 45 or fewer in length.")
	}
	var rows []rawComponent
	if json.Unmarshal(obj["components"], &rows) != nil || len(rows) < 1 || len(rows) > 5 {
		fe.add([]string{"data", "components"}, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	seen := map[string]bool{}
	for i, r := range rows {
		p := []string{"data", "components", itoa(i)}
		if r.Type != int(discordgo.ActionsRowComponent) || len(r.Components) != 1 || r.Components[0].Type != int(discordgo.TextInputComponent) {
			fe.add(p, "MODAL_ROW_INVALID", "A modal row must be an action row holding one text input.")
			continue
		}
		in := r.Components[0]
		if in.CustomID == nil || *in.CustomID == "" || runeLen(*in.CustomID) > MaxCustomID || seen[*in.CustomID] {
			fe.add(append(p, "components", "0", "custom_id"), "BASE_TYPE_INVALID", "custom_id must be 1-100 characters and unique.")
		} else {
			seen[*in.CustomID] = true
		}
		if in.Label == "" || runeLen(in.Label) > 45 {
			fe.add(append(p, "components", "0", "label"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length.")
		}
		if in.Style != 1 && in.Style != 2 {
			fe.add(append(p, "components", "0", "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
		}
	}
	if fe.any() {
		return "", "", nil, fe.err()
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, obj["components"])
	return customID, title, buf.Bytes(), nil
}

// newMessageLocked stores a new message built from f. s.mu must be held.
func (s *Server) newMessageLocked(channelID, guildID string, f *msgFields, flags, typ int) *Message {
	if guildID == "" {
		guildID = s.channels[channelID].guildID
	}
	id := s.newIDLocked()
	m := &Message{
		ID:             id,
		ChannelID:      channelID,
		GuildID:        guildID,
		Type:           typ,
		Content:        f.content,
		Flags:          flags,
		Embeds:         f.embeds,
		ComponentsJSON: f.components,
		AuthorID:       s.cfg.AppID,
		AuthorUsername: s.cfg.BotUsername,
		AuthorBot:      true,
		Timestamp:      snowflakeTime(id),
		created:        true,
	}
	m.Attachments = s.storeFilesLocked(m, f.files)
	s.messages[id] = m
	s.order = append(s.order, id)
	if !m.Loading() {
		s.sent = append(s.sent, m.snapshot())
	}
	return m
}

// storeFilesLocked gives uploads ids and URLs.
func (s *Server) storeFilesLocked(m *Message, files []Attachment) []Attachment {
	var out []Attachment
	for _, a := range files {
		a.ID = s.newIDLocked()
		a.URL = s.URL() + "/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
		out = append(out, a)
	}
	return out
}

// applyEditLocked edits m in place: present fields replace, attachments are
// kept unless an attachments list is sent, new files are added. The loading
// flag is cleared. s.mu must be held.
func (s *Server) applyEditLocked(m *Message, f *msgFields) {
	if f.hasContent {
		m.Content = f.content
	}
	if f.hasEmbeds {
		m.Embeds = f.embeds
	}
	if f.hasComponents {
		m.ComponentsJSON = f.components
	}
	if f.hasFlags {
		// Only the embed suppression flag can change on an edit.
		m.Flags = m.Flags&^FlagSuppressEmbeds | f.flags&FlagSuppressEmbeds
	}
	if f.hasAttachments {
		keep := map[string]bool{}
		for _, id := range f.keep {
			keep[id] = true
		}
		var kept []Attachment
		for _, a := range m.Attachments {
			if keep[a.ID] {
				kept = append(kept, a)
			}
		}
		m.Attachments = kept
	}
	m.Attachments = append(m.Attachments, s.storeFilesLocked(m, f.files)...)
	m.Flags &^= FlagLoading
	m.Edits++
	m.EditedTimestamp = time.Now().UTC()
	s.sent = append(s.sent, m.snapshot())
}

// Sent lists every message the bot sent, each version apart: a message as
// created, then as each edit left it (type 7 updates, PATCHes, the edit
// that ends a deferral; a deferral's empty "thinking" placeholder is left
// out). Ephemeral messages, followups and channel posts are all there,
// oldest first, as snapshots.
func (s *Server) Sent() []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Message, len(s.sent))
	for i, m := range s.sent {
		out[i] = m.snapshot()
	}
	return out
}

// Texts lists the texts of a message a reader sees, each on its own: the
// content, each embed's title, description, field names and values,
// footer and author, and the labels and placeholders of its components
// (buttons, selects, sections). Empty ones are left out.
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
				add(c.Label, c.Placeholder, c.Title)
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
