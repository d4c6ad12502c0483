package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"log/slog"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/internal/testkit"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// checkGameMessage compares a game message with the stored game: the walls
// of the shown window, the player where the game says, the trail, and
// arrows disabled exactly where walls are.
func checkGameMessage(tb testing.TB, msg bot.Reply, g play.Record) {
	tb.Helper()
	checkCustomIDs(tb, msg)
	m := testkit.Maze(tb, g.MazeID)
	pos := g.Pos
	win := render.Window{X: 0, Y: 0, W: m.Width(), H: m.Height()}
	if !views.ShowsWhole(m) {
		win = render.WindowAround(m, pos, views.PlayWindow, views.PlayWindow)
		if want := fmt.Sprintf("📍 column %d of %d, row %d of %d", pos.X+1, m.Width(), pos.Y+1, m.Height()); !strings.Contains(msg.Text(), want) {
			tb.Fatalf("message lacks the hint %q:\n%s", want, msg.Text())
		}
	}
	if want := fmt.Sprintf("clicks %d · tiles %d", g.Clicks, g.Tiles); !strings.Contains(msg.Text(), want) {
		tb.Fatalf("header lacks %q:\n%s", want, msg.Text())
	}
	game, err := play.Resume(m, g)
	if err != nil {
		tb.Fatal(err)
	}
	walked := map[mazecore.Point]bool{}
	for _, p := range game.Walked() {
		walked[p] = true
	}
	grid := testkit.Grid(msg.Text())
	if len(grid) != win.H {
		tb.Fatalf("grid has %d rows, want %d", len(grid), win.H)
	}
	th := render.DefaultTheme
	for y, row := range grid {
		if len(row) != win.W {
			tb.Fatalf("grid row %d has %d tiles, want %d", y, len(row), win.W)
		}
		for x, tile := range row {
			p := mazecore.Point{X: win.X + x, Y: win.Y + y}
			var want string
			switch {
			case p == pos:
				want = th.Player
			case p == m.Start():
				want = th.Start
			case p == m.Goal():
				want = th.Goal
			case m.Wall(p.X, p.Y):
				want = th.Wall
			case walked[p]:
				want = th.Trail
			default:
				want = th.Floor
			}
			if tile != want {
				tb.Fatalf("tile %v is %s, want %s (player at %v)", p, tile, want, pos)
			}
		}
	}
	for d, a := range dirActions {
		b := button(tb, msg, a)
		if blocked := !m.Open(pos.X/2, pos.Y/2, d); b.Disabled != blocked {
			tb.Fatalf("%v button disabled=%v, but wall=%v at %v", d, b.Disabled, blocked, pos)
		}
		if !strings.HasPrefix(b.CustomID, fmt.Sprintf("mv:%d:%d:", g.ID, g.Seq)) {
			tb.Fatalf("button %q is not for game %d at seq %d", b.CustomID, g.ID, g.Seq)
		}
	}
}

func TestPlayButtonOnMaze(t *testing.T) {
	e := newEnv(t, envOptions{})
	rec := e.send(t, slash(t, "maze", map[string]any{"size": 21}))
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 12345}
	found := false
	for _, b := range buttons(rec.Replies[0]) {
		found = found || b.CustomID == "play:"+id.String()
	}
	if !found {
		t.Fatalf("maze message buttons %+v lack play:%s", rec.Replies[0].Components, id)
	}
	checkCustomIDs(t, rec.Replies[0])
	// The largest ID any maze can have still makes a short Play button.
	huge := mazecore.ID{Algorithm: mazecore.Backtracking, Width: mazecore.MaxSize, Height: mazecore.MaxSize, Seed: math.MaxUint64}
	if n := len(customid.PlayPrefix + ":" + huge.String()); n > 100 {
		t.Fatalf("play custom_id of %d characters", n)
	}
}

