package contest

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
	"time"
	_ "time/tzdata" // the zones under test, whatever the host has

	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// testKey is the dailies' MazeFor key in these tests.
var testKey = []byte("contest test key")

func utc(year int, month time.Month, day, hour, min int) time.Time {
	return time.Date(year, month, day, hour, min, 0, 0, time.UTC)
}

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDateOf(t *testing.T) {
	seoul, la := mustLoad(t, "Asia/Seoul"), mustLoad(t, "America/Los_Angeles")
	for _, tc := range []struct {
		name string
		loc  *time.Location
		at   time.Time
		date string
	}{
		{"SeoulBeforeMidnight", seoul, utc(2026, 11, 30, 14, 59), "2026-11-30"},
		{"SeoulMidnightIs15UTC", seoul, utc(2026, 11, 30, 15, 0), "2026-12-01"},
		{"LABeforeMidnight", la, utc(2026, 12, 1, 7, 59), "2026-11-30"},
		{"LAMidnightIs08UTCInWinter", la, utc(2026, 12, 1, 8, 0), "2026-12-01"},
		{"LAMidnightIs07UTCInSummer", la, utc(2026, 7, 1, 7, 0), "2026-07-01"},
		{"LASpringForwardDay", la, utc(2026, 3, 9, 6, 59), "2026-03-08"},
		{"LASpringForwardNextDay", la, utc(2026, 3, 9, 7, 0), "2026-03-09"},
		{"LAFallBackDay", la, utc(2026, 11, 2, 7, 59), "2026-11-01"},
		{"LAFallBackNextDay", la, utc(2026, 11, 2, 8, 0), "2026-11-02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DateOf(tc.at, tc.loc).String(); got != tc.date {
				t.Fatalf("DateOf(%v)=%s, want %s", tc.at, got, tc.date)
			}
		})
	}
	t.Run("DayLengths", func(t *testing.T) {
		for _, tc := range []struct {
			date string
			want time.Duration
		}{{"2026-03-08", 23 * time.Hour}, {"2026-11-01", 25 * time.Hour}, {"2026-11-30", 24 * time.Hour}} {
			d := mustDate(t, tc.date)
			if got := d.End(la).Sub(d.AddDays(-1).End(la)); got != tc.want {
				t.Fatalf("%s in Los Angeles lasts %v, want %v", tc.date, got, tc.want)
			}
			if noon := d.Noon(la); DateOf(noon, la) != d {
				t.Fatalf("noon of %s is on %s", tc.date, DateOf(noon, la))
			}
		}
		if got, want := DateOf(utc(2026, 11, 30, 3, 0), seoul).End(seoul), utc(2026, 11, 30, 15, 0); !got.Equal(want) {
			t.Fatalf("Seoul's next midnight=%v, want %v", got, want)
		}
	})
	t.Run("AddDays", func(t *testing.T) {
		for _, tc := range []struct {
			from string
			n    int
			want string
		}{{"2026-03-01", -1, "2026-02-28"}, {"2028-03-01", -1, "2028-02-29"}, {"2026-12-31", 1, "2027-01-01"}, {"2026-11-30", -6, "2026-11-24"}} {
			if got := mustDate(t, tc.from).AddDays(tc.n).String(); got != tc.want {
				t.Errorf("%s%+d=%s, want %s", tc.from, tc.n, got, tc.want)
			}
		}
	})
	t.Run("ErrParse", func(t *testing.T) {
		for _, s := range []string{"", "2026-13-01", "2026-11-31", "30.11.2026"} {
			if _, err := ParseDate(s); err == nil {
				t.Errorf("ParseDate(%q) accepted it", s)
			}
		}
	})
}

func TestTimeOfDay(t *testing.T) {
	for in, want := range map[string]string{"09:00": "09:00", "9:05": "09:05", "23:59": "23:59", "00:00": "00:00"} {
		c, ok := ParseTimeOfDay(in)
		if !ok || c.String() != want {
			t.Errorf("ParseTimeOfDay(%q)=%v, %v; want %s", in, c, ok, want)
		}
	}
	for _, in := range []string{"24:00", "9", "09:60", "9am", "", "09:00:00", "-1:00"} {
		if c, ok := ParseTimeOfDay(in); ok {
			t.Errorf("ParseTimeOfDay(%q)=%v, want a refusal", in, c)
		}
	}
}

