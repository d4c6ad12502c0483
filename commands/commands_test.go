package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/gif"
	"image/png"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

func TestMaze(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, envOptions{path: tempDB(t)})
		rec := e.send(t, slash(t, "maze", map[string]any{"algorithm": "sidewinder", "size": 21, "render": "emoji"}))
		if len(rec.Replies) != 1 {
			t.Fatalf("replies=%d, want 1 (follows %v)", len(rec.Replies), rec.Followups)
		}
		reply := rec.Replies[0]
		header, grid, ok := strings.Cut(reply.Text(), "\n")
		if !ok || reply.Ephemeral {
			t.Fatalf("reply %q: want a public header line and a grid", reply.Text())
		}
		id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 12345}
		if !strings.Contains(header, id.String()) {
			t.Fatalf("header %q lacks ID %s", header, id)
		}
		if err := testkit.CheckGrid(grid, testkit.Maze(t, id), nil); err != nil {
			t.Fatal(err)
		}
		last, err := e.db.LastPost(context.Background(), "ch1")
		if err != nil {
			t.Fatal(err)
		}
		if n := e.postCount(t); n != 1 || last.MazeID != id || last.ChannelID != "ch1" || last.GuildID != "g1" {
			t.Fatalf("%d posts, the last %+v; want one for %s in ch1", n, last, id)
		}
	})
	t.Run("OKDefaults", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", nil))
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "Recursive backtracking") || !strings.Contains(rec.Replies[0].Text(), "21×21") {
			t.Fatalf("bare /maze replied %+v, want a 21×21 backtracking maze", rec.Replies)
		}
	})
	t.Run("OKEvenSizeRounded", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": 20}))
		if len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "21×21") {
			t.Fatalf("replies=%+v, want a 21×21 maze", rec.Replies)
		}
		if len(rec.Followups) != 1 || !rec.Followups[0].Ephemeral || !strings.Contains(rec.Followups[0].Text(), "20 was rounded up to 21") {
			t.Fatalf("followups=%+v, want an ephemeral note on rounding", rec.Followups)
		}
	})
	t.Run("OKPNG", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"algorithm": "backtracking", "size": 201, "render": "png"}))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 {
			t.Fatalf("replies=%+v, want one with a PNG", rec.Replies)
		}
		img, err := png.Decode(bytes.NewReader(rec.Replies[0].Files[0].Data))
		if err != nil {
			t.Fatal(err)
		}
		m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 201, Height: 201, Seed: 12345})
		w, h := render.PNGSize(m, render.PNGScale(m))
		if got := img.Bounds().Size(); got.X != w || got.Y != h {
			t.Fatalf("PNG is %v, want %dx%d", got, w, h)
		}
	})
	// A GIF costs by its tiles and frames, not by its format: a small
	// one comes at once, a big one is deferred first (issue 16 row 4).
	t.Run("OKGIF", func(t *testing.T) {
		for size, deferrals := range map[int]int{15: 0, 51: 1} {
			e := newEnv(t, envOptions{})
			rec := e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": size, "render": "gif"}))
			if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 || rec.Replies[0].Files[0].ContentType != "image/gif" {
				t.Fatalf("%d: replies=%+v, want one with a GIF", size, rec.Replies)
			}
			anim, err := gif.DecodeAll(bytes.NewReader(rec.Replies[0].Files[0].Data))
			if err != nil {
				t.Fatal(err)
			}
			if len(anim.Image) < 2 || len(rec.Deferred) != deferrals {
				t.Fatalf("%d×%d: %d frames, %d deferrals; want an animation, %d deferrals", size, size, len(anim.Image), len(rec.Deferred), deferrals)
			}
		}
	})
	t.Run("OKNoPlayAboveThePlayLimit", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		for size, wantPlay := range map[int]bool{play.MaxSide: true, play.MaxSide + 2: false} {
			rec := e.send(t, slash(t, "maze", map[string]any{"size": size, "render": "png"}))
			first := buttons(rec.Replies[0])[0]
			hasPlay := strings.HasPrefix(first.CustomID, customid.PlayPrefix+":")
			if hasPlay != wantPlay {
				t.Fatalf("size %d: Play button %v, want %v", size, hasPlay, wantPlay)
			}
			// Too big to play says so, and offers Play on a smaller one.
			if !wantPlay {
				if !strings.Contains(rec.Replies[0].Text(), "too big to play") {
					t.Fatalf("size %d: %q does not say why there is no Play", size, rec.Replies[0].Text())
				}
				b := first
				game := only(t, e.press(t, b.CustomID, "u1"))
				if got := idInReply(t, game); got.Width != play.MaxSide || got.Height != play.MaxSide || !strings.Contains(b.Label, "201×201") {
					t.Fatalf("size %d: %q started a game on %v, want a 201×201 one", size, b.Label, got)
				}
			}
		}
	})
	t.Run("OKAutoPicksPNGWhenWide", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": views.AutoEmojiMaxWidth + 2}))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 {
			t.Fatalf("replies=%+v, want a PNG above %d tiles", rec.Replies, views.AutoEmojiMaxWidth)
		}
	})
	t.Run("OKEmoji43", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": 43, "render": "emoji"}))
		if len(rec.Replies) != 1 || len([]rune(rec.Replies[0].Text())) > views.MaxText {
			t.Fatalf("replies=%+v, want one emoji reply within %d code points", rec.Replies, views.MaxText)
		}
	})
	for name, opts := range map[string]map[string]any{
		"ErrSizeTooSmall":       {"size": 3},
		"ErrSizeTooBig":         {"size": 1003},
		"ErrSizeNegative":       {"size": -21},
		"ErrHeightTooBig":       {"size": 21, "height": 5001},
		"ErrUnknownAlgorithm":   {"algorithm": "prim"},
		"ErrEmojiTooBig":        {"size": views.MaxEmojiSide + 2, "render": "emoji"},
		"ErrUnknownRender":      {"render": "ascii"},
		"ErrSeedOutOfRange":     {"seed": -1},
		"ErrSizeHuge":           {"size": 1 << 40},
		"ErrEvenSizeAboveLimit": {"size": 1002},
		"ErrGIFTooBig":          {"size": 201, "render": "gif"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{path: tempDB(t)})
			checkRefusal(t, e.send(t, slash(t, "maze", opts)))
			if n := e.postCount(t); n != 0 {
				t.Fatalf("a refused /maze recorded %d posts", n)
			}
		})
	}
}