func TestPlayStart(t *testing.T) {
	t.Run("OKWhole", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 9, Height: 15, Seed: 3}
		msg, g := e.start(t, id, "u1")
		if g.UserID != "u1" || g.GuildID != "g1" || g.ChannelID != "ch1" || g.MazeID != id || g.Status != play.Playing ||
			g.Pos != (mazecore.Point{X: 1, Y: 1}) || g.Seq != 0 || !g.StartedAt.Equal(e.clock.Now()) || g.Contest != "" {
			t.Fatalf("stored game %+v, want u1 at the start of %s, in no contest", g, id)
		}
		if !strings.HasPrefix(msg.Text(), "🎮 **Sidewinder** 9×15 · ID `"+id.String()+"` · clicks 0 · tiles 0\n") {
			t.Fatalf("header: %q", strings.SplitN(msg.Text(), "\n", 2)[0])
		}
		checkGameMessage(t, msg, g)
		if strings.Contains(msg.Text(), "📍") {
			t.Fatal("a whole maze needs no position hint")
		}
		for _, b := range buttons(msg) {
			if strings.Contains(b.CustomID, ":m:") {
				t.Fatal("a whole maze needs no Map button")
			}
		}
	})
	t.Run("OKWindow", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, g := e.start(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 1}, "u1")
		checkGameMessage(t, msg, g)
		if !strings.Contains(msg.Text(), "📍 column 2 of 41, row 2 of 41 · goal ↘") {
			t.Fatalf("hint missing:\n%s", msg.Text())
		}
		button(t, msg, customid.Map)
	})
	t.Run("OKLargest", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, g := e.start(t, mazecore.ID{Algorithm: mazecore.Digging, Width: play.MaxSide, Height: play.MaxSide, Seed: 1}, "u1")
		checkGameMessage(t, msg, g)
	})
	for name, text := range map[string]string{
		"ErrTooBig":    mazecore.ID{Algorithm: mazecore.Digging, Width: play.MaxSide + 2, Height: 21, Seed: 1}.String(),
		"ErrMalformed": "not-an-id",
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			msg := checkRefusal(t, e.press(t, "play:"+text, "u1"))
			if name == "ErrTooBig" && !strings.Contains(msg, fmt.Sprint(play.MaxSide)) {
				t.Fatalf("refusal %q does not state the limit", msg)
			}
		})
	}
	// Without the Play feature the button is unknown: an apology, privately.
	t.Run("ErrNotConfigured", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		router := bot.NewRouter(slog.New(slog.DiscardHandler), e.mazes, NewHelp(e.mazes, nil, nil))
		router.Use(bot.ErrorReply(slog.New(slog.DiscardHandler)))
		rec := &recorder{}
		router.Dispatch(context.Background(), buttonIx(t, "ch1", "play:"+mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 21}.String(), "u1"), rec)
		if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral {
			t.Fatalf("replies=%+v, want an ephemeral apology", rec.Replies)
		}
	})
	// Buttons signed with no key could be forged by anyone.
	t.Run("ErrNoSecret", func(t *testing.T) {
		if _, err := New(Deps{Log: slog.New(slog.DiscardHandler), Now: time.Now}); err == nil {
			t.Fatal("New accepted an empty play secret")
		}
	})
}

