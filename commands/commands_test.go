package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/gif"
	"image/png"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/render"
	"mazebot/store"
)

// recorder is a Responder that keeps every call, in place of Discord.
type recorder struct {
	mu       sync.Mutex
	deferred []bool
	replies  []Reply
	updates  []Reply
	follows  []Reply
	failNext error
}

func (r *recorder) Defer(_ context.Context, ephemeral bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deferred = append(r.deferred, ephemeral)
	return nil
}

func (r *recorder) Reply(_ context.Context, reply Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.failNext; err != nil {
		r.failNext = nil
		return err
	}
	if len(r.replies) > 0 {
		return errors.New("already replied")
	}
	r.replies = append(r.replies, reply)
	return nil
}

func (r *recorder) Update(_ context.Context, reply Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, reply)
	return nil
}

func (r *recorder) Followup(_ context.Context, reply Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.follows = append(r.follows, reply)
	return nil
}

// memPosts is an in-memory Posts.
type memPosts struct {
	mu    sync.Mutex
	posts []store.Post
}

func (m *memPosts) AddPost(_ context.Context, p store.Post) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.posts = append(m.posts, p)
	return nil
}

func (m *memPosts) LastPost(_ context.Context, channelID string) (store.Post, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.posts) - 1; i >= 0; i-- {
		if m.posts[i].ChannelID == channelID {
			return m.posts[i], nil
		}
	}
	return store.Post{}, fmt.Errorf("last post: %w", store.ErrNotFound)
}

func newTestRouter() (*Router, *memPosts) {
	posts := &memPosts{}
	return NewRouter(&Deps{
		Posts: posts,
		Now:   func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		Seed:  func() uint64 { return 12345 },
	}), posts
}

// slash builds an application command interaction the way discordgo decodes
// one from the gateway (through JSON, so option values are float64).
func slash(t *testing.T, name string, opts map[string]any) *discordgo.Interaction {
	t.Helper()
	var options []map[string]any
	for k, v := range opts {
		typ := discordgo.ApplicationCommandOptionString
		if _, ok := v.(int); ok {
			typ = discordgo.ApplicationCommandOptionInteger
		}
		options = append(options, map[string]any{"name": k, "type": typ, "value": v})
	}
	return decodeInteraction(t, map[string]any{
		"type": discordgo.InteractionApplicationCommand,
		"data": map[string]any{"id": "c1", "name": name, "type": 1, "options": options},
	})
}

// subcommandIx builds /name sub with options, from member user with the
// given permissions (a decimal string, as Discord sends it).
func subcommandIx(t *testing.T, name, sub string, opts map[string]any, user, perms string) *discordgo.Interaction {
	t.Helper()
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
	return decodeInteraction(t, map[string]any{
		"type":   discordgo.InteractionApplicationCommand,
		"member": map[string]any{"user": map[string]any{"id": user, "username": user}, "permissions": perms},
		"data": map[string]any{"id": "c-" + name, "name": name, "type": 1, "options": []map[string]any{
			{"name": sub, "type": discordgo.ApplicationCommandOptionSubCommand, "options": options},
		}},
	})
}

func decodeInteraction(t *testing.T, fields map[string]any) *discordgo.Interaction {
	t.Helper()
	base := map[string]any{
		"id": "i1", "application_id": "app", "token": "tok", "guild_id": "g1", "channel_id": "ch1", "locale": "en-US",
		"member": map[string]any{"user": map[string]any{"id": "u1", "username": "ada"}, "permissions": "0"},
	}
	for k, v := range fields {
		base[k] = v
	}
	raw, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	var ix discordgo.Interaction
	if err := json.Unmarshal(raw, &ix); err != nil {
		t.Fatalf("decode interaction: %v", err)
	}
	return &ix
}

func dispatch(t *testing.T, router *Router, ix *discordgo.Interaction) *recorder {
	t.Helper()
	rec := &recorder{}
	router.Dispatch(context.Background(), ix, rec)
	return rec
}

// readEmojiMaze turns an emoji grid back into walls (true) and floor.
func readEmojiMaze(t *testing.T, grid string) [][]bool {
	t.Helper()
	var rows [][]bool
	for _, line := range strings.Split(grid, "\n") {
		var row []bool
		for _, r := range line {
			row = append(row, string(r) == render.DefaultTheme.Wall)
		}
		rows = append(rows, row)
	}
	return rows
}

func sameWalls(m *mazecore.Maze, rows [][]bool) error {
	if len(rows) != m.Height() {
		return fmt.Errorf("%d rows, want %d", len(rows), m.Height())
	}
	for y, row := range rows {
		if len(row) != m.Width() {
			return fmt.Errorf("row %d has %d tiles, want %d", y, len(row), m.Width())
		}
		for x, wall := range row {
			if wall != m.Wall(x, y) {
				return fmt.Errorf("tile (%d,%d) wall=%v, maze says %v", x, y, wall, m.Wall(x, y))
			}
		}
	}
	return nil
}