// TestMazeDifficulty: /maze difficulty and loops make the maze their ID
// names, and the header rates it and gives its par.
func TestMazeDifficulty(t *testing.T) {
	t.Run("OKHeader", func(t *testing.T) {
		m := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 12345})
		if got, want := views.Header(lang.English, describe(m)), "🧩 **Sidewinder** · 21×21 · ★☆☆☆☆ · par 11 · ID `2840heb0dw`"; got != want {
			t.Fatalf("header=%q, want %q", got, want)
		}
		loops := testkit.Maze(t, mazecore.ID{Algorithm: mazecore.Digging, Width: 43, Height: 43, Seed: 12345, Loops: 100})
		if got, want := views.Header(lang.English, describe(loops)), "🧩 **Digging** · 43×43 · loops 100% · ★★☆☆☆ · par 18 · ID `4g9h7eb0cjpg`"; got != want {
			t.Fatalf("header=%q, want %q", got, want)
		}
	})
	t.Run("OKHard", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": 41, "difficulty": "hard", "seed": 7}))
		if len(rec.Replies) != 1 || len(rec.Deferred) != 0 {
			t.Fatalf("replies=%+v deferred=%v, want one answer, not deferred", rec.Replies, rec.Deferred)
		}
		want, err := mazecore.Choose(mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 7}, mazecore.Hard)
		if err != nil {
			t.Fatal(err)
		}
		if got := idInReply(t, rec.Replies[0]); got != want || got.Seed == 7 {
			t.Fatalf("maze %+v, want the hard one %+v (not the base seed)", got, want)
		}
		m := testkit.Maze(t, want)
		header := fmt.Sprintf(" · %s · par %d · ID `%s`", views.Stars(mazecore.Rate(m).Rating), play.Par(m), want)
		if !strings.Contains(rec.Replies[0].Text(), header) {
			t.Fatalf("reply %q lacks %q", rec.Replies[0].Text(), header)
		}
		// The easy one is another maze, and easier.
		easy := idInReply(t, e.send(t, slash(t, "maze", map[string]any{"size": 41, "difficulty": "easy", "seed": 7})).Replies[0])
		if easy == want || mazecore.Rate(testkit.Maze(t, easy)).Score >= mazecore.Rate(m).Score {
			t.Fatalf("easy %v is not an easier maze than hard %v", easy, want)
		}
	})
	t.Run("OKLoops", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 21, "loops": 30, "render": "emoji"}))
		id := mazecore.ID{Algorithm: mazecore.Digging, Width: 21, Height: 21, Seed: 12345, Loops: 30}
		if got := idInReply(t, rec.Replies[0]); got != id {
			t.Fatalf("maze %+v, want %+v", got, id)
		}
		header, grid, _ := strings.Cut(rec.Replies[0].Text(), "\n")
		if !strings.Contains(header, " · loops 30% · ") {
			t.Fatalf("header %q does not say loops 30%%", header)
		}
		if err := testkit.CheckGrid(grid, testkit.Maze(t, id), nil); err != nil {
			t.Fatal(err)
		}
		// "Solve this maze" reads the ID back from the new header.
		checkSolution(t, e.send(t, messageCommand(t, botMessage(rec.Replies[0]))), id, true)
	})
	t.Run("OKAnyAboveTheDifficultyLimit", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": views.DifficultyMaxSide + 2, "difficulty": "any", "loops": 10, "render": "png"}))
		if len(rec.Replies) != 1 || rec.Replies[0].Ephemeral || len(rec.Replies[0].Files) != 1 {
			t.Fatalf("replies=%+v, want a public PNG", rec.Replies)
		}
		// Rated, but no par: Play does not take it.
		if header := rec.Replies[0].Text(); !strings.Contains(header, "★") || strings.Contains(header, "par ") {
			t.Fatalf("header %q, want stars and no par above %d", header, play.MaxSide)
		}
	})
	t.Run("OKDailiesAndEventsWithinTheLimit", func(t *testing.T) {
		// Their handlers choose without a size check of their own.
		if contest.DailyMaxSize > views.DifficultyMaxSide || contest.EventMaxSide > views.DifficultyMaxSide {
			t.Fatalf("dailies (%d) or events (%d) go above views.DifficultyMaxSide (%d)", contest.DailyMaxSize, contest.EventMaxSide, views.DifficultyMaxSide)
		}
	})
	t.Run("OKEmoji43Longest", func(t *testing.T) {
		// The longest header (title, loops, a 64-bit seed) still leaves
		// room for a 43×43 emoji grid.
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "maze", map[string]any{"size": 43, "render": "emoji", "loops": 100, "seed": maxSeed}))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 0 || utf8.RuneCountInString(rec.Replies[0].Text()) > views.MaxText {
			t.Fatalf("replies=%+v, want one emoji grid within %d code points", rec.Replies, views.MaxText)
		}
	})
	for name, tc := range map[string]struct {
		opts map[string]any
		want string
	}{
		"ErrUnknownDifficulty": {map[string]any{"difficulty": "impossible"}, "Unknown difficulty `impossible`: choose easy, medium, hard, any."},
		"ErrDifficultyEchoed":  {map[string]any{"difficulty": "`@everyone` " + strings.Repeat("x", 100)}, "`'＠everyone' " + strings.Repeat("x", 28) + "…`: choose"}, // 40 characters at most
		"ErrLoopsAbove100":     {map[string]any{"loops": 101}, "from 0 (a perfect maze) to 100 (no dead ends). You asked for 101."},
		"ErrLoopsNegative":     {map[string]any{"loops": -1}, "You asked for -1."},
		"ErrDifficultyTooBig":  {map[string]any{"size": 41, "height": views.DifficultyMaxSide + 2, "difficulty": "hard"}, "up to 201×201 tiles (it compares 32 mazes, too slow beyond); you asked for 41×203"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{path: tempDB(t)})
			msg := checkRefusal(t, e.send(t, slash(t, "maze", tc.opts)))
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "@everyone") {
				t.Fatalf("refusal %q, want it to say %q (and never echo a mention)", msg, tc.want)
			}
			if n := e.postCount(t); n != 0 {
				t.Fatalf("a refused /maze recorded %d posts", n)
			}
		})
	}
}