func TestNumber(t *testing.T) {
	for date, want := range map[string]int{"2026-01-01": 1, "2026-11-30": 334, "2027-01-01": 366} {
		if got := Number(mustDate(t, date)); got != want {
			t.Errorf("Number(%s)=%d, want %d", date, got, want)
		}
	}
}

func TestKey(t *testing.T) {
	d := mustDate(t, "2026-11-30")
	for _, k := range []Key{DailyKey("g1", d), EventKey(42), ArchiveKey("g1", d)} {
		back, ok := ParseKey(k.String())
		if !ok || back != k {
			t.Errorf("ParseKey(%q)=%+v, %v; want %+v", k, back, ok, k)
		}
	}
	if g, date, ok := DailyKey("g1", d).Daily(); !ok || g != "g1" || date != d {
		t.Errorf("Daily()=%s %s %v", g, date, ok)
	}
	if id, ok := EventKey(42).Event(); !ok || id != 42 {
		t.Errorf("Event()=%d %v", id, ok)
	}
	if _, _, ok := EventKey(42).Daily(); ok {
		t.Error("an event's key says it is a daily")
	}
	// An archive game is no daily's: nothing ranked reads it.
	if _, _, ok := ArchiveKey("g1", d).Daily(); ok {
		t.Error("an archive key says it is a daily")
	}
	if g, date, ok := ArchiveKey("g1", d).Archive(); !ok || g != "g1" || date != d {
		t.Errorf("Archive()=%s %s %v", g, date, ok)
	}
	if _, _, ok := DailyKey("g1", d).Archive(); ok {
		t.Error("a daily's key says it is the archive's")
	}
	if a := ArchiveKey("g1", d).String(); a >= DailyKey("g1", FirstDate).String() && a <= DailyKey("g1", LastDate).String() {
		t.Errorf("archive key %q sorts among the server's daily keys", a)
	}
	if (Key{}).String() != "" || !(Key{}).IsZero() {
		t.Error("the zero Key has text or is not zero")
	}
	for _, bad := range []string{"", "daily:", "daily::2026-11-30", "daily:g1:2026-11-31", "daily:g1:2026-1-30", "event:0", "event:-1", "event:07", "event:x", "weekly:g1", "archive:", "archive::2026-11-30", "archive:g1:2026-11-31"} {
		if k, ok := ParseKey(bad); ok {
			t.Errorf("ParseKey(%q)=%+v, want a refusal", bad, k)
		}
	}
	// A server's daily keys sort by date, so a store reads a range of days
	// as a range of keys; another server's keys (even one whose ID starts
	// the same) fall outside.
	lo, hi := DailyKey("g1", d.AddDays(-6)).String(), DailyKey("g1", d).String()
	if inside := DailyKey("g1", d.AddDays(-3)).String(); !(lo <= inside && inside <= hi) {
		t.Errorf("%q is not between %q and %q", inside, lo, hi)
	}
	for _, outside := range []Key{DailyKey("g1", d.AddDays(1)), DailyKey("g10", d), DailyKey("g1", d.AddDays(-7))} {
		if s := outside.String(); lo <= s && s <= hi {
			t.Errorf("%q falls between %q and %q", s, lo, hi)
		}
	}
}

// defaultMaze is the daily of a server that never changed its settings.
func defaultMaze(tb testing.TB, guildID string, date Date) mazecore.ID {
	tb.Helper()
	return mazeFor(tb, DailySettings{GuildID: guildID, Algorithm: DefaultAlgorithm, Size: DefaultSize}, date)
}

