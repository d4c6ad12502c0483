package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
	"mazebot/play"
)

// gridPlayer drives one member's game on a polar, hex or shaped maze: it
// reads where the player stands from the store and presses the button of
// the way the solution goes on.
type gridPlayer struct {
	t      *testing.T
	fake   *discord
	app    *testApp
	maze   *mazecore.GridMaze
	msg    *fakediscord.Message
	last   *fakediscord.Message // the game message before the last press
	clicks int
}

// startGridGame presses Play under a maze message on another grid.
func (d *discord) startGridGame(t *testing.T, app *testApp, mazeMsg *fakediscord.Message) *gridPlayer {
	t.Helper()
	id := mazeIDIn(t, mazeMsg.Text())
	m, err := mazecore.GenerateGrid(id)
	if err != nil {
		t.Fatal(err)
	}
	if mazeMsg.Button("play:"+id.String()) == nil {
		t.Fatalf("no Play under the %s maze: %+v", id.GridKind, mazeMsg.Buttons())
	}
	ix := d.click(t, member.ButtonSpec{CustomID: "play:" + id.String(), Message: mazeMsg})
	msg, err := gameOpened(testContext(t), ix)
	if err != nil {
		t.Fatal(err)
	}
	return &gridPlayer{t: t, fake: d, app: app, maze: m, msg: msg}
}

// cell is the player's cell, as the store keeps the game.
func (p *gridPlayer) cell() int {
	p.t.Helper()
	var game int64
	for _, b := range p.msg.Buttons() {
		if strings.HasPrefix(b.CustomID, "mv:") {
			game = gameIDOf(p.t, b.CustomID)
		}
	}
	rec, err := dbOf(p.app).game(testContext(p.t), game)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.maze.Grid().At((rec.Pos.Y-1)/2, (rec.Pos.X-1)/2)
}

// arrows are the game message's move buttons, by their action letter.
func (p *gridPlayer) arrows() map[string]fakediscord.Button { return p.arrows2(p.msg) }

// arrows2 are msg's move buttons that are enabled, by their action letter.
func (p *gridPlayer) arrows2(msg *fakediscord.Message) map[string]fakediscord.Button {
	out := map[string]fakediscord.Button{}
	for _, b := range msg.Buttons() {
		if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && parts[0] == "mv" && parts[3] != giveUpAction() {
			out[parts[3]] = b
		}
	}
	return out
}

// window checks the game message shows one PNG, the window around the
// player, with its alt text, and returns its name.
func (p *gridPlayer) window() string {
	p.t.Helper()
	if len(p.msg.Attachments) != 1 {
		p.t.Fatalf("game message with attachments %+v, want the window's picture", p.msg.Attachments)
	}
	a := p.msg.Attachments[0]
	if _, err := png.Decode(bytes.NewReader(a.Data)); err != nil || !strings.Contains(a.Description, "around you") {
		p.t.Fatalf("window %s (alt %q): %v", a.Filename, a.Description, err)
	}
	return a.Filename
}

// walk presses the way the solution goes on from wherever the player
// stands until the game is won, checking each step.
func (p *gridPlayer) walk(wantArrows func(cell int) int) {
	p.t.Helper()
	path := p.maze.Solve()
	for !strings.Contains(p.msg.Text(), "\n🏁 ") {
		p.last = p.msg
		at := p.cell()
		i := slices.Index(path, at)
		if i < 0 || i == len(path)-1 {
			p.t.Fatalf("after %d clicks the player is at cell %d, off the solution", p.clicks, at)
		}
		arrows := p.arrows()
		if want := wantArrows(at); len(arrows) != want {
			p.t.Fatalf("cell %d: %d arrows %+v, want %d", at, len(arrows), arrows, want)
		}
		before := p.window()
		w, _ := play.WayTo(p.maze.Grid(), path[i], path[i+1])
		b, ok := arrows[wayAction(w)]
		if !ok || b.Disabled {
			p.t.Fatalf("cell %d: the %v arrow is missing or disabled: %+v", at, w, arrows)
		}
		ix := p.fake.click(p.t, member.ButtonSpec{CustomID: b.CustomID, Message: p.msg})
		p.clicks++
		p.msg = movedMessage(p.t, ix)
		if won := strings.Contains(p.msg.Text(), "\n🏁 "); !won {
			if !strings.Contains(p.msg.Text(), fmt.Sprintf("clicks %d", p.clicks)) {
				p.t.Fatalf("after %d clicks the header says %q", p.clicks, strings.SplitN(p.msg.Text(), "\n", 2)[0])
			}
			if p.window() == before {
				p.t.Fatalf("click %d kept the window %s", p.clicks, before)
			}
		}
		if p.clicks > len(path) {
			p.t.Fatalf("%d clicks and not at the goal", p.clicks)
		}
	}
}