// TestPlayScripted is a player clicking along the solution: every click an
// Update with the new grid, and at the goal the result with no buttons.
func TestPlayScripted(t *testing.T) {
	for _, id := range []mazecore.ID{
		{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 2024},
		{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 5},
		{Algorithm: mazecore.BinaryTree, Width: 25, Height: 25, Seed: 6},
		{Algorithm: mazecore.Sidewinder, Width: 61, Height: 21, Seed: 7},
		{Algorithm: mazecore.Digging, Width: 21, Height: 61, Seed: 8},
	} {
		t.Run(fmt.Sprintf("%s-%dx%d", id.Algorithm, id.Width, id.Height), func(t *testing.T) {
			e := newEnv(t, envOptions{path: tempDB(t)})
			m := testkit.Maze(t, id)
			path := mazecore.Solve(m)
			msg, g := e.start(t, id, "u1")
			clicks := 0
			var last *recorder
			msg, g = e.win(t, msg, g, 3*time.Second, func(rec *recorder, g play.Record) {
				clicks++
				last = rec
				if g.Clicks != clicks || g.Seq != clicks {
					t.Fatalf("after %d clicks the game has clicks=%d seq=%d", clicks, g.Clicks, g.Seq)
				}
				if g.Status == play.Playing {
					checkGameMessage(t, rec.Updates[0], g)
				}
			})
			if !views.ShowsWhole(m) {
				if len(last.Followups) != 1 || len(last.Followups[0].Files) != 1 || !last.Followups[0].Ephemeral {
					t.Fatalf("followups=%+v, want one private PNG of the whole maze", last.Followups)
				}
				if _, err := png.Decode(bytes.NewReader(last.Followups[0].Files[0].Data)); err != nil {
					t.Fatal(err)
				}
			}
			cells := (len(path) + 1) / 2
			if clicks >= cells {
				t.Fatalf("won after %d clicks, want fewer than %d", clicks, cells)
			}
			elapsed := time.Duration(clicks) * 3 * time.Second
			// Along the solution: par exactly.
			want := fmt.Sprintf("🏁 Solved in %d clicks (par %d, ±0) · %d tiles walked · %s · efficiency 100%%", clicks, clicks, len(path)-1, lang.English.Clock(elapsed))
			if par := play.Par(m); clicks != par {
				t.Fatalf("won along the solution in %d clicks, par is %d", clicks, par)
			}
			if !strings.Contains(msg.Text(), want) {
				t.Fatalf("final message lacks %q:\n%s", want, msg.Text())
			}
			// The game's buttons give way to those of the next game.
			checkNextGame(t, msg, id, true)
			if n := utf8.RuneCountInString(msg.Text()); n > views.MaxText {
				t.Fatalf("final message of %d code points", n)
			}
			if grid := testkit.Grid(msg.Text()); len(grid) == 0 || !strings.Contains(msg.Text(), render.DefaultTheme.Player) {
				t.Fatalf("final message shows no maze:\n%s", msg.Text())
			}
			wantRun := play.Result{UserID: "u1", GuildID: "g1", MazeID: id, Clicks: clicks, Tiles: len(path) - 1,
				Elapsed: elapsed, FinishedAt: e.clock.Now()}
			if runs := e.results(t, id); len(runs) != 1 || runs[0] != wantRun {
				t.Fatalf("results=%+v, want [%+v]", runs, wantRun)
			}
			// The finished game's buttons are stale now.
			if msg := checkRefusal(t, e.press(t, moveCustomID(testSecret, g.ID, g.Seq, customid.East, "u1"), "u1")); !strings.Contains(msg, "over") {
				t.Fatalf("refusal %q does not say the game is over", msg)
			}
		})
	}
}

// TestPlayWanderEfficiency: detours cost efficiency and time shows.
func TestPlayWanderEfficiency(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 11}
	m := testkit.Maze(t, id)
	path := mazecore.Solve(m)
	msg, g := e.start(t, id, "u1")
	rng := rand.New(rand.NewPCG(1, 2))
	for g.Status == play.Playing {
		var open []discordgo.Button
		for _, a := range []customid.Action{customid.North, customid.East, customid.South, customid.West} {
			if b := button(t, msg, a); !b.Disabled {
				open = append(open, b)
			}
		}
		e.clock.Advance(time.Second)
		msg = onlyUpdate(t, e.press(t, open[rng.IntN(len(open))].CustomID, "u1"))
		g = e.game(t, g.ID)
	}
	want := fmt.Sprintf("efficiency %d%%", play.Efficiency(len(path)-1, g.Tiles))
	if g.Tiles <= len(path)-1 || !strings.Contains(msg.Text(), want) {
		t.Fatalf("tiles=%d (shortest %d), message:\n%s\nwant %q", g.Tiles, len(path)-1, msg.Text(), want)
	}
	// A perfect maze has no way to the goal in fewer clicks than par.
	par := play.Par(m)
	if want := fmt.Sprintf("🏁 Solved in %d clicks (par %d, +%d) · ", g.Clicks, par, g.Clicks-par); g.Clicks <= par || !strings.Contains(msg.Text(), want) {
		t.Fatalf("clicks=%d (par %d), message:\n%s\nwant %q", g.Clicks, par, msg.Text(), want)
	}
	if elapsed := lang.English.Clock(g.FinishedAt.Sub(g.StartedAt)); !strings.Contains(msg.Text(), "· "+elapsed+" ·") {
		t.Fatalf("final message lacks the time %s:\n%s", elapsed, msg.Text())
	}
}

