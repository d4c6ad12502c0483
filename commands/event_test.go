package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

var eventStart = time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)

// eventEnv is an env for events: its clock at eventStart, its mazes
// of seed 4242.
func eventEnv() envOptions { return envOptions{now: eventStart, seed: 4242} }

const (
	eventManager = "mod"
	eventCh      = "ch1"
	eventSide    = 15
)

var eventManagePerms = strconv.FormatInt(discordgo.PermissionManageGuild, 10)

// eventCommandIx builds /event <sub> from member user with perms, in ch1.
func eventCommandIx(tb testing.TB, sub string, opts map[string]any, user, perms string) *discordgo.Interaction {
	tb.Helper()
	return subcommandIx(tb, "event", sub, opts, user, perms)
}

func (e *env) command(tb testing.TB, sub string, opts map[string]any) *recorder {
	tb.Helper()
	return e.send(tb, eventCommandIx(tb, sub, opts, eventManager, eventManagePerms))
}

// startEvent runs /event start and returns the stored event.
func (e *env) startEvent(tb testing.TB, opts map[string]any) contest.Event {
	tb.Helper()
	all := map[string]any{"algorithm": "backtracking", "size": eventSide, "duration": "30m", "name": "Friday race"}
	for k, v := range opts {
		all[k] = v
	}
	rec := e.command(tb, "start", all)
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral || !strings.Contains(rec.Replies[0].Text(), "Event started") {
		tb.Fatalf("/event start replied %+v, want an ephemeral confirmation", rec.Replies)
	}
	channel, _ := all["channel"].(string)
	if channel == "" {
		channel = eventCh
	}
	ev, err := e.db.RunningEvent(context.Background(), channel)
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}

// race starts a game on the event's maze in its channel as user and wins
// it, step apart on the clock per click.
func (e *env) race(tb testing.TB, ev contest.Event, user string, step time.Duration) bot.Reply {
	tb.Helper()
	return e.play(tb, ev.ChannelID, ev.MazeID, user, step)
}

