package contest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/internal/testkit"
	"mazebot/store/storetest"
)

// TestRecap: the post of each day carries the day before's recap: its
// finishers, its top three, and the finishers whose streak reached 7 that
// day (ann, who played all seven days; not ben, who played the last
// three); with pings when asked; none on the first day, none when off.
func TestRecap(t *testing.T) {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	e := newDailyEnv(t, start)
	e.setup(t, "09:00", "UTC")
	ctx := context.Background()
	if err := e.dailies.SaveRecapSettings(ctx, contest.RecapSettings{GuildID: "g1", Pings: true}); err != nil {
		t.Fatal(err)
	}
	for day := range 7 {
		date := contest.DateOf(start, time.UTC).AddDays(day)
		e.clock.Set(start.AddDate(0, 0, day).Add(time.Hour))
		e.tick(t)
		key := contest.DailyKey("g1", date)
		at := e.clock.Now().Add(time.Hour)
		addRun(t, e.store, key, contest.Run{UserID: "ann", Elapsed: 90 * time.Second, Tiles: 40, Clicks: 12, FinishedAt: at})
		if day >= 4 {
			for i, u := range []string{"ben", "cat", "dan"} {
				addRun(t, e.store, key, contest.Run{UserID: u, Elapsed: time.Duration(60+i) * time.Second, Tiles: 40, Clicks: 10, FinishedAt: at})
			}
		}
	}
	if r := e.announce.recaps["2026-12-01"]; r != nil {
		t.Fatalf("the first day's post carried a recap: %+v", r)
	}
	if r := e.announce.recaps["2026-12-02"]; r == nil || r.Finished != 1 || len(r.Milestones) != 0 {
		t.Fatalf("day 2's recap=%+v, want ann alone, no milestone", r)
	}
	e.clock.Set(start.AddDate(0, 0, 7).Add(time.Hour))
	e.tick(t)
	r := e.announce.recaps["2026-12-08"]
	if r == nil {
		t.Fatal("no recap on day 8's post")
	}
	if r.Date.String() != "2026-12-07" || r.Finished != 4 || len(r.Top) != 3 || r.Top[0].UserID != "ben" || r.Top[2].UserID != "dan" {
		t.Fatalf("recap=%+v, want 2026-12-07's: 4 finished, ben, cat, dan on top", r)
	}
	if len(r.Milestones) != 1 || r.Milestones[0] != (contest.Milestone{UserID: "ann", Days: 7}) || !r.Pings {
		t.Fatalf("milestones=%+v pings=%v, want ann's 7 days, with pings", r.Milestones, r.Pings)
	}
	if got := r.Named(); len(got) != 4 || got[3] != "ann" {
		t.Fatalf("Named()=%v, want the top three and ann", got)
	}
	// Turned off: day 9's post has none.
	if err := e.dailies.SaveRecapSettings(ctx, contest.RecapSettings{GuildID: "g1", Off: true}); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(start.AddDate(0, 0, 8).Add(time.Hour))
	e.tick(t)
	if r := e.announce.recaps["2026-12-09"]; r != nil {
		t.Fatalf("a recap with recaps off: %+v", r)
	}
}

// dmSender answers each Remind with the next of its answers (nil once
// they run out) and counts the tries by member.
type dmSender struct {
	mu      sync.Mutex
	answers map[string][]error
	tries   map[string][]time.Time
}

func (s *dmSender) Remind(_ context.Context, r contest.Reminder, _ contest.Daily, streak int, channelID, _ string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries[r.UserID] = append(s.tries[r.UserID], time.Now())
	var err error
	if a := s.answers[r.UserID]; len(a) > 0 {
		err, s.answers[r.UserID] = a[0], a[1:]
	}
	return "dm-" + r.UserID, err
}

// TestReminders: a 429 is waited out (its Retry-After, in real time) and
// the reminder sent once; 50007 closes the member's reminders, tried once,
// and ClosedNotice is true once; a second Tick sends nothing again.
func TestReminders(t *testing.T) {
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := testkit.NewClock(start)
	store := storetest.Memory(t)
	dailies := contest.NewDailies(store, &announcer{}, testKey, clock.Now, quiet)
	sender := &dmSender{tries: map[string][]time.Time{}, answers: map[string][]error{
		"limited": {&contest.RateLimitedError{After: 200 * time.Millisecond}},
		"closed":  {contest.ErrDMClosed},
	}}
	reminders := contest.NewReminders(dailies, store, sender, clock.Now, quiet)
	ctx := context.Background()
	for _, u := range []string{"limited", "closed"} {
		for back := 1; back <= 2; back++ {
			d := contest.DateOf(start, time.UTC).AddDays(-back)
			addRun(t, store, contest.DailyKey("g1", d), contest.Run{UserID: u, Elapsed: time.Minute, Tiles: 40, Clicks: 10, FinishedAt: start.AddDate(0, 0, -back).Add(time.Hour)})
		}
		if err := reminders.Set(ctx, "g1", u, 20*60, "en"); err != nil {
			t.Fatal(err)
		}
	}
	clock.Set(start.Add(20 * time.Hour))
	// While the daily posts are being made, no reminder goes.
	release := dailies.HoldPosting()
	held, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_ = reminders.Tick(held)
	cancel()
	if n := len(sender.tries); n != 0 {
		t.Fatalf("%d reminders tried while the daily posts were made", n)
	}
	release()
	for range 2 {
		if err := reminders.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if tries := sender.tries["limited"]; len(tries) != 2 || tries[1].Sub(tries[0]) < 200*time.Millisecond {
		t.Fatalf("tries of the rate-limited reminder: %v, want 2, the second after its Retry-After", tries)
	}
	if tries := sender.tries["closed"]; len(tries) != 1 {
		t.Fatalf("%d tries of the closed DMs, want 1", len(tries))
	}
	for i, want := range []bool{true, false} {
		tell, err := reminders.ClosedNotice(ctx, "g1", "closed")
		if err != nil || tell != want {
			t.Fatalf("ClosedNotice #%d=%v, %v; want %v", i+1, tell, err, want)
		}
	}
	if tell, _ := reminders.ClosedNotice(ctx, "g1", "limited"); tell {
		t.Fatal("ClosedNotice for a member whose DMs are open")
	}
	// Opting out deletes; there is nothing to opt out of after.
	if err := reminders.Off(ctx, "g1", "limited"); err != nil {
		t.Fatal(err)
	}
	if err := reminders.Off(ctx, "g1", "limited"); !errors.Is(err, contest.ErrNotFound) {
		t.Fatalf("a second Off: %v, want ErrNotFound", err)
	}
}

// boardCounter counts the daily boards read from its store.
type boardCounter struct {
	storetest.Store
	mu     sync.Mutex
	boards int
}

func (s *boardCounter) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	s.mu.Lock()
	s.boards++
	s.mu.Unlock()
	return s.Store.DayRuns(ctx, guildID, date)
}