func TestMaze(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		router, posts := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"algorithm": "sidewinder", "size": 21}))
		if len(rec.replies) != 1 {
			t.Fatalf("replies=%d, want 1 (follows %v)", len(rec.replies), rec.follows)
		}
		reply := rec.replies[0]
		header, grid, ok := strings.Cut(reply.Content, "\n")
		if !ok || reply.Ephemeral {
			t.Fatalf("reply %q: want a public header line and a grid", reply.Content)
		}
		id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 12345}
		if !strings.Contains(header, id.String()) {
			t.Fatalf("header %q lacks ID %s", header, id)
		}
		if err := sameWalls(mustMaze(t, id), readEmojiMaze(t, grid)); err != nil {
			t.Fatal(err)
		}
		if len(posts.posts) != 1 || posts.posts[0].MazeID != id.String() || posts.posts[0].ChannelID != "ch1" {
			t.Fatalf("posts=%+v, want one for %s in ch1", posts.posts, id)
		}
	})
	t.Run("OKDefaults", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", nil))
		if len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "Recursive backtracking") || !strings.Contains(rec.replies[0].Content, "21×21") {
			t.Fatalf("bare /maze replied %+v, want a 21×21 backtracking maze", rec.replies)
		}
	})
	t.Run("OKEvenSizeRounded", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"size": 20}))
		if len(rec.replies) != 1 || !strings.Contains(rec.replies[0].Content, "21×21") {
			t.Fatalf("replies=%+v, want a 21×21 maze", rec.replies)
		}
		if len(rec.follows) != 1 || !rec.follows[0].Ephemeral || !strings.Contains(rec.follows[0].Content, "20 was rounded up to 21") {
			t.Fatalf("followups=%+v, want an ephemeral note on rounding", rec.follows)
		}
	})
	t.Run("OKPNG", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"algorithm": "backtracking", "size": 201, "render": "png"}))
		if len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 {
			t.Fatalf("replies=%+v, want one with a PNG", rec.replies)
		}
		img, err := png.Decode(bytes.NewReader(rec.replies[0].Files[0].Data))
		if err != nil {
			t.Fatal(err)
		}
		m := mustMaze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 201, Height: 201, Seed: 12345})
		w, h := render.PNGSize(m, render.PNGScale(m))
		if got := img.Bounds().Size(); got.X != w || got.Y != h {
			t.Fatalf("PNG is %v, want %dx%d", got, w, h)
		}
	})
	t.Run("OKGIF", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 15, "render": "gif"}))
		if len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 || rec.replies[0].Files[0].ContentType != "image/gif" {
			t.Fatalf("replies=%+v, want one with a GIF", rec.replies)
		}
		anim, err := gif.DecodeAll(bytes.NewReader(rec.replies[0].Files[0].Data))
		if err != nil {
			t.Fatal(err)
		}
		if len(anim.Image) < 2 || len(rec.deferred) != 1 {
			t.Fatalf("%d frames, %d deferrals; want an animation, deferred first", len(anim.Image), len(rec.deferred))
		}
	})
	t.Run("OKNoPlayAboveThePlayLimit", func(t *testing.T) {
		router, _ := newTestRouter()
		for size, wantPlay := range map[int]bool{MaxPlaySide: true, MaxPlaySide + 2: false} {
			rec := dispatch(t, router, slash(t, "maze", map[string]any{"size": size, "render": "png"}))
			row := rec.replies[0].Components[0].(discordgo.ActionsRow)
			hasPlay := strings.HasPrefix(row.Components[0].(discordgo.Button).CustomID, playPrefix+":")
			if hasPlay != wantPlay {
				t.Fatalf("size %d: Play button %v, want %v", size, hasPlay, wantPlay)
			}
		}
	})
	t.Run("OKAutoPicksPNGWhenWide", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"size": AutoEmojiMaxWidth + 2}))
		if len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 {
			t.Fatalf("replies=%+v, want a PNG above %d tiles", rec.replies, AutoEmojiMaxWidth)
		}
	})
	t.Run("OKEmoji43", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "maze", map[string]any{"size": 43, "render": "emoji"}))
		if len(rec.replies) != 1 || len([]rune(rec.replies[0].Content)) > MaxContent {
			t.Fatalf("replies=%+v, want one emoji reply within %d code points", rec.replies, MaxContent)
		}
	})
	for name, opts := range map[string]map[string]any{
		"ErrSizeTooSmall":       {"size": 3},
		"ErrSizeTooBig":         {"size": 1003},
		"ErrSizeNegative":       {"size": -21},
		"ErrHeightTooBig":       {"size": 21, "height": 5001},
		"ErrUnknownAlgorithm":   {"algorithm": "prim"},
		"ErrEmojiTooBig":        {"size": 45, "render": "emoji"},
		"ErrUnknownRender":      {"render": "ascii"},
		"ErrSeedOutOfRange":     {"seed": -1},
		"ErrSizeHuge":           {"size": 1 << 40},
		"ErrEvenSizeAboveLimit": {"size": 1002},
		"ErrGIFTooBig":          {"size": 201, "render": "gif"},
	} {
		t.Run(name, func(t *testing.T) {
			router, posts := newTestRouter()
			rec := dispatch(t, router, slash(t, "maze", opts))
			checkRefusal(t, rec)
			if len(posts.posts) != 0 {
				t.Fatalf("a refused /maze recorded a post: %+v", posts.posts)
			}
		})
	}
}