func (e *env) event(tb testing.TB, id int64) contest.Event {
	tb.Helper()
	ev, err := e.db.Event(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}

// board is the event's board message.
func (e *env) board(ev contest.Event) posted { return e.poster.message(ev.BoardMessageID) }

// standings ranks the event's runs as they stand, up to its end.
func (e *env) standings(tb testing.TB, id int64) []contest.Standing {
	tb.Helper()
	s, err := e.contests.Events.Standings(context.Background(), e.event(tb, id))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// boardUsers lists the user IDs on a board or results message, top first.
func boardUsers(content string) []string {
	var users []string
	for _, line := range strings.Split(content, "\n") {
		if _, rest, ok := strings.Cut(line, "<@"); ok {
			if id, _, ok := strings.Cut(rest, ">"); ok {
				users = append(users, id)
			}
		}
	}
	return users
}

func sameUsers(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}
func TestParseEventDuration(t *testing.T) {
	for text, want := range map[string]time.Duration{
		"30m":      30 * time.Minute,
		"5m":       5 * time.Minute,
		"2h":       2 * time.Hour,
		"1h30m":    90 * time.Minute,
		"90m":      90 * time.Minute,
		"1d":       24 * time.Hour,
		"1d12h":    36 * time.Hour,
		"7d":       7 * 24 * time.Hour,
		" 2 H ":    2 * time.Hour,
		"1h 30m":   90 * time.Minute,
		"1.5h":     90 * time.Minute,
		"6d23h59m": 7*24*time.Hour - time.Minute,
	} {
		t.Run("OK"+text, func(t *testing.T) {
			got, err := parseEventDuration(text)
			if err != nil || got != want {
				t.Fatalf("parseEventDuration(%q)=%v, %v; want %v", text, got, err, want)
			}
		})
	}
	for _, text := range []string{"", "30", "4m", "4m59s", "7d1m", "8d", "-1h", "1d-2h", "soon", "1w", "1d1d", "9999d", "1e9h"} {
		t.Run("Err"+text, func(t *testing.T) {
			_, err := parseEventDuration(text)
			var ue *bot.UserError
			if !errors.As(err, &ue) || !strings.Contains(ue.Error(), "5 minutes to 7 days") {
				t.Fatalf("parseEventDuration(%q) err=%v, want a bot.UserError saying what is allowed", text, err)
			}
		})
	}
}

func TestEventPermissions(t *testing.T) {
	startOpts := map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}
	for name, tc := range map[string]struct {
		sub   string
		opts  map[string]any
		perms string
		want  string
	}{
		"ErrStartNoPermission":  {"start", startOpts, strconv.FormatInt(discordgo.PermissionSendMessages|discordgo.PermissionManageMessages, 10), "Manage Server"},
		"ErrStartNoPermissions": {"start", startOpts, "0", "Manage Server"},
		"ErrEndNoPermission":    {"end", nil, "0", "Manage Server"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, eventEnv())
			msg := checkRefusal(t, e.send(t, eventCommandIx(t, tc.sub, tc.opts, "u1", tc.perms)))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q does not mention %q", msg, tc.want)
			}
			if len(e.poster.all()) != 0 {
				t.Fatalf("%d messages posted after a refusal", len(e.poster.all()))
			}
		})
	}
	t.Run("ErrDM", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		ix := eventCommandIx(t, "start", startOpts, "u1", eventManagePerms)
		ix.GuildID, ix.Member, ix.User = "", nil, &discordgo.User{ID: "u1"}
		if msg := checkRefusal(t, e.send(t, ix)); !strings.Contains(msg, "server channel") {
			t.Fatalf("refusal %q does not say events run in a server", msg)
		}
	})
	t.Run("OKAdministrator", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		rec := e.send(t, eventCommandIx(t, "start", startOpts, "boss", strconv.FormatInt(discordgo.PermissionAdministrator, 10)))
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "Event started") {
			t.Fatalf("an administrator got %+v", rec.Replies)
		}
	})
	t.Run("Definition", func(t *testing.T) {
		var def *discordgo.ApplicationCommand
		for _, d := range newEnv(t, eventEnv()).router.Definitions() {
			if d.Name == "event" {
				def = d
			}
		}
		if def == nil || def.DefaultMemberPermissions == nil || *def.DefaultMemberPermissions != discordgo.PermissionManageGuild {
			t.Fatalf("default_member_permissions=%v, want Manage Server", def.DefaultMemberPermissions)
		}
	})
}

