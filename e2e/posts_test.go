package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/fakediscord"
	"mazebot/mazecore"
)

// dailyChannel is where the tests of the daily post expect it.
const dailyChannel = "1300000000000000777"

// postRoute is the route of a channel's message creates.
func postRoute(channel string) string { return "POST /channels/" + channel + "/messages" }

// setUpDaily turns on the default server's daily, posted at 09:00 UTC in
// dailyChannel, straight in the store of app.
func setUpDaily(t *testing.T, app *testApp, since time.Time) {
	t.Helper()
	s := contest.DailySettings{GuildID: fakediscord.DefaultGuildID, ChannelID: dailyChannel, PostAt: 9 * 60, Zone: time.UTC,
		Algorithm: mazecore.Backtracking, Size: 21, Enabled: true, UpdatedAt: since}
	if err := dbOf(app).saveDailySettings(testContext(t), s); err != nil {
		t.Fatal(err)
	}
}

// TestE2EDailyPostFaults: the daily post survives a 5xx before or after
// Discord made it: one message, posted within a tick or two of the
// failure, each attempt with the day's nonce.
func TestE2EDailyPostFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault fakediscord.Fault
	}{
		// discordgo retries a 502 by itself, with the same body.
		{"OK502After", fakediscord.Fault{Status: 502, After: true}},
		{"OK500After", fakediscord.Fault{Status: 500, After: true}},
		{"OK500Before", fakediscord.Fault{Status: 500}},
		{"OKDropped", fakediscord.Fault{Drop: true, After: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			clock := fake.useClock(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC))
			app := fake.startApp(t)
			ctx := testContext(t)
			setUpDaily(t, app, clock.Now())
			fake.InjectFault(postRoute(dailyChannel), 1, tc.fault)
			clock.Set(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
			_ = app.Tick(ctx) // fails, or not (a 502 discordgo retried)
			for range 2 {     // the ticks of the next 30 s
				clock.Advance(contest.RetryAfter)
				if err := app.Tick(ctx); err != nil {
					t.Fatalf("tick after the fault: %v", err)
				}
			}
			// The bot's own tick, at its start, may be the one that made
			// the post, finishing after these returned: wait for it.
			waitFor(t, "the daily recorded as posted", func() bool {
				p, err := dbOf(app).dailyPost(ctx, fakediscord.DefaultGuildID, contest.MakeDate(2026, 11, 30))
				return err == nil && p.State == contest.Posted
			})
			if n := fake.MessagesCreated(dailyChannel); n != 1 {
				t.Fatalf("%d daily messages, want 1", n)
			}
			p, err := dbOf(app).dailyPost(ctx, fakediscord.DefaultGuildID, contest.MakeDate(2026, 11, 30))
			if err != nil || p.State != contest.Posted || p.MessageID != fake.ChannelMessages(dailyChannel)[0].ID {
				t.Fatalf("daily post %+v (%v), want recorded as posted with its message", p, err)
			}
			fake.checkNonces(t, dailyChannel)
		})
	}
}

// checkNonces: every post of the bot in channel carried a nonce of at
// most 25 characters.
func (d *discord) checkNonces(t *testing.T, channel string) {
	t.Helper()
	for _, m := range d.ChannelMessages(channel) {
		if m.InteractionID == "" && (m.Nonce == "" || len(m.Nonce) > fakediscord.MaxNonce) {
			t.Fatalf("message %s was posted with nonce %q, want one of at most %d characters", m.ID, m.Nonce, fakediscord.MaxNonce)
		}
	}
}

