package commands

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/bot/bottest"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store/sqlite"
	"mazebot/store/storetest"
)

// recorder keeps what a handler answered, in place of Discord.
type recorder = bottest.Recorder

// poster is the tests' Discord channels: a Poster that keeps every
// message and edit, and fails on demand.
type poster struct {
	mu       sync.Mutex
	next     int
	messages map[string]*posted // by message ID
	order    []string
	nonces   map[string]string // channel|nonce → message ID, as Discord dedupes
	fail     error             // what Post returns while set
	// failAfter is what Post returns, while set, after making the post:
	// Discord's 502 after the fact, or a process that dies after posting.
	failAfter error
	onEdit    func() // if set, runs before each edit is recorded
	onPost    func() // if set, runs before each post, unlocked
	// locales are the servers' primary languages (GuildLocale); a server
	// not in it is unknown to Discord. asked counts the questions.
	locales map[string]string
	asked   int
}

func (p *poster) GuildLocale(_ context.Context, guildID string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
	if l, ok := p.locales[guildID]; ok {
		return l, nil
	}
	return "", errors.New("404 Unknown Guild")
}

// posted is one channel message and its later versions.
type posted struct {
	channel string
	id      string
	reply   bot.Reply   // as posted
	edits   []bot.Reply // later versions, oldest first
}

func (p *poster) Post(_ context.Context, channelID, nonce string, r bot.Reply) (string, error) {
	if p.onPost != nil {
		p.onPost()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return "", p.fail
	}
	if p.messages == nil {
		p.messages, p.nonces = map[string]*posted{}, map[string]string{}
	}
	if id, ok := p.nonces[channelID+"|"+nonce]; ok && nonce != "" {
		return id, nil
	}
	p.next++
	id := fmt.Sprintf("msg%d", p.next)
	p.messages[id] = &posted{channel: channelID, id: id, reply: r}
	p.order = append(p.order, id)
	if nonce != "" {
		p.nonces[channelID+"|"+nonce] = id
	}
	if p.failAfter != nil {
		return "", p.failAfter
	}
	return id, nil
}

// Recent lists a channel's messages as Discord's GET does, newest first:
// the bot's, as they now read.
func (p *poster) Recent(_ context.Context, channelID string, limit int) ([]*discordgo.Message, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*discordgo.Message
	for i := len(p.order) - 1; i >= 0 && len(out) < limit; i-- {
		m := p.messages[p.order[i]]
		if m.channel != channelID {
			continue
		}
		r := m.current()
		// Through JSON, as discordgo decodes a message's components.
		raw, err := json.Marshal(map[string]any{"id": m.id, "channel_id": m.channel, "content": r.Content, "components": r.Components, "author": map[string]any{"id": "app", "bot": true}})
		if err != nil {
			return nil, err
		}
		var msg discordgo.Message
		if err := json.Unmarshal(raw, &msg); err != nil {
			return nil, err
		}
		out = append(out, &msg)
	}
	return out, nil
}

// forgetNonces ends the nonces' window, as Discord's ends after minutes.
// DMChannel is the DM channel with a user: "dm-" and their ID.
func (p *poster) DMChannel(_ context.Context, userID string) (string, error) {
	return "dm-" + userID, nil
}

func (p *poster) forgetNonces() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nonces = map[string]string{}
}