func TestSolve(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Digging, Width: 9, Height: 15, Seed: 99}
	t.Run("OKWithID", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, slash(t, "solve", map[string]any{"id": id.String()}))
		checkSolution(t, rec, id, false)
	})
	t.Run("OKLastInChannel", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 9, "height": 15, "seed": 99}))
		rec := e.send(t, slash(t, "solve", nil))
		checkSolution(t, rec, id, false)
	})
	t.Run("OKPNGSpoiler", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		big := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 101, Height: 101, Seed: 1}
		rec := e.send(t, slash(t, "solve", map[string]any{"id": big.String()}))
		if len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 || !strings.HasPrefix(rec.Replies[0].Files[0].Name, "SPOILER_") {
			t.Fatalf("replies=%+v, want a SPOILER_ PNG", rec.Replies)
		}
	})
	t.Run("OKButton", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		checkSolution(t, e.press(t, "solve:"+id.String(), "u1"), id, true)
	})
	t.Run("OKContextMenu", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		maze := e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 9, "height": 15, "seed": 99})).Replies[0]
		checkSolution(t, e.send(t, messageCommand(t, botMessage(maze))), id, true)
	})
	t.Run("ErrContextMenuNotAMaze", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		for _, target := range []map[string]any{
			{"id": "m1", "channel_id": "ch1", "content": "hello", "author": map[string]any{"id": "app"}},
			{"id": "m1", "channel_id": "ch1", "content": "ID `" + id.String() + "`", "author": map[string]any{"id": "someone-else"}},
		} {
			checkRefusal(t, e.send(t, messageCommand(t, target)))
		}
	})
	t.Run("ErrNoMazeYet", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		if msg := checkRefusal(t, e.send(t, slash(t, "solve", nil))); !strings.Contains(msg, "No maze has been posted") {
			t.Fatalf("refusal %q does not say the channel has no maze", msg)
		}
	})
	for name, text := range map[string]string{"ErrMalformedID": "not-an-id", "ErrTooBig": mazecore.ID{Algorithm: mazecore.Digging, Width: 4001, Height: 21}.String(), "ErrInjection": "`@everyone`"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			msg := checkRefusal(t, e.send(t, slash(t, "solve", map[string]any{"id": text})))
			if strings.Contains(msg, "@everyone") {
				t.Fatalf("refusal %q echoes a mention", msg)
			}
		})
	}
}