// TestE2EEventResultsFault: the results post fails after /event end: the
// manager is told the event ended (it did), and a tick within 30 s posts
// the results, the solution, the final board and the maze's Solve button,
// each once.
func TestE2EEventResultsFault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault fakediscord.Fault
	}{
		{"OK500Before", fakediscord.Fault{Status: 500}},
		{"OK500After", fakediscord.Fault{Status: 500, After: true}},
		{"OK502After", fakediscord.Fault{Status: 502, After: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			clock := fake.useClock(time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC))
			app := fake.startApp(t)
			ctx := testContext(t)
			mazeMsg, board := fake.startE2EEvent(t, "Fault race")
			fake.InjectFault(postRoute(fakediscord.DefaultChannelID), 1, tc.fault)
			ended := final(t, fake.eventSlash(t, e2eManagePerms, "end"))
			if !ended.Ephemeral() || !strings.Contains(ended.Text(), "**Fault race** ended") || strings.Contains(ended.Text(), "wrong") {
				t.Fatalf("/event end answered %q, want that the event ended", ended.Text())
			}
			for range 2 {
				clock.Advance(contest.RetryAfter)
				if err := app.Tick(ctx); err != nil {
					t.Fatalf("tick after the fault: %v", err)
				}
			}
			// The bot's own tick, at its start, may be the one closing
			// it, finishing after these returned: wait for its last step,
			// the maze's Solve button.
			waitFor(t, "the event closed", func() bool { return len(fake.Message(mazeMsg.ID).Buttons()) == 2 })
			fake.checkEventClosed(t, mazeMsg, board, "Fault race")
			fake.checkNonces(t, fakediscord.DefaultChannelID)
		})
	}
}

// startE2EEvent starts an event named name in the default channel as a
// manager and returns its maze and board messages.
func (d *discord) startE2EEvent(t *testing.T, name string) (mazeMsg, board *fakediscord.Message) {
	t.Helper()
	started := final(t, d.eventSlash(t, e2eManagePerms, "start",
		opt("algorithm", "backtracking"), opt("size", 15), opt("duration", "30m"), opt("name", name)))
	if !strings.Contains(started.Text(), "Event started") {
		t.Fatalf("/event start answered %q", started.Text())
	}
	return d.waitChannel(t, "🏆 **"+name+"** · ends"), d.waitChannel(t, "Live leaderboard** — no finishers yet")
}

// checkEventClosed: in the default channel, the event's results are
// posted once, the solution in them and nowhere else; the board points to
// them and the maze message has its Solve button back. It returns the
// results post.
func (d *discord) checkEventClosed(t *testing.T, mazeMsg, board *fakediscord.Message, name string) *fakediscord.Message {
	t.Helper()
	var results []*fakediscord.Message
	solutions := 0
	for _, m := range d.ChannelMessages(fakediscord.DefaultChannelID) {
		switch {
		case m.InteractionID != "":
		case strings.Contains(m.Text(), "**"+name+"** is over"):
			results = append(results, m)
		case strings.Contains(m.Text(), "✅ Solution"):
			solutions++
		}
	}
	if len(results) != 1 || solutions != 0 || !strings.Contains(results[0].Text(), "✅ Solution") {
		t.Fatalf("%d results posts and %d solution posts of their own, want one results post holding the solution", len(results), solutions)
	}
	link := "https://discord.com/channels/" + fakediscord.DefaultGuildID + "/" + fakediscord.DefaultChannelID + "/" + results[0].ID
	if b := d.Message(board.ID); !strings.Contains(b.Text(), link) || len(mentions(b.Text())) != 0 {
		t.Fatalf("the board reads %q, want a pointer to the results, %s", b.Text(), link)
	}
	if bs := d.Message(mazeMsg.ID).Buttons(); len(bs) != 2 {
		t.Fatalf("maze buttons %+v, want Play and Solve", bs)
	}
	return results[0]
}