func (p *poster) Edit(_ context.Context, channelID, messageID string, r bot.Reply) error {
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

// failWith makes the posts fail with err; nil lets them through again.
func (p *poster) failWith(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail = err
}

// all lists every message, oldest first.
func (p *poster) all() []posted { return p.in("") }

// wantPosts fails t unless p holds want messages in all, when saying at
// what point of the test.
func wantPosts(t *testing.T, p *poster, want int, when string) {
	t.Helper()
	if n := len(p.all()); n != want {
		t.Fatalf("%d posts %s, want %d", n, when, want)
	}
}

// in lists the messages of a channel ("" for all), oldest first.
func (p *poster) in(channelID string) []posted {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []posted
	for _, id := range p.order {
		if m := p.messages[id]; channelID == "" || m.channel == channelID {
			out = append(out, *m)
		}
	}
	return out
}

func (p *poster) message(id string) posted {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.messages[id]; m != nil {
		return *m
	}
	return posted{}
}

// current is the message as it now reads.
func (m posted) current() bot.Reply {
	if len(m.edits) > 0 {
		return m.edits[len(m.edits)-1]
	}
	return m.reply
}

// testSecret signs the buttons of every env unless a test stores another.
var testSecret = []byte("test secret, not for production")

// testNow is when an env's clock starts unless a test says otherwise.
var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// envOptions change what newEnv builds; the zero value is a fresh
// in-memory store, a new clock at testNow and new channels.
type envOptions struct {
	// path is a database file, for several processes on one database, a
	// restart, or reading back what no store method lists; "" is a fresh
	// in-memory database.
	path   string
	now    time.Time      // the start of a new clock; zero: testNow
	clock  *testkit.Clock // shared by the envs of one test; nil: a new one
	poster *poster        // likewise; nil: new channels
	seed   uint64         // the "random" maze seed; 0: 12345
	// secret makes the button key stored in the database the first time,
	// as app.go does with random bytes; nil stores testSecret.
	secret   func() ([]byte, error)
	extra    []bot.Feature   // test-only commands
	pictures pictures.Config // the picture queue's sizes
	// locale is the Discord locale of the members who press buttons
	// (press, win, play); "" is the interactions' en-US.
	locale string
	// noArena builds the features without Maze Arena, as a bot with no
	// DISCORD_CLIENT_SECRET runs.
	noArena bool
}

// testDailyKey is the dailies' key in every env: processes sharing a
// database share it.
var testDailyKey = []byte("commands test daily key")

// env is one bot process in a test: the features built by New, as the
// bot builds them, on a real SQLite store, a settable clock and a
// recording Poster.
type env struct {
	db       *sqlite.DB
	path     string
	clock    *testkit.Clock
	poster   *poster
	contests contest.Contests
	games    *contest.Games
	mazes    *Mazes
	pictures *pictures.Queue
	router   *bot.Router
	locale   string // envOptions.locale
	races    *races
}

// races records the launches of Maze Arena, in place of its rooms.
type races struct {
	mu       sync.Mutex
	launches []string // "guild channel user maze"
	cards    []bool   // whether each launch's card may be posted
	// followups are the launches' tokens for a card that follows them.
	followups []string
}

func (r *races) Pend(_ context.Context, guildID, channelID, userID string, maze mazecore.ID, card bool, followup string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.launches = append(r.launches, strings.Join([]string{guildID, channelID, userID, maze.String()}, " "))
	r.cards = append(r.cards, card)
	r.followups = append(r.followups, followup)
	return nil
}

func newEnv(tb testing.TB, opts envOptions) *env {
	tb.Helper()
	ctx := context.Background()
	var db *sqlite.DB
	if opts.path == "" {
		db = storetest.MemoryDB(tb)
	} else {
		var err error
		if db, err = sqlite.Open(ctx, opts.path); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { db.Close() })
	}
	e := &env{db: db, path: opts.path, clock: opts.clock, poster: opts.poster, locale: opts.locale, races: &races{}}
	if e.clock == nil {
		now := opts.now
		if now.IsZero() {
			now = testNow
		}
		e.clock = testkit.NewClock(now)
	}
	if e.poster == nil {
		e.poster = &poster{}
	}
	seed := opts.seed
	if seed == 0 {
		seed = 12345
	}
	newSecret := opts.secret
	if newSecret == nil {
		newSecret = func() ([]byte, error) { return testSecret, nil }
	}
	secret, err := db.Secret(ctx, "play-hmac", newSecret)
	if err != nil {
		tb.Fatal(err)
	}
	deps := Deps{
		Store: db, Poster: e.poster, Guilds: e.poster,
		PlaySecret: secret, DailyKey: testDailyKey,
		Now: e.clock.Now, Seed: func() uint64 { return seed },
		Log: slog.New(slog.DiscardHandler), Pictures: opts.pictures,
		// The recorder answers at once; a deferral made for a slow handler
		// would only race the tests' own counts.
		AutoDeferAfter: -1,
		Extra:          opts.extra,
		Arena:          !opts.noArena,
		Races:          e.races,
	}
	// As app wires a process: the domain once, then the features on it.
	deps.Domain = NewDomain(deps)
	set, err := New(deps)
	if err != nil {
		tb.Fatal(err)
	}
	e.contests, e.games, e.pictures = deps.Domain.Contests, deps.Domain.Games, deps.Domain.Pictures
	e.mazes, e.router = set.Mazes, set.Router
	return e
}