// TestWonLine: clicks against par, over, at and under (a maze with loops
// can have a way with fewer junctions than the shortest).
func TestWonLine(t *testing.T) {
	m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 21, Seed: 3, Loops: 50})
	for _, tc := range []struct {
		clicks, par int
		want        string
	}{
		{11, 9, "🏁 Solved in 11 clicks (par 9, +2) · "},
		{9, 9, "🏁 Solved in 9 clicks (par 9, ±0) · "},
		{8, 9, "🏁 Solved in 8 clicks (par 9, −1) · "},
	} {
		g, err := play.New(m, play.Record{UserID: "u1"}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		g.Clicks, g.Tiles, g.Status, g.FinishedAt = tc.clicks, play.ShortestTiles(m), play.Won, testNow.Add(102*time.Second)
		if got, want := views.WonLine(lang.English, g, tc.par), tc.want+fmt.Sprintf("%d tiles walked · 1:42 · efficiency 100%%", g.Tiles); got != want {
			t.Fatalf("wonLine=%q, want %q", got, want)
		}
	}
}

func TestPlayGiveUp(t *testing.T) {
	for _, size := range []int{21, 41} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			e := newEnv(t, envOptions{path: tempDB(t)})
			id := mazecore.ID{Algorithm: mazecore.Digging, Width: size, Height: size, Seed: 4}
			msg, g := e.start(t, id, "u1")
			rec := e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1")
			final := onlyUpdate(t, rec)
			if !strings.Contains(final.Text(), "gave up") {
				t.Fatalf("give up answered %+v, want the solution", final)
			}
			checkNextGame(t, final, id, false)
			m := testkit.Maze(t, id)
			if views.ShowsWhole(m) {
				// Every solution tile but the ends (start, goal; the player
				// stands on the start) shows as path.
				grid := testkit.Grid(final.Text())
				for _, p := range mazecore.Solve(m) {
					if p != m.Start() && p != m.Goal() && grid[p.Y][p.X] != render.DefaultTheme.Path {
						t.Fatalf("solution tile %v shows %s", p, grid[p.Y][p.X])
					}
				}
			} else if len(rec.Followups) != 1 || len(rec.Followups[0].Files) != 1 {
				t.Fatalf("followups=%+v, want the solution as a PNG", rec.Followups)
			}
			if g = e.game(t, g.ID); g.Status != play.GaveUp || g.FinishedAt.IsZero() {
				t.Fatalf("game %+v, want gave up", g)
			}
			if runs := e.results(t, id); len(runs) != 0 {
				t.Fatalf("giving up recorded %+v", runs)
			}
			checkRefusal(t, e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1"))
		})
	}
}

func TestPlayMap(t *testing.T) {
	e := newEnv(t, envOptions{})
	msg, g := e.start(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 1}, "u1")
	rec := e.press(t, button(t, msg, customid.Map).CustomID, "u1")
	if len(rec.Replies) != 1 || len(rec.Updates) != 0 || !rec.Replies[0].Ephemeral || len(rec.Replies[0].Files) != 1 {
		t.Fatalf("Map answered replies=%+v updates=%+v, want one new private message with a PNG", rec.Replies, rec.Updates)
	}
	if _, err := png.Decode(bytes.NewReader(rec.Replies[0].Files[0].Data)); err != nil {
		t.Fatal(err)
	}
	if after := e.game(t, g.ID); !reflect.DeepEqual(after, g) {
		t.Fatalf("Map changed the game: %+v, want %+v", after, g)
	}
}