func TestEventStart(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		ev := e.startEvent(t, nil)
		id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: eventSide, Height: eventSide, Seed: 4242}
		if ev.MazeID != id || ev.Name != "Friday race" || ev.CreatorID != eventManager || ev.GuildID != "g1" ||
			!ev.StartedAt.Equal(eventStart) || !ev.EndsAt.Equal(eventStart.Add(30*time.Minute)) {
			t.Fatalf("event=%+v", ev)
		}
		posts := e.poster.in(eventCh)
		if len(posts) != 2 || posts[0].id != ev.MazeMessageID || posts[1].id != ev.BoardMessageID {
			t.Fatalf("posts=%+v, want the maze then the board, as stored in %+v", posts, ev)
		}
		maze := posts[0].reply
		header := fmt.Sprintf("🏆 **Friday race** · ends <t:%d:R>", ev.EndsAt.Unix())
		if !strings.HasPrefix(maze.Text(), header) || !strings.Contains(maze.Text(), "ID `"+id.String()+"`") {
			t.Fatalf("maze post %q, want header %q and the maze ID", maze.Text(), header)
		}
		// The event's header, the maze's, and the maze: 15 tiles are wider
		// than a phone's row, so a picture.
		if lines := strings.Split(maze.Text(), "\n"); len(lines) != 2 {
			t.Fatalf("maze post %q, want two header lines", maze.Text())
		}
		if len(maze.Files) != 1 || !strings.HasSuffix(maze.Files[0].Name, ".png") || !strings.Contains(maze.Files[0].Description, "unsolved") {
			t.Fatalf("maze post files %+v, want the maze's picture with its alt text", maze.Files)
		}
		bs := buttons(maze)
		if len(bs) != 2 || bs[0].CustomID != customid.PlayPrefix+":"+id.String() || bs[1].CustomID != customid.Race(id) {
			t.Fatalf("maze buttons=%+v, want Play and Race only (no Solve during the event)", bs)
		}
		if got := posts[1].reply.Text(); !strings.Contains(got, "Live leaderboard** — no finishers yet") {
			t.Fatalf("board %q, want an empty live board", got)
		}
		// The event maze is the channel's latest, for a bare /solve.
		last, err := e.db.LastPost(context.Background(), eventCh)
		if err != nil {
			t.Fatal(err)
		}
		if last.MazeID != id || last.MessageID != ev.MazeMessageID {
			t.Fatalf("last post=%+v, want the event maze", last)
		}
	})
	t.Run("OKDifficultyAndLoops", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		rec := e.command(t, "start", map[string]any{"algorithm": "digging", "size": 41, "duration": "1h", "difficulty": "medium", "loops": 20})
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "a 41×41 digging maze (medium, loops 20%).") {
			t.Fatalf("replies=%+v, want a confirmation naming medium and loops 20%%", rec.Replies)
		}
		want, err := mazecore.Choose(mazecore.ID{Algorithm: mazecore.Digging, Width: 41, Height: 41, Seed: 4242, Loops: 20}, mazecore.Medium)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := e.db.RunningEvent(context.Background(), eventCh)
		if err != nil || ev.MazeID != want {
			t.Fatalf("event maze %+v (%v), want %+v", ev.MazeID, err, want)
		}
		// The event's maze message rates it and gives its par, as /maze does.
		m := testkit.Maze(t, want)
		if got := e.poster.message(ev.MazeMessageID).reply.Text(); !strings.Contains(got, "\n"+views.Header(lang.English, describe(m))) || !strings.Contains(got, fmt.Sprintf(" · par %d · ", play.Par(m))) {
			t.Fatalf("event maze post %q, want the maze header with stars and par", got)
		}
	})
	t.Run("OKDifficultyOnShape", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		rec := e.command(t, "start", map[string]any{"algorithm": "digging", "shape": "heart", "size": 41, "duration": "1h", "difficulty": "hard"})
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "hard") {
			t.Fatalf("replies=%+v, want a confirmation naming hard", rec.Replies)
		}
		heart, _ := mazecore.ParseShape("heart")
		want, err := mazecore.ChooseGrid(mazecore.ID{Algorithm: mazecore.Digging, Width: 41, Height: 41, Seed: 4242, Shape: heart}, mazecore.Hard, nil)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := e.db.RunningEvent(context.Background(), eventCh)
		if err != nil || ev.MazeID != want {
			t.Fatalf("event maze %+v (%v), want the hard heart %+v", ev.MazeID, err, want)
		}
		m, err := mazecore.GenerateGrid(want)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.poster.message(ev.MazeMessageID).reply.Text(); !strings.Contains(got, views.Stars(mazecore.RateGrid(m).Rating)) || !strings.Contains(got, fmt.Sprintf(" · par %d · ", play.ParOnGrid(m))) {
			t.Fatalf("event maze post %q, want the heart's stars and par", got)
		}
	})
	t.Run("OKOtherChannelPNGRounded", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		rec := e.command(t, "start", map[string]any{"algorithm": "sidewinder", "size": 50, "duration": "2h", "channel": "777"})
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "<#777>") || !strings.Contains(rec.Replies[0].Text(), "rounded up to 51") {
			t.Fatalf("replies=%+v, want a confirmation naming <#777> and the rounding", rec.Replies)
		}
		if len(rec.Deferred) != 1 || !rec.Deferred[0] {
			t.Fatalf("deferred=%v, want one ephemeral deferral", rec.Deferred)
		}
		posts := e.poster.in("777")
		if len(posts) != 2 || len(posts[0].reply.Files) != 1 || !strings.HasSuffix(posts[0].reply.Files[0].Name, ".png") {
			t.Fatalf("posts in 777=%+v, want a PNG maze and a board", posts)
		}
		if len(e.poster.in(eventCh)) != 0 {
			t.Fatal("posted in the command's channel, not the chosen one")
		}
		ev, err := e.db.RunningEvent(context.Background(), "777")
		if err != nil {
			t.Fatal(err)
		}
		if ev.Name != "Maze event" {
			t.Fatalf("event=%+v, want the default name", ev)
		}
	})
	for name, tc := range map[string]struct {
		opts map[string]any
		want string
	}{
		"ErrSizeTooSmall":  {map[string]any{"size": 3}, "odd number of tiles from 5 to 101"},
		"ErrSizeTooBig":    {map[string]any{"size": 103}, "odd number of tiles from 5 to 101"},
		"ErrSizeHuge":      {map[string]any{"size": 1 << 40}, "You asked for 1099511627776"},
		"ErrDuration":      {map[string]any{"duration": "forever"}, "5 minutes to 7 days"},
		"ErrDurationShort": {map[string]any{"duration": "1m"}, "5 minutes to 7 days"},
		"ErrAlgorithm":     {map[string]any{"algorithm": "magic"}, "magic"},
		"ErrNameTooLong":   {map[string]any{"name": strings.Repeat("x", 81)}, "at most 80"},
		"ErrChannel":       {map[string]any{"channel": "general"}, "channel"},
		"ErrDifficulty":    {map[string]any{"difficulty": "nightmare"}, "`nightmare`: choose easy, medium, hard, any"},
		"ErrLoops":         {map[string]any{"loops": 101}, "You asked for 101."},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, eventEnv())
			opts := map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			msg := checkRefusal(t, e.command(t, "start", opts))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q, want it to say %q", msg, tc.want)
			}
			if len(e.poster.all()) != 0 {
				t.Fatal("posted after a refusal")
			}
		})
	}
	t.Run("ErrPostFails", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		e.poster.failWith(errors.New("403 Missing Access"))
		msg := checkRefusal(t, e.command(t, "start", map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}))
		if !strings.Contains(msg, "couldn't post") {
			t.Fatalf("refusal %q, want it to say the post failed", msg)
		}
		// The channel is free again.
		if _, err := e.db.RunningEvent(context.Background(), eventCh); !errors.Is(err, contest.ErrNotFound) {
			t.Fatalf("RunningEvent err=%v, want ErrNotFound after a failed start", err)
		}
	})
	t.Run("NameDefused", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		ev := e.startEvent(t, map[string]any{"name": "@everyone **win**\nnow"})
		if strings.Contains(ev.Name, "@") || strings.Contains(ev.Name, "\n") || strings.Contains(ev.Name, "**") {
			t.Fatalf("name %q can ping or break markup", ev.Name)
		}
	})
}

