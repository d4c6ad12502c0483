package commands

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/store"
	"mazebot/store/sqlite"
)

// eventPoster is a Poster that keeps every channel message and edit.
type eventPoster struct {
	mu       sync.Mutex
	next     int
	messages map[string]*eventMsg // by message ID
	order    []string
	failPost error
	// onEdit, if set, runs before each edit is recorded.
	onEdit func()
}

type eventMsg struct {
	channel string
	id      string
	reply   Reply   // as posted
	edits   []Reply // later versions, oldest first
}

func (p *eventPoster) Post(_ context.Context, channelID string, r Reply) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failPost != nil {
		return "", p.failPost
	}
	if p.messages == nil {
		p.messages = map[string]*eventMsg{}
	}
	p.next++
	id := fmt.Sprintf("msg%d", p.next)
	p.messages[id] = &eventMsg{channel: channelID, id: id, reply: r}
	p.order = append(p.order, id)
	return id, nil
}

func (p *eventPoster) Edit(_ context.Context, channelID, messageID string, r Reply) error {
	if p.onEdit != nil {
		p.onEdit()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.messages[messageID]
	if m == nil || m.channel != channelID {
		return fmt.Errorf("edit: no message %s in channel %s", messageID, channelID)
	}
	m.edits = append(m.edits, r)
	return nil
}

// posts lists the messages eventMsg in a channel, oldest first.
func (p *eventPoster) posts(channelID string) []eventMsg {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []eventMsg
	for _, id := range p.order {
		if m := p.messages[id]; m.channel == channelID {
			out = append(out, *m)
		}
	}
	return out
}

func (p *eventPoster) message(id string) eventMsg {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.messages[id]; m != nil {
		return *m
	}
	return eventMsg{}
}

// current is the message as it now reads.
func (m eventMsg) current() Reply {
	if len(m.edits) > 0 {
		return m.edits[len(m.edits)-1]
	}
	return m.reply
}

// eventEnv is a router on a real SQLite store, with a fake clock and poster.
type eventEnv struct {
	db     *sqlite.DB
	router *Router
	clock  *clock
	poster *eventPoster
}

var eventStart = time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)

