package fakediscord

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Message payloads: their fields as a request sends them, and the limits
// Discord checks them against.

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
		return errEmptyMessage
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