func TestEventOnePerChannel(t *testing.T) {
	t.Run("ErrSecondStart", func(t *testing.T) {
		e := newEnv(t, eventEnv())
		ev := e.startEvent(t, nil)
		msg := checkRefusal(t, e.command(t, "start", map[string]any{"algorithm": "digging", "size": 21, "duration": "1h"}))
		if !strings.Contains(msg, "already has a running event") || !strings.Contains(msg, "Friday race") ||
			!strings.Contains(msg, fmt.Sprintf("<t:%d:R>", ev.EndsAt.Unix())) {
			t.Fatalf("refusal %q, want the running event's name and end", msg)
		}
		if n := len(e.poster.in(eventCh)); n != 2 {
			t.Fatalf("%d posts, want the first event's 2 only", n)
		}
		e.startEvent(t, map[string]any{"channel": "888"}) // another channel is free
	})
	// Two bot processes on one database file, many starts at once: exactly
	// one event, exactly one maze and one board posted.
	t.Run("ConcurrentProcesses", func(t *testing.T) {
		opts := eventEnv()
		opts.path = tempDB(t)
		envs := []*env{newEnv(t, opts), newEnv(t, opts)}
		const n = 6
		recs := make([]*recorder, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				recs[i] = &recorder{}
				envs[i%2].router.Dispatch(context.Background(),
					eventCommandIx(t, "start", map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}, eventManager, eventManagePerms), recs[i])
			}()
		}
		wg.Wait()
		started, refused := 0, 0
		for _, rec := range recs {
			switch {
			case len(rec.Replies) == 1 && strings.Contains(rec.Replies[0].Text(), "Event started"):
				started++
			case len(rec.Replies) == 1 && strings.Contains(rec.Replies[0].Text(), "already has a running event"):
				refused++
			default:
				t.Errorf("unexpected answer %+v", rec.Replies)
			}
		}
		posts := len(envs[0].poster.in(eventCh)) + len(envs[1].poster.in(eventCh))
		if started != 1 || refused != n-1 || posts != 2 {
			t.Fatalf("started=%d refused=%d posts=%d, want 1, %d, 2", started, refused, posts, n-1)
		}
	})
}