// TestPlayForged: a button changed in any way, or pressed by someone else,
// is refused and changes nothing.
func TestPlayForged(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 9}
	msg, g := e.start(t, id, "u1")
	otherMaze := id
	otherMaze.Seed++
	_, other := e.start(t, otherMaze, "u1") // a real game id to point a forgery at
	var genuine string
	for _, a := range []customid.Action{customid.East, customid.South} {
		if b := button(t, msg, a); !b.Disabled {
			genuine = b.CustomID
		}
	}
	parts := strings.Split(genuine, ":")
	with := func(i int, v string) string {
		p := append([]string(nil), parts...)
		p[i] = v
		return strings.Join(p, ":")
	}
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	otherAction := "s"
	if parts[3] == "s" {
		otherAction = "e"
	}
	cases := map[string]struct{ customID, user string }{
		"ErrSeq":        {with(2, "1"), "u1"},
		"ErrAction":     {with(3, otherAction), "u1"},
		"ErrGiveUp":     {with(3, "g"), "u1"},
		"ErrGameID":     {with(1, fmt.Sprint(other.ID)), "u1"},
		"ErrMACFirst":   {with(4, flip(parts[4], 0)), "u1"},
		"ErrMACLast":    {with(4, flip(parts[4], len(parts[4])-1)), "u1"},
		"ErrMACUpper":   {with(4, strings.ToUpper(parts[4])), "u1"},
		"ErrMACShort":   {with(4, parts[4][:len(parts[4])-1]), "u1"},
		"ErrLeadZero":   {with(1, "0"+parts[1]), "u1"},
		"ErrOtherUser":  {genuine, "u2"},
		"ErrExtraField": {genuine + ":x", "u1"},
		"ErrTooFew":     {strings.Join(parts[:4], ":"), "u1"},
		"ErrEmpty":      {"mv:", "u1"},
		"ErrNegative":   {with(2, "-1"), "u1"},
		"ErrUnknownAct": {with(3, "x"), "u1"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			before, beforeOther := e.game(t, g.ID), e.game(t, other.ID)
			rec := e.press(t, c.customID, c.user)
			if msg := checkRefusal(t, rec); !strings.Contains(msg, "isn't valid") {
				t.Fatalf("refusal %q does not say the button is invalid", msg)
			}
			if len(rec.Updates) != 0 {
				t.Fatalf("a forged button updated the message: %+v", rec.Updates)
			}
			if after := e.game(t, g.ID); !reflect.DeepEqual(after, before) {
				t.Fatalf("a forged button changed the game: %+v, want %+v", after, before)
			}
			if after := e.game(t, other.ID); !reflect.DeepEqual(after, beforeOther) {
				t.Fatalf("a forged button changed another game: %+v, want %+v", after, beforeOther)
			}
		})
	}
	// A secret of another deployment signs nothing here.
	t.Run("ErrOtherSecret", func(t *testing.T) {
		before := e.game(t, g.ID)
		checkRefusal(t, e.press(t, moveCustomID([]byte("another secret"), g.ID, 0, customid.Action(parts[3][0]), "u1"), "u1"))
		if after := e.game(t, g.ID); !reflect.DeepEqual(after, before) {
			t.Fatal("changed")
		}
	})
	t.Run("OKGenuineStillWorks", func(t *testing.T) {
		onlyUpdate(t, e.press(t, genuine, "u1"))
		if after := e.game(t, g.ID); after.Seq != 1 {
			t.Fatalf("seq=%d, want 1 after one real move", after.Seq)
		}
	})
}