func newEventEnv(tb testing.TB) *eventEnv {
	tb.Helper()
	db, err := sqlite.OpenMemory(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return newEventEnvOn(db, &clock{now: eventStart})
}

func newEventEnvOn(db *sqlite.DB, c *clock) *eventEnv {
	poster := &eventPoster{}
	router := NewRouter(&Deps{Posts: db, Now: c.Now, Seed: func() uint64 { return 4242 }, Games: db, Secret: testSecret, Poster: poster, Events: db})
	return &eventEnv{db: db, router: router, clock: c, poster: poster}
}

const (
	eventManager = "mod"
	eventCh      = "ch1"
	eventSide    = 15
)

var eventManagePerms = strconv.FormatInt(discordgo.PermissionManageGuild, 10)

// eventCommandIx builds /event <sub> from member user with perms, in ch1.
func eventCommandIx(t *testing.T, sub string, opts map[string]any, user, perms string) *discordgo.Interaction {
	t.Helper()
	return subcommandIx(t, "event", sub, opts, user, perms)
}

func (e *eventEnv) command(t *testing.T, sub string, opts map[string]any) *recorder {
	t.Helper()
	return dispatch(t, e.router, eventCommandIx(t, sub, opts, eventManager, eventManagePerms))
}

// start runs /event start and returns the stored event.
func (e *eventEnv) start(t *testing.T, opts map[string]any) store.Event {
	t.Helper()
	all := map[string]any{"algorithm": "backtracking", "size": eventSide, "duration": "30m", "name": "Friday race"}
	for k, v := range opts {
		all[k] = v
	}
	rec := e.command(t, "start", all)
	if len(rec.replies) != 1 || !rec.replies[0].Ephemeral || !strings.Contains(rec.replies[0].Content, "Event started") {
		t.Fatalf("/event start replied %+v, want an ephemeral confirmation", rec.replies)
	}
	channel, _ := all["channel"].(string)
	if channel == "" {
		channel = eventCh
	}
	ev, err := e.db.RunningEvent(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// press clicks a button as user in channel.
func (e *eventEnv) press(t *testing.T, customID, user, channel string) *recorder {
	t.Helper()
	raw := fmt.Sprintf(`{"id":"i1","application_id":"app","token":"tok","type":3,"guild_id":"g1","channel_id":%q,"locale":"en-US",
		"member":{"user":{"id":%q,"username":"player"},"permissions":"0"},
		"data":{"custom_id":%q,"component_type":2}}`, channel, user, customID)
	var ix discordgo.Interaction
	if err := ix.UnmarshalJSON([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	e.router.Dispatch(context.Background(), &ix, rec)
	return rec
}

// startGame presses Play under the maze as user, in channel.
func (e *eventEnv) startGame(t *testing.T, mazeID, user, channel string) (Reply, store.Game) {
	t.Helper()
	rec := e.press(t, playPrefix+":"+mazeID, user, channel)
	if len(rec.replies) != 1 || !rec.replies[0].Ephemeral {
		t.Fatalf("Play answered %+v, want one ephemeral game message", rec.replies)
	}
	msg := rec.replies[0]
	g, err := e.db.Game(context.Background(), gameIDOf(t, msg))
	if err != nil {
		t.Fatal(err)
	}
	return msg, g
}

// finishGame walks the game to the goal along the solution, step apart
// on the clock per click, and returns the final message.
func (e *eventEnv) finishGame(t *testing.T, msg Reply, g store.Game, step time.Duration) Reply {
	t.Helper()
	path := mazecore.Solve(mustMaze(t, mustParse(t, g.MazeID)))
	for g.Status == store.GamePlaying {
		e.clock.Advance(step)
		b := button(t, msg, dirActions[solutionDir(t, path, mazecore.Point{X: g.X, Y: g.Y})])
		msg = onlyUpdate(t, e.press(t, b.CustomID, g.UserID, g.ChannelID))
		var err error
		if g, err = e.db.Game(context.Background(), g.ID); err != nil {
			t.Fatal(err)
		}
	}
	if g.Status != store.GameWon {
		t.Fatalf("game %d ended %s", g.ID, g.Status)
	}
	return msg
}

// play starts and wins a game in one go.
func (e *eventEnv) play(t *testing.T, ev store.Event, user string, step time.Duration) Reply {
	t.Helper()
	msg, g := e.startGame(t, ev.MazeID, user, ev.ChannelID)
	return e.finishGame(t, msg, g, step)
}

func (e *eventEnv) tick(t *testing.T) {
	t.Helper()
	if err := e.router.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (e *eventEnv) event(t *testing.T, id int64) store.Event {
	t.Helper()
	ev, err := e.db.Event(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// board is the event's board message.
func (e *eventEnv) board(ev store.Event) eventMsg { return e.poster.message(ev.BoardMessageID) }

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
			var ue *UserError
			if !errors.As(err, &ue) || !strings.Contains(ue.Message, "5 minutes to 7 days") {
				t.Fatalf("parseEventDuration(%q) err=%v, want a UserError saying what is allowed", text, err)
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
			e := newEventEnv(t)
			msg := checkRefusal(t, dispatch(t, e.router, eventCommandIx(t, tc.sub, tc.opts, "u1", tc.perms)))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q does not mention %q", msg, tc.want)
			}
			if len(e.poster.order) != 0 {
				t.Fatalf("eventMsg %d messages after a refusal", len(e.poster.order))
			}
		})
	}
	t.Run("ErrDM", func(t *testing.T) {
		e := newEventEnv(t)
		ix := eventCommandIx(t, "start", startOpts, "u1", eventManagePerms)
		ix.GuildID, ix.Member, ix.User = "", nil, &discordgo.User{ID: "u1"}
		if msg := checkRefusal(t, dispatch(t, e.router, ix)); !strings.Contains(msg, "server channel") {
			t.Fatalf("refusal %q does not say events run in a server", msg)
		}
	})
	t.Run("OKAdministrator", func(t *testing.T) {
		e := newEventEnv(t)
		rec := dispatch(t, e.router, eventCommandIx(t, "start", startOpts, "boss", strconv.FormatInt(discordgo.PermissionAdministrator, 10)))
		if len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "Event started") {
			t.Fatalf("an administrator got %+v", rec.replies)
		}
	})
	t.Run("Definition", func(t *testing.T) {
		def := eventCommand().Definition
		if def.DefaultMemberPermissions == nil || *def.DefaultMemberPermissions != discordgo.PermissionManageGuild {
			t.Fatalf("default_member_permissions=%v, want Manage Server", def.DefaultMemberPermissions)
		}
	})
}

func TestEventStart(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, nil)
		id := mazecore.ID{Algorithm: mazecore.Backtracking, Width: eventSide, Height: eventSide, Seed: 4242}
		if ev.MazeID != id.String() || ev.Name != "Friday race" || ev.CreatorID != eventManager || ev.GuildID != "g1" ||
			!ev.StartedAt.Equal(eventStart) || !ev.EndsAt.Equal(eventStart.Add(30*time.Minute)) {
			t.Fatalf("event=%+v", ev)
		}
		posts := e.poster.posts(eventCh)
		if len(posts) != 2 || posts[0].id != ev.MazeMessageID || posts[1].id != ev.BoardMessageID {
			t.Fatalf("posts=%+v, want the maze then the board, as stored in %+v", posts, ev)
		}
		maze := posts[0].reply
		header := fmt.Sprintf("🏆 **Friday race** · ends <t:%d:R>", ev.EndsAt.Unix())
		if !strings.HasPrefix(maze.Content, header) || !strings.Contains(maze.Content, "ID `"+id.String()+"`") {
			t.Fatalf("maze post %q, want header %q and the maze ID", maze.Content, header)
		}
		if err := sameWalls(mustMaze(t, id), readEmojiMaze(t, eventGrid(maze.Content))); err != nil {
			t.Fatal(err)
		}
		bs := buttons(maze)
		if len(bs) != 1 || bs[0].CustomID != playPrefix+":"+id.String() {
			t.Fatalf("maze buttons=%+v, want Play only (no Solve during the event)", bs)
		}
		if got := posts[1].reply.Content; !strings.Contains(got, "Live leaderboard** — no finishers yet") {
			t.Fatalf("board %q, want an empty live board", got)
		}
		// The event maze is the channel's latest, for a bare /solve.
		if last, err := e.db.LastPost(context.Background(), eventCh); err != nil || last.MazeID != id.String() || last.MessageID != ev.MazeMessageID {
			t.Fatalf("last post=%+v, %v; want the event maze", last, err)
		}
	})
	t.Run("OKOtherChannelPNGRounded", func(t *testing.T) {
		e := newEventEnv(t)
		rec := e.command(t, "start", map[string]any{"algorithm": "sidewinder", "size": 50, "duration": "2h", "channel": "777"})
		if len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "<#777>") || !strings.Contains(rec.replies[0].Content, "rounded up to 51") {
			t.Fatalf("replies=%+v, want a confirmation naming <#777> and the rounding", rec.replies)
		}
		if len(rec.deferred) != 1 || !rec.deferred[0] {
			t.Fatalf("deferred=%v, want one ephemeral deferral", rec.deferred)
		}
		posts := e.poster.posts("777")
		if len(posts) != 2 || len(posts[0].reply.Files) != 1 || !strings.HasSuffix(posts[0].reply.Files[0].Name, ".png") {
			t.Fatalf("posts in 777=%+v, want a PNG maze and a board", posts)
		}
		if len(e.poster.posts(eventCh)) != 0 {
			t.Fatal("eventMsg in the command's channel, not the chosen one")
		}
		if ev, err := e.db.RunningEvent(context.Background(), "777"); err != nil || ev.Name != defaultEventName {
			t.Fatalf("event=%+v, %v; want the default name", ev, err)
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
	} {
		t.Run(name, func(t *testing.T) {
			e := newEventEnv(t)
			opts := map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			msg := checkRefusal(t, e.command(t, "start", opts))
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q, want it to say %q", msg, tc.want)
			}
			if len(e.poster.order) != 0 {
				t.Fatal("eventMsg after a refusal")
			}
		})
	}
	t.Run("ErrPostFails", func(t *testing.T) {
		e := newEventEnv(t)
		e.poster.failPost = errors.New("403 Missing Access")
		msg := checkRefusal(t, e.command(t, "start", map[string]any{"algorithm": "backtracking", "size": 15, "duration": "30m"}))
		if !strings.Contains(msg, "couldn't post") {
			t.Fatalf("refusal %q, want it to say the post failed", msg)
		}
		// The channel is free again.
		if _, err := e.db.RunningEvent(context.Background(), eventCh); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("RunningEvent err=%v, want ErrNotFound after a failed start", err)
		}
	})
	t.Run("NameDefused", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, map[string]any{"name": "@everyone **win**\nnow"})
		if strings.Contains(ev.Name, "@") || strings.Contains(ev.Name, "\n") || strings.Contains(ev.Name, "**") {
			t.Fatalf("name %q can ping or break markup", ev.Name)
		}
	})
}