func (s *boardCounter) read() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.boards
}

// roleLog records the roles given; taking one always works.
type roleLog struct {
	mu    sync.Mutex
	given []string
}

func (r *roleLog) AddRole(_ context.Context, guildID, userID, roleID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.given = append(r.given, guildID+" "+userID+" "+roleID)
	return nil
}

func (r *roleLog) RemoveRole(context.Context, string, string, string) error { return nil }

// TestSeasonCountedOnce: at a season's end the results card on the 1st's
// post and the crowning after it count the season once: the crowning
// reads no board (counting takes some sixty, two months of them, and a
// month ends at the same minute in every server), and gives the role to
// the champion the card names.
func TestSeasonCountedOnce(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	store := &boardCounter{Store: e.store}
	e.dailies = contest.NewDailies(store, e.announce, testKey, e.clock.Now, quiet)
	e.setup(t, "09:00", "UTC")
	e.clock.Set(utc(2026, 11, 30, 9, 0))
	e.tick(t)
	addRun(t, e.store, contest.DailyKey("g1", mustDate(t, "2026-11-30")),
		contest.Run{UserID: "ann", Elapsed: time.Minute, Tiles: 40, Clicks: 12, FinishedAt: utc(2026, 11, 30, 10, 0)})
	roles := &roleLog{}
	champions := contest.NewChampions(e.dailies, e.store, roles, e.clock.Now, quiet)
	if err := champions.Set(ctx, "g1", "champion", "admin", "en"); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(utc(2026, 12, 1, 9, 0))
	e.tick(t)
	if got := e.announce.all(); len(got) != 2 {
		t.Fatalf("posts %q, want November's last and December's first", got)
	}
	before := store.read()
	if err := champions.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := store.read() - before; n != 0 {
		t.Fatalf("the crowning read %d boards, want none: the card counted the season", n)
	}
	if len(roles.given) != 1 || roles.given[0] != "g1 ann champion" {
		t.Fatalf("roles given %q, want ann's", roles.given)
	}
}

// TestCrownedNotReadAgain: once a server's champion of the season that
// ended is crowned, the ticks that follow (each passing every server
// with a champion role: ten thousand of them at scale) read nothing of
// it, not its settings; the next season's end crowns again.
func TestCrownedNotReadAgain(t *testing.T) {
	ctx := context.Background()
	e := newDailyEnv(t, utc(2026, 11, 30, 8, 0))
	store := &settingsCounter{Store: e.store}
	e.dailies = contest.NewDailies(store, e.announce, testKey, e.clock.Now, quiet)
	e.setup(t, "09:00", "Pacific/Kiritimati") // UTC+14: its month ends first
	e.clock.Set(utc(2026, 11, 29, 19, 0))     // 09:00 on the 30th there
	e.tick(t)
	addRun(t, e.store, contest.DailyKey("g1", mustDate(t, "2026-11-30")),
		contest.Run{UserID: "ann", Elapsed: time.Minute, Tiles: 40, Clicks: 12, FinishedAt: utc(2026, 11, 29, 20, 0)})
	roles := &roleLog{}
	champions := contest.NewChampions(e.dailies, e.store, roles, e.clock.Now, quiet)
	if err := champions.Set(ctx, "g1", "champion", "admin", "en"); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(utc(2026, 11, 30, 19, 0)) // 09:00 on December 1st there
	e.tick(t)
	if err := champions.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if len(roles.given) != 1 {
		t.Fatalf("roles given %q, want ann's", roles.given)
	}
	before := store.read()
	for _, at := range []time.Time{utc(2026, 11, 30, 19, 15), utc(2026, 12, 1, 12, 0), utc(2026, 12, 31, 9, 0)} {
		e.clock.Set(at)
		if err := champions.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.read() - before; n != 0 {
		t.Fatalf("the ticks after the crowning read the settings %d times, want none", n)
	}
	e.clock.Set(utc(2026, 12, 31, 10, 0)) // January 1st in Kiritimati: December ended
	if err := champions.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if store.read() == before {
		t.Fatal("the end of December was not looked at")
	}
}

// settingsCounter counts the reads of servers' daily settings.
type settingsCounter struct {
	storetest.Store
	mu    sync.Mutex
	reads int
}

func (s *settingsCounter) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	s.mu.Lock()
	s.reads++
	s.mu.Unlock()
	return s.Store.DailySettings(ctx, guildID)
}

func (s *settingsCounter) read() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads
}
