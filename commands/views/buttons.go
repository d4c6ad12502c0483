package views

import (
	"github.com/bwmarrin/discordgo"

	"mazebot/commands/customid"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// Setup is the configuration a maze card's buttons depend on, fixed when
// the features are built (commands.New gives it to each feature that
// shows a maze, which puts it on the Maze it describes).
type Setup struct {
	// Arena: Maze Arena, the Activity, is set up, so a race can launch.
	Arena bool
}

// Place is where a maze card stands: each button of the row says on
// which it may.
type Place uint8

const (
	OnMaze         Place = 1 << iota // /maze's reply, and the help's example
	OnDaily                          // the daily's post
	OnDailyToday                     // /daily today's private answer
	OnEventRunning                   // an event's maze while it runs
	OnEventEnded                     // an event's maze once it has ended

	everywhere = OnMaze | OnDaily | OnDailyToday | OnEventRunning | OnEventEnded
)

// cardButton is one button of the maze card's row: where it may stand,
// whether it does on a card of maze m (its setup, the maze, a DM; nil:
// always) and what it is. The row is the one place a card button is
// added: its custom ID (customid), this entry, and its handler.
type cardButton struct {
	places  Place
	offered func(m Maze) bool
	button  func(l *lang.Lang, id mazecore.ID) discordgo.MessageComponent
}

// cardRow is the maze card's buttons, in the row's order.
var cardRow = []cardButton{
	// Play; for a maze too big to play, Play on a smaller one like it.
	{places: everywhere, button: playOrSmaller},
	// Solve, except where it could only refuse: a running event's maze
	// and the day's (its solution opens after midnight).
	{places: OnMaze | OnDaily | OnEventEnded, button: func(l *lang.Lang, id mazecore.ID) discordgo.MessageComponent {
		return discordgo.Button{Label: l.T("button.solve"), Style: discordgo.SecondaryButton, CustomID: customid.Solve(id), Emoji: &discordgo.ComponentEmoji{Name: "🔎"}}
	}},
	// Race, where one can start: Maze Arena set up, in a server's
	// channel, on a maze everyone can play at once.
	{places: OnMaze | OnDaily | OnEventRunning | OnEventEnded,
		offered: func(m Maze) bool { return m.Setup.Arena && !m.NoRace && Raceable(m.ID) },
		button:  func(l *lang.Lang, id mazecore.ID) discordgo.MessageComponent { return RaceButton(l, id) }},
	// Print, on /maze's card, for a maze that prints well.
	{places: OnMaze, offered: func(m Maze) bool { return Printable(m.ID) }, button: func(l *lang.Lang, id mazecore.ID) discordgo.MessageComponent {
		return discordgo.Button{Label: l.T("button.print"), Style: discordgo.SecondaryButton, CustomID: customid.Print(id), Emoji: &discordgo.ComponentEmoji{Name: "🖨️"}}
	}},
}

// Row is the buttons of m's card in place p, in one row.
func Row(l *lang.Lang, m Maze, p Place) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, b := range cardRow {
		if b.places&p != 0 && (b.offered == nil || b.offered(m)) {
			buttons = append(buttons, b.button(l, m.ID))
		}
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
}

// playOrSmaller is Play on maze id or, too big to play, Play on a smaller
// maze like it.
func playOrSmaller(l *lang.Lang, id mazecore.ID) discordgo.MessageComponent {
	if Playable(id) {
		return PlayButton(l, id)
	}
	smaller := id
	smaller.Width, smaller.Height = min(id.Width, play.MaxSide), min(id.Height, play.MaxSide)
	return discordgo.Button{Label: l.T("button.play_smaller", lang.Args{"Size": Size(smaller)}), Style: discordgo.PrimaryButton, CustomID: customid.NewMaze(smaller), Emoji: &discordgo.ComponentEmoji{Name: "🎮"}}
}

// PlayButton is the Play button of maze id.
func PlayButton(l *lang.Lang, id mazecore.ID) discordgo.Button {
	return discordgo.Button{Label: l.T("button.play"), Style: discordgo.PrimaryButton, CustomID: customid.Play(id), Emoji: &discordgo.ComponentEmoji{Name: "🎮"}}
}
