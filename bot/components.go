package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Walk calls visit on every component of cs and of the layouts they hold
// (rows, containers, sections), depth first, whether built here (values)
// or decoded from Discord (pointers).
func Walk(cs []discordgo.MessageComponent, visit func(discordgo.MessageComponent)) {
	for _, c := range cs {
		visit(c)
		switch v := c.(type) {
		case discordgo.ActionsRow:
			Walk(v.Components, visit)
		case *discordgo.ActionsRow:
			Walk(v.Components, visit)
		case discordgo.Container:
			Walk(v.Components, visit)
		case *discordgo.Container:
			Walk(v.Components, visit)
		case discordgo.Section:
			Walk(v.Components, visit)
			if v.Accessory != nil {
				Walk([]discordgo.MessageComponent{v.Accessory}, visit)
			}
		case *discordgo.Section:
			Walk(v.Components, visit)
			if v.Accessory != nil {
				Walk([]discordgo.MessageComponent{v.Accessory}, visit)
			}
		}
	}
}

// Buttons lists the buttons among cs, in order.
func Buttons(cs []discordgo.MessageComponent) []discordgo.Button {
	var out []discordgo.Button
	Walk(cs, func(c discordgo.MessageComponent) {
		switch b := c.(type) {
		case discordgo.Button:
			out = append(out, b)
		case *discordgo.Button:
			out = append(out, *b)
		}
	})
	return out
}

// Text is what a member reads of a message: its content, or for a
// Components V2 one, its text displays, a line apart.
func Text(content string, cs []discordgo.MessageComponent) string {
	parts := []string{}
	if content != "" {
		parts = append(parts, content)
	}
	Walk(cs, func(c discordgo.MessageComponent) {
		switch t := c.(type) {
		case discordgo.TextDisplay:
			parts = append(parts, t.Content)
		case *discordgo.TextDisplay:
			parts = append(parts, t.Content)
		}
	})
	return strings.Join(parts, "\n")
}

// Text is what a member reads of the reply (see Text).
func (r Reply) Text() string { return Text(r.Content, r.Components) }