func mazeFor(tb testing.TB, s DailySettings, date Date) mazecore.ID {
	tb.Helper()
	id, err := MazeFor(testKey, s, date)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

func TestMazeFor(t *testing.T) {
	d := mustDate(t, "2026-11-30")
	g1 := DailySettings{GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 21}
	a := mazeFor(t, g1, d)
	// Locked: the derivation of a day's maze from its key. Processes that
	// share a key must agree on it, across releases, and a server that
	// never chose a difficulty or loops keeps it. Deploying the keyed
	// derivation (or another key) changes every daily not yet shown or
	// claimed (today's unposted dailies change once); the shown ones are
	// fixed in the store.
	if want := (mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 0x148ccfde}); a != want {
		t.Fatalf("daily of g1 on 2026-11-30 = %+v, want %+v", a, want)
	}
	if a != defaultMaze(t, "g1", d) {
		t.Fatal("the defaults are not backtracking 21×21, any, no loops")
	}
	if b, err := MazeFor([]byte("another key"), g1, d); err != nil || b == a {
		t.Fatalf("two keys give one daily (%v)", err)
	}
	// The unkeyed hash of old: anyone could compute it.
	old := sha256.Sum256([]byte("mazebot daily|g1|" + d.String()))
	if a.Seed == uint64(binary.BigEndian.Uint32(old[:4])) {
		t.Fatal("the seed is the public, unkeyed hash")
	}
	if mazeFor(t, DailySettings{GuildID: "g2", Algorithm: mazecore.Backtracking, Size: 21}, d) == a {
		t.Fatal("two servers share a daily")
	}
	if mazeFor(t, g1, d.AddDays(1)) == a {
		t.Fatal("two days share a daily")
	}
	if b := mazeFor(t, DailySettings{GuildID: "g1", Algorithm: mazecore.Sidewinder, Size: 31}, d); b.Seed != a.Seed || b.Algorithm != mazecore.Sidewinder || b.Width != 31 || b.Height != 31 {
		t.Fatalf("settings change the seed or are ignored: %+v", b)
	}
	t.Run("OKLoops", func(t *testing.T) {
		s := g1
		s.Loops = 30
		if b := mazeFor(t, s, d); b.Loops != 30 || b.Seed != a.Seed {
			t.Fatalf("loops 30: %+v, want the day's seed with loops 30", b)
		}
	})
	t.Run("OKDifficulty", func(t *testing.T) {
		seen := map[uint64]mazecore.Level{}
		for _, level := range []mazecore.Level{mazecore.Easy, mazecore.Medium, mazecore.Hard} {
			s := g1
			s.Difficulty, s.Loops = level, 10
			got := mazeFor(t, s, d)
			base := a
			base.Loops = 10
			want, err := mazecore.Choose(base, level)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s: %+v, want Choose of the day's maze %+v", level, got, want)
			}
			if other, dup := seen[got.Seed]; dup {
				t.Fatalf("%s and %s chose the same maze", level, other)
			}
			seen[got.Seed] = level
		}
	})
	// A shaped daily's level is chosen as any maze's, among the
	// candidates of the day's seed on its grid.
	t.Run("OKDifficultyOnShapes", func(t *testing.T) {
		for _, shaped := range []DailySettings{
			{GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 41, Shape: "heart"},
			{GuildID: "g1", Algorithm: mazecore.Wilson, Size: 11, Grid: mazecore.Polar},
		} {
			anyLevel := mazeFor(t, shaped, d)
			if anyLevel.Seed != a.Seed {
				t.Fatalf("%+v: seed %d, want the day's %d", shaped, anyLevel.Seed, a.Seed)
			}
			shaped.Difficulty = mazecore.Hard
			want, err := mazecore.ChooseGrid(anyLevel, mazecore.Hard, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := mazeFor(t, shaped, d); got != want || got == anyLevel {
				t.Fatalf("hard %+v: %v, want ChooseGrid's %v (not the day's seed %v)", shaped, got, want, anyLevel)
			}
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for name, s := range map[string]DailySettings{
			"Loops":      {GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 21, Loops: 101},
			"Difficulty": {GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 21, Difficulty: 9},
			"Size":       {GuildID: "g1", Algorithm: mazecore.Backtracking, Size: 20},
		} {
			if id, err := MazeFor(testKey, s, d); err == nil {
				t.Fatalf("%s: %+v, want an error", name, id)
			}
		}
	})
}

func TestNonce(t *testing.T) {
	a, b := nonce("daily|g1|2026-11-30"), nonce("daily|g1|2026-12-01")
	if len(a) > 25 || a == b || nonce("daily|g1|2026-11-30") != a {
		t.Fatalf("nonces %q, %q: want at most 25 characters, stable, one per key", a, b)
	}
}

func TestRetryDelay(t *testing.T) {
	for _, tc := range []struct {
		attempts, refused int
		want              time.Duration
	}{
		{1, 0, RetryAfter}, {2, 0, 2 * RetryAfter}, {3, 0, 4 * RetryAfter}, {10, 0, RetryMax}, {1, 1, RefusedRetryAfter},
	} {
		if got := retryDelay(tc.attempts, tc.refused); got != tc.want {
			t.Errorf("retryDelay(%d, %d)=%v, want %v", tc.attempts, tc.refused, got, tc.want)
		}
	}
}

func TestStreak(t *testing.T) {
	for _, tc := range []struct {
		dates []string
		today string
		want  int
	}{
		{nil, "2026-11-30", 0},
		{[]string{"2026-11-30"}, "2026-11-30", 1},
		{[]string{"2026-11-30", "2026-11-29", "2026-11-28", "2026-11-26"}, "2026-11-30", 3},
		{[]string{"2026-11-29", "2026-11-28"}, "2026-11-30", 2}, // today not played yet
		{[]string{"2026-11-28"}, "2026-11-30", 0},
		{[]string{"2026-03-01", "2026-02-28"}, "2026-03-01", 2}, // across a month
	} {
		var dates []Date
		for _, s := range tc.dates {
			dates = append(dates, mustDate(t, s))
		}
		if got := Streak(dates, mustDate(t, tc.today)); got != tc.want {
			t.Errorf("Streak(%v, %s)=%d, want %d", tc.dates, tc.today, got, tc.want)
		}
	}
}

// TestStreakFreezes: the freeze rule, day by day. Each pattern is a run
// of days ending today: x solved, . not (today's last . is not over yet).
func TestStreakFreezes(t *testing.T) {
	today := mustDate(t, "2026-12-05")
	for _, tc := range []struct {
		name, days string
		want       StreakState
	}{
		{"SixDaysEarnNone", "xxxxxx", StreakState{Days: 6, Best: 6}},
		{"EarnedAt7", "xxxxxxx", StreakState{Days: 7, Freezes: 1, Best: 7}},
		{"EarnedAt14", "xxxxxxxxxxxxxx", StreakState{Days: 14, Freezes: 2, Best: 14}},
		{"CappedAt2", "xxxxxxxxxxxxxxxxxxxxx", StreakState{Days: 21, Freezes: 2, Best: 21}},
		{"TodayNotMissedYet", "xxxxxxx.", StreakState{Days: 7, Freezes: 1, Best: 7}},
		{"SpentOnAMissedDay", "xxxxxxx.x", StreakState{Days: 8, Best: 8, Frozen: 1}},
		{"SpentBeforeTodayIsPlayed", "xxxxxxx..", StreakState{Days: 7, Best: 7, Frozen: 1}},
		{"NoFreezeNoStreak", "xxxxxx.x", StreakState{Days: 1, Best: 6}},
		{"TwoFreezesTwoMissedDays", "xxxxxxxxxxxxxx..x", StreakState{Days: 15, Best: 15, Frozen: 2}},
		{"LostAfterThreeMissedDaysWithTwo", "xxxxxxxxxxxxxx...x", StreakState{Days: 1, Best: 14}},
		{"LostAfterThreeMissedDaysTodayOpen", "xxxxxxxxxxxxxx....", StreakState{Best: 14}},
		{"EarnedAgainAfterSpending", "xxxxxxx.xxxxxxx", StreakState{Days: 14, Freezes: 1, Best: 14, Frozen: 1}},
		{"CapThenSpendOne", "xxxxxxxxxxxxxxxxxxxxx.x", StreakState{Days: 22, Freezes: 1, Best: 22, Frozen: 1}},
		{"Nothing", "....", StreakState{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dates []Date // newest first
			for i := range len(tc.days) {
				if tc.days[len(tc.days)-1-i] == 'x' {
					dates = append(dates, today.AddDays(-i))
				}
			}
			if got := StreakOf(dates, today); got != tc.want {
				t.Fatalf("StreakOf(%s)=%+v, want %+v", tc.days, got, tc.want)
			}
			if got := Streak(dates, today); got != tc.want.Days {
				t.Fatalf("Streak(%s)=%d, want %d", tc.days, got, tc.want.Days)
			}
		})
	}
}

// TestSchedule: the post time is local, so it moves in UTC across
// daylight-saving changes; a setup after the day's post time starts
// tomorrow.
func TestSchedule(t *testing.T) {
	la := mustLoad(t, "America/Los_Angeles")
	at := func(s string) TimeOfDay {
		c, ok := ParseTimeOfDay(s)
		if !ok {
			t.Fatal(s)
		}
		return c
	}
	for _, tc := range testkit.PostTimesAcrossDST() {
		t.Run(tc.Name, func(t *testing.T) {
			s := Schedule{At: at(tc.At), Zones: Zones{Zone: la}, Since: tc.Before.Add(-24 * time.Hour)}
			if date, due := s.Due(tc.Before); due {
				t.Fatalf("due at %v (%s), a minute before %s local", tc.Before, date, tc.At)
			}
			date, due := s.Due(tc.When)
			if !due || date.String() != tc.Date {
				t.Fatalf("Due(%v)=%s, %v; want %s due", tc.When, date, due, tc.Date)
			}
		})
	}
	utcAt9 := Schedule{At: at("09:00"), Zones: Zones{Zone: time.UTC}, Since: utc(2026, 11, 30, 8, 0)}
	t.Run("OKNext", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			now    time.Time
			posted bool
			want   time.Time
		}{
			{"BeforeTime", utc(2026, 11, 30, 8, 0), false, utc(2026, 11, 30, 9, 0)},
			{"AtTheMinute", utc(2026, 11, 30, 9, 0), false, utc(2026, 11, 30, 9, 0)},
			{"AfterTime", utc(2026, 11, 30, 15, 0), false, utc(2026, 12, 1, 9, 0)},
			{"PostedToday", utc(2026, 11, 30, 8, 0), true, utc(2026, 12, 1, 9, 0)},
		} {
			if got := utcAt9.Next(tc.now, tc.posted); !got.Equal(tc.want) {
				t.Errorf("%s: Next=%v, want %v", tc.name, got, tc.want)
			}
		}
	})
	t.Run("OKSetupAfterTimeStartsTomorrow", func(t *testing.T) {
		late := Schedule{At: at("09:00"), Zones: Zones{Zone: time.UTC}, Since: utc(2026, 11, 30, 15, 0)}
		if _, due := late.Due(utc(2026, 11, 30, 15, 0)); due {
			t.Fatal("a setup after the post time is due the same day")
		}
		if date, due := late.Due(utc(2026, 12, 1, 9, 0)); !due || date.String() != "2026-12-01" {
			t.Fatalf("the next day: %s %v, want 2026-12-01 due", date, due)
		}
	})
}