func TestPanicBecomesApology(t *testing.T) {
	boom := bot.Command{Definition: &discordgo.ApplicationCommand{Name: "boom", Description: "panics"}, Handle: func(context.Context, *bot.Interaction) error {
		var handlers map[string]bot.Handler
		return handlers["missing"](context.Background(), nil) // calling a nil func: a real runtime panic
	}}
	e := newEnv(t, envOptions{extra: []bot.Feature{testCommands{boom}}})
	rec := e.send(t, slash(t, "boom", nil))
	if len(rec.Replies) != 1 || !rec.Replies[0].Ephemeral || !strings.Contains(rec.Replies[0].Text(), "Sorry") {
		t.Fatalf("replies=%+v, want an ephemeral apology", rec.Replies)
	}
	// The router still works after the panic.
	id := mazecore.ID{Algorithm: mazecore.BinaryTree, Width: 9, Height: 9, Seed: 3}
	checkSolution(t, e.send(t, slash(t, "solve", map[string]any{"id": id.String()})), id, false)
}

func TestInternalErrorIsGeneric(t *testing.T) {
	fail := bot.Command{Definition: &discordgo.ApplicationCommand{Name: "fail", Description: "fails"}, Handle: func(context.Context, *bot.Interaction) error {
		return errors.New("database password is hunter2")
	}}
	e := newEnv(t, envOptions{extra: []bot.Feature{testCommands{fail}}})
	rec := e.send(t, slash(t, "fail", nil))
	if len(rec.Replies) != 1 || strings.Contains(rec.Replies[0].Text(), "hunter2") || !rec.Replies[0].Ephemeral {
		t.Fatalf("replies=%+v, want an ephemeral generic message without internal detail", rec.Replies)
	}
}

