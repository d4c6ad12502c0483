package contest

import (
	"testing"
	"time"
)

// TestZoneChange: a new zone never cuts the running day short or plays a
// date twice, whichever way it moves, and the posts follow.
func TestZoneChange(t *testing.T) {
	seoul, honolulu := mustLoad(t, "Asia/Seoul"), mustLoad(t, "Pacific/Honolulu")
	day := func(t *testing.T, z Zones, at time.Time, want string, wantZone *time.Location) {
		t.Helper()
		date, zone := z.DayAt(at)
		if date.String() != want || zone != wantZone {
			t.Fatalf("at %v: %s in %v, want %s in %v", at, date, zone, want, wantZone)
		}
	}
	t.Run("OKAheadWhilePlayed", func(t *testing.T) {
		// At 20:00 UTC a UTC day is being played; Seoul is picked.
		z := Zones{Zone: time.UTC}.Change(seoul, utc(2026, 12, 1, 20, 0), true)
		if z.From != utc(2026, 12, 2, 0, 0) {
			t.Fatalf("Seoul takes over at %v, want the UTC day's midnight", z.From)
		}
		day(t, z, utc(2026, 12, 1, 23, 59), "2026-12-01", time.UTC)
		day(t, z, utc(2026, 12, 2, 0, 0), "2026-12-02", seoul) // 09:00 in Seoul: a short first day
		day(t, z, utc(2026, 12, 2, 15, 0), "2026-12-03", seoul)
		if end := (Daily{Date: MakeDate(2026, 12, 1), Zone: z.ZoneOf(MakeDate(2026, 12, 1))}).Ends(); !end.Equal(utc(2026, 12, 2, 0, 0)) {
			t.Fatalf("the running day ends %v, want at its own midnight", end)
		}
		post := Schedule{At: mustTime(t, "09:00"), Zones: z, Since: utc(2026, 12, 1, 20, 0)}
		if next := post.Next(utc(2026, 12, 1, 20, 0), true); !next.Equal(utc(2026, 12, 2, 0, 0)) {
			t.Fatalf("next post %v, want 09:00 in Seoul on the 2nd", next)
		}
		early := Schedule{At: mustTime(t, "04:00"), Zones: z, Since: utc(2026, 12, 1, 20, 0)}
		if next := early.Next(utc(2026, 12, 1, 20, 0), true); !next.Equal(z.From) {
			t.Fatalf("a post time before the short day starts: next %v, want its start", next)
		}
		if date, due := early.Due(z.From); !due || date.String() != "2026-12-02" {
			t.Fatalf("at the short day's start: due %v for %s, want the 2nd's post", due, date)
		}
	})
	t.Run("OKBehindWhilePlayed", func(t *testing.T) {
		// 19:00 in Seoul on the 2nd, the day played; UTC is picked.
		z := Zones{Zone: seoul}.Change(time.UTC, utc(2026, 12, 2, 10, 0), true)
		day(t, z, utc(2026, 12, 2, 14, 59), "2026-12-02", seoul)
		// UTC is still on the 2nd, which Seoul played: the 3rd starts
		// early and runs long.
		day(t, z, utc(2026, 12, 2, 15, 0), "2026-12-03", time.UTC)
		day(t, z, utc(2026, 12, 3, 23, 59), "2026-12-03", time.UTC)
		day(t, z, utc(2026, 12, 4, 0, 0), "2026-12-04", time.UTC)
		post := Schedule{At: mustTime(t, "09:00"), Zones: z, Since: utc(2026, 12, 2, 10, 0)}
		if _, due := post.Due(utc(2026, 12, 2, 16, 0)); due {
			t.Fatal("the long day posted before its own date")
		}
		if next := post.Next(utc(2026, 12, 2, 16, 0), false); !next.Equal(utc(2026, 12, 3, 9, 0)) {
			t.Fatalf("next post %v, want 09:00 UTC on the 3rd", next)
		}
		if date, due := post.Due(utc(2026, 12, 3, 9, 0)); !due || date.String() != "2026-12-03" {
			t.Fatalf("09:00 UTC on the 3rd: due %v for %s", due, date)
		}
	})
	t.Run("OKUnseenDayChangesAtOnce", func(t *testing.T) {
		// 02:00 UTC on the 2nd; nobody has seen the 2nd's maze. Honolulu
		// is still on the 1st, which UTC played: it runs the 2nd at once.
		z := Zones{Zone: time.UTC}.Change(honolulu, utc(2026, 12, 2, 2, 0), false)
		day(t, z, utc(2026, 12, 2, 2, 0), "2026-12-02", honolulu)
		day(t, z, utc(2026, 12, 3, 9, 59), "2026-12-02", honolulu) // 23:59 on the 2nd in Honolulu
		day(t, z, utc(2026, 12, 3, 10, 0), "2026-12-03", honolulu)
		if zone := z.ZoneOf(MakeDate(2026, 12, 1)); zone != time.UTC {
			t.Fatalf("the 1st ran in %v, want UTC", zone)
		}
	})
	t.Run("OKBackBeforeTheChange", func(t *testing.T) {
		z := Zones{Zone: time.UTC}.Change(seoul, utc(2026, 12, 1, 20, 0), true)
		back := z.Change(time.UTC, utc(2026, 12, 1, 21, 0), true)
		if back.Prev != nil || back.Zone != time.UTC {
			t.Fatalf("picking UTC again before Seoul took over: %+v, want plain UTC", back)
		}
		if again := z.Change(seoul, utc(2026, 12, 1, 21, 0), true); again != z {
			t.Fatalf("picking Seoul again: %+v, want the change as it was %+v", again, z)
		}
	})
}

func mustTime(t *testing.T, s string) TimeOfDay {
	t.Helper()
	c, ok := ParseTimeOfDay(s)
	if !ok {
		t.Fatalf("time %q", s)
	}
	return c
}