// eventGrid drops the two header lines of an event maze post.
func eventGrid(content string) string {
	parts := strings.SplitN(content, "\n", 3)
	return parts[len(parts)-1]
}

func TestEventOnePerChannel(t *testing.T) {
	t.Run("ErrSecondStart", func(t *testing.T) {
		e := newEventEnv(t)
		ev := e.start(t, nil)
		msg := checkRefusal(t, e.command(t, "start", map[string]any{"algorithm": "digging", "size": 21, "duration": "1h"}))
		if !strings.Contains(msg, "already has a running event") || !strings.Contains(msg, "Friday race") ||
			!strings.Contains(msg, fmt.Sprintf("<t:%d:R>", ev.EndsAt.Unix())) {
			t.Fatalf("refusal %q, want the running event's name and end", msg)
		}
		if n := len(e.poster.posts(eventCh)); n != 2 {
			t.Fatalf("%d posts, want the first event's 2 only", n)
		}
		e.start(t, map[string]any{"channel": "888"}) // another channel is free
	})
	// Two bot processes on one database file, many starts at once: exactly
	// one event, exactly one maze and one board eventMsg.
	t.Run("ConcurrentProcesses", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mazebot.db")
		var envs []*eventEnv
		for range 2 {
			db, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			envs = append(envs, newEventEnvOn(db, &clock{now: eventStart}))
		}
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
			case len(rec.replies) == 1 && strings.Contains(rec.replies[0].Content, "Event started"):
				started++
			case len(rec.replies) == 1 && strings.Contains(rec.replies[0].Content, "already has a running event"):
				refused++
			default:
				t.Errorf("unexpected answer %+v", rec.replies)
			}
		}
		posts := len(envs[0].poster.posts(eventCh)) + len(envs[1].poster.posts(eventCh))
		if started != 1 || refused != n-1 || posts != 2 {
			t.Fatalf("started=%d refused=%d posts=%d, want 1, %d, 2", started, refused, posts, n-1)
		}
	})
}

