package fakediscord

import (
	"encoding/json"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Message components as Discord checks them: the legacy layout (up to five
// action rows) and Components V2, where the components are the message.

// Component types beyond discordgo's action rows, buttons and selects.
const (
	typeSection     = 9
	typeTextDisplay = 10
	typeThumbnail   = 11
	typeGallery     = 12
	typeFile        = 13
	typeSeparator   = 14
	typeContainer   = 17
)

func isSelect(t int) bool {
	return t == int(discordgo.SelectMenuComponent) || (t >= 5 && t <= 8)
}

// componentCheck walks one message's components, collecting errors.
type componentCheck struct {
	fe    *formErrors
	seen  map[string]bool // custom ids
	files map[string]bool // attachment names media may point at
	count int             // components, nested ones included
	text  int             // code points in text displays
}

func fieldPath(p []string, field ...string) []string {
	return append(append([]string(nil), p...), field...)
}

func (c *componentCheck) customID(comp rawComponent, p []string, required bool) {
	if comp.CustomID == nil || *comp.CustomID == "" {
		if required {
			c.fe.add(fieldPath(p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		return
	}
	id := *comp.CustomID
	if runeLen(id) > MaxCustomID {
		c.fe.add(fieldPath(p, "custom_id"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	if c.seen[id] {
		c.fe.add(fieldPath(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
	}
	c.seen[id] = true
}

func (c *componentCheck) button(b rawComponent, p []string) {
	c.count++
	switch b.Style {
	case int(discordgo.LinkButton):
		if b.URL == "" {
			c.fe.add(fieldPath(p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		if b.CustomID != nil && *b.CustomID != "" {
			c.fe.add(fieldPath(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_OR_URL", "A custom id and url cannot both be specified")
		}
	case int(discordgo.PremiumButton):
		if b.SKUID == "" {
			c.fe.add(fieldPath(p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
		}
	case 1, 2, 3, 4:
		c.customID(b, p, true)
	default:
		c.fe.add(fieldPath(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	}
	if runeLen(b.Label) > MaxButtonLabel {
		c.fe.add(fieldPath(p, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
	}
}

// row checks an action row: one to five buttons, or one select.
func (c *componentCheck) row(row rawComponent, p []string) {
	c.count++
	c.customID(row, p, false)
	c.fe.length(fieldPath(p, "components"), len(row.Components), MaxRowButtons)
	for j, comp := range row.Components {
		cp := fieldPath(p, "components", itoa(j))
		switch {
		case comp.Type == int(discordgo.ButtonComponent):
			c.button(comp, cp)
		case isSelect(comp.Type):
			c.count++
			c.customID(comp, cp, true)
			if len(row.Components) > 1 {
				c.fe.add(fieldPath(p, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
			}
		case comp.Type == int(discordgo.TextInputComponent):
			c.fe.add(fieldPath(cp, "type"), "COMPONENT_TYPE_INVALID", "Text inputs are only allowed in modals.")
		default:
			c.fe.add(fieldPath(cp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
		}
	}
}

func validateComponents(fe *formErrors, raw json.RawMessage, at []string) {
	var comps []rawComponent
	if len(raw) == 0 {
		return
	}
	if err := json.Unmarshal(raw, &comps); err != nil {
		fe.add(at, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		return
	}
	c := &componentCheck{fe: fe, seen: map[string]bool{}}
	if len(comps) > MaxActionRows {
		fe.add(at, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	for i, row := range comps {
		p := fieldPath(at, itoa(i))
		if row.Type != int(discordgo.ActionsRowComponent) {
			fe.add(fieldPath(p, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
			continue
		}
		c.row(row, p)
	}
}

// validateComponentsV2 checks a Components V2 message: top-level action
// rows, sections, text displays, media galleries, files, separators and
// containers (which hold the same, but no container); at most 40
// components and 4,000 characters of text in all; media given as
// attachment://name must name one of files.
func validateComponentsV2(fe *formErrors, raw json.RawMessage, files map[string]bool, at []string) {
	var comps []rawComponent
	if len(raw) > 0 && json.Unmarshal(raw, &comps) != nil {
		fe.add(at, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
		return
	}
	if len(comps) == 0 {
		fe.add(at, "BASE_TYPE_REQUIRED", "A message with the IS_COMPONENTS_V2 flag needs at least one component.")
		return
	}
	c := &componentCheck{fe: fe, seen: map[string]bool{}, files: files}
	for i, comp := range comps {
		c.layout(comp, fieldPath(at, itoa(i)), true)
	}
	if c.count > MaxComponentsV2 {
		fe.add(at, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer components in total.")
	}
	if c.text > MaxTextDisplayV2 {
		fe.add(at, "BASE_TYPE_MAX_LENGTH", "The total length of text displays must be 4000 or fewer.")
	}
}

// layout checks a top-level component, or (topLevel false) one in a
// container.
func (c *componentCheck) layout(comp rawComponent, p []string, topLevel bool) {
	switch comp.Type {
	case int(discordgo.ActionsRowComponent):
		c.row(comp, p)
	case typeSection:
		c.count++
		c.fe.length(fieldPath(p, "components"), len(comp.Components), MaxSectionTexts)
		for i, t := range comp.Components {
			if t.Type != typeTextDisplay {
				c.fe.add(fieldPath(p, "components", itoa(i), "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (10,).")
				continue
			}
			c.textDisplay(t, fieldPath(p, "components", itoa(i)))
		}
		switch {
		case comp.Accessory == nil:
			c.fe.add(fieldPath(p, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
		case comp.Accessory.Type == int(discordgo.ButtonComponent):
			c.button(*comp.Accessory, fieldPath(p, "accessory"))
		case comp.Accessory.Type == typeThumbnail:
			c.count++
			c.media(comp.Accessory.Media, comp.Accessory.Description, fieldPath(p, "accessory"))
		default:
			c.fe.add(fieldPath(p, "accessory", "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 11).")
		}
	case typeTextDisplay:
		c.textDisplay(comp, p)
	case typeGallery:
		c.count++
		c.fe.length(fieldPath(p, "items"), len(comp.Items), MaxGalleryItems)
		for i, item := range comp.Items {
			c.media(item.Media, item.Description, fieldPath(p, "items", itoa(i)))
		}
	case typeFile:
		c.count++
		if comp.File == nil || !strings.HasPrefix(comp.File.URL, "attachment://") {
			c.fe.add(fieldPath(p, "file", "url"), "BASE_TYPE_INVALID", "A file component only supports attachment:// references.")
		} else {
			c.media(comp.File, nil, p)
		}
	case typeSeparator:
		c.count++
		if comp.Spacing != 0 && comp.Spacing != 1 && comp.Spacing != 2 {
			c.fe.add(fieldPath(p, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
		}
	case typeContainer:
		c.count++
		if !topLevel {
			c.fe.add(fieldPath(p, "type"), "UNION_TYPE_CHOICES", "A container cannot hold a container.")
			return
		}
		if len(comp.Components) == 0 {
			c.fe.add(fieldPath(p, "components"), "BASE_TYPE_REQUIRED", "This field is required")
		}
		for i, inner := range comp.Components {
			c.layout(inner, fieldPath(p, "components", itoa(i)), false)
		}
	default:
		c.fe.add(fieldPath(p, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1, 9, 10, 12, 13, 14, 17).")
	}
}

func (c *componentCheck) textDisplay(t rawComponent, p []string) {
	c.count++
	if t.Content == "" {
		c.fe.add(fieldPath(p, "content"), "BASE_TYPE_REQUIRED", "This field is required")
	}
	c.text += runeLen(t.Content)
}

// media checks an unfurled media item: a URL, which for attachment://
// must name a file the message carries, and alt text within its limit.
func (c *componentCheck) media(m *rawMedia, description *string, p []string) {
	switch {
	case m == nil || m.URL == "":
		c.fe.add(fieldPath(p, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
	case strings.HasPrefix(m.URL, "attachment://") && !c.files[strings.TrimPrefix(m.URL, "attachment://")]:
		c.fe.add(fieldPath(p, "media", "url"), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", "No attachment named "+strings.TrimPrefix(m.URL, "attachment://")+" was sent with this message.")
	}
	if description != nil && runeLen(*description) > MaxMediaAltText {
		c.fe.add(fieldPath(p, "description"), "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")
	}
}