// checkRefusal asserts one ephemeral warning and nothing else.
func checkRefusal(t *testing.T, rec *recorder) string {
	t.Helper()
	if len(rec.replies) != 1 || !rec.replies[0].Ephemeral || !strings.HasPrefix(rec.replies[0].Content, "⚠️") {
		t.Fatalf("replies=%+v, want one ephemeral warning", rec.replies)
	}
	if strings.Contains(rec.replies[0].Content, "something went wrong") {
		t.Fatalf("refusal %q is the generic apology, want what is allowed", rec.replies[0].Content)
	}
	return rec.replies[0].Content
}

func mustMaze(t *testing.T, id mazecore.ID) *mazecore.Maze {
	t.Helper()
	m, err := mazecore.Generate(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSolve(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 15, Seed: 99}
	t.Run("OKWithID", func(t *testing.T) {
		router, _ := newTestRouter()
		rec := dispatch(t, router, slash(t, "solve", map[string]any{"id": id.String()}))
		checkSolution(t, rec, id, false)
	})
	t.Run("OKLastInChannel", func(t *testing.T) {
		router, _ := newTestRouter()
		dispatch(t, router, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 21, "height": 15, "seed": 99}))
		rec := dispatch(t, router, slash(t, "solve", nil))
		checkSolution(t, rec, id, false)
	})
	t.Run("OKPNGSpoiler", func(t *testing.T) {
		router, _ := newTestRouter()
		big := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 101, Height: 101, Seed: 1}
		rec := dispatch(t, router, slash(t, "solve", map[string]any{"id": big.String()}))
		if len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 || !strings.HasPrefix(rec.replies[0].Files[0].Name, "SPOILER_") {
			t.Fatalf("replies=%+v, want a SPOILER_ PNG", rec.replies)
		}
	})
	t.Run("OKButton", func(t *testing.T) {
		router, _ := newTestRouter()
		ix := decodeInteraction(t, map[string]any{"type": discordgo.InteractionMessageComponent, "data": map[string]any{"custom_id": "solve:" + id.String(), "component_type": 2}})
		checkSolution(t, dispatch(t, router, ix), id, true)
	})
	t.Run("OKContextMenu", func(t *testing.T) {
		router, _ := newTestRouter()
		maze := dispatch(t, router, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 21, "height": 15, "seed": 99})).replies[0]
		target := map[string]any{"id": "m1", "channel_id": "ch1", "content": maze.Content, "author": map[string]any{"id": "app", "bot": true}, "components": maze.Components}
		checkSolution(t, dispatch(t, router, messageCommand(t, target)), id, true)
	})
	t.Run("ErrContextMenuNotAMaze", func(t *testing.T) {
		router, _ := newTestRouter()
		for _, target := range []map[string]any{
			{"id": "m1", "channel_id": "ch1", "content": "hello", "author": map[string]any{"id": "app"}},
			{"id": "m1", "channel_id": "ch1", "content": "ID `" + id.String() + "`", "author": map[string]any{"id": "someone-else"}},
		} {
			checkRefusal(t, dispatch(t, router, messageCommand(t, target)))
		}
	})
	t.Run("ErrNoMazeYet", func(t *testing.T) {
		router, _ := newTestRouter()
		if msg := checkRefusal(t, dispatch(t, router, slash(t, "solve", nil))); !strings.Contains(msg, "No maze has been posted") {
			t.Fatalf("refusal %q does not say the channel has no maze", msg)
		}
	})
	for name, text := range map[string]string{"ErrMalformedID": "not-an-id", "ErrTooBig": mazecore.ID{Algorithm: mazecore.Digging, Width: 4001, Height: 21}.String(), "ErrInjection": "`@everyone`"} {
		t.Run(name, func(t *testing.T) {
			router, _ := newTestRouter()
			msg := checkRefusal(t, dispatch(t, router, slash(t, "solve", map[string]any{"id": text})))
			if strings.Contains(msg, "@everyone") {
				t.Fatalf("refusal %q echoes a mention", msg)
			}
		})
	}
}

