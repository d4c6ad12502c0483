package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

const (
	// PlayWindow is the side of the emoji window shown around the player
	// on a maze too big to show whole: a phone's row.
	PlayWindow = PhoneRow
	// playReserve is the room kept beside the grid for the header, hint and
	// result lines. Deciding "whole or window" with a fixed reserve keeps
	// the view from switching mid-game as the counters grow.
	playReserve = 200
)

// ShowsWhole tells whether a game shows the whole maze, or a window
// around the player.
func ShowsWhole(m *mazecore.Maze) bool {
	return m.Width() <= AutoEmojiMaxWidth && render.FitsEmoji(m, render.DefaultTheme, render.Window{}, MaxText-playReserve)
}

// GameWindow is the window a game message shows: the whole maze (the
// zero Window) or PlayWindow tiles square around the player.
func GameWindow(g *play.Game) render.Window {
	if ShowsWhole(g.Maze()) {
		return render.Window{}
	}
	return render.WindowAround(g.Maze(), g.Pos, PlayWindow, PlayWindow)
}

func gameHeader(l *lang.Lang, g *play.Game) string {
	id := g.MazeID
	return l.T("play.header", lang.Args{"Algorithm": AlgorithmTitle(id.Algorithm), "Size": Size(id), "ID": IDTag(id), "Clicks": lang.Number(g.Clicks), "Tiles": lang.Number(g.Tiles)})
}

// positionHint places a windowed view in the maze.
func positionHint(l *lang.Lang, g *play.Game) string {
	m := g.Maze()
	return l.T("play.position", lang.Args{"Column": g.Pos.X + 1, "Width": m.Width(), "Row": g.Pos.Y + 1, "Height": m.Height(), "Goal": compass(l, g.Pos, m.Goal())})
}

// Trail draws a game's trail and its player.
func Trail(g *play.Game) render.Overlay {
	pos := g.Pos
	return render.Overlay{Trail: g.Walked(), Player: &pos}
}

// Game shows a game in progress: header, grid (with a position hint when
// windowed) and the controls, signed for its member by sign.
func Game(l *lang.Lang, g *play.Game, sign customid.Signer) bot.Reply { return game(l, g, sign, "") }

// ResumedGame is Game for a member who pressed Play on a maze they were
// playing: the game where they left it, saying so.
func ResumedGame(l *lang.Lang, g *play.Game, sign customid.Signer) bot.Reply {
	return game(l, g, sign, l.T("play.resumed"))
}

func game(l *lang.Lang, g *play.Game, sign customid.Signer, note string) bot.Reply {
	win := GameWindow(g)
	hint := ""
	if win != (render.Window{}) {
		hint = positionHint(l, g)
	}
	return card(nil, text(note), text(gameHeader(l, g)), text(Grid(g.Maze(), Trail(g), win)), text(hint), gameButtons(l, g, sign, win != (render.Window{})))
}

func gameButtons(l *lang.Lang, g *play.Game, sign customid.Signer, windowed bool) []discordgo.MessageComponent {
	button := func(action customid.Action, emoji, label string, style discordgo.ButtonStyle, disabled bool) discordgo.MessageComponent {
		return discordgo.Button{
			CustomID: sign.Move(g.ID, g.Seq, action, g.UserID),
			Label:    label, Style: style, Disabled: disabled,
			Emoji: &discordgo.ComponentEmoji{Name: emoji},
		}
	}
	arrow := func(action customid.Action, emoji string) discordgo.MessageComponent {
		return button(action, emoji, "", discordgo.PrimaryButton, !g.CanGo(customid.Dirs[action]))
	}
	extra := []discordgo.MessageComponent{}
	if windowed {
		extra = append(extra, button(customid.Map, "🗺️", l.T("button.map"), discordgo.SecondaryButton, false))
	}
	extra = append(extra, button(customid.GiveUp, "🏳️", l.T("button.give_up"), discordgo.DangerButton, false))
	return []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			arrow(customid.West, "⬅️"), arrow(customid.North, "⬆️"), arrow(customid.South, "⬇️"), arrow(customid.East, "➡️"),
		}},
		discordgo.ActionsRow{Components: extra},
	}
}

// Ending is how a game ended, for its final message.
type Ending struct {
	Par   int      // the maze's, for a win
	Lines []string // what the win earned (AwardLines)
	// Solution is the path shown on a game given up, nil when the
	// solution is held back; Held says why.
	Solution []mazecore.Point
	Held     lang.Msg
	// GridSolution is Solution on another grid than the whole square
	// one: the cells of the path, nil when it is held back.
	GridSolution []int
}