// TestE2EPlayOnGrids plays a hex maze and a polar maze to the goal by
// their buttons, the solution choosing each press: the game shows a
// picture window around the player and arrows for its grid's ways, each
// press runs to the next junction, the win is in par and recorded once,
// and a press of an old button after it changes nothing.
func TestE2EPlayOnGrids(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	app := fake.startApp(t)
	for _, tc := range []struct {
		name   string
		opts   []member.Option
		arrows func(g *mazecore.Grid, cell int) int
		turns  bool
	}{
		{"Hex", []member.Option{opt("grid", "hex"), opt("size", 9), opt("seed", 5)}, func(*mazecore.Grid, int) int { return 6 }, false},
		{"Polar", []member.Option{opt("grid", "polar"), opt("size", 8), opt("seed", 6)}, func(g *mazecore.Grid, cell int) int {
			if play.Splits(g, cell) {
				return 5
			}
			return 4
		}, true},
		{"Heart", []member.Option{opt("shape", "heart"), opt("size", 25), opt("seed", 7)}, func(*mazecore.Grid, int) int { return 4 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mazeMsg := final(t, fake.slash(t, "maze", tc.opts...))
			p := fake.startGridGame(t, app, mazeMsg)
			if p.cell() != p.maze.Start() {
				t.Fatalf("the game starts at cell %d, want the start %d", p.cell(), p.maze.Start())
			}
			if turns := strings.Contains(p.msg.Text(), "The picture turns with you"); turns != tc.turns {
				t.Fatalf("the game says the picture turns: %v, want %v:\n%s", turns, tc.turns, p.msg.Text())
			}
			p.walk(func(cell int) int { return tc.arrows(p.maze.Grid(), cell) })
			par, steps := play.ParOnGrid(p.maze), len(p.maze.Solve())-1
			want := fmt.Sprintf("%s (par %d, ±0) · %d tiles walked · ", solvedIn(p.clicks), par, steps)
			if !strings.Contains(p.msg.Text(), want) || !strings.Contains(p.msg.Text(), "efficiency 100%") {
				t.Fatalf("final message lacks %q:\n%s", want, p.msg.Text())
			}
			if p.clicks >= steps {
				t.Fatalf("%d clicks for %d steps: moves must run along corridors", p.clicks, steps)
			}
			if len(p.msg.Attachments) != 1 || strings.Contains(p.msg.Attachments[0].Description, "around you") {
				t.Fatalf("final attachments %+v, want the whole maze", p.msg.Attachments)
			}
			checkNextGame(t, p.msg, p.maze.ID(), true)
			checkFinishedOnce(t, app, p.maze.ID(), p.clicks, steps)
			// The winning press again, from the message as it was: refused
			// privately, and the finish stays one.
			for _, b := range p.arrows2(p.last) {
				// A client that kept the old message sends its button: the
				// fake sends what the (unstored) message it is given carries.
				old := &fakediscord.Message{ID: "1500000000000000002", ChannelID: p.msg.ChannelID, GuildID: p.msg.GuildID,
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{CustomID: b.CustomID, Style: discordgo.PrimaryButton, Label: "old"},
					}}}}
				ix := fake.click(t, member.ButtonSpec{CustomID: b.CustomID, Message: old})
				if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "over") {
					t.Fatalf("a press after the win answered %q (ephemeral %v), want a private refusal", msg.Text(), msg.Ephemeral())
				}
			}
			checkFinishedOnce(t, app, p.maze.ID(), p.clicks, steps)
			t.Logf("%s: won in %d clicks (par %d) over %d steps", p.maze.ID(), p.clicks, par, steps)
		})
	}
	checkAltText(t, fake.Server)
}

// checkFinishedOnce asserts maze has one finish, of clicks and tiles.
func checkFinishedOnce(t *testing.T, app *testApp, id mazecore.ID, clicks, tiles int) {
	t.Helper()
	runs, err := finishesOf(context.Background(), app.dbPath, id.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].clicks != clicks || runs[0].tiles != tiles {
		t.Fatalf("finishes of %s: %+v, want one of %d clicks and %d tiles", id, runs, clicks, tiles)
	}
}

