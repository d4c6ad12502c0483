package views

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
	"mazebot/mazecore"
)

// TestRow: each place's card has the buttons the row says, in its order;
// Race only with Maze Arena set up, outside a DM, on a maze everyone can
// play at once; Print only on /maze's card of a maze that prints well;
// Play on a smaller maze for one too big to play.
func TestRow(t *testing.T) {
	small := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 1}
	mid := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 151, Height: 151, Seed: 1}
	huge := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 301, Height: 301, Seed: 1}
	arena := Setup{Arena: true}
	for _, tc := range []struct {
		name string
		m    Maze
		at   Place
		want string
	}{
		{"MazeArena", Maze{ID: small, Setup: arena}, OnMaze, "play solve race print"},
		{"MazeNoArena", Maze{ID: small}, OnMaze, "play solve print"},
		{"MazeInDM", Maze{ID: small, Setup: arena, NoRace: true}, OnMaze, "play solve print"},
		{"MazeTooBigToRaceOrPrint", Maze{ID: mid, Setup: arena}, OnMaze, "play solve"},
		{"MazeTooBigToPlay", Maze{ID: huge, Setup: arena}, OnMaze, "new solve"},
		{"Daily", Maze{ID: small, Setup: arena}, OnDaily, "play solve race"},
		{"DailyToday", Maze{ID: small, Setup: arena}, OnDailyToday, "play"},
		{"EventRunning", Maze{ID: small, Setup: arena}, OnEventRunning, "play race"},
		{"EventRunningNoArena", Maze{ID: small}, OnEventRunning, "play"},
		{"EventEnded", Maze{ID: small, Setup: arena}, OnEventEnded, "play solve race"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			row := Row(lang.English, tc.m, tc.at)
			var got []string
			for _, c := range row[0].(discordgo.ActionsRow).Components {
				prefix, _, _ := strings.Cut(c.(discordgo.Button).CustomID, ":")
				got = append(got, prefix)
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("buttons %v, want %s", got, tc.want)
			}
		})
	}
}