// TestEventLiveBoard: results reach the board at once, then at most one
// edit per BoardEditInterval, the rest flushed by the next tick.
func TestEventLiveBoard(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, nil)

	// ada: a result on an untouched board is shown at once.
	final := e.play(t, ev, "ada", 2*time.Second)
	if !strings.Contains(final.Content, "Your best run is **#1** of 1 in **Friday race**") {
		t.Fatalf("ada's result lacks her rank:\n%s", final.Content)
	}
	games := e.finishesOf(t, ev)
	if len(games) != 1 || games[0].Context != ev.Context() {
		t.Fatalf("finishes=%+v, want ada's with context %q", games, ev.Context())
	}
	board := e.board(ev)
	if len(board.edits) != 1 || !sameUsers(boardUsers(board.current().Content), []string{"ada"}) {
		t.Fatalf("board edits=%d %q, want one edit listing ada", len(board.edits), board.current().Content)
	}
	firstEdit := e.clock.Now()

	// bob and cy finish within the interval: no edit, the board is dirty.
	e.play(t, ev, "bob", 300*time.Millisecond)
	final = e.play(t, ev, "cy", 500*time.Millisecond)
	if !strings.Contains(final.Content, "**#2** of 3") {
		t.Fatalf("cy's result lacks the rank #2 of 3:\n%s", final.Content)
	}
	if e.clock.Now().Sub(firstEdit) >= BoardEditInterval {
		t.Fatalf("the test's games took %v; they must fit in one interval", e.clock.Now().Sub(firstEdit))
	}
	e.tick(t)
	if board := e.board(ev); len(board.edits) != 1 {
		t.Fatalf("board edited %d times within %v, want 1", len(board.edits), BoardEditInterval)
	}
	if !e.event(t, ev.ID).BoardDirty {
		t.Fatal("the board is not marked dirty")
	}

	// Once the interval has passed, the tick flushes it, once.
	e.clock.now = firstEdit.Add(BoardEditInterval)
	e.tick(t)
	e.tick(t)
	board = e.board(ev)
	if len(board.edits) != 2 || !sameUsers(boardUsers(board.current().Content), []string{"bob", "cy", "ada"}) {
		t.Fatalf("board edits=%d, content %q; want 2 edits, bob, cy, ada", len(board.edits), board.current().Content)
	}
	if !strings.Contains(board.current().Content, "3 finishers") || !strings.Contains(board.current().Content, "🥇 <@bob>") {
		t.Fatalf("board %q, want 3 finishers with bob first", board.current().Content)
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
		e.play(t, ev, fmt.Sprintf("burst%d", i), 100*time.Millisecond)
		e.tick(t)
	}
	if board := e.board(ev); len(board.edits) != 3 {
		t.Fatalf("board edits=%d after a burst, want exactly one more", len(board.edits))
	}
}

