package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

// TestLegacyServerLanguage: a daily or event stored before languages has
// none; it is posted in the server's primary language as Discord gives
// it, asked once per server, and in English when Discord cannot say.
func TestLegacyServerLanguage(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.poster.locales = map[string]string{"g-ko": "ko", "g-en": "en-GB"}
	a := NewAnnouncer(e.poster, e.poster, e.db, e.pictures, e.clock.Now, views.Setup{})
	ctx := context.Background()
	day := contest.Daily{Date: contest.DateOf(e.clock.Now(), time.UTC), Zone: time.UTC, MazeID: mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 11, Height: 11, Seed: 3}}
	post := func(guild, stored string) string {
		t.Helper()
		d := day
		d.GuildID, d.Language = guild, stored
		id, err := a.PostDaily(ctx, d, "c-"+guild, "")
		if err != nil {
			t.Fatal(err)
		}
		return e.poster.messages[id].reply.Text()
	}
	for _, tc := range []struct {
		guild, stored string
		korean        bool
	}{
		{"g-ko", "", true},    // legacy: the server's Korean
		{"g-ko", "", true},    // again, from what the process learnt
		{"g-en", "", false},   // legacy: the server's English
		{"g-gone", "", false}, // Discord cannot say: English
		{"g-en", "ko", true},  // stored wins over the server's
		{"g-ko", "en", false}, // stored wins over the server's
	} {
		if got := post(tc.guild, tc.stored); lang.HasHangul(got) != tc.korean {
			t.Fatalf("daily of %s with %q stored: %q, want Korean %v", tc.guild, tc.stored, strings.SplitN(got, "\n", 2)[0], tc.korean)
		}
	}
	// g-ko and g-en once each; g-gone (a failure, not remembered) once.
	if e.poster.asked != 3 {
		t.Fatalf("Discord was asked %d times, want 3", e.poster.asked)
	}
	ev := contest.Event{GuildID: "g-ko", ChannelID: "c-ev", Name: "Race", MazeID: day.MazeID, EndsAt: e.clock.Now().Add(time.Hour)}
	if _, err := a.PostResults(ctx, ev, nil, ""); err != nil {
		t.Fatal(err)
	}
	got := e.poster.messages[e.poster.order[len(e.poster.order)-1]].reply
	text := got.Text()
	for _, em := range got.Embeds {
		text += em.Title + em.Description
	}
	if !lang.HasHangul(text) {
		t.Fatalf("a legacy event's results in a Korean server: %q, want Korean", text)
	}
}