// waitFor30 polls cond for about 30 s (a retry's tick, and slack for a
// loaded machine) and returns how long it took.
func waitFor30(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := start.Add(45 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, time.Since(start).Round(time.Second))
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// inFlight waits until a request of route has arrived and is not answered
// yet: the fake holds it.
func (d *discord) inFlight(t *testing.T, route string) {
	t.Helper()
	waitFor(t, "a held "+route, func() bool {
		for _, r := range d.Requests(route) {
			if r.Done.IsZero() {
				return true
			}
		}
		return false
	})
}

// TestProcessKillDailyPost: the bot is killed with SIGKILL while the
// daily post is in flight (held by Discord before or after it made the
// message); restarted on the same database, it posts the day exactly once
// within about 30 s, also when it comes back after Discord's nonce
// window, which no longer matches the post's nonce (issue 16 row 18).
func TestProcessKillDailyPost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		after bool // Discord made the message before the kill
		// nonceWindow, when set, is Discord's, and the restart waits it
		// out.
		nonceWindow time.Duration
	}{{"OKHeldBefore", false, 0}, {"OKHeldAfter", true, 0}, {"OKHeldAfterNonceWindow", true, time.Second}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			if tc.nonceWindow > 0 {
				fake.SetNonceWindow(tc.nonceWindow)
			}
			dir := t.TempDir()
			dbPath := filepath.Join(dir, "mazebot.db")
			ctx := testContext(t)
			db, err := openDB(ctx, dbPath)
			if err != nil {
				t.Fatal(err)
			}
			// Due all day, today in UTC, since yesterday.
			now := time.Now().UTC()
			err = db.saveDailySettings(ctx, contest.DailySettings{GuildID: fakediscord.DefaultGuildID, ChannelID: dailyChannel, Zone: time.UTC,
				Algorithm: mazecore.Backtracking, Size: 21, Enabled: true, UpdatedAt: now.Add(-24 * time.Hour)})
			if err == nil {
				err = db.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			today := contest.DateOf(now, time.UTC)

			fake.InjectFault(postRoute(dailyChannel), 1, fakediscord.Fault{Hold: 10 * time.Minute, After: tc.after})
			first := fake.startProcess(t, dir)
			fake.inFlight(t, postRoute(dailyChannel))
			if tc.after {
				// The request is in flight from its arrival: held after,
				// its message is made a moment later.
				waitFor(t, "the held post's message", func() bool { return fake.MessagesCreated(dailyChannel) > 0 })
			}
			if n := fake.MessagesCreated(dailyChannel); n != map[bool]int{false: 0, true: 1}[tc.after] {
				t.Fatalf("%d messages while the post is held, want %v made", n, tc.after)
			}
			first.kill(t)
			if msgs := fake.ChannelMessages(dailyChannel); tc.nonceWindow > 0 {
				// Back once Discord has forgotten the nonce.
				time.Sleep(time.Until(msgs[0].Timestamp.Add(tc.nonceWindow + 100*time.Millisecond)))
			}

			fake.startProcess(t, dir)
			// One reader for the wait: opening the file for each look
			// (every 50 ms) cost the test 4 s of CPU under -race.
			reader, err := openDB(t.Context(), dbPath) // ctx (20 s) may end before the post
			if err != nil {
				t.Fatal(err)
			}
			defer reader.Close()
			var p contest.DailyPost
			took := waitFor30(t, "the daily recorded as posted", func() bool {
				p, err = reader.dailyPost(t.Context(), fakediscord.DefaultGuildID, today)
				return err == nil && p.State == contest.Posted
			})
			if n := fake.MessagesCreated(dailyChannel); n != 1 {
				t.Fatalf("%d daily messages after the restart, want 1", n)
			}
			if msgs := fake.ChannelMessages(dailyChannel); p.MessageID != msgs[0].ID {
				t.Fatalf("recorded message %q, want the one posted, %s", p.MessageID, msgs[0].ID)
			}
			t.Logf("posted %v after the restart, on attempt %d", took.Round(time.Second), p.Attempts)
		})
	}
}

// TestProcessKillEventResults: the bot is killed with SIGKILL while the
// results of an ended event are in flight (Discord made the message, the
// answer is held); restarted, it finishes the closing within about 30 s:
// the results once (the solution in them), the board's pointer to them
// and the Solve button.
func TestProcessKillEventResults(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dir := t.TempDir()
	first := fake.startProcess(t, dir)
	fake.waitSynced(t, 1)
	mazeMsg, board := fake.startE2EEvent(t, "Killed race")

	fake.InjectFault(postRoute(fakediscord.DefaultChannelID), 1, fakediscord.Fault{Hold: 10 * time.Minute, After: true})
	fake.eventSlash(t, e2eManagePerms, "end")
	fake.inFlight(t, postRoute(fakediscord.DefaultChannelID))
	// In flight from its arrival: the message is made a moment later.
	waitFor(t, "the held results' message", func() bool {
		for _, m := range fake.ChannelMessages(fakediscord.DefaultChannelID) {
			if strings.Contains(m.Text(), "**Killed race** is over") {
				return true
			}
		}
		return false
	})
	first.kill(t)

	fake.startProcess(t, dir)
	took := waitFor30(t, "the event closed", func() bool {
		b := fake.Message(board.ID)
		m := fake.Message(mazeMsg.ID)
		return b != nil && strings.Contains(b.Text(), "the final results: ") && m != nil && len(m.Buttons()) == 2
	})
	fake.checkEventClosed(t, mazeMsg, board, "Killed race")
	t.Logf("closed %v after the restart", took.Round(time.Second))
}
