package e2e

// The daily's archive and a member's profile (issue 38 items 4 and 6).

import (
	"strings"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/mazecore"
)

// archiveSlash sends /daily archive [date] as user.
func (d *discord) archiveSlash(t *testing.T, user string, opts ...member.Option) *fakediscord.Message {
	t.Helper()
	return final(t, d.slashSpec(t, member.SlashSpec{Name: "daily", UserID: user, Options: []member.Option{sub("archive", opts...)}}))
}

// profileOf sends /profile as asker about user ("" for themselves).
func (d *discord) profileOf(t *testing.T, asker, user string) string {
	t.Helper()
	var opts []member.Option
	if user != "" {
		opts = append(opts, opt("member", user))
	}
	msg := final(t, d.slashSpec(t, member.SlashSpec{Name: "profile", UserID: asker, Options: opts}))
	if !msg.Ephemeral() {
		t.Fatalf("/profile answered in public: %q", msg.Text())
	}
	return msg.Text()
}

// playArchive presses Play on an archive card as user and walks its maze
// to the goal, returning the finish message.
func (d *discord) playArchive(t *testing.T, card *fakediscord.Message, date, user string) *fakediscord.Message {
	t.Helper()
	return d.playArchiveIn(t, card, date, user, "")
}

// playArchiveIn is playArchive by a member whose Discord speaks locale.
func (d *discord) playArchiveIn(t *testing.T, card *fakediscord.Message, date, user, locale string) *fakediscord.Message {
	t.Helper()
	b := card.Button("archive:p:" + date)
	if b == nil {
		t.Fatalf("the archive card of %s has no Play: %+v", date, card.Buttons())
	}
	m, err := mazecore.Generate(mazeIDIn(t, card.Text()))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := gameOpened(testContext(t), d.click(t, member.ButtonSpec{CustomID: b.CustomID, Message: card, UserID: user, Locale: locale}))
	if err != nil {
		t.Fatal(err)
	}
	p := &player{t: t, fake: d, userID: user, maze: m, path: mazecore.Solve(m), msg: msg, locale: locale}
	p.walk()
	return p.msg
}