func (e *eventEnv) finishesOf(t *testing.T, ev store.Event) []store.Finish {
	t.Helper()
	all, err := e.db.Finishes(context.Background(), ev.MazeID)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestEventRankingTies(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, nil)
	e.play(t, ev, "ann", 2*time.Second)
	e.play(t, ev, "ben", 2*time.Second) // same path, same pace: a tie
	e.play(t, ev, "cat", time.Second)
	e.play(t, ev, "ann", 5*time.Second) // ann's slower second run doesn't count
	e.clock.Advance(time.Hour)
	e.tick(t) // the event is over: final board
	board := e.board(ev).current().Content
	if !sameUsers(boardUsers(board), []string{"cat", "ann", "ben"}) {
		t.Fatalf("final board %q, want cat, ann, ben", board)
	}
	if !strings.Contains(board, "🥇 <@cat>") || !strings.Contains(board, "🥈 <@ann>") || !strings.Contains(board, "🥈 <@ben>") {
		t.Fatalf("final board %q, want ann and ben sharing 🥈", board)
	}
	if !strings.Contains(board, "3 finishers") {
		t.Fatalf("final board %q, want 3 finishers (one line a member)", board)
	}
}

func TestEventBoardTop10(t *testing.T) {
	ranking := make([]store.EventEntry, 12)
	for i := range ranking {
		ranking[i] = store.EventEntry{Rank: i + 1, UserID: fmt.Sprintf("u%d", i), Elapsed: time.Duration(i+1) * time.Second, Tiles: 20}
	}
	ev := store.Event{Name: "Big", EndsAt: eventStart, Status: store.EventRunning}
	content := boardMessage(ev, ranking).Content
	if got := boardUsers(content); len(got) != boardTop || got[0] != "u0" || got[9] != "u9" {
		t.Fatalf("board lists %v, want the top %d", got, boardTop)
	}
	if !strings.Contains(content, "12 finishers") || !strings.Contains(content, "… and 2 more") || !strings.Contains(content, "`#4` <@u3> · 0:04.0") {
		t.Fatalf("board:\n%s", content)
	}
}