func TestPlayStale(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 9}
	firstOpen := func(t *testing.T, msg bot.Reply) discordgo.Button {
		for _, a := range []customid.Action{customid.East, customid.South, customid.West, customid.North} {
			if b := button(t, msg, a); !b.Disabled {
				return b
			}
		}
		t.Fatal("no open direction")
		return discordgo.Button{}
	}
	t.Run("OKOldSeqShowsCurrent", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, g := e.start(t, id, "u1")
		b := firstOpen(t, msg)
		moved := onlyUpdate(t, e.press(t, b.CustomID, "u1"))
		after := e.game(t, g.ID)
		// The same button again (a double click): no second move, the
		// message shows the game as it is.
		again := onlyUpdate(t, e.press(t, b.CustomID, "u1"))
		if now := e.game(t, g.ID); !reflect.DeepEqual(now, after) {
			t.Fatalf("a stale click changed the game: %+v, want %+v", now, after)
		}
		if again.Text() != moved.Text() || !reflect.DeepEqual(again.Components, moved.Components) {
			t.Fatalf("stale click showed\n%s\nwant the current state\n%s", again.Text(), moved.Text())
		}
		checkGameMessage(t, again, after)
		// Give up from the old message is stale too.
		onlyUpdate(t, e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1"))
		if now := e.game(t, g.ID); now.Status != play.Playing {
			t.Fatalf("a stale Give up ended the game")
		}
	})
	t.Run("OKBlockedDirection", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, g := e.start(t, id, "u1")
		north := button(t, msg, customid.North) // the start is on the top row
		if !north.Disabled {
			t.Fatal("north of the start is open")
		}
		onlyUpdate(t, e.press(t, north.CustomID, "u1"))
		if after := e.game(t, g.ID); !reflect.DeepEqual(after, g) {
			t.Fatalf("a blocked move changed the game: %+v", after)
		}
	})
	t.Run("ErrFinished", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, _ := e.start(t, id, "u1")
		onlyUpdate(t, e.press(t, button(t, msg, customid.GiveUp).CustomID, "u1"))
		if msg := checkRefusal(t, e.press(t, firstOpen(t, msg).CustomID, "u1")); !strings.Contains(msg, "game is over") || !strings.Contains(msg, "Play") {
			t.Fatalf("refusal %q, want game over and how to start again", msg)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		msg, g := e.start(t, id, "u1")
		e.clock.Advance(play.TTL + time.Minute)
		if msg := checkRefusal(t, e.press(t, firstOpen(t, msg).CustomID, "u1")); !strings.Contains(msg, "expired") {
			t.Fatalf("refusal %q, want expired", msg)
		}
		if after := e.game(t, g.ID); !reflect.DeepEqual(after, g) {
			t.Fatalf("an expired click changed the game: %+v", after)
		}
	})
	t.Run("ErrUnknownGame", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		if msg := checkRefusal(t, e.press(t, moveCustomID(testSecret, 777, 0, customid.East, "u1"), "u1")); !strings.Contains(msg, "game is over") {
			t.Fatalf("refusal %q, want game over", msg)
		}
	})
}