// TestE2EArchive: a member who missed the first two dailies plays the
// first from the archive, privately, to the goal: its finish says it was
// an archive play, and no board, streak or season changes; the list
// marks it ✓ and Next unsolved finds the other. A date before the first
// daily, today, one to come and a malformed one are refused privately.
func TestE2EArchive(t *testing.T) {
	t.Parallel()
	fake, clock, app := startDaily(t)
	const ranked, late = "1400000000000000501", "1400000000000000502"
	post, first := fake.postDaily(t, app, clock, nov30)
	fake.playToGoal(t, clock, post, first, ranked, time.Second)
	post, m := fake.postDaily(t, app, clock, nov30.Add(24*time.Hour))
	fake.playToGoal(t, clock, post, m, ranked, time.Second)
	fake.postDaily(t, app, clock, nov30.Add(48*time.Hour)) // today: Dec 2

	boards := func() []string {
		var out []string
		for _, period := range []string{"daily", "week", "all", "season"} {
			board := final(t, fake.slash(t, "leaderboard", opt("period", period)))
			text := board.Text()
			for _, e := range board.Embeds {
				text += e.Description
			}
			out = append(out, text)
		}
		return append(out, fake.profileOf(t, ranked, ""), fake.profileOf(t, late, ""))
	}
	before := boards()

	card := fake.archiveSlash(t, late, opt("date", "2026-11-30"))
	if !card.Ephemeral() || !strings.Contains(card.Text(), "Archive: daily #334") || !strings.Contains(card.Text(), "Unranked") {
		t.Fatalf("/daily archive date:2026-11-30 answered %q, want the day's maze privately, unranked", card.Text())
	}
	if id := mazeIDIn(t, card.Text()); id != first.ID() {
		t.Fatalf("the archive card of Nov 30 shows maze %v, want the day's %v", id, first.ID())
	}
	won := fake.playArchive(t, card, "2026-11-30", late)
	if text := won.Text(); !strings.Contains(text, "Archive play: daily #334") || !strings.Contains(text, "Unranked") || strings.Contains(text, "🔥") {
		t.Fatalf("the archive game ended with:\n%s\nwant an archive play, unranked, no streak", text)
	}
	if won.Button("archive:n:2026-11-30") == nil || won.Button("archive:p:2026-11-30") == nil {
		t.Fatalf("the archive finish's buttons %+v, want Play again from the archive and Next unsolved", won.Buttons())
	}

	after := boards()
	for i := range before[:len(before)-1] {
		if after[i] != before[i] {
			t.Fatalf("an archive play changed a ranking:\n--- before\n%s\n--- after\n%s", before[i], after[i])
		}
	}
	if profile := after[len(after)-1]; !strings.Contains(profile, "Dailies solved: **0** · 🗂️ 1 more from the archive") ||
		!strings.Contains(profile, "Streak: **0 days**") || !strings.Contains(profile, "no daily finished yet") || strings.Contains(profile, "First finish") {
		t.Fatalf("the archive player's profile:\n%s\nwant nothing ranked, one archive day, no badge", profile)
	}

	list := fake.archiveSlash(t, late)
	if text := list.Text(); !list.Ephemeral() || !strings.Contains(text, "✓ #334") || !strings.Contains(text, "▫️ #335") || strings.Contains(text, "#336") {
		t.Fatalf("/daily archive listed:\n%s\nwant #334 ✓, #335 not, today not at all, privately", text)
	}
	next := list.Button("archive:n:")
	if next == nil {
		t.Fatalf("the list has no Next unsolved: %+v", list.Buttons())
	}
	shown := final(t, fake.click(t, member.ButtonSpec{CustomID: next.CustomID, Message: list, UserID: late}))
	if !shown.Ephemeral() || !strings.Contains(shown.Text(), "Archive: daily #335") {
		t.Fatalf("Next unsolved showed %q, want daily #335 privately", shown.Text())
	}

	for date, want := range map[string]string{
		"2026-11-29": "before this server's first daily (2026-11-30)",
		"2026-12-02": "is today",
		"2026-12-03": "hasn't come yet",
		"2026-13-01": "is not a date",
	} {
		msg := fake.archiveSlash(t, late, opt("date", date))
		if !msg.Ephemeral() || !strings.Contains(msg.Text(), want) || msg.Button("archive:p:"+date) != nil {
			t.Fatalf("/daily archive date:%s answered %q (ephemeral %v), want a private refusal saying %q", date, msg.Text(), msg.Ephemeral(), want)
		}
	}
}

// TestE2EProfile: seven days of finishes make a 7-day streak with a
// freeze and its badges, November's podium among them; a missed day spends the freeze and the streak
// holds; another member sees the same profile.
func TestE2EProfile(t *testing.T) {
	t.Parallel()
	fake, clock, app := startDaily(t)
	const player, other = "1400000000000000601", "1400000000000000602"
	for day := range 7 { // Nov 30 to Dec 6
		post, m := fake.postDaily(t, app, clock, nov30.Add(time.Duration(day)*24*time.Hour))
		fake.playToGoal(t, clock, post, m, player, time.Second)
	}
	profile := fake.profileOf(t, player, "")
	for _, want := range []string{
		"<@" + player + ">", "Dailies solved: **7**", "Streak: **7 days** · best 7 days · 🧊 1 freeze",
		"Season 2026-12: **#1** of 1 · 150 points", // 6 days of 10 + 10 for first + 5 for par
		"🎉 First finish · 2026-11-30", "🎯 Par or better · 2026-11-30", "🔥 7-day streak · 2026-12-06",
		"🏅 Season podium: 1 season", // November's, which is over: first of one
	} {
		if !strings.Contains(profile, want) {
			t.Fatalf("the profile after seven days:\n%s\nlacks %q", profile, want)
		}
	}
	if strings.Contains(profile, "30-day") || strings.Contains(profile, "Event") {
		t.Fatalf("the profile after seven days:\n%s\nhas badges not earned", profile)
	}
	// Dec 7 passes unplayed: on Dec 8 the freeze is spent, the streak holds.
	fake.postDaily(t, app, clock, nov30.Add(8*24*time.Hour))
	profile = fake.profileOf(t, other, player)
	if !strings.Contains(profile, "Streak: **7 days** · best 7 days · 🧊 0 freezes") {
		t.Fatalf("the profile after a missed day, seen by another member:\n%s\nwant the streak kept on its freeze", profile)
	}
}