func TestEventEndByCommand(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, nil)
	e.play(t, ev, "ada", 2*time.Second)
	e.play(t, ev, "bob", time.Second)
	// A game still on its way when the event ends.
	lateMsg, lateGame := e.startGame(t, ev.MazeID, "zed", eventCh)

	// During the event its solution is refused, every way.
	id := mustParse(t, ev.MazeID)
	for name, rec := range map[string]*recorder{
		"/solve id":   dispatch(t, e.router, slash(t, "solve", map[string]any{"id": ev.MazeID})),
		"bare /solve": dispatch(t, e.router, slash(t, "solve", nil)),
		"button":      e.press(t, solvePrefix+":"+id.String(), "u1", "ch9"),
	} {
		if msg := checkRefusal(t, rec); !strings.Contains(msg, "Solutions open when the event ends") {
			t.Fatalf("%s: refusal %q", name, msg)
		}
	}

	e.clock.Advance(time.Minute)
	endAt := e.clock.Now()
	rec := e.command(t, "end", nil)
	if len(rec.replies) != 1 || !rec.replies[0].Ephemeral || !strings.Contains(rec.replies[0].Content, "ended") {
		t.Fatalf("/event end replied %+v", rec.replies)
	}
	got := e.event(t, ev.ID)
	if got.Status != store.EventEnded || !got.EndsAt.Equal(endAt) {
		t.Fatalf("event=%+v, want ended at %v", got, endAt)
	}
	posts := e.poster.posts(eventCh)
	if len(posts) != 4 {
		t.Fatalf("%d posts, want maze, board, results, solution", len(posts))
	}
	results, solution := posts[2].reply.Content, posts[3].reply.Content
	if !strings.Contains(results, "**Friday race** is over") || !sameUsers(boardUsers(results), []string{"bob", "ada"}) {
		t.Fatalf("results %q, want bob then ada", results)
	}
	if !strings.Contains(solution, "✅ Solution") || !strings.Contains(solution, "||") {
		t.Fatalf("solution post %q, want a spoilered solution", solution)
	}
	board := e.board(got).current().Content
	if !strings.Contains(board, "Final results") || !sameUsers(boardUsers(board), []string{"bob", "ada"}) {
		t.Fatalf("board %q, want the final results", board)
	}
	// The maze message gets its Solve button back.
	maze := e.poster.message(ev.MazeMessageID).current()
	if len(buttons(maze)) != 2 || !strings.Contains(maze.Content, "ended") {
		t.Fatalf("maze message after the end: %q %+v", maze.Content, buttons(maze))
	}

	// A run finished after the end doesn't count.
	final := e.finishGame(t, lateMsg, lateGame, time.Second)
	if !strings.Contains(final.Content, "had already ended") {
		t.Fatalf("late result:\n%s", final.Content)
	}
	ranking, err := e.db.EventRanking(context.Background(), e.event(t, ev.ID))
	if err != nil || len(ranking) != 2 {
		t.Fatalf("ranking=%+v, %v; want ada and bob only", ranking, err)
	}
	e.clock.Advance(time.Hour)
	e.tick(t)
	if n := len(e.poster.posts(eventCh)); n != 4 {
		t.Fatalf("%d posts after a tick, want no more", n)
	}

	// Solutions are open now, and the channel is free.
	if rec := dispatch(t, e.router, slash(t, "solve", map[string]any{"id": ev.MazeID})); len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "✅ Solution") {
		t.Fatalf("/solve after the end: %+v", rec.replies)
	}
	if msg := checkRefusal(t, e.command(t, "end", nil)); !strings.Contains(msg, "no running event") {
		t.Fatalf("second /event end: %q", msg)
	}
	e.start(t, nil)
}

func TestEventEndByDuration(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, map[string]any{"duration": "1h"})
	e.play(t, ev, "ada", time.Second)
	e.clock.now = ev.EndsAt.Add(-time.Millisecond)
	e.tick(t)
	if got := e.event(t, ev.ID); got.Status != store.EventRunning {
		t.Fatalf("ended before its time: %+v", got)
	}
	// A game started now finishes after the end.
	msg, g := e.startGame(t, ev.MazeID, "late", eventCh)
	e.clock.now = ev.EndsAt
	e.tick(t)
	e.tick(t)
	got := e.event(t, ev.ID)
	if got.Status != store.EventEnded || !got.EndsAt.Equal(ev.EndsAt) {
		t.Fatalf("event=%+v, want ended at its end", got)
	}
	posts := e.poster.posts(eventCh)
	if len(posts) != 4 || !sameUsers(boardUsers(posts[2].reply.Content), []string{"ada"}) {
		t.Fatalf("posts=%d, results %q; want 4 posts, ada's result", len(posts), posts[len(posts)-1].reply.Content)
	}
	if board := e.board(got).current().Content; !strings.Contains(board, "Final results") {
		t.Fatalf("board %q, want final results", board)
	}
	e.finishGame(t, msg, g, time.Second)
	if ranking, err := e.db.EventRanking(context.Background(), got); err != nil || len(ranking) != 1 {
		t.Fatalf("ranking=%+v, %v; want ada only", ranking, err)
	}
}