// tempDB is a database file for the envs of one test.
func tempDB(tb testing.TB) string { return filepath.Join(tb.TempDir(), "mazebot.db") }

// tickErr runs the scheduler's tickers once, in app.go's order.
func (e *env) tickErr(ctx context.Context) error {
	_, cleanup := e.games.Cleanup(ctx)
	events := e.contests.Events.Tick(ctx)
	dailies := e.contests.Dailies.Tick(ctx)
	return errors.Join(cleanup, events, dailies)
}

func (e *env) tick(tb testing.TB) {
	tb.Helper()
	if err := e.tickErr(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

// send dispatches an interaction and records the answer.
func (e *env) send(tb testing.TB, ix *discordgo.Interaction) *recorder {
	tb.Helper()
	rec := &recorder{}
	e.router.Dispatch(context.Background(), ix, rec)
	return rec
}

// press clicks a button as user in ch1.
func (e *env) press(tb testing.TB, customID, user string) *recorder {
	tb.Helper()
	return e.pressIn(tb, "ch1", customID, user)
}

// pressIn clicks a button as user in channel.
func (e *env) pressIn(tb testing.TB, channel, customID, user string) *recorder {
	tb.Helper()
	ix := buttonIx(tb, channel, customID, user)
	if e.locale != "" {
		ix.Locale = discordgo.Locale(e.locale)
	}
	return e.send(tb, ix)
}

// start presses Play under maze id as user in ch1 and returns the game
// message and the stored game.
func (e *env) start(tb testing.TB, id mazecore.ID, user string) (bot.Reply, play.Record) {
	tb.Helper()
	return e.startIn(tb, "ch1", id, user)
}

func (e *env) startIn(tb testing.TB, channel string, id mazecore.ID, user string) (bot.Reply, play.Record) {
	tb.Helper()
	rec := e.pressIn(tb, channel, customid.PlayPrefix+":"+id.String(), user)
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral || len(rec.Updates) != 0 {
		tb.Fatalf("Play answered replies=%+v updates=%+v, want one ephemeral reply", rec.Replies, rec.Updates)
	}
	msg := rec.Replies[0]
	checkCustomIDs(tb, msg)
	return msg, e.game(tb, gameIDOf(tb, msg))
}

func (e *env) game(tb testing.TB, id int64) play.Record {
	tb.Helper()
	g, err := e.db.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// win plays game g to the goal along the solution as its owner, in its
// channel, step apart on the clock per click. The player's tile is read
// off the stored game, so windowed views play too. Every click must
// update the game message; check, if set, also sees each click's answer
// and the game after it.
func (e *env) win(tb testing.TB, msg bot.Reply, g play.Record, step time.Duration, check func(rec *recorder, g play.Record)) (bot.Reply, play.Record) {
	tb.Helper()
	_, err := testkit.Follow(testkit.Maze(tb, g.MazeID),
		func() (mazecore.Point, error) { return g.Pos, nil },
		func() bool { return g.Status != play.Playing },
		func(d mazecore.Dir) error {
			b := button(tb, msg, dirActions[d])
			if b.Disabled {
				return fmt.Errorf("the way on (%v) is disabled at %v", d, g.Pos)
			}
			e.clock.Advance(step)
			rec := e.pressIn(tb, g.ChannelID, b.CustomID, g.UserID)
			msg = onlyUpdate(tb, rec)
			g = e.game(tb, g.ID)
			if check != nil {
				check(rec, g)
			}
			return nil
		})
	if err != nil {
		tb.Fatalf("game %d: %v", g.ID, err)
	}
	if g.Status != play.Won {
		tb.Fatalf("game %d ended %s, want won", g.ID, g.Status)
	}
	return msg, g
}

// play starts a game on maze id as user in channel and wins it.
func (e *env) play(tb testing.TB, channel string, id mazecore.ID, user string, step time.Duration) bot.Reply {
	tb.Helper()
	msg, g := e.startIn(tb, channel, id, user)
	final, _ := e.win(tb, msg, g, step, nil)
	return final
}

// results reads the stored results of a maze straight from the database
// file: no store method lists the results outside a contest.
func (e *env) results(tb testing.TB, id mazecore.ID) []play.Result {
	tb.Helper()
	var out []play.Result
	e.query(tb, func(rows *sql.Rows) error {
		var (
			r             play.Result
			maze          string
			elapsed, done int64
		)
		if err := rows.Scan(&r.UserID, &r.GuildID, &maze, &r.Contest, &r.Clicks, &r.Tiles, &elapsed, &done); err != nil {
			return err
		}
		var err error
		r.MazeID, err = mazecore.Parse(maze)
		r.Elapsed, r.FinishedAt = time.Duration(elapsed)*time.Millisecond, time.UnixMilli(done).UTC()
		out = append(out, r)
		return err
	}, `SELECT user_id, guild_id, maze_id, context, clicks, tiles, elapsed_ms, finished_at FROM finishes WHERE maze_id = ? ORDER BY id`, id.String())
	return out
}

// postCount counts the mazes recorded as shown, in every channel.
func (e *env) postCount(tb testing.TB) int {
	tb.Helper()
	var n int
	e.query(tb, func(rows *sql.Rows) error { return rows.Scan(&n) }, `SELECT count(*) FROM posts`)
	return n
}

// query reads the env's database file with q, calling scan on each row.
func (e *env) query(tb testing.TB, scan func(*sql.Rows) error, q string, args ...any) {
	tb.Helper()
	if e.path == "" {
		tb.Fatal("reading the database directly needs an env on a file (envOptions.path)")
	}
	raw, err := sql.Open("sqlite", e.path)
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.QueryContext(context.Background(), q, args...)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			tb.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
}

// testCommands is a feature of test-only commands.
type testCommands []bot.Command

func (c testCommands) Commands() []bot.Command   { return c }
func (testCommands) Components() []bot.Component { return nil }

// slash builds an application command interaction the way discordgo decodes
// one from the gateway (through JSON, so option values are float64).
func slash(tb testing.TB, name string, opts map[string]any) *discordgo.Interaction {
	tb.Helper()
	return decodeInteraction(tb, map[string]any{
		"type": discordgo.InteractionApplicationCommand,
		"data": map[string]any{"id": "c1", "name": name, "type": 1, "options": optionList(opts)},
	})
}

// subcommandIx builds /name sub with options, from member user with the
// given permissions (a decimal string, as Discord sends it).
func subcommandIx(tb testing.TB, name, sub string, opts map[string]any, user, perms string) *discordgo.Interaction {
	tb.Helper()
	data := map[string]any{"id": "c-" + name, "name": name, "type": 1, "options": []map[string]any{
		{"name": sub, "type": discordgo.ApplicationCommandOptionSubCommand, "options": optionList(opts)},
	}}
	// Discord resolves a channel option's channel (a partial channel).
	if ch, ok := opts["channel"].(string); ok {
		data["resolved"] = map[string]any{"channels": map[string]any{ch: map[string]any{"id": ch, "name": "c" + ch, "type": 0, "permissions": "0"}}}
	}
	return decodeInteraction(tb, map[string]any{
		"type":   discordgo.InteractionApplicationCommand,
		"member": map[string]any{"user": map[string]any{"id": user, "username": user}, "permissions": perms},
		"data":   data,
	})
}

// optionList types the options as Discord does: "channel" a channel,
// whole numbers integers, the rest strings.
func optionList(opts map[string]any) []map[string]any {
	var options []map[string]any
	for k, v := range opts {
		typ := discordgo.ApplicationCommandOptionString
		if k == "channel" {
			typ = discordgo.ApplicationCommandOptionChannel
		} else if _, ok := v.(int); ok {
			typ = discordgo.ApplicationCommandOptionInteger
		}
		options = append(options, map[string]any{"name": k, "type": typ, "value": v})
	}
	return options
}

// dmIx builds /name in a DM, with the options given as Discord sends them.
func dmIx(tb testing.TB, name string, options []map[string]any) *discordgo.Interaction {
	tb.Helper()
	return decodeInteraction(tb, map[string]any{
		"type": discordgo.InteractionApplicationCommand, "guild_id": "", "member": nil,
		"user": map[string]any{"id": "u1", "username": "ada"},
		"data": map[string]any{"id": "c1", "name": name, "type": 1, "options": options},
	})
}

// buttonIx is a click on a button by user in channel.
func buttonIx(tb testing.TB, channel, customID, user string) *discordgo.Interaction {
	tb.Helper()
	return decodeInteraction(tb, map[string]any{
		"type": discordgo.InteractionMessageComponent, "channel_id": channel,
		"member": map[string]any{"user": map[string]any{"id": user, "username": "player"}, "permissions": "0"},
		"data":   map[string]any{"custom_id": customID, "component_type": 2},
	})
}

// messageCommand is "Solve this maze" on the message target.
func messageCommand(tb testing.TB, target map[string]any) *discordgo.Interaction {
	tb.Helper()
	return decodeInteraction(tb, map[string]any{
		"type": discordgo.InteractionApplicationCommand,
		"data": map[string]any{"id": "c2", "name": solveMessageCommandName, "type": 3, "target_id": "m1",
			"resolved": map[string]any{"messages": map[string]any{"m1": target}}},
	})
}

// botMessage is a message of the bot's (author "app") in ch1, showing r.
func botMessage(r bot.Reply) map[string]any {
	return map[string]any{"id": "m1", "channel_id": "ch1", "content": r.Content, "author": map[string]any{"id": "app", "bot": true}, "components": r.Components}
}

// decodeInteraction builds an interaction in g1/ch1 from u1 (a member
// without permissions), with fields replacing those defaults.
func decodeInteraction(tb testing.TB, fields map[string]any) *discordgo.Interaction {
	tb.Helper()
	base := map[string]any{
		"id": "i1", "application_id": "app", "token": "tok", "guild_id": "g1", "channel_id": "ch1", "locale": "en-US",
		"member": map[string]any{"user": map[string]any{"id": "u1", "username": "ada"}, "permissions": "0"},
	}
	for k, v := range fields {
		base[k] = v
	}
	raw, err := json.Marshal(base)
	if err != nil {
		tb.Fatal(err)
	}
	var ix discordgo.Interaction
	if err := json.Unmarshal(raw, &ix); err != nil {
		tb.Fatalf("decode interaction: %v", err)
	}
	return &ix
}

// checkRefusal asserts one ephemeral warning and nothing else.
func checkRefusal(tb testing.TB, rec *recorder) string {
	tb.Helper()
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral || !strings.HasPrefix(rec.Replies[0].Text(), "⚠️") {
		tb.Fatalf("replies=%+v, want one ephemeral warning", rec.Replies)
	}
	if strings.Contains(rec.Replies[0].Text(), "something went wrong") {
		tb.Fatalf("refusal %q is the generic apology, want what is allowed", rec.Replies[0].Text())
	}
	return rec.Replies[0].Text()
}

// checkSolution asserts one reply that is the spoilered solution of id.
func checkSolution(tb testing.TB, rec *recorder, id mazecore.ID, ephemeral bool) {
	tb.Helper()
	if len(rec.Replies) != 1 {
		tb.Fatalf("replies=%+v, want one", rec.Replies)
	}
	reply := rec.Replies[0]
	if reply.Ephemeral != ephemeral {
		tb.Fatalf("ephemeral=%v, want %v", reply.Ephemeral, ephemeral)
	}
	header, grid, _ := strings.Cut(reply.Text(), "\n")
	m := testkit.Maze(tb, id)
	path := mazecore.Solve(m)
	if !strings.Contains(header, id.String()) || !strings.Contains(header, fmt.Sprintf("path %d tiles", len(path))) {
		tb.Fatalf("header %q, want ID %s and path length %d", header, id, len(path))
	}
	if views.AutoPicture(id) {
		// Wider than a phone's row: the solution is a spoilered picture.
		if len(reply.Files) != 1 || !strings.HasPrefix(reply.Files[0].Name, "SPOILER_") || !strings.Contains(reply.Files[0].Description, "solved") {
			tb.Fatalf("files %+v, want one SPOILER_ picture described as solved", reply.Files)
		}
		return
	}
	inner, ok := strings.CutPrefix(grid, "||")
	inner, ok2 := strings.CutSuffix(inner, "||")
	if !ok || !ok2 {
		tb.Fatalf("solution grid is not one spoiler: %q", grid)
	}
	if err := testkit.CheckGrid(inner, m, path); err != nil {
		tb.Fatal(err)
	}
}

// idInReply reads the maze ID a message names.
func idInReply(tb testing.TB, r bot.Reply) mazecore.ID {
	tb.Helper()
	id, ok := views.IDInContent(r.Text())
	if !ok {
		tb.Fatalf("no maze ID in %q", r.Text())
	}
	return id
}

// buttons lists a message's buttons.
func buttons(msg bot.Reply) []discordgo.Button { return bot.Buttons(msg.Components) }

// hasButtons tells whether msg has a button of each custom ID prefix, in
// that order, whatever other buttons stand between or after them: a card
// button added to the row (views.cardRow, which TestRow lists) is not
// written out again here.
func hasButtons(msg bot.Reply, prefixes ...string) bool {
	for _, b := range buttons(msg) {
		if len(prefixes) > 0 && strings.HasPrefix(b.CustomID, prefixes[0]+":") {
			prefixes = prefixes[1:]
		}
	}
	return len(prefixes) == 0
}

// button finds the button of a move action ('n', 'g', …).
func button(tb testing.TB, msg bot.Reply, action customid.Action) discordgo.Button {
	tb.Helper()
	for _, b := range buttons(msg) {
		if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && parts[3] == string(action) {
			return b
		}
	}
	tb.Fatalf("no %q button in %+v", action, msg.Components)
	return discordgo.Button{}
}

func gameIDOf(tb testing.TB, msg bot.Reply) int64 {
	tb.Helper()
	var id int64
	if _, err := fmt.Sscanf(strings.Split(button(tb, msg, customid.GiveUp).CustomID, ":")[1], "%d", &id); err != nil {
		tb.Fatal(err)
	}
	return id
}

var dirActions = map[mazecore.Dir]customid.Action{mazecore.North: customid.North, mazecore.East: customid.East, mazecore.South: customid.South, mazecore.West: customid.West}

// checkCustomIDs: Discord refuses a custom_id over 100 characters, or two
// alike in one message.
func checkCustomIDs(tb testing.TB, msg bot.Reply) {
	tb.Helper()
	seen := map[string]bool{}
	for _, b := range buttons(msg) {
		if n := len(b.CustomID); n == 0 || n > 100 || seen[b.CustomID] {
			tb.Fatalf("custom_id %q: length %d or repeated", b.CustomID, n)
		}
		seen[b.CustomID] = true
	}
}

// onlyUpdate asserts a type-7 answer (Update) and nothing else.
func onlyUpdate(tb testing.TB, rec *recorder) bot.Reply {
	tb.Helper()
	if len(rec.Updates) != 1 || len(rec.Replies) != 0 {
		tb.Fatalf("updates=%+v replies=%+v, want one update and no reply", rec.Updates, rec.Replies)
	}
	return rec.Updates[0]
}

// moveCustomID is the custom ID of a move button signed with secret.
func moveCustomID(secret []byte, game int64, seq int, action customid.Action, userID string) string {
	sign, err := customid.NewSigner(secret)
	if err != nil {
		panic(err)
	}
	return sign.Move(game, seq, action, userID)
}

// checkNextGame asserts the buttons a finished game's message invites the
// next game with: Play again on the same maze, New maze like it, and for
// a win Share.
func checkNextGame(tb testing.TB, msg bot.Reply, id mazecore.ID, won bool) {
	tb.Helper()
	want := []string{customid.Play(id), customid.NewMaze(id)}
	bs := buttons(msg)
	if won {
		want = append(want, customid.SharePrefix+":")
	}
	if len(bs) != len(want) {
		tb.Fatalf("final buttons %+v, want %v", bs, want)
	}
	for i, b := range bs {
		if !strings.HasPrefix(b.CustomID, want[i]) || b.Disabled {
			tb.Fatalf("final button %d is %q, want %s…", i, b.CustomID, want[i])
		}
	}
}

// share presses Share on a won game's final message.
func (e *env) share(tb testing.TB, final bot.Reply, user string) bot.Reply {
	tb.Helper()
	for _, b := range buttons(final) {
		if strings.HasPrefix(b.CustomID, customid.SharePrefix+":") {
			rec := e.press(tb, b.CustomID, user)
			if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral {
				tb.Fatalf("Share answered %+v, want one private message", rec.Replies)
			}
			return rec.Replies[0]
		}
	}
	tb.Fatalf("no Share button on %+v", final.Components)
	return bot.Reply{}
}