// TestEventLiveBoard: results reach the board at once, then at most one
// edit per contest.BoardEditInterval, the rest flushed by the next tick.
func TestEventLiveBoard(t *testing.T) {
	opts := eventEnv()
	opts.path = tempDB(t)
	e := newEnv(t, opts)
	ev := e.startEvent(t, nil)

	// ada: a result on an untouched board is shown at once.
	final := e.race(t, ev, "ada", 2*time.Second)
	if !strings.Contains(final.Text(), "Your best run is **#1** of 1 in **Friday race**") {
		t.Fatalf("ada's result lacks her rank:\n%s", final.Text())
	}
	if runs := e.results(t, ev.MazeID); len(runs) != 1 || runs[0].UserID != "ada" || runs[0].Contest != ev.Key().String() {
		t.Fatalf("results=%+v, want ada's in contest %q", runs, ev.Key())
	}
	board := e.board(ev)
	if len(board.edits) != 1 || !sameUsers(boardUsers(board.current().Text()), []string{"ada"}) {
		t.Fatalf("board edits=%d %q, want one edit listing ada", len(board.edits), board.current().Text())
	}
	firstEdit := e.clock.Now()

	// bob and cy finish within the interval: no edit, the board is dirty.
	e.race(t, ev, "bob", 300*time.Millisecond)
	final = e.race(t, ev, "cy", 500*time.Millisecond)
	if !strings.Contains(final.Text(), "**#2** of 3") {
		t.Fatalf("cy's result lacks the rank #2 of 3:\n%s", final.Text())
	}
	if e.clock.Now().Sub(firstEdit) >= contest.BoardEditInterval {
		t.Fatalf("the test's games took %v; they must fit in one interval", e.clock.Now().Sub(firstEdit))
	}
	e.tick(t)
	if board := e.board(ev); len(board.edits) != 1 {
		t.Fatalf("board edited %d times within %v, want 1", len(board.edits), contest.BoardEditInterval)
	}
	if !e.event(t, ev.ID).BoardDirty {
		t.Fatal("the board is not marked dirty")
	}

	// Once the interval has passed, the tick flushes it, once.
	e.clock.Set(firstEdit.Add(contest.BoardEditInterval))
	e.tick(t)
	e.tick(t)
	board = e.board(ev)
	if len(board.edits) != 2 || !sameUsers(boardUsers(board.current().Text()), []string{"bob", "cy", "ada"}) {
		t.Fatalf("board edits=%d, content %q; want 2 edits, bob, cy, ada", len(board.edits), board.current().Text())
	}
	if !strings.Contains(board.current().Text(), "3 finishers") || !strings.Contains(board.current().Text(), "🥇 <@bob>") {
		t.Fatalf("board %q, want 3 finishers with bob first", board.current().Text())
	}
	if e.event(t, ev.ID).BoardDirty {
		t.Fatal("the board is still dirty after the flush")
	}

	// A quiet board is not edited.
	e.clock.Advance(time.Minute)
	e.tick(t)
	if board := e.board(ev); len(board.edits) != 2 {
		t.Fatalf("a clean board was edited: %d edits", len(board.edits))
	}

	// A burst: at most one edit per interval whatever arrives.
	for i := range 4 {
		e.race(t, ev, fmt.Sprintf("burst%d", i), 100*time.Millisecond)
		e.tick(t)
	}
	if board := e.board(ev); len(board.edits) != 3 {
		t.Fatalf("board edits=%d after a burst, want exactly one more", len(board.edits))
	}
}

