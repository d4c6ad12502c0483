package commands

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// The golden files pin the texts of the main messages in every language,
// one plain-text file per message and language under testdata/golden, so
// that a reader of the language can review them as members see them:
// emoji grids are left out (a "[maze]" line marks where one stands), and
// buttons and embeds are written out as lines. Refresh them with
// `go test ./commands -run TestGolden -update` and read the diff.

// goldenText writes a reply as plain text: its texts without the grid, a
// card's pictures by their alt text, its embeds (title, description,
// fields, footer) and its buttons.
func goldenText(r bot.Reply) string {
	var lines []string
	if r.V2 {
		lines = append(lines, "[card]")
	}
	grid := false
	for _, line := range strings.Split(r.Text(), "\n") {
		if line != "" && !strings.ContainsFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			if !grid {
				lines = append(lines, "[maze]")
			}
			grid = true
			continue
		}
		grid = false
		lines = append(lines, line)
	}
	bot.Walk(r.Components, func(c discordgo.MessageComponent) {
		if g, ok := c.(discordgo.MediaGallery); ok {
			for _, item := range g.Items {
				alt := "(no alt text)"
				if item.Description != nil {
					alt = *item.Description
				}
				lines = append(lines, "[picture] "+alt)
			}
		}
	})
	for _, em := range r.Embeds {
		lines = append(lines, "[embed] "+em.Title, em.Description)
		for _, f := range em.Fields {
			lines = append(lines, "[field] "+f.Name+": "+f.Value)
		}
		if em.Footer != nil {
			lines = append(lines, "[footer] "+em.Footer.Text)
		}
	}
	var labels []string
	for _, b := range buttons(r) {
		label := b.Label
		if b.Emoji != nil {
			label = strings.TrimSpace(b.Emoji.Name + " " + label)
		}
		labels = append(labels, label)
	}
	if len(labels) > 0 {
		lines = append(lines, "[buttons] "+strings.Join(labels, " | "))
	}
	return strings.TrimLeft(strings.Join(lines, "\n"), "\n") + "\n"
}

// checkGolden compares text with testdata/golden/<name>.<language>.txt, or
// writes it there with -update.
func checkGolden(t *testing.T, name string, l *lang.Lang, text string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+"."+l.Code()+".txt")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./commands -run TestGolden -update)", err)
	}
	if !bytes.Equal(want, []byte(text)) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s", path, text, want)
	}
}

// thousandTiles is how each language writes 1234 tiles on a board (CLDR:
// German and Portuguese group by a point, French by a narrow no-break
// space, Spanish not below 10 000).
var thousandTiles = map[string]string{
	"en": "1,234 tiles", "ko": "1,234칸", "es": "1234 casillas", "pt-BR": "1.234 casas",
	"ja": "1,234マス", "de": "1.234 Felder", "fr": "1\u202f234 cases",
}

// TestGolden plays the main messages through the commands in each language:
// the member's for replies, the server's for posts.
func TestGolden(t *testing.T) {
	for _, l := range lang.Languages() {
		t.Run(l.Code(), func(t *testing.T) {
			goldenMessages(t, l)
		})
	}
}