// TestPlayConcurrent: 50 members play the same maze at once, each with a
// game of their own, while a model of each game runs beside it: every game
// ends exactly where its own clicks lead.
func TestPlayConcurrent(t *testing.T) {
	const players, clicks = 50, 25
	e := newEnv(t, envOptions{path: tempDB(t)})
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 50}
	m := testkit.Maze(t, id)

	var wg sync.WaitGroup
	errs := make([]error, players)
	for i := range players {
		wg.Go(func() {
			errs[i] = func() error {
				user := fmt.Sprintf("u%d", i)
				rec := e.press(t, customid.PlayPrefix+":"+id.String(), user)
				if len(rec.Replies) != 1 {
					return fmt.Errorf("%s: Play answered %+v", user, rec.Replies)
				}
				msg := rec.Replies[0]
				model, err := play.New(m, play.Record{UserID: user}, e.clock.Now())
				if err != nil {
					return err
				}
				rng := rand.New(rand.NewPCG(uint64(i), 99))
				for range clicks {
					if model.Status != play.Playing {
						break
					}
					var dirs []mazecore.Dir
					for _, d := range mazecore.Dirs {
						if model.CanGo(d) {
							dirs = append(dirs, d)
						}
					}
					d := dirs[rng.IntN(len(dirs))]
					var customID string
					for _, b := range buttons(msg) {
						if strings.Split(b.CustomID, ":")[3] == string(dirActions[d]) {
							customID = b.CustomID
						}
					}
					rec := e.press(t, customID, user)
					if len(rec.Updates) != 1 {
						return fmt.Errorf("%s: move answered updates=%+v replies=%+v", user, rec.Updates, rec.Replies)
					}
					msg = rec.Updates[0]
					if out, err := model.Apply(play.Action{Kind: play.Move, Dir: d, Seq: model.Seq}, e.clock.Now()); err != nil || out == play.Blocked || out == play.Stale {
						return fmt.Errorf("%s: the model refused %v: %v, %v", user, d, out, err)
					}
					if want := fmt.Sprintf("clicks %d · tiles %d", model.Clicks, model.Tiles); !strings.Contains(msg.Text(), want) {
						return fmt.Errorf("%s: message says %q, want %q", user, strings.SplitN(msg.Text(), "\n", 2)[0], want)
					}
				}
				g, err := e.db.Game(context.Background(), gameIDOf(t, rec.Replies[0]))
				if err != nil {
					return err
				}
				if g.UserID != user || g.Pos != model.Pos || g.Clicks != model.Clicks || g.Tiles != model.Tiles || !bytes.Equal(g.Trail, model.Trail) {
					return fmt.Errorf("%s: stored game %+v, want the model at %v after %d clicks", user, g, model.Pos, model.Clicks)
				}
				return nil
			}()
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestPlayRestart: the bot stops mid-game and starts again on the same
// database; the game goes on from where it was, with the secret the first
// process stored.
func TestPlayRestart(t *testing.T) {
	path := tempDB(t)
	open := func() *env {
		// Each process would make a key of its own: the stored one wins.
		return newEnv(t, envOptions{path: path, secret: func() ([]byte, error) { return []byte(time.Now().String()), nil }})
	}
	id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 2024}
	solution := mazecore.Solve(testkit.Maze(t, id))
	step := func(e *env, msg bot.Reply, g play.Record) (bot.Reply, play.Record) {
		d, err := testkit.Toward(solution, g.Pos)
		if err != nil {
			t.Fatal(err)
		}
		msg = onlyUpdate(t, e.press(t, button(t, msg, dirActions[d]).CustomID, "u1"))
		return msg, e.game(t, g.ID)
	}

	first := open()
	msg, g := first.start(t, id, "u1")
	for range 3 {
		msg, g = step(first, msg, g)
	}
	if err := first.db.Close(); err != nil {
		t.Fatal(err)
	}

	second := open()
	if got := second.game(t, g.ID); !reflect.DeepEqual(got, g) {
		t.Fatalf("after the restart the game is %+v, want %+v", got, g)
	}
	next, after := step(second, msg, g)
	if after.Clicks != g.Clicks+1 || after.Seq != g.Seq+1 || after.Pos == g.Pos {
		t.Fatalf("after the restart a click made %+v from %+v", after, g)
	}
	checkGameMessage(t, next, after)
	next, _ = second.win(t, next, after, 0, nil)
	if !strings.Contains(next.Text(), "🏁 Solved in") {
		t.Fatalf("final message:\n%s", next.Text())
	}
}

// BenchmarkMove is one click on a 41×41 game: check the button, load the
// game, regenerate the maze, run the corridor, save, draw the reply.
func BenchmarkMove(b *testing.B) {
	for _, kind := range []string{"memory", "file"} {
		b.Run(kind, func(b *testing.B) {
			var opts envOptions
			if kind == "file" {
				opts.path = tempDB(b)
			}
			e := newEnv(b, opts)
			msg, _ := e.start(b, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 2024}, "u1")
			// Go back and forth along one corridor: every click a real
			// move that never reaches the goal.
			dir := customid.East
			if button(b, msg, customid.East).Disabled {
				dir = customid.South
			}
			back := map[customid.Action]customid.Action{customid.East: customid.West, customid.South: customid.North}[dir]
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				a := dir
				if i%2 == 1 {
					a = back
				}
				rec := e.press(b, button(b, msg, a).CustomID, "u1")
				if len(rec.Updates) != 1 {
					b.Fatalf("move answered %+v", rec)
				}
				msg = rec.Updates[0]
			}
		})
	}
}