func TestDefinitions(t *testing.T) {
	e := newEnv(t, envOptions{})
	names := map[string]bool{}
	for _, def := range e.router.Definitions() {
		names[def.Name] = true
		if def.Type != discordgo.MessageApplicationCommand && (len(def.Description) == 0 || len(def.Description) > 100) {
			t.Fatalf("%s: description length %d, want 1..100", def.Name, len(def.Description))
		}
		if len(def.Options) > 25 {
			t.Fatalf("%s: %d options, want ≤ 25", def.Name, len(def.Options))
		}
	}
	for _, want := range []string{"maze", "solve", "help", solveMessageCommandName, "daily", "leaderboard", "event", "profile"} {
		if !names[want] {
			t.Fatalf("definitions lack %q", want)
		}
	}
}

// TestDescriptionsNameTheLimits: the English of the definitions lives in
// the catalog, once; where a description names a limit the code enforces,
// it names the code's.
func TestDescriptionsNameTheLimits(t *testing.T) {
	defs := map[string]*discordgo.ApplicationCommand{}
	for _, def := range newEnv(t, envOptions{}).router.Definitions() {
		defs[def.Name] = def
	}
	option := func(path ...string) *discordgo.ApplicationCommandOption {
		t.Helper()
		opts := defs[path[0]].Options
		var found *discordgo.ApplicationCommandOption
		for _, name := range path[1:] {
			found = nil
			for _, o := range opts {
				if o.Name == name {
					found = o
				}
			}
			if found == nil {
				t.Fatalf("no option %v", path)
			}
			opts = found.Options
		}
		return found
	}
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"maze", "size"}, fmt.Sprintf("%d–%d (default %d)", mazecore.MinSize, views.PNGMaxSide, defaultSize)},
		{[]string{"maze", "difficulty"}, fmt.Sprintf("up to %d×%d", views.DifficultyMaxSide, views.DifficultyMaxSide)},
		{[]string{"maze", "loops"}, fmt.Sprintf("0–%d", mazecore.MaxLoops)},
		{[]string{"daily", "setup", "size"}, fmt.Sprintf("%d–%d (default %d)", mazecore.MinSize, contest.DailyMaxSize, defaultSize)},
		{[]string{"event", "start", "size"}, fmt.Sprintf("%d–%d", mazecore.MinSize, contest.EventMaxSide)},
	} {
		o := option(tc.path...)
		if !strings.Contains(o.Description, tc.want) {
			t.Errorf("%v: description %q does not say %q", tc.path, o.Description, tc.want)
		}
		if max := int(o.MaxValue); o.Type == discordgo.ApplicationCommandOptionInteger && !strings.Contains(o.Description, fmt.Sprint(max)) {
			t.Errorf("%v: description %q does not name the maximum %d", tc.path, o.Description, max)
		}
	}
}

