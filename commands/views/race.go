package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"

	"mazebot/commands/customid"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

// RaceButton launches Maze Arena, the Activity, on maze id: everyone in
// the channel races it live.
func RaceButton(l *lang.Lang, id mazecore.ID) discordgo.Button {
	return discordgo.Button{Label: l.T("button.race"), Style: discordgo.SecondaryButton, CustomID: customid.Race(id), Emoji: &discordgo.ComponentEmoji{Name: "🏁"}}
}

// Raceable tells whether a maze can be raced: on any grid, up to an
// event's size (tiles, rings or hex cells across), as everyone plays it
// at once.
func Raceable(id mazecore.ID) bool {
	return id.Width <= contest.EventMaxSide && id.Height <= contest.EventMaxSide
}

// RaceResult is Maze Arena's result card: the podium (text, in the
// channel's language) over the picture of the race, if there is one.
func RaceResult(podium string, pic *bot.File) bot.Reply {
	return card(filesOf(pic), text(podium), picture(pic, false))
}
