package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// Components V2 cards: a message laid out as one container that holds its
// texts, its picture and its buttons, read as one thing. The picture is
// the message's attachment, shown by name (attachment://) with its alt
// text; Discord shows a V2 message's files only through its components.

// accent is the container's edge: mazebot's green.
var accent = 0x2b9348

// part is one piece of a card.
type part = discordgo.MessageComponent

// text is a text display; none for "".
func text(s string) []part {
	if s == "" {
		return nil
	}
	return []part{discordgo.TextDisplay{Content: s}}
}

// separator is a divider between a card's parts.
func separator() []part {
	divider := true
	return []part{discordgo.Separator{Divider: &divider}}
}

// picture shows f in a media gallery, spoilered if asked; nothing for nil.
func picture(f *bot.File, spoiler bool) []part {
	if f == nil {
		return nil
	}
	var alt *string
	if f.Description != "" {
		alt = &f.Description
	}
	return []part{discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{
		Media: discordgo.UnfurledMediaItem{URL: "attachment://" + f.Name}, Description: alt, Spoiler: spoiler,
	}}}}
}

// card is a Components V2 reply of one container holding parts, with the
// files the parts show.
func card(files []bot.File, parts ...[]part) bot.Reply {
	var all []part
	for _, p := range parts {
		all = append(all, p...)
	}
	return bot.Reply{V2: true, Files: files, Components: []part{discordgo.Container{AccentColor: &accent, Components: all}}}
}

// filesOf lists f, if any, as a reply's files.
func filesOf(f *bot.File) []bot.File {
	if f == nil {
		return nil
	}
	return []bot.File{*f}
}