func TestRank(t *testing.T) {
	at := func(s int) time.Time { return utc(2026, 11, 30, 12, 0).Add(time.Duration(s) * time.Second) }
	runs := []Run{
		{UserID: "ben", Elapsed: 2 * time.Second, Tiles: 40, FinishedAt: at(5)},
		{UserID: "cat", Elapsed: time.Second, Tiles: 40, FinishedAt: at(9)},
		{UserID: "ann", Elapsed: 2*time.Second + 400*time.Microsecond, Tiles: 40, FinishedAt: at(3)}, // the same millisecond as ben
		{UserID: "dan", Elapsed: 2 * time.Second, Tiles: 44, FinishedAt: at(1)},
	}
	got := Rank(runs)
	want := []struct {
		user string
		rank int
	}{{"cat", 1}, {"ann", 2}, {"ben", 2}, {"dan", 4}}
	for i, w := range want {
		if got[i].UserID != w.user || got[i].Rank != w.rank {
			t.Fatalf("Rank=%+v, want %v (a tie shares a rank, the earlier finisher first)", got, want)
		}
	}
	if runs[0].UserID != "ben" {
		t.Fatal("Rank reordered its input")
	}
	totals := RankTotals([]Total{
		{UserID: "ann", Days: 2, Elapsed: 160 * time.Second, Tiles: 130},
		{UserID: "bob", Days: 3, Elapsed: 400 * time.Second, Tiles: 300},
		{UserID: "cat", Days: 2, Elapsed: 160 * time.Second, Tiles: 130},
		{UserID: "dan", Days: 2, Elapsed: 160 * time.Second, Tiles: 129},
	})
	wantTotals := []struct {
		user string
		rank int
	}{{"bob", 1}, {"dan", 2}, {"ann", 3}, {"cat", 3}}
	for i, w := range wantTotals {
		if totals[i].UserID != w.user || totals[i].Rank != w.rank {
			t.Fatalf("RankTotals=%+v, want %v (most days first; ties keep the store's order)", totals, wantTotals)
		}
	}
}