// TestGameCleanup: games and the ghosts' runs past their retention are
// deleted by the ticker; recent ones stay.
func TestGameCleanup(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := mazecore.ID{Algorithm: mazecore.BinaryTree, Width: 9, Height: 9, Seed: 1}
	_, old := e.start(t, id, "u1")
	// The later run first: a run saved drops those RunRetention older
	// than itself, and only the ticker may drop the early one here.
	ctx := context.Background()
	oldRun := play.Run{Contest: "daily:g1:2026-03-01", UserID: "u1", MazeID: id, Ms: 9000, FinishedAt: e.clock.Now()}
	recentRun := oldRun
	recentRun.Contest, recentRun.FinishedAt = "daily:g1:2026-03-08", e.clock.Now().Add(play.Retention-time.Hour)
	for _, r := range []play.Run{recentRun, oldRun} {
		if _, err := e.db.SaveRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Advance(play.Retention - time.Hour)
	_, recent := e.start(t, id, "u2")

	e.clock.Advance(2 * time.Hour) // old is now past retention, recent is not
	e.tick(t)
	if _, err := e.db.Game(ctx, old.ID); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("old game: err=%v, want ErrNotFound", err)
	}
	e.game(t, recent.ID) // still there
	for _, r := range []play.Run{oldRun, recentRun} {
		_, found, err := e.db.BestRun(ctx, r.Contest, "")
		if err != nil {
			t.Fatal(err)
		}
		if want := r.Contest == recentRun.Contest; found != want {
			t.Fatalf("the run in %s kept %v after the cleanup, want %v", r.Contest, found, want)
		}
	}

	// A click on the deleted game's button is refused clearly.
	if msg := checkRefusal(t, e.press(t, moveCustomID(testSecret, old.ID, 0, customid.East, "u1"), "u1")); !strings.Contains(msg, "game is over") {
		t.Fatalf("refusal %q for a deleted game, want game over", msg)
	}
}

// TestPlayLoop: a finished game invites the next: Play again is a new
// game on the same maze, New maze one on a maze like it, Share the share
// line, privately and for its player alone (issue 18 item 5).
func TestPlayLoop(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 11, Seed: 3, Loops: 20}
	msg, g := e.start(t, id, "u1")
	won, _ := e.win(t, msg, g, time.Second, nil)
	checkNextGame(t, won, id, true)
	again := only(t, e.press(t, buttons(won)[0].CustomID, "u1"))
	if !again.Ephemeral || idInReply(t, again) != id || gameIDOf(t, again) == g.ID {
		t.Fatalf("Play again: %+v, want a new private game on %s", again, id)
	}
	if won2, _ := e.win(t, again, e.game(t, gameIDOf(t, again)), time.Second, nil); !strings.Contains(won2.Text(), "Solved") {
		t.Fatalf("the second game did not win: %s", won2.Text())
	}
	fresh := only(t, e.press(t, buttons(won)[1].CustomID, "u1"))
	other := idInReply(t, fresh)
	if other == id || other.Algorithm != id.Algorithm || other.Width != id.Width || other.Height != id.Height || other.Loops != id.Loops || !fresh.Ephemeral {
		t.Fatalf("New maze: a game on %v, want a new %v-like maze", other, id)
	}
	shared := e.share(t, won, "u1")
	if !strings.Contains(shared.Text(), "`mazebot · Sidewinder 15×11 · ") || !strings.Contains(shared.Text(), id.String()) {
		t.Fatalf("Share: %q, want a line that names the maze", shared.Text())
	}
	for _, b := range buttons(won) {
		if strings.HasPrefix(b.CustomID, customid.SharePrefix) {
			checkRefusal(t, e.press(t, b.CustomID, "u2")) // another member's game
		}
	}
	checkRefusal(t, e.press(t, customid.Share(999), "u1")) // a game that is gone
}

// only is a recorder's one reply, failing otherwise.
func only(tb testing.TB, rec *recorder) bot.Reply {
	tb.Helper()
	if len(rec.Replies) != 1 || len(rec.Updates) != 0 {
		tb.Fatalf("replies %+v, updates %+v; want one reply", rec.Replies, rec.Updates)
	}
	return rec.Replies[0]
}