// TestEventRestart: an event whose end passed while the bot was down is
// closed by the first tick of the next start, exactly once, even with two
// processes starting together.
func TestEventRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mazebot.db")
	open := func() *sqlite.DB {
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open()
	before := newEventEnvOn(db, &clock{now: eventStart})
	ev := before.start(t, map[string]any{"duration": "2h"})
	before.play(t, ev, "ada", time.Second)
	before.play(t, ev, "bob", 2*time.Second)
	db.Close() // the bot goes down

	after := eventStart.Add(5 * time.Hour)
	var envs []*eventEnv
	for range 2 {
		db := open()
		t.Cleanup(func() { db.Close() })
		env := newEventEnvOn(db, &clock{now: after})
		// The board and maze messages were eventMsg by the first process:
		// the new fakes must know them to accept the edits.
		env.poster.messages = map[string]*eventMsg{}
		env.poster.messages[ev.MazeMessageID] = &eventMsg{channel: eventCh, id: ev.MazeMessageID}
		env.poster.messages[ev.BoardMessageID] = &eventMsg{channel: eventCh, id: ev.BoardMessageID}
		env.poster.next = 100
		envs = append(envs, env)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(envs))
	for i, env := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = env.router.Tick(context.Background())
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var results []eventMsg
	for _, env := range envs {
		env.tick(t) // later ticks change nothing
		for _, p := range env.poster.posts(eventCh) {
			if p.reply.Content != "" {
				results = append(results, p)
			}
		}
	}
	if len(results) != 2 || !strings.Contains(results[0].reply.Content, "is over") || !strings.Contains(results[1].reply.Content, "Solution") {
		t.Fatalf("posts after restart=%+v, want one results post and one solution", results)
	}
	if !sameUsers(boardUsers(results[0].reply.Content), []string{"ada", "bob"}) {
		t.Fatalf("results %q, want ada then bob", results[0].reply.Content)
	}
	got := envs[0].event(t, ev.ID)
	if got.Status != store.EventEnded || !got.EndsAt.Equal(ev.EndsAt) {
		t.Fatalf("event=%+v, want ended at its original end %v", got, ev.EndsAt)
	}
}

func TestEventGameContext(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, nil)
	// The same maze played in another channel is an ordinary game.
	_, g := e.startGame(t, ev.MazeID, "ada", "ch9")
	if g.Context != "" {
		t.Fatalf("context=%q outside the event channel, want none", g.Context)
	}
	// Another maze in the event channel too.
	other := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 1}
	if _, g := e.startGame(t, other.String(), "ada", eventCh); g.Context != "" {
		t.Fatalf("context=%q on another maze, want none", g.Context)
	}
	if _, g := e.startGame(t, ev.MazeID, "ada", eventCh); g.Context != ev.Context() {
		t.Fatalf("context=%q on the event maze, want %q", g.Context, ev.Context())
	}
	// A non-event finish leaves the board alone.
	msg, g := e.startGame(t, ev.MazeID, "bob", "ch9")
	e.finishGame(t, msg, g, time.Second)
	if got := e.event(t, ev.ID); got.BoardDirty || len(e.board(got).edits) != 0 {
		t.Fatalf("an ordinary game touched the board: %+v", got)
	}
}

// TestEventLiveEditRacesEnd: a live edit that was on its way while
// another process ended the event must not leave the live board over the
// final one.
func TestEventLiveEditRacesEnd(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, nil)
	var once sync.Once
	e.poster.onEdit = func() {
		once.Do(func() {
			if err := e.db.EndEvent(context.Background(), ev.ID, e.clock.Now()); err != nil {
				t.Error(err)
			}
		})
	}
	e.play(t, ev, "ada", time.Second)
	board := e.board(ev)
	if len(board.edits) != 2 || !strings.Contains(board.current().Content, "Final results") {
		t.Fatalf("board edits=%d, now %q; want the live edit, then the final board again", len(board.edits), board.current().Content)
	}
}

func TestEventEndOtherChannel(t *testing.T) {
	e := newEventEnv(t)
	ev := e.start(t, map[string]any{"channel": "777"})
	if msg := checkRefusal(t, e.command(t, "end", nil)); !strings.Contains(msg, "no running event in <#ch1>") {
		t.Fatalf("/event end in ch1: %q", msg)
	}
	rec := e.command(t, "end", map[string]any{"channel": "777"})
	if len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "<#777>") {
		t.Fatalf("/event end channel:777 replied %+v", rec.replies)
	}
	if got := e.event(t, ev.ID); got.Status != store.EventEnded {
		t.Fatalf("event=%+v, want ended", got)
	}
	if n := len(e.poster.posts("777")); n != 4 {
		t.Fatalf("%d posts in 777, want maze, board, results, solution", n)
	}
}