// TestE2EEventOnShapes runs an event on a hex grid and one on a heart of
// the hard difficulty: /event start grid:hex (shape:heart) posts the maze
// as a picture with Play, a member plays it to the goal by its arrows and
// is ranked on the board, and the end posts the results with the
// solution as a spoilered picture and gives the maze its Solve back.
func TestE2EEventOnShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, words string
		aside       string // what the confirmation adds: the difficulty
		opts        []member.Option
		arrows      int
		check       func(t *testing.T, id mazecore.ID)
	}{
		{"Hex cup", "hexagonal, 9×9 cells", "", []member.Option{opt("algorithm", "wilson"), opt("size", 9), opt("grid", "hex")}, 6, func(t *testing.T, id mazecore.ID) {
			if id.GridKind != mazecore.Hex {
				t.Fatalf("event maze %+v, want a hex maze", id)
			}
		}},
		{"Heart cup", "heart, 12×12 cells", " (hard)", []member.Option{opt("algorithm", "digging"), opt("size", 25), opt("shape", "heart"), opt("difficulty", "hard")}, 4, func(t *testing.T, id mazecore.ID) {
			if id.Shape.Kind != mazecore.PresetShape || id.Shape.Preset.String() != "heart" {
				t.Fatalf("event maze %+v, want a heart", id)
			}
		}},
	} {
		t.Run(strings.Fields(tc.name)[0], func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			fake.useClock(time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC))
			app := fake.startApp(t)
			started := final(t, fake.eventSlash(t, e2eManagePerms, "start",
				append(tc.opts, opt("duration", "30m"), opt("name", tc.name))...))
			if !started.Ephemeral() || !strings.Contains(started.Text(), "Event started") || !strings.Contains(started.Text(), tc.words) || !strings.Contains(started.Text(), tc.aside) {
				t.Fatalf("/event start answered %q", started.Text())
			}
			mazeMsg := fake.waitChannel(t, "🏆 **"+tc.name+"** · ends")
			board := fake.waitChannel(t, "Live leaderboard** — no finishers yet")
			id := mazeIDIn(t, mazeMsg.Text())
			tc.check(t, id)
			if len(mazeMsg.Attachments) != 1 || !strings.Contains(mazeMsg.Text(), tc.words) {
				t.Fatalf("event maze %q (%+v, attachments %+v), want its picture", mazeMsg.Text(), id, mazeMsg.Attachments)
			}
			if bs := mazeMsg.Buttons(); len(bs) != 1 || bs[0].CustomID != "play:"+id.String() {
				t.Fatalf("maze buttons %+v, want Play only", bs)
			}
			p := fake.startGridGame(t, app, mazeMsg)
			p.walk(func(int) int { return tc.arrows })
			if !strings.Contains(p.msg.Text(), "Your best run is **#1** of 1 in **"+tc.name+"**") {
				t.Fatalf("the win lacks its rank:\n%s", p.msg.Text())
			}
			if ids := mentions(fake.waitEdits(t, board.ID, 1).Text()); len(ids) != 1 || ids[0] != fakediscord.DefaultUserID {
				t.Fatalf("board after the win: %v, want the member", ids)
			}
			checkFinishedOnce(t, app, id, p.clicks, len(p.maze.Solve())-1)

			ended := final(t, fake.eventSlash(t, e2eManagePerms, "end"))
			if !ended.Ephemeral() || !strings.Contains(ended.Text(), "ended") {
				t.Fatalf("/event end answered %q", ended.Text())
			}
			results := fake.waitChannel(t, "**"+tc.name+"** is over")
			if ids := mentions(results.Text()); len(ids) != 1 || ids[0] != fakediscord.DefaultUserID {
				t.Fatalf("results %q, want the member ranked", results.Text())
			}
			if len(results.Attachments) != 1 || !strings.HasPrefix(results.Attachments[0].Filename, "SPOILER_") {
				t.Fatalf("results attachments %+v, want the solution as a spoilered picture", results.Attachments)
			}
			if bs := fake.waitEdits(t, mazeMsg.ID, 1).Buttons(); len(bs) != 2 || !strings.HasPrefix(bs[1].CustomID, "solve:") {
				t.Fatalf("maze buttons after the end %+v, want Play and Solve", bs)
			}
			checkAltText(t, fake.Server)
		})
	}
}

