package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// TestResultCard: a race of two to the goal, on the square grid and on a
// polar, a hex and a heart maze, ends in one card: the podium in place
// order, each line the racer's colour, time and clicks against par, and
// the picture's makings (the maze on its grid, each finisher's walk from
// the start to the goal in the colour the client gave their dot).
func TestResultCard(t *testing.T) {
	square := m11()
	for _, c := range []struct {
		name string
		st   func(inputs []event) state
		sol  []string
	}{
		{"square", func(in []event) state { st, _ := applyAll(t, "p1", in); return st }, solution(t)},
		{"polar", func(in []event) state { st, _ := applyOnGrid(t, polarID, in); return st }, gridSolution(t, gridMaze(t, polarID))},
		{"hex", func(in []event) state { st, _ := applyOnGrid(t, hexID, in); return st }, gridSolution(t, gridMaze(t, hexID))},
		{"heart", func(in []event) state { st, _ := applyOnGrid(t, heartID, in); return st }, gridSolution(t, gridMaze(t, heartID))},
	} {
		t.Run(c.name, func(t *testing.T) {
			// bob (the room's second racer) wins; ada comes second.
			st := c.st(slices.Concat(race(), moves("p2", "u2", 5000, c.sol...), moves("p1", "u1", 8000, c.sol...)))
			if !st.player("u1").Done || !st.player("u2").Done {
				t.Fatal("both should have finished")
			}
			posted := &cardTexts{}
			h := newHub(Config{Games: &memGames{}, Bus: &MemoryBus{}, Poster: posted, Log: slog.New(slog.DiscardHandler), Now: time.Now})
			t.Cleanup(h.shutdown)
			h.card(context.Background(), st.snapshot(), st.maze, st.grid)
			if len(posted.cards) != 1 {
				t.Fatalf("%d cards, want 1", len(posted.cards))
			}
			card := posted.cards[0]
			lines := strings.Split(card.Text, "\n")
			if len(lines) != 3 || !strings.HasPrefix(lines[1], colourMarks[1]+" 1. <@u2>") || !strings.HasPrefix(lines[2], colourMarks[0]+" 2. <@u1>") {
				t.Fatalf("card text %q: want a heading, bob first in his colour, ada second in hers", card.Text)
			}
			var game *play.Game
			if st.grid != nil {
				game, _ = play.NewOnGrid(st.grid, play.Record{}, time.Now())
			} else {
				game, _ = play.New(square, play.Record{}, time.Now())
			}
			par := lang.English.T("arena.clicks_par", lang.Args{"Clicks": lang.Number(len(c.sol)), "Par": lang.Number(game.Par())})
			for _, l := range lines[1:] {
				if !strings.HasSuffix(l, " · "+par) {
					t.Errorf("line %q: want its clicks against par, %q", l, par)
				}
			}
			if card.Maze == nil || (st.grid != nil && card.Maze != st.grid) || card.Alt == "" {
				t.Fatalf("the card's maze %v (room's grid %v), alt %q", card.Maze, st.grid, card.Alt)
			}
			grid := card.Maze.Grid()
			if len(card.Walks) != 2 || card.Walks[0].Colour != racerColours[1] || card.Walks[1].Colour != racerColours[0] {
				t.Fatalf("walks %+v: want bob's in his colour then ada's", card.Walks)
			}
			for _, w := range card.Walks {
				if !slices.Contains(w.Cells, card.Maze.Start()) || !slices.Contains(w.Cells, card.Maze.Goal()) || len(w.Cells) < len(c.sol) {
					t.Errorf("a walk of %d cells of %d, want the start %d and goal %d in it: %v", len(w.Cells), grid.Len(), card.Maze.Start(), card.Maze.Goal(), w.Cells)
				}
			}
		})
	}
}

// TestRacerColoursMatchClient: the card draws each racer in the colour
// the client drew their dot.
func TestRacerColoursMatchClient(t *testing.T) {
	src, err := os.ReadFile("web/src/main.ts")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^const colours = \[(.*)\];`).FindSubmatch(src)
	if line == nil {
		t.Fatal("main.ts has no colours list")
	}
	var want []string
	for _, c := range racerColours {
		want = append(want, colourHex(c))
	}
	got := strings.Split(strings.ReplaceAll(strings.ReplaceAll(string(line[1]), `"`, ""), " ", ""), ",")
	if !slices.Equal(got, want) || len(colourMarks) != len(racerColours) {
		t.Fatalf("main.ts's colours %v, the card's %v (%d marks)", got, want, len(colourMarks))
	}
}

func colourHex(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// TestNoCardWhereTheBotMayNotPost: a launch whose channel the bot may not
// post in (a group DM, a server only the launcher's own install reaches)
// opens a room that posts no result card there, which Discord would
// refuse (a 403, one more invalid request); another posts its card. One
// with its interaction's token (a group DM) has its card follow the
// launch, as the application's followup, if the race ends within 14
// minutes of it (Discord takes followups for 15), and else has none; the
// token is in no client's view of the room.
func TestNoCardWhereTheBotMayNotPost(t *testing.T) {
	maze := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}
	launched := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		card      bool
		followup  string
		endsAfter time.Duration
		posts     int
		follows   []string
	}{
		{"Channel", true, "", time.Minute, 1, nil},
		{"ChannelWithAToken", true, launchToken, time.Minute, 1, nil},
		{"Nowhere", false, "", time.Minute, 0, nil},
		{"FollowsTheLaunch", false, launchToken, 14 * time.Minute, 0, []string{"app1/" + launchToken}},
		{"TooLateToFollow", false, launchToken, 14*time.Minute + time.Second, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			posted := &cardTexts{}
			var now atomic.Int64
			now.Store(launched.UnixNano())
			h := newHub(Config{Games: &memGames{games: map[int64]*play.Game{}}, Bus: &MemoryBus{}, Poster: posted,
				Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return time.Unix(0, now.Load()) }, AppID: "app1"})
			t.Cleanup(h.shutdown)
			h.pend("c1", "u1", maze, c.card, c.followup)
			r, err := h.open(context.Background(), testInstance("i-1", "c1"))
			if err != nil {
				t.Fatal(err)
			}
			var st roomState
			var view RoomView
			r.inspect(func(s *state) { st, view = s.snapshot(), s.view() })
			if b, err := json.Marshal(view); err != nil || bytes.Contains(b, []byte(launchToken)) {
				t.Fatalf("the room's view carries the token: %s (%v)", b, err)
			}
			if b, err := json.Marshal(st); err != nil || bytes.Contains(b, []byte(launchToken)) {
				t.Fatalf("the room's state, as a sync sends it, carries the token unsealed: %s (%v)", b, err)
			}
			st.Players = []*player{{ID: "u1", Locale: "en-US", Done: true, Place: 1, Ms: 12000}}
			now.Store(launched.Add(c.endsAfter).UnixNano())
			h.card(context.Background(), st, nil, nil)
			if st.NoCard == c.card || len(posted.cards) != c.posts || !slices.Equal(posted.follows, c.follows) {
				t.Fatalf("room's NoCard %v, %d cards posted, followed %v; want %d posted, followed %v", st.NoCard, len(posted.cards), posted.follows, c.posts, c.follows)
			}
		})
	}
}

// launchToken is a launch's made-up interaction token.
const launchToken = "launch-token"