// checkResults fails tb unless r is an ended event's one results card:
// the ranking of users, the numbers of the day and the solution,
// spoilered.
func checkResults(tb testing.TB, r bot.Reply, users []string) {
	tb.Helper()
	text := r.Text()
	if !strings.Contains(text, "is over") || !sameUsers(boardUsers(text), users) || !strings.Contains(text, "📊 Best time") {
		tb.Fatalf("results %q, want %v ranked and the day's numbers", text, users)
	}
	spoilered := strings.Contains(text, "||") || (len(r.Files) == 1 && strings.HasPrefix(r.Files[0].Name, "SPOILER_"))
	if !strings.Contains(text, "✅ Solution") || !spoilered {
		tb.Fatalf("results %q with %+v, want the solution, spoilered", text, r.Files)
	}
}

// checkBoardPointer fails tb unless the ended event's board points to
// its results post, and lists nobody again.
func checkBoardPointer(tb testing.TB, e *env, ev contest.Event) {
	tb.Helper()
	got := e.event(tb, ev.ID)
	board := e.board(got).current().Text()
	link := "https://discord.com/channels/" + got.GuildID + "/" + got.ChannelID + "/" + got.ResultsMessageID
	if got.ResultsMessageID == "" || !strings.Contains(board, link) || len(boardUsers(board)) != 0 {
		tb.Fatalf("board %q, want a pointer to the results %s", board, link)
	}
}

func TestEventBoardTop10(t *testing.T) {
	ranking := make([]contest.Standing, 12)
	for i := range ranking {
		ranking[i] = contest.Standing{Rank: i + 1, Run: contest.Run{UserID: fmt.Sprintf("u%d", i), Elapsed: time.Duration(i+1) * time.Second, Tiles: 20}}
	}
	ev := contest.Event{Name: "Big", EndsAt: eventStart, Status: contest.Running}
	content := views.Board(ev, ranking, "").Text()
	if got := boardUsers(content); len(got) != views.BoardTop || got[0] != "u0" || got[9] != "u9" {
		t.Fatalf("board lists %v, want the top %d", got, views.BoardTop)
	}
	if !strings.Contains(content, "12 finishers") || !strings.Contains(content, "… and 2 more") || !strings.Contains(content, "`#4` <@u3> · 0:04.0") {
		t.Fatalf("board:\n%s", content)
	}
}