// TestE2EDailyOnShapes: /daily setup shape:heart posts the day's maze in
// a heart, as a picture with Play; played to the goal by its arrows, the
// run counts for the day (share line, leaderboard) and is recorded
// once. A setup with shape:calendar confirms it, and one that cannot
// make a maze (a shape on a polar grid, sidewinder on a hex one) is
// refused with the reason.
func TestE2EDailyOnShapes(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const dailyChannel = "1300000000000000778"
	clock := fake.useClock(time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)) // 08:00 in Seoul
	app := fake.startApp(t)
	setup := func(extra ...member.Option) *fakediscord.Message {
		opts := append([]member.Option{opt("channel", dailyChannel), opt("time", "09:00"), opt("timezone", "Asia/Seoul")}, extra...)
		ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "daily", Options: []member.Option{{Name: "setup", Options: opts}}, Permissions: managerPerms})
		if err != nil {
			t.Fatal(err)
		}
		return final(t, ix)
	}
	for _, tc := range []struct {
		opts []member.Option
		want string
	}{
		{[]member.Option{opt("grid", "polar"), opt("shape", "star")}, "is a disc already"},
		{[]member.Option{opt("grid", "hex"), opt("algorithm", "sidewinder")}, "use Recursive backtracking, Digging, Wilson's algorithm"},
	} {
		if msg := setup(tc.opts...); !msg.Ephemeral() || !strings.Contains(msg.Text(), tc.want) {
			t.Fatalf("setup %v answered %q, want a refusal saying %q", tc.opts, msg.Text(), tc.want)
		}
	}
	if msg := setup(opt("shape", "calendar"), opt("grid", "hex")); !strings.Contains(msg.Text(), "the calendar of shapes") {
		t.Fatalf("setup shape:calendar answered %q", msg.Text())
	}
	if msg := setup(opt("shape", "heart")); !strings.Contains(msg.Text(), "heart, 20×20 cells") {
		t.Fatalf("setup shape:heart answered %q", msg.Text())
	}

	ctx := testContext(t)
	clock.Set(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) // 09:00 in Seoul
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	post, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Text(), "Daily challenge #334")
	})
	if err != nil {
		t.Fatalf("no daily post: %v", err)
	}
	id := mazeIDIn(t, post.Text())
	if id.Shape.Kind != mazecore.PresetShape || id.Shape.Preset.String() != "heart" || len(post.Attachments) != 1 || !strings.Contains(post.Text(), "heart, 20×20 cells") {
		t.Fatalf("daily post %q (maze %+v, attachments %+v), want a heart's picture", post.Text(), id, post.Attachments)
	}
	p := fake.startGridGame(t, app, post)
	p.walk(func(int) int { return 4 })
	if !strings.Contains(p.msg.Text(), "(par "+fmt.Sprint(play.ParOnGrid(p.maze))+", ±0)") {
		t.Fatalf("the win is not in par:\n%s", p.msg.Text())
	}
	for _, b := range p.msg.Buttons() {
		if strings.HasPrefix(b.CustomID, "share:") {
			shared := final(t, fake.click(t, member.ButtonSpec{CustomID: b.CustomID, Message: p.msg}))
			if !strings.Contains(shared.Text(), "`mazebot daily #334 · ") {
				t.Fatalf("Share lacks the daily's share line:\n%s", shared.Text())
			}
		}
	}
	board := final(t, fake.slash(t, "leaderboard"))
	if len(board.Embeds) != 1 || !strings.Contains(board.Embeds[0].Description, "🥇 <@"+fakediscord.DefaultUserID+">") {
		t.Fatalf("leaderboard %+v, want the player first", board.Embeds)
	}
	checkFinishedOnce(t, app, id, p.clicks, len(p.maze.Solve())-1)
	// The next day's post: another heart, with yesterday's recap and its
	// solution as a spoilered picture.
	clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	// A context of its own: the first day's play may take most of the
	// first one's 20 s on a loaded machine (CI ran out of it here).
	ctx = testContext(t)
	if err := app.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	next, err := fake.WaitChannelMessage(ctx, dailyChannel, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Text(), "Daily challenge #335")
	})
	if err != nil {
		t.Fatalf("no second daily post: %v", err)
	}
	spoilers := 0
	for _, a := range next.Attachments {
		if strings.HasPrefix(a.Filename, "SPOILER_maze-"+id.String()) {
			spoilers++
		}
	}
	if len(next.Attachments) != 2 || spoilers != 1 {
		t.Fatalf("second post's attachments %+v, want today's heart and yesterday's solution spoilered", next.Attachments)
	}
	checkAltText(t, fake.Server)
}