func goldenMessages(t *testing.T, l *lang.Lang) {
	locale := string(l.Locales()[0])
	in := func(ix *discordgo.Interaction) *discordgo.Interaction { return localized(ix, locale, locale) }
	only := func(rec *recorder) bot.Reply {
		t.Helper()
		if len(rec.Replies) != 1 {
			t.Fatalf("replies=%+v, want one", rec.Replies)
		}
		return rec.Replies[0]
	}

	// A maze, played to the goal, and one given up after a click.
	e := newEnv(t, envOptions{now: utc(2026, 11, 30, 0, 0), locale: locale})
	maze := only(e.send(t, in(slash(t, "maze", map[string]any{"algorithm": "sidewinder", "size": 21, "seed": 1, "loops": 30}))))
	header, _, _ := strings.Cut(maze.Text(), "\n")
	checkGolden(t, "maze_header", l, header+"\n")
	id := idInReply(t, maze)

	game := only(e.send(t, in(buttonIx(t, "ch1", customid.PlayPrefix+":"+id.String(), "u1"))))
	g := e.game(t, gameIDOf(t, game))
	won, _ := e.win(t, game, g, 2*time.Second, nil)
	checkGolden(t, "game_won", l, goldenText(won))

	game = only(e.send(t, in(buttonIx(t, "ch1", customid.PlayPrefix+":"+id.String(), "u2"))))
	for _, b := range buttons(game) {
		if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && strings.Contains("nesw", parts[3]) && !b.Disabled {
			game = onlyUpdate(t, e.send(t, in(buttonIx(t, "ch1", b.CustomID, "u2"))))
			break
		}
	}
	gaveUp := onlyUpdate(t, e.send(t, in(buttonIx(t, "ch1", button(t, game, customid.GiveUp).CustomID, "u2"))))
	checkGolden(t, "game_gave_up", l, goldenText(gaveUp))

	// A game on a maze too big to show whole: the position hint and Map.
	big := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 41, Height: 41, Seed: 3}
	windowed := only(e.send(t, in(buttonIx(t, "ch1", customid.PlayPrefix+":"+big.String(), "u1"))))
	checkGolden(t, "game_windowed", l, goldenText(windowed))

	// The daily: set up in this language's server, posted by the scheduler,
	// won by a member with a streak of two, on the leaderboard.
	e = newEnv(t, envOptions{now: utc(2026, 11, 28, 23, 0), locale: locale})
	setup := only(e.send(t, in(dailySlash(t, permsManager, "setup", map[string]any{"channel": "daily-ch", "time": "09:00", "timezone": "Asia/Seoul"}))))
	checkGolden(t, "daily_setup", l, goldenText(setup))
	e.clock.Set(utc(2026, 11, 29, 3, 0))
	yesterday, _ := e.today(t)
	e.play(t, "ch1", yesterday, "u1", 3*time.Second)
	e.clock.Set(utc(2026, 11, 30, 0, 0))
	e.tick(t)
	posts := e.poster.in("daily-ch")
	if len(posts) != 1 {
		t.Fatalf("daily posts %+v, want today's", posts)
	}
	checkGolden(t, "daily_post", l, goldenText(posts[0].reply))
	e.addDailyRun(t, "u2", "2026-11-30", 95*time.Second, 61)
	today := idInReply(t, posts[0].reply)
	game = only(e.send(t, in(buttonIx(t, "daily-ch", customid.PlayPrefix+":"+today.String(), "u1"))))
	dailyWon, _ := e.win(t, game, e.game(t, gameIDOf(t, game)), 2*time.Second, nil)
	checkGolden(t, "daily_won", l, goldenText(dailyWon))
	// The share lines of other runs: over and under par, no streak yet.
	var shares []string
	for _, sh := range []views.Share{
		{Number: 334, Rating: 3, Elapsed: 102*time.Second + 400*time.Millisecond, Clicks: 11, Par: 9, Streak: 4},
		{Number: 12, Rating: 1, Elapsed: 61 * time.Second, Clicks: 8, Par: 9, Streak: 1},
		{Number: 5, Rating: 5, Elapsed: time.Hour + 2*time.Minute + 5*time.Second, Clicks: 10, Par: 9},
	} {
		shares = append(shares, sh.Line(l), sh.Text(l))
	}
	checkGolden(t, "share", l, strings.Join(shares, "\n")+"\n")
	// A long wander, so that the board writes a number with thousands.
	e.addDailyRun(t, "u3", "2026-11-30", 3*time.Minute+2*time.Second, 1234)
	for _, period := range []string{periodDaily, periodWeek} {
		board := only(e.send(t, in(slash(t, "leaderboard", map[string]any{"period": period}))))
		checkGolden(t, "leaderboard_"+period, l, goldenText(board))
		if want := thousandTiles[l.Code()]; period == periodDaily && !strings.Contains(goldenText(board), want) {
			t.Errorf("the day's board does not write 1234 tiles as %q:\n%s", want, goldenText(board))
		}
	}

	// A few refusals, the running daily's solution among them.
	var refusals []string
	for _, ix := range []*discordgo.Interaction{
		slash(t, "maze", map[string]any{"size": 1003}),
		slash(t, "solve", map[string]any{"id": "hello-world"}),
		slash(t, "solve", map[string]any{"id": today.String()}),
		dailySlash(t, permsMember, "off", nil),
		eventCommandIx(t, "start", map[string]any{"algorithm": "digging", "size": 15, "duration": "8d"}, eventManager, eventManagePerms),
	} {
		refusals = append(refusals, checkRefusal(t, e.send(t, in(ix))))
	}
	checkGolden(t, "refusals", l, strings.Join(refusals, "\n")+"\n")

	// The archive: the list of past days, yesterday's daily played
	// unranked by a member who missed it, its refusals; a profile.
	archive := only(e.send(t, in(dailySlash(t, permsMember, "archive", nil))))
	checkGolden(t, "archive_list", l, goldenText(archive))
	past := only(e.send(t, in(subcommandIx(t, "daily", "archive", map[string]any{"date": "2026-11-29"}, "u4", permsMember))))
	checkGolden(t, "archive_day", l, goldenText(past))
	game = only(e.send(t, in(buttonIx(t, "ch1", customid.ArchivePlay("2026-11-29"), "u4"))))
	archiveWon, _ := e.win(t, game, e.game(t, gameIDOf(t, game)), 2*time.Second, nil)
	checkGolden(t, "archive_won", l, goldenText(archiveWon))
	refusals = nil
	for _, date := range []string{"2026-11-28", "2026-11-30", "2026-12-01", "29/11/2026"} {
		refusals = append(refusals, checkRefusal(t, e.send(t, in(dailySlash(t, permsMember, "archive", map[string]any{"date": date})))))
	}
	checkGolden(t, "archive_refusals", l, strings.Join(refusals, "\n")+"\n")
	profile := only(e.send(t, in(slash(t, "profile", nil))))
	checkGolden(t, "profile", l, goldenText(profile))

	// An event: started, two finishers, ended by its time.
	opts := eventEnv()
	opts.locale = locale
	e = newEnv(t, opts)
	started := only(e.send(t, in(eventCommandIx(t, "start", map[string]any{"algorithm": "sidewinder", "size": eventSide, "duration": "1h30m", "difficulty": "hard"}, eventManager, eventManagePerms))))
	checkGolden(t, "event_started", l, goldenText(started))
	ev, err := e.db.RunningEvent(context.Background(), eventCh)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "event_maze", l, goldenText(e.poster.message(ev.MazeMessageID).reply))
	for i, user := range []string{"u1", "u2"} {
		game := only(e.send(t, in(buttonIx(t, eventCh, customid.PlayPrefix+":"+ev.MazeID.String(), user))))
		won, _ := e.win(t, game, e.game(t, gameIDOf(t, game)), time.Duration(i+2)*time.Second+300*time.Millisecond, nil)
		if i == 0 {
			checkGolden(t, "event_won", l, goldenText(won))
		}
	}
	e.clock.Advance(contest.BoardEditInterval)
	e.tick(t)
	checkGolden(t, "event_board", l, goldenText(e.board(ev).current()))
	e.clock.Set(ev.EndsAt.Add(time.Second))
	e.tick(t)
	var results bot.Reply
	for _, p := range e.poster.in(eventCh) {
		if strings.HasPrefix(p.reply.Text(), "🏁") {
			results = p.reply
		}
	}
	checkGolden(t, "event_results", l, goldenText(results))
	checkGolden(t, "event_board_final", l, goldenText(e.board(ev).current()))

	help := only(e.send(t, in(slash(t, "help", nil))))
	checkGolden(t, "help", l, goldenText(help))

}