// Final replaces a game's message with its result and no buttons: a won
// game's clicks against par, a given-up game's solution unless it is held
// back, in the window the game showed.
func Final(l *lang.Lang, g *play.Game, end Ending) bot.Reply {
	ov := Trail(g)
	var result string
	if g.Status == play.Won {
		result = WonLine(l, g, end.Par)
	} else {
		result = l.T("play.gave_up", lang.Args{"Clicks": lang.M("count.clicks", lang.Args{"Count": g.Clicks}), "Tiles": lang.M("count.tiles", lang.Args{"Count": g.Tiles})})
		if end.Solution == nil {
			result += " " + end.Held.In(l)
		} else {
			ov.Path = end.Solution
			result += " " + l.T("play.legend", lang.Args{"Path": render.DefaultTheme.Path, "Trail": render.DefaultTheme.Trail})
		}
	}
	for _, line := range end.Lines {
		result += "\n" + line
	}
	return card(nil, text(gameHeader(l, g)+"\n"+result), text(Grid(g.Maze(), ov, GameWindow(g))), nextGame(l, g))
}

// nextGame are the buttons that invite the next game once one ends: the
// same maze again, a new maze like it, and for a win, the share lines. An
// archive game is played again from the archive, unranked as it was, and
// offers the member's next unsolved day.
func nextGame(l *lang.Lang, g *play.Game) []discordgo.MessageComponent {
	again := customid.Play(g.MazeID)
	date, archived := archiveGame(g.Contest)
	if archived {
		again = customid.ArchivePlay(date.String())
	}
	buttons := []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("button.play_again"), Style: discordgo.PrimaryButton, CustomID: again, Emoji: &discordgo.ComponentEmoji{Name: "🔁"}},
		discordgo.Button{Label: l.T("button.new_maze"), Style: discordgo.SecondaryButton, CustomID: customid.NewMaze(g.MazeID), Emoji: &discordgo.ComponentEmoji{Name: "🎲"}},
	}
	if g.Status == play.Won {
		buttons = append(buttons, discordgo.Button{Label: l.T("button.share"), Style: discordgo.SecondaryButton, CustomID: customid.Share(g.ID), Emoji: &discordgo.ComponentEmoji{Name: "📋"}})
	}
	if archived {
		buttons = append(buttons, NextUnsolvedButton(l, date))
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
}

// FinalOverlay is what the whole-maze picture of an ended game shows: the
// trail, the player and, where Final shows it, the solution.
func FinalOverlay(g *play.Game, end Ending) render.Overlay {
	ov := Trail(g)
	if g.Status != play.Won {
		ov.Path = end.Solution
	}
	return ov
}

// WonLine is a won game's result: "🏁 Solved in 11 clicks (par 9, +2) ·
// 57 tiles walked · 1:42 · efficiency 100%".
func WonLine(l *lang.Lang, g *play.Game, par int) string {
	return l.T("play.won", lang.Args{
		"Clicks":     lang.M("count.clicks", lang.Args{"Count": g.Clicks}),
		"Par":        lang.Number(par),
		"OverPar":    OverPar(g.Clicks, par),
		"Tiles":      lang.M("count.tiles", lang.Args{"Count": g.Tiles}),
		"Time":       l.Clock(g.FinishedAt.Sub(g.StartedAt)),
		"Efficiency": lang.Percent(play.Efficiency(g.Shortest(), g.Tiles)),
	})
}

// WholeMaze is the private followup with the whole maze of an ended game
// too big to show whole; its caption says what the picture shows.
func WholeMaze(l *lang.Lang, file bot.File, end Ending) bot.Reply {
	caption := l.T("play.whole_maze")
	if end.Solution != nil {
		caption = l.T("play.whole_maze_solution")
	}
	return bot.Reply{Content: caption, Files: []bot.File{file}, Ephemeral: true}
}

// Map answers the Map button: the whole maze, the trail and the player.
func Map(l *lang.Lang, g *play.Game, file bot.File) bot.Reply {
	return bot.Reply{
		Content: l.T("play.map", lang.Args{"ID": g.MazeID.String(), "Clicks": lang.M("count.clicks", lang.Args{"Count": g.Clicks})}),
		Files:   []bot.File{file},
	}
}

// compass is the arrow from p towards q, or the word for "here".
func compass(l *lang.Lang, p, q mazecore.Point) string {
	sign := func(v int) int {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return 1
		}
		return 2
	}
	arrows := [3][3]string{ // [dy][dx]
		{"↖", "↑", "↗"},
		{"←", "", "→"},
		{"↙", "↓", "↘"},
	}
	if arrow := arrows[sign(q.Y-p.Y)][sign(q.X-p.X)]; arrow != "" {
		return arrow
	}
	return l.T("play.here")
}
