package storetest

import (
	"testing"

	"mazebot/contest"
)

func testRecapSettings(t *testing.T, open opener) {
	s := fresh(t, open)
	ctx := t.Context()
	_, err := s.RecapSettings(ctx, "g1")
	wantNotFound(t, "RecapSettings of a new server", err)
	for _, want := range []contest.RecapSettings{{GuildID: "g1", Pings: true}, {GuildID: "g1", Off: true}} {
		ok(t, s.SaveRecapSettings(ctx, want))
		if got, err := s.RecapSettings(ctx, "g1"); err != nil || got != want {
			t.Fatalf("RecapSettings=%+v, %v, want %+v", got, err, want)
		}
	}
	_, err = s.RecapSettings(ctx, "g2")
	wantNotFound(t, "RecapSettings of another server", err)
	wantRefused(t, "recap settings without a server", s.SaveRecapSettings(ctx, contest.RecapSettings{}))
}

func testReminders(t *testing.T, open opener) {
	day1, day2 := contest.MakeDate(2026, 12, 1), contest.MakeDate(2026, 12, 2)
	t.Run("OK", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		_, err := s.Reminder(ctx, "g1", "u1")
		wantNotFound(t, "Reminder of a member never in", err)
		wantNotFound(t, "DeleteReminder of a member never in", s.DeleteReminder(ctx, "g1", "u1"))
		ok(t, s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u1", At: 20 * 60, Language: "ko"}))
		ok(t, s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u2", At: 8 * 60}))
		ok(t, s.SaveReminder(ctx, contest.Reminder{GuildID: "g2", UserID: "u1", At: 0}))
		got, err := s.Reminder(ctx, "g1", "u1")
		ok(t, err)
		if want := (contest.Reminder{GuildID: "g1", UserID: "u1", At: 20 * 60, Language: "ko"}); got != want {
			t.Fatalf("Reminder=%+v, want %+v", got, want)
		}
		open := func(before contest.Date) []string {
			t.Helper()
			list, err := s.OpenReminders(ctx, before)
			ok(t, err)
			var keys []string
			for _, r := range list {
				keys = append(keys, r.GuildID+"/"+r.UserID)
			}
			return keys
		}
		if got := open(day1); len(got) != 3 || got[0] != "g1/u1" || got[2] != "g2/u1" {
			t.Fatalf("OpenReminders=%v, want all three by server and member", got)
		}
		// A day is claimed once; the next day again.
		ok(t, s.ClaimReminder(ctx, "g1", "u1", day1))
		wantConflict(t, "the same day claimed twice", s.ClaimReminder(ctx, "g1", "u1", day1))
		wantConflict(t, "an earlier day claimed after", s.ClaimReminder(ctx, "g1", "u1", day1.AddDays(-1)))
		if got := open(day2); len(got) != 3 {
			t.Fatalf("OpenReminders(day 2)=%v, want all three", got)
		}
		if got := open(day1); len(got) != 2 {
			t.Fatalf("OpenReminders(day 1)=%v, want the two not claimed", got)
		}
		ok(t, s.ClaimReminder(ctx, "g1", "u1", day2))
		wantConflict(t, "a member not in claimed", s.ClaimReminder(ctx, "g1", "u9", day1))
		// The DM channel is kept; a new opt-in keeps it and the claim.
		ok(t, s.SetReminderChannel(ctx, "g1", "u1", "dm1"))
		ok(t, s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u1", At: 21 * 60, Language: "en"}))
		if got, _ := s.Reminder(ctx, "g1", "u1"); got.DMChannelID != "dm1" || got.RemindedOn != day2 || got.At != 21*60 || got.Language != "en" {
			t.Fatalf("Reminder after a new opt-in=%+v, want dm1, claimed %s, 21:00 in en", got, day2)
		}
		// Closed DMs: no longer open nor claimed; told once; a new
		// opt-in starts over.
		ok(t, s.CloseReminder(ctx, "g1", "u2"))
		if got := open(day2); len(got) != 1 || got[0] != "g2/u1" {
			t.Fatalf("OpenReminders=%v, want only g2/u1 (u1 claimed, u2 closed)", got)
		}
		wantConflict(t, "a closed reminder claimed", s.ClaimReminder(ctx, "g1", "u2", day1))
		wantConflict(t, "the notice of an open reminder", s.ClaimClosedNotice(ctx, "g1", "u1"))
		ok(t, s.ClaimClosedNotice(ctx, "g1", "u2"))
		wantConflict(t, "the notice claimed twice", s.ClaimClosedNotice(ctx, "g1", "u2"))
		if got, _ := s.Reminder(ctx, "g1", "u2"); !got.Closed || !got.Told {
			t.Fatalf("Reminder=%+v, want closed and told", got)
		}
		ok(t, s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u2", At: 9 * 60}))
		if got, _ := s.Reminder(ctx, "g1", "u2"); got.Closed || got.Told {
			t.Fatalf("Reminder after opting in again=%+v, want open", got)
		}
		// Opting out deletes.
		ok(t, s.DeleteReminder(ctx, "g2", "u1"))
		_, err = s.Reminder(ctx, "g2", "u1")
		wantNotFound(t, "Reminder after opting out", err)
	})
	t.Run("Refused", func(t *testing.T) {
		s := fresh(t, open)
		ctx := t.Context()
		wantRefused(t, "a time past 23:59", s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u1", At: 24 * 60}))
		wantRefused(t, "a language code too long", s.SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u1", Language: "abcdefghijklmnopq"}))
	})
	t.Run("Race", func(t *testing.T) {
		hs := handles(t, open)
		ctx := t.Context()
		for i := range rounds {
			ok(t, hs[0].SaveReminder(ctx, contest.Reminder{GuildID: "g1", UserID: "u" + string(rune('a'+i)), At: 60}))
		}
		raceOne(t, hs, func(s Store, round, _ int) error {
			return s.ClaimReminder(ctx, "g1", "u"+string(rune('a'+round)), day1)
		})
	})
}