func messageCommand(t *testing.T, target map[string]any) *discordgo.Interaction {
	return decodeInteraction(t, map[string]any{
		"type": discordgo.InteractionApplicationCommand,
		"data": map[string]any{"id": "c2", "name": solveMessageCommandName, "type": 3, "target_id": "m1",
			"resolved": map[string]any{"messages": map[string]any{"m1": target}}},
	})
}

func checkSolution(t *testing.T, rec *recorder, id mazecore.ID, ephemeral bool) {
	t.Helper()
	if len(rec.replies) != 1 {
		t.Fatalf("replies=%+v, want one", rec.replies)
	}
	reply := rec.replies[0]
	if reply.Ephemeral != ephemeral {
		t.Fatalf("ephemeral=%v, want %v", reply.Ephemeral, ephemeral)
	}
	header, grid, _ := strings.Cut(reply.Content, "\n")
	m := mustMaze(t, id)
	path := mazecore.Solve(m)
	if !strings.Contains(header, id.String()) || !strings.Contains(header, fmt.Sprintf("path %d tiles", len(path))) {
		t.Fatalf("header %q, want ID %s and path length %d", header, id, len(path))
	}
	if !strings.HasPrefix(grid, "||") || !strings.HasSuffix(grid, "||") {
		t.Fatalf("solution grid is not one spoiler: %q", grid)
	}
	onPath := map[mazecore.Point]bool{}
	for _, p := range path {
		onPath[p] = true
	}
	for y, line := range strings.Split(strings.Trim(grid, "|"), "\n") {
		x := 0
		for _, r := range line {
			p := mazecore.Point{X: x, Y: y}
			shown := string(r) == render.DefaultTheme.Path || p == m.Start() || p == m.Goal()
			if shown != onPath[p] {
				t.Fatalf("tile %v shown as path=%v, solver says %v", p, shown, onPath[p])
			}
			x++
		}
	}
}

func TestPanicBecomesApology(t *testing.T) {
	router, _ := newTestRouter()
	router.AddCommand(Command{Definition: &discordgo.ApplicationCommand{Name: "boom", Description: "panics"}, Handle: func(context.Context, *Interaction) error {
		var handlers map[string]Handler
		return handlers["missing"](context.Background(), nil) // calling a nil func: a real runtime panic
	}})
	rec := dispatch(t, router, slash(t, "boom", nil))
	if len(rec.replies) != 1 || !rec.replies[0].Ephemeral || !strings.Contains(rec.replies[0].Content, "Sorry") {
		t.Fatalf("replies=%+v, want an ephemeral apology", rec.replies)
	}
	checkSolution(t, dispatch(t, router, slash(t, "solve", map[string]any{"id": mazecore.ID{Algorithm: mazecore.BinaryTree, Width: 9, Height: 9, Seed: 3}.String()})), mazecore.ID{Algorithm: mazecore.BinaryTree, Width: 9, Height: 9, Seed: 3}, false)
}

func TestInternalErrorIsGeneric(t *testing.T) {
	router, _ := newTestRouter()
	router.AddCommand(Command{Definition: &discordgo.ApplicationCommand{Name: "fail", Description: "fails"}, Handle: func(context.Context, *Interaction) error {
		return errors.New("database password is hunter2")
	}})
	rec := dispatch(t, router, slash(t, "fail", nil))
	if len(rec.replies) != 1 || strings.Contains(rec.replies[0].Content, "hunter2") || !rec.replies[0].Ephemeral {
		t.Fatalf("replies=%+v, want an ephemeral generic message without internal detail", rec.replies)
	}
}

func TestDefinitions(t *testing.T) {
	router, _ := newTestRouter()
	names := map[string]bool{}
	for _, def := range router.Definitions() {
		names[def.Name] = true
		if def.Type != discordgo.MessageApplicationCommand && (len(def.Description) == 0 || len(def.Description) > 100) {
			t.Fatalf("%s: description length %d, want 1..100", def.Name, len(def.Description))
		}
		if len(def.Options) > 25 {
			t.Fatalf("%s: %d options, want ≤ 25", def.Name, len(def.Options))
		}
	}
	for _, want := range []string{"maze", "solve", "help", solveMessageCommandName} {
		if !names[want] {
			t.Fatalf("definitions lack %q", want)
		}
	}
}