func TestEventEndByCommand(t *testing.T) {
	e := newEnv(t, eventEnv())
	ev := e.startEvent(t, nil)
	e.race(t, ev, "ada", 2*time.Second)
	e.race(t, ev, "bob", time.Second)
	// A game still on its way when the event ends.
	lateMsg, lateGame := e.startIn(t, eventCh, ev.MazeID, "zed")

	// During the event its solution is refused, every way.
	id := ev.MazeID
	for name, rec := range map[string]*recorder{
		"/solve id":   e.send(t, slash(t, "solve", map[string]any{"id": id.String()})),
		"bare /solve": e.send(t, slash(t, "solve", nil)),
		"button":      e.pressIn(t, "ch9", customid.SolvePrefix+":"+id.String(), "u1"),
	} {
		if msg := checkRefusal(t, rec); !strings.Contains(msg, "Solutions open when the event ends") {
			t.Fatalf("%s: refusal %q", name, msg)
		}
	}

	e.clock.Advance(time.Minute)
	endAt := e.clock.Now()
	rec := e.command(t, "end", nil)
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral || !strings.Contains(rec.Replies[0].Text(), "ended") {
		t.Fatalf("/event end replied %+v", rec.Replies)
	}
	got := e.event(t, ev.ID)
	if got.Status != contest.Ended || !got.EndsAt.Equal(endAt) {
		t.Fatalf("event=%+v, want ended at %v", got, endAt)
	}
	posts := e.poster.in(eventCh)
	if len(posts) != 3 {
		t.Fatalf("%d posts, want maze, board, results (issue 18 item 6: one post at the end)", len(posts))
	}
	if !strings.Contains(posts[2].reply.Text(), "**Friday race** is over") {
		t.Fatalf("results %q, want the event named", posts[2].reply.Text())
	}
	checkResults(t, posts[2].reply, []string{"bob", "ada"})
	checkBoardPointer(t, e, got)
	// The maze message gets its Solve button back.
	maze := e.poster.message(ev.MazeMessageID).current()
	if len(buttons(maze)) != 3 || !strings.Contains(maze.Text(), "ended") {
		t.Fatalf("maze message after the end: %q %+v", maze.Text(), buttons(maze))
	}

	// A run finished after the end doesn't count.
	final, _ := e.win(t, lateMsg, lateGame, time.Second, nil)
	if !strings.Contains(final.Text(), "had already ended") {
		t.Fatalf("late result:\n%s", final.Text())
	}
	if ranking := e.standings(t, ev.ID); len(ranking) != 2 || !sameUsers([]string{ranking[0].UserID, ranking[1].UserID}, []string{"bob", "ada"}) {
		t.Fatalf("ranking=%+v, want bob and ada only", ranking)
	}
	e.clock.Advance(time.Hour)
	e.tick(t)
	if n := len(e.poster.in(eventCh)); n != 3 {
		t.Fatalf("%d posts after a tick, want no more", n)
	}

	// Solutions are open now, and the channel is free.
	if rec := e.send(t, slash(t, "solve", map[string]any{"id": id.String()})); len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "✅ Solution") {
		t.Fatalf("/solve after the end: %+v", rec.Replies)
	}
	if msg := checkRefusal(t, e.command(t, "end", nil)); !strings.Contains(msg, "no running event") {
		t.Fatalf("second /event end: %q", msg)
	}
	e.startEvent(t, nil)
}

func TestEventEndByDuration(t *testing.T) {
	e := newEnv(t, eventEnv())
	ev := e.startEvent(t, map[string]any{"duration": "1h"})
	e.race(t, ev, "ada", time.Second)
	e.clock.Set(ev.EndsAt.Add(-time.Millisecond))
	e.tick(t)
	if got := e.event(t, ev.ID); got.Status != contest.Running {
		t.Fatalf("ended before its time: %+v", got)
	}
	// A game started now finishes after the end.
	msg, g := e.startIn(t, eventCh, ev.MazeID, "late")
	e.clock.Set(ev.EndsAt)
	e.tick(t)
	e.tick(t)
	got := e.event(t, ev.ID)
	if got.Status != contest.Ended || !got.EndsAt.Equal(ev.EndsAt) {
		t.Fatalf("event=%+v, want ended at its end", got)
	}
	posts := e.poster.in(eventCh)
	if len(posts) != 3 {
		t.Fatalf("posts=%d, want maze, board, results", len(posts))
	}
	checkResults(t, posts[2].reply, []string{"ada"})
	checkBoardPointer(t, e, got)
	e.win(t, msg, g, time.Second, nil)
	if ranking := e.standings(t, ev.ID); len(ranking) != 1 || ranking[0].UserID != "ada" {
		t.Fatalf("ranking=%+v, want ada only", ranking)
	}
}

