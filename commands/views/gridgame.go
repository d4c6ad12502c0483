package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// A game on another grid than the whole square one (polar, hex, or cut
// to a shape) cannot be drawn in emoji: its card shows a picture of the
// maze around the player (render.GridPlayPNG, GridWindow cells each way)
// and buttons for the ways its grid has. A polar window turns with the
// player, outward up, so that its arrows say where each way leads.

// GridWindow is the cells shown each way of the player in a game on
// another grid.
const GridWindow = 5

// GridGame shows a game on another grid in progress: the header, the
// window picture file, a word on how a polar window turns, and the
// buttons signed for its member. size says what grid and shape the maze
// has ("circular, 12 rings").
func GridGame(l *lang.Lang, g *play.Game, size lang.Localizable, file bot.File, sign customid.Signer, resumed bool) bot.Reply {
	note, hint := "", ""
	if resumed {
		note = l.T("play.resumed")
	}
	if g.Grid().Grid().Kind() == mazecore.Polar {
		hint = l.T("play.polar_turns")
	}
	return card([]bot.File{file}, text(note), text(gridHeader(l, g, size)), picture(&file, false), text(hint), gridButtons(l, g, sign))
}

func gridHeader(l *lang.Lang, g *play.Game, size lang.Localizable) string {
	id := g.MazeID
	return l.T("play.header", lang.Args{"Algorithm": AlgorithmTitle(id.Algorithm), "Size": size, "ID": IDTag(id), "Clicks": lang.Number(g.Clicks), "Tiles": lang.Number(g.Tiles)})
}

// gridButtons are a game's buttons on another grid, arrows without
// words as on the square grid: on hex cells the six ways in two rows as
// they lie; on polar ones out above (two ways out where the ring splits),
// anticlockwise, in and clockwise below, as the turned window shows
// them; on square cells the square grid's four.
func gridButtons(l *lang.Lang, g *play.Game, sign customid.Signer) []discordgo.MessageComponent {
	arrow := func(w play.Way, emoji string) discordgo.MessageComponent {
		return discordgo.Button{
			CustomID: sign.Move(g.ID, g.Seq, customid.WayAction(w), g.UserID),
			Style:    discordgo.PrimaryButton, Disabled: !g.CanGoWay(w),
			Emoji: &discordgo.ComponentEmoji{Name: emoji},
		}
	}
	row := func(buttons ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: buttons}
	}
	var rows []discordgo.MessageComponent
	switch m := g.Grid(); m.Grid().Kind() {
	case mazecore.Hex:
		rows = append(rows,
			row(arrow(play.WayNorthWest, "↖️"), arrow(play.WayNorth, "⬆️"), arrow(play.WayNorthEast, "↗️")),
			row(arrow(play.WaySouthWest, "↙️"), arrow(play.WaySouth, "⬇️"), arrow(play.WaySouthEast, "↘️")))
	case mazecore.Polar:
		out := row(arrow(play.WayOut, "⬆️"))
		if play.Splits(m.Grid(), g.Cell()) {
			out = row(arrow(play.WayOut, "↖️"), arrow(play.WayOutClockwise, "↗️"))
		}
		rows = append(rows, out, row(arrow(play.WayAnticlockwise, "⬅️"), arrow(play.WayIn, "⬇️"), arrow(play.WayClockwise, "➡️")))
	default:
		rows = append(rows, row(arrow(play.WayWest, "⬅️"), arrow(play.WayNorth, "⬆️"), arrow(play.WaySouth, "⬇️"), arrow(play.WayEast, "➡️")))
	}
	giveUp := discordgo.Button{
		CustomID: sign.Move(g.ID, g.Seq, customid.GiveUp, g.UserID),
		Label:    l.T("button.give_up"), Style: discordgo.DangerButton,
		Emoji: &discordgo.ComponentEmoji{Name: "🏳️"},
	}
	return append(rows, row(giveUp))
}

// GridFinal replaces a game's message on another grid with its result,
// a picture of the whole maze (file: the trail, and the solution where
// end allows it) and the next game's buttons.
func GridFinal(l *lang.Lang, g *play.Game, size lang.Localizable, file bot.File, end Ending) bot.Reply {
	var result string
	if g.Status == play.Won {
		result = WonLine(l, g, end.Par)
	} else {
		result = l.T("play.gave_up", lang.Args{"Clicks": lang.M("count.clicks", lang.Args{"Count": g.Clicks}), "Tiles": lang.M("count.tiles", lang.Args{"Count": g.Tiles})})
		if end.GridSolution == nil {
			result += " " + end.Held.In(l)
		}
	}
	for _, line := range end.Lines {
		result += "\n" + line
	}
	return card([]bot.File{file}, text(gridHeader(l, g, size)+"\n"+result), picture(&file, false), nextGame(l, g))
}