// TestHelpQuickStart: /help starts with three examples and buttons that
// try them, privately; in a DM, no daily (issue 18 item 6).
func TestHelpQuickStart(t *testing.T) {
	e := newEnv(t, envOptions{})
	help := only(t, e.send(t, slash(t, "help", nil)))
	if !help.Ephemeral || !strings.Contains(help.Text(), "Start here") {
		t.Fatalf("/help: %+v", help)
	}
	bs := buttons(help)
	if len(bs) != 3 {
		t.Fatalf("/help buttons %+v, want three examples", bs)
	}
	card := only(t, e.press(t, bs[0].CustomID, "u1"))
	if !card.Ephemeral || !strings.Contains(card.Text(), "21×21") || !hasButtons(card, customid.PlayPrefix, customid.SolvePrefix, customid.RacePrefix, customid.PrintPrefix) {
		t.Fatalf("the maze example: %+v, want a private 21×21 card with Play, Solve, Race and Print", card)
	}
	game := only(t, e.press(t, bs[1].CustomID, "u1"))
	if !game.Ephemeral || gameIDOf(t, game) == 0 {
		t.Fatalf("the play example: %+v, want a private game", game)
	}
	if daily := only(t, e.press(t, bs[2].CustomID, "u1")); !daily.Ephemeral || !strings.Contains(daily.Text(), "Daily challenge") {
		t.Fatalf("the daily example: %+v", daily)
	}
	if dm := only(t, e.send(t, dmIx(t, "help", nil))); len(buttons(dm)) != 2 {
		t.Fatalf("/help in a DM offers %+v, want no daily", buttons(dm))
	}
}

// TestSolveIDAutocomplete: /solve's id is completed from the mazes posted
// in the channel, newest first, each once, matching what is typed
// (issue 18 item 4); what it offers, /solve takes.
func TestSolveIDAutocomplete(t *testing.T) {
	e := newEnv(t, envOptions{})
	var ids []mazecore.ID
	for seed := range 3 {
		rec := e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 9, "seed": seed + 1}))
		ids = append(ids, idInReply(t, rec.Replies[0]))
	}
	e.send(t, slash(t, "maze", map[string]any{"algorithm": "digging", "size": 9, "seed": 2})) // the second again
	complete := func(typed string) []*discordgo.ApplicationCommandOptionChoice {
		t.Helper()
		ix := decodeInteraction(t, map[string]any{
			"type": discordgo.InteractionApplicationCommandAutocomplete,
			"data": map[string]any{"id": "c-solve", "name": "solve", "type": 1, "options": []map[string]any{
				{"name": "id", "type": discordgo.ApplicationCommandOptionString, "value": typed, "focused": true},
			}},
		})
		rec := e.send(t, ix)
		if len(rec.Completions) != 1 || len(rec.Replies) != 0 {
			t.Fatalf("%q: choices %v, replies %+v; want one answer of choices", typed, rec.Completions, rec.Replies)
		}
		return rec.Completions[0]
	}
	var got []string
	for _, c := range complete("") {
		got = append(got, c.Value.(string))
		if !strings.HasPrefix(c.Name, "Digging 9×9 · ") {
			t.Fatalf("choice named %q, want the maze's algorithm and size", c.Name)
		}
	}
	if want := []string{ids[1].String(), ids[2].String(), ids[0].String()}; !slices.Equal(got, want) {
		t.Fatalf("choices %q, want the channel's mazes newest first, each once: %q", got, want)
	}
	typed := strings.ToUpper(ids[0].String()[len(ids[0].String())-4:])
	if c := complete(typed); len(c) != 1 || c[0].Value != ids[0].String() {
		t.Fatalf("typed %q: choices %+v, want only %s", typed, c, ids[0])
	}
	checkSolution(t, e.send(t, slash(t, "solve", map[string]any{"id": complete("")[2].Value})), ids[0], false)
}