// TestEventRestart: an event whose end passed while the bot was down is
// closed by the first tick of the next start, exactly once, even with two
// processes starting together.
func TestEventRestart(t *testing.T) {
	opts := eventEnv()
	opts.path = tempDB(t)
	opts.poster = &poster{} // Discord's channels outlive the bot
	before := newEnv(t, opts)
	ev := before.startEvent(t, map[string]any{"duration": "2h"})
	before.race(t, ev, "ada", time.Second)
	before.race(t, ev, "bob", 2*time.Second)
	if err := before.db.Close(); err != nil { // the bot goes down
		t.Fatal(err)
	}
	posted := len(opts.poster.in(eventCh))

	opts.clock = testkit.NewClock(eventStart.Add(5 * time.Hour))
	envs := []*env{newEnv(t, opts), newEnv(t, opts)}
	var wg sync.WaitGroup
	errs := make([]error, len(envs))
	for i, e := range envs {
		wg.Go(func() { errs[i] = e.tickErr(context.Background()) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range envs {
		e.tick(t) // later ticks change nothing
	}
	results := opts.poster.in(eventCh)[posted:]
	if len(results) != 1 {
		t.Fatalf("posts after restart=%+v, want one results post", results)
	}
	checkResults(t, results[0].reply, []string{"ada", "bob"})
	got := envs[0].event(t, ev.ID)
	if got.Status != contest.Ended || !got.EndsAt.Equal(ev.EndsAt) {
		t.Fatalf("event=%+v, want ended at its original end %v", got, ev.EndsAt)
	}
	checkBoardPointer(t, envs[0], got)
}

func TestEventGameContext(t *testing.T) {
	e := newEnv(t, eventEnv())
	ev := e.startEvent(t, nil)
	// The same maze played in another channel is an ordinary game.
	_, g := e.startIn(t, "ch9", ev.MazeID, "ada")
	if g.Contest != "" {
		t.Fatalf("contest=%q outside the event channel, want none", g.Contest)
	}
	// Another maze in the event channel too.
	other := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 1}
	if _, g := e.startIn(t, eventCh, other, "ada"); g.Contest != "" {
		t.Fatalf("contest=%q on another maze, want none", g.Contest)
	}
	if _, g := e.startIn(t, eventCh, ev.MazeID, "ada"); g.Contest != ev.Key().String() {
		t.Fatalf("contest=%q on the event maze, want %q", g.Contest, ev.Key())
	}
	// A non-event finish leaves the board alone.
	e.play(t, "ch9", ev.MazeID, "bob", time.Second)
	if got := e.event(t, ev.ID); got.BoardDirty || len(e.board(got).edits) != 0 {
		t.Fatalf("an ordinary game touched the board: %+v", got)
	}
}

// TestEventLiveEditRacesEnd: a live edit that was on its way while
// another process ended the event must not leave the live board over the
// final one.
func TestEventLiveEditRacesEnd(t *testing.T) {
	e := newEnv(t, eventEnv())
	ev := e.startEvent(t, nil)
	var ended atomic.Bool
	e.poster.onEdit = func() {
		// The event is ended and closed (as another process would), its
		// final board landing before this live edit does. (End edits the
		// board too: only the first edit ends it.)
		if !ended.Swap(true) {
			if err := e.contests.Events.End(context.Background(), ev); err != nil {
				t.Error(err)
			}
		}
	}
	e.race(t, ev, "ada", time.Second)
	board := e.board(ev)
	if n := len(board.edits); n != 3 || !strings.Contains(board.current().Text(), "the final results: https://discord.com/channels/") {
		t.Fatalf("board edits=%d, now %q; want the final board, the live edit landing over it, then the final board again", n, board.current().Text())
	}
}

func TestEventEndOtherChannel(t *testing.T) {
	e := newEnv(t, eventEnv())
	ev := e.startEvent(t, map[string]any{"channel": "777"})
	if msg := checkRefusal(t, e.command(t, "end", nil)); !strings.Contains(msg, "no running event in <#ch1>") {
		t.Fatalf("/event end in ch1: %q", msg)
	}
	rec := e.command(t, "end", map[string]any{"channel": "777"})
	if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "<#777>") {
		t.Fatalf("/event end channel:777 replied %+v", rec.Replies)
	}
	if got := e.event(t, ev.ID); got.Status != contest.Ended {
		t.Fatalf("event=%+v, want ended", got)
	}
	if n := len(e.poster.in("777")); n != 3 {
		t.Fatalf("%d posts in 777, want maze, board, results", n)
	}
}
