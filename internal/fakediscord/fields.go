package fakediscord

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
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
			ID          json.RawMessage `json:"id"`
			Description *string         `json:"description"`
		}
		if !isNull(raw) && json.Unmarshal(raw, &list) != nil {
			fe.add(at("attachments"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		}
		for i, a := range list {
			id := strings.Trim(string(a.ID), `"`)
			f.keep = append(f.keep, id)
			// An entry whose id is an upload's files[N] index describes
			// that upload (its alt text).
			if n, err := strconv.Atoi(id); err == nil && n >= 0 && n < len(f.files) && a.Description != nil {
				if runeLen(*a.Description) > MaxAttachmentDescription {
					fe.add(at("attachments", itoa(i), "description"), "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")
				}
				f.files[n].Description = *a.Description
			}
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

// attachmentNames lists the file names a message will carry after f:
// old's attachments that f keeps, and f's uploads.
func attachmentNames(f *msgFields, old *Message) map[string]bool {
	names := map[string]bool{}
	if old != nil {
		keep := map[string]bool{}
		for _, id := range f.keep {
			keep[id] = true
		}
		for _, a := range old.Attachments {
			if !f.hasAttachments || keep[a.ID] {
				names[a.Filename] = true
			}
		}
	}
	for _, a := range f.files {
		names[a.Filename] = true
	}
	return names
}

// editedFlags returns the flags m has after an edit by f. SUPPRESS_EMBEDS
// follows the body; IS_COMPONENTS_V2 may be set, and once set can't be
// removed (Discord's components reference), so an edit whose flags drop
// it is refused. Other flags stay as they are.
func editedFlags(m *Message, f *msgFields, prefix ...string) (int, *apiError) {
	flags := m.Flags &^ FlagLoading
	if !f.hasFlags {
		return flags, nil
	}
	flags = flags&^FlagSuppressEmbeds | f.flags&FlagSuppressEmbeds
	switch {
	case f.flags&FlagComponentsV2 != 0:
		flags |= FlagComponentsV2
	case m.Flags&FlagComponentsV2 != 0:
		fe := newFormErrors()
		fe.add(append(append([]string(nil), prefix...), "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
		return 0, fe.err()
	}
	return flags, nil
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
	// MaxAttachmentDescription bounds an attachment's alt text.
	MaxAttachmentDescription = 1024
	// Components V2 (the components reference).
	MaxComponentsV2  = 40   // every component, nested ones included
	MaxTextDisplayV2 = 4000 // all text displays' content together
	MaxGalleryItems  = 10
	MaxSectionTexts  = 3
	MaxMediaAltText  = 1024
)

// validateFields checks the fields f would set on old (nil for a new
// message). flags are the flags the message will have: with
// IS_COMPONENTS_V2 the components are the message's whole text, and
// content and embeds may not be used. newMessage requires a non-empty
// message (a new one, or the edit that ends a deferral).
func validateFields(f *msgFields, flags int, old *Message, newMessage bool, prefix ...string) *apiError {
	fe := newFormErrors()
	at := func(field ...string) []string { return append(append([]string(nil), prefix...), field...) }
	if f.hasContent && runeLen(f.content) > MaxContent {
		fe.add(at("content"), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	if f.hasEmbeds {
		validateEmbeds(fe, f.embeds, at("embeds"))
	}
	v2 := flags&FlagComponentsV2 != 0
	if v2 {
		content, embeds := f.content, len(f.embeds)
		if !f.hasContent && old != nil {
			content = old.Content
		}
		if !f.hasEmbeds && old != nil {
			embeds = len(old.Embeds)
		}
		if content != "" {
			fe.add(at("content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
		if embeds > 0 {
			fe.add(at("embeds"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
	}
	switch {
	case f.hasComponents && v2:
		validateComponentsV2(fe, f.components, attachmentNames(f, old), at("components"))
	case f.hasComponents:
		validateComponents(fe, f.components, at("components"))
	case v2 && (old == nil || old.Flags&FlagComponentsV2 == 0):
		// A message becoming V2 needs its components checked by the new rules.
		var comps json.RawMessage
		if old != nil {
			comps = old.ComponentsJSON
		}
		validateComponentsV2(fe, comps, attachmentNames(f, old), at("components"))
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
		fe.length(append(p, "components", "0", "label"), runeLen(in.Label), 45)
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
