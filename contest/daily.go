package contest

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Errors of the stores, shared with package play: one vocabulary for
// every store adapter.
var (
	ErrNotFound = play.ErrNotFound
	ErrConflict = play.ErrConflict
)

// ErrNotEnabled: the server's daily is not posted automatically.
var ErrNotEnabled = errors.New("daily posts are not enabled")

// Defaults and bounds of the daily challenge.
const (
	// DefaultAlgorithm and DefaultSize make the daily of a server that
	// never chose one.
	DefaultAlgorithm = mazecore.Backtracking
	DefaultSize      = 21
	// DailyMaxSize keeps the daily a quick game for everyone: Play on a
	// 41×41 maze takes a few dozen clicks.
	DailyMaxSize = 41
)

// dailyEpoch is the day of daily #1. Numbers count calendar days in the
// server's zone from there, so every server's #N falls on the same date.
var dailyEpoch = MakeDate(2026, 1, 1)

// DailySettings is a server's daily challenge settings.
type DailySettings struct {
	GuildID   string
	ChannelID string // where the daily is posted
	PostAt    TimeOfDay
	Zone      *time.Location
	// PrevZone and ZoneFrom keep the zone Zone replaced, and when it took
	// over: the end of the day running at the change (see Zones). PrevZone
	// is nil when there was no change.
	PrevZone  *time.Location
	ZoneFrom  time.Time
	Algorithm mazecore.Algorithm
	Size      int // tiles a side, odd
	// Difficulty and Loops shape the maze further (see MazeFor); the zero
	// values, any and 0, are what a server that never chose them has.
	Difficulty mazecore.Level
	Loops      int
	// Grid and Shape put the daily on another grid or cut it to a shape
	// (BaseMaze): Shape is "" for none, a preset's name, or ShapeCalendar.
	// Size then counts rings on a polar grid and cells across on a hex
	// one. The zero values are the whole square grid.
	Grid  mazecore.GridKind
	Shape string
	// Language is the code of the language the daily is posted in ("en",
	// "ko"); contest keeps it for the Announcer and never reads it. ""
	// is a server set up before languages, posted in its primary language
	// in Discord.
	Language  string
	Enabled   bool
	UpdatedAt time.Time // when the settings last changed
}

// Zones are the settings' zone and the one it replaced.
func (s DailySettings) Zones() Zones { return Zones{Zone: s.Zone, Prev: s.PrevZone, From: s.ZoneFrom} }

// DayAt is the server's daily date at t, and the zone it runs in.
func (s DailySettings) DayAt(t time.Time) (Date, *time.Location) { return s.Zones().DayAt(t) }

// ZonePending tells whether, at now, a zone change waits for the running
// day to end.
func (s DailySettings) ZonePending(now time.Time) bool {
	return s.PrevZone != nil && now.Before(s.ZoneFrom)
}

// Schedule is when the settings post the daily.
func (s DailySettings) Schedule() Schedule {
	return Schedule{At: s.PostAt, Zones: s.Zones(), Since: s.UpdatedAt}
}

// Daily is one server's daily of one local date.
type Daily struct {
	GuildID string
	Date    Date
	Zone    *time.Location
	MazeID  mazecore.ID
	// Language is the settings' Language, which the Announcer posts in.
	Language string
	// Recap is the previous day's, which the automatic post carries; nil
	// for none (turned off, no daily that day, not the automatic post).
	Recap *Recap
	// Season is the results of the season the post's date ends, which
	// the first automatic post of a season carries (seasonend.go); nil on
	// other days.
	Season *SeasonResults
}

// Number is the daily's number: #1 on 2026-01-01.
func (d Daily) Number() int { return Number(d.Date) }

// Key names the daily as a contest.
func (d Daily) Key() Key { return DailyKey(d.GuildID, d.Date) }

// MaxClockSkew is how far apart the clocks of the processes sharing a
// database may be: NTP keeps them within milliseconds, and this covers a
// machine whose clock is minutes off. Where the day's end matters to what
// a member may see, it waits this long past midnight: a process whose
// clock runs ahead must not show a running day's solution (which a member
// could then use on a process still in that day).
const MaxClockSkew = 5 * time.Minute

// Ends is when the day ends in the server, at midnight: a game started
// before it plays the day's daily.
func (d Daily) Ends() time.Time { return d.Date.End(d.Zone) }

// SolutionsOpen is when the solution of the day's maze may be shown, and
// the last moment a run of it counts: MaxClockSkew after the day ends,
// by whichever process's clock.
func (d Daily) SolutionsOpen() time.Time { return d.Ends().Add(MaxClockSkew) }

// Number is the daily number of a date.
func Number(date Date) int { return int(date.t.Sub(dailyEpoch.t)/(24*time.Hour)) + 1 }

// MazeFor is the maze of a server's day: the settings' algorithm, size and
// loops, with a seed from a keyed hash (HMAC-SHA256) of the server and the
// date under key, a secret of the bot's, so it is the same for everyone
// and in every process sharing the key, and nobody can work out a day's
// maze (and so its solution) before it is shown. 32 bits keep the ID
// short. A difficulty other than any then picks, by mazecore.ChooseGrid, among
// the candidates of that seed: the ID still names the maze alone.
//
// The first show or claim of a day fixes its maze in the store
// (FixDailyMaze): a new key, or new settings, change only the days not
// shown yet.
func MazeFor(key []byte, s DailySettings, date Date) (mazecore.ID, error) {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("mazebot daily|" + s.GuildID + "|" + date.String()))
	sum := mac.Sum(nil)
	base, err := s.BaseMaze(date)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily maze of %s on %s: %w", s.GuildID, date, err)
	}
	base.Seed = uint64(binary.BigEndian.Uint32(sum[:4]))
	// A daily's shapes are presets: no picture is needed.
	id, err := mazecore.ChooseGrid(base, s.Difficulty, nil)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily maze of %s on %s: %w", s.GuildID, date, err)
	}
	return id, nil
}

// ShapeCalendar is the Shape of a daily that follows the calendar of
// shapes: a preset a weekday, the same every week (calendarShapes).
const ShapeCalendar = "calendar"

// calendarShapes are the calendar's presets, Sunday first: a star to end
// the week, a circle to begin it, and each preset once.
var calendarShapes = [7]string{"star", "circle", "diamond", "triangle", "hexagon", "ring", "heart"}

// BaseMaze is the settings' maze of date before its seed: the algorithm,
// size and loops, on the settings' grid, cut to their shape (the
// calendar's of date's weekday).
func (s DailySettings) BaseMaze(date Date) (mazecore.ID, error) {
	id := mazecore.ID{Algorithm: s.Algorithm, GridKind: s.Grid, Width: s.Size, Height: s.Size, Loops: s.Loops}
	name := s.Shape
	if name == ShapeCalendar {
		name = calendarShapes[date.Noon(time.UTC).Weekday()]
	}
	if name != "" {
		var err error
		if id.Shape, err = mazecore.ParseShape(name); err != nil {
			return id, err
		}
	}
	return id, nil
}

// DailyMaze is the maze fixed for a server's daily of a date.
type DailyMaze struct {
	GuildID string
	Date    Date
	MazeID  mazecore.ID
}

// PostState is where a day's automatic post stands.
type PostState uint8

// The post states. Stores keep their own spelling of them.
const (
	Posting PostState = iota + 1 // claimed; the post is being made
	Posted
	Failed // the post failed; it may be claimed again
)

// DailyPost is the claim on, and then the record of, one day's automatic
// post in one server. A server's date has one: that is what makes the
// post happen once.
type DailyPost struct {
	GuildID   string
	Date      Date
	ChannelID string
	MazeID    mazecore.ID
	MessageID string // "" until posted
	State     PostState
	// Attempts counts the claims. A claim is written only over the one
	// before it, so of two processes claiming at once one wins.
	Attempts int
	// Refused counts the attempts the channel refused (ErrRefused).
	Refused   int
	ClaimedAt time.Time // the last claim
}

// DailyStore keeps the daily challenge's settings, posts and results.
type DailyStore interface {
	// DailySettings returns a server's settings, or ErrNotFound.
	DailySettings(ctx context.Context, guildID string) (DailySettings, error)
	SaveDailySettings(ctx context.Context, s DailySettings) error
	// EnabledDailies lists the servers whose daily is posted.
	EnabledDailies(ctx context.Context) ([]DailySettings, error)
	// DailyPost returns a server's post of a date, or ErrNotFound.
	DailyPost(ctx context.Context, guildID string, date Date) (DailyPost, error)
	// ClaimDailyPost writes p as claim number p.Attempts: over claim
	// p.Attempts−1 of an unposted day, or as the day's first when
	// p.Attempts is 1. Otherwise it changes nothing and returns
	// ErrConflict: another process claimed first. The day keeps the maze
	// of its first claim; the channel follows the latest.
	ClaimDailyPost(ctx context.Context, p DailyPost) error
	// SetDailyPosted records the message of a claimed day, also one whose
	// latest attempt failed (an earlier one may still land); ErrConflict
	// when the day is posted already or was never claimed.
	SetDailyPosted(ctx context.Context, guildID string, date Date, messageID string) error
	// SetDailyFailed releases claim number attempt of a day whose post
	// failed, counting it in Refused when refused; ErrConflict when that
	// claim is not the day's latest or the day is not being posted.
	SetDailyFailed(ctx context.Context, guildID string, date Date, attempt int, refused bool) error
	// DailyMaze returns the maze fixed for a server's date, or ErrNotFound.
	DailyMaze(ctx context.Context, guildID string, date Date) (mazecore.ID, error)
	// FixDailyMaze records m as its server's daily of its date unless one
	// is recorded already, and returns the recorded maze: the first show
	// or claim of a day fixes its maze.
	FixDailyMaze(ctx context.Context, m DailyMaze) (mazecore.ID, error)
	// DailiesOnMaze lists every server day whose fixed daily is maze.
	DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]DailyMaze, error)
	// DayRuns returns each member's best run on a server's daily of a
	// date, best first.
	DayRuns(ctx context.Context, guildID string, date Date) ([]Run, error)
	// Totals sums each member's best daily runs over the dates from..to,
	// most days first, then least time, then fewest tiles.
	Totals(ctx context.Context, guildID string, from, to Date) ([]Total, error)
	// SolvedDates lists the dates, newest first and none after upTo, on
	// which a member finished the server's daily.
	SolvedDates(ctx context.Context, guildID, userID string, upTo Date) ([]Date, error)
	// RecapSettings returns a server's recap settings, or ErrNotFound.
	RecapSettings(ctx context.Context, guildID string) (RecapSettings, error)
	SaveRecapSettings(ctx context.Context, r RecapSettings) error
	// FirstDaily returns the earliest date whose daily maze is fixed in a
	// server, or ErrNotFound.
	FirstDaily(ctx context.Context, guildID string) (Date, error)
	// ArchiveDates lists the dates, newest first, of a server's past
	// dailies a member finished from the archive (ArchiveKey).
	ArchiveDates(ctx context.Context, guildID, userID string) ([]Date, error)
}

// Dailies runs the daily challenge.
type Dailies struct {
	store    DailyStore
	announce Announcer
	key      []byte // MazeFor's
	now      func() time.Time
	log      *slog.Logger
	// posting counts the Ticks of this process making posts: reminders
	// wait for them, so that the two together stay inside Discord's
	// global rate limit.
	posting atomic.Int32
	// turns paces the claims of every Tick of this process.
	turns *pacer
	ended endedSeasons
	// made is the latest date of each server whose post is known made:
	// every tick passes each due server, and one made needs no read.
	made madePosts
}

// madePosts is the latest date of each server whose post is known made.
// A made post stays made, so it is never read again; one date a server
// bounds the memory by the servers.
type madePosts struct {
	mu sync.Mutex
	m  map[string]Date
}

func (p *madePosts) has(guildID string, date Date) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.m[guildID]
	return ok && !d.Before(date)
}

func (p *madePosts) put(guildID string, date Date) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]Date{}
	}
	if d, ok := p.m[guildID]; !ok || d.Before(date) {
		p.m[guildID] = date
	}
}

// NewDailies runs dailies kept in s and posted through a, on the clock now,
// their mazes derived under key (MazeFor): a secret, the same in every
// process that shares s.
func NewDailies(s DailyStore, a Announcer, key []byte, now func() time.Time, log *slog.Logger) *Dailies {
	return &Dailies{store: s, announce: a, key: key, now: now, log: log, turns: newPacer(postRate)}
}

// Settings returns a server's settings: the defaults (UTC, backtracking
// 21×21, any difficulty, no loops, off) when it never set any.
func (d *Dailies) Settings(ctx context.Context, guildID string) (DailySettings, error) {
	s, err := d.store.DailySettings(ctx, guildID)
	if errors.Is(err, ErrNotFound) {
		return DailySettings{GuildID: guildID, Zone: time.UTC, Algorithm: DefaultAlgorithm, Size: DefaultSize}, nil
	}
	return s, err
}

// Date is the server's date now, in its zone: what a leaderboard needs,
// without the day's maze.
func (d *Dailies) Date(ctx context.Context, guildID string) (Date, error) {
	s, err := d.Settings(ctx, guildID)
	if err != nil {
		return Date{}, err
	}
	date, _ := s.DayAt(d.now())
	return date, nil
}

// Today is the daily running now in a server.
func (d *Dailies) Today(ctx context.Context, guildID string) (Daily, error) {
	return d.on(ctx, guildID, d.now())
}

// Show is the daily running now in a server, about to be shown: its maze
// is fixed from now on, and /solve finds it held anywhere.
func (d *Dailies) Show(ctx context.Context, guildID string) (Daily, error) {
	s, err := d.Settings(ctx, guildID)
	if err != nil {
		return Daily{}, err
	}
	day := Daily{GuildID: guildID, Language: s.Language}
	day.Date, day.Zone = s.DayAt(d.now())
	day.MazeID, err = d.fix(ctx, s, day.Date)
	return day, err
}

// Posted is the post of a server's daily of a date, once it is made
// (ok false before, or when it is not posted at all).
func (d *Dailies) Posted(ctx context.Context, guildID string, date Date) (post DailyPost, ok bool, err error) {
	post, err = d.store.DailyPost(ctx, guildID, date)
	if errors.Is(err, ErrNotFound) {
		return DailyPost{}, false, nil
	}
	if err != nil {
		return DailyPost{}, false, err
	}
	return post, post.State == Posted && post.MessageID != "", nil
}

// fix fixes the maze of a server's date: the one shown or claimed first,
// else the settings' maze. Read first: most shows find it fixed.
func (d *Dailies) fix(ctx context.Context, s DailySettings, date Date) (mazecore.ID, error) {
	if fixed, err := d.store.DailyMaze(ctx, s.GuildID, date); !errors.Is(err, ErrNotFound) {
		return fixed, err
	}
	maze, err := MazeFor(d.key, s, date)
	if err != nil {
		return mazecore.ID{}, err
	}
	return d.store.FixDailyMaze(ctx, DailyMaze{GuildID: s.GuildID, Date: date, MazeID: maze})
}

// on is the daily of a server at t. Once the day's maze is shown or its
// post claimed, it is fixed, so a settings change later that day doesn't
// move the maze under the members playing it.
func (d *Dailies) on(ctx context.Context, guildID string, t time.Time) (Daily, error) {
	s, err := d.Settings(ctx, guildID)
	if err != nil {
		return Daily{}, err
	}
	day := Daily{GuildID: guildID, Language: s.Language}
	day.Date, day.Zone = s.DayAt(t)
	fixed, err := d.store.DailyMaze(ctx, guildID, day.Date)
	switch {
	case err == nil:
		day.MazeID = fixed
	case errors.Is(err, ErrNotFound):
		if day.MazeID, err = MazeFor(d.key, s, day.Date); err != nil {
			return Daily{}, err
		}
	default:
		return Daily{}, err
	}
	return day, nil
}

// Setup turns on a server's automatic post with the settings s, and
// returns them as saved and when the next post will be made. A new zone
// waits for the end of the day running in the old one if a member may be
// playing it (its maze was shown or posted): the settings' ZonePending
// tells, and ZoneFrom when.
func (d *Dailies) Setup(ctx context.Context, s DailySettings) (DailySettings, time.Time, error) {
	now := d.now()
	s.Enabled, s.UpdatedAt = true, now
	old, err := d.Settings(ctx, s.GuildID)
	if err != nil {
		return s, time.Time{}, err
	}
	running, _ := old.DayAt(now)
	live := true
	if _, err := d.store.DailyMaze(ctx, s.GuildID, running); errors.Is(err, ErrNotFound) {
		live = false
	} else if err != nil {
		return s, time.Time{}, err
	}
	z := old.Zones().Change(s.Zone, now, live)
	s.Zone, s.PrevZone, s.ZoneFrom = z.Zone, z.Prev, z.From
	if err := d.store.SaveDailySettings(ctx, s); err != nil {
		return s, time.Time{}, err
	}
	today, _ := s.DayAt(now)
	_, err = d.store.DailyPost(ctx, s.GuildID, today)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return s, time.Time{}, err
	}
	return s, s.Schedule().Next(now, err == nil), nil
}

// TurnOff stops a server's automatic post, or says ErrNotEnabled.
func (d *Dailies) TurnOff(ctx context.Context, guildID string) error {
	s, err := d.store.DailySettings(ctx, guildID)
	if errors.Is(err, ErrNotFound) || (err == nil && !s.Enabled) {
		return ErrNotEnabled
	}
	if err != nil {
		return err
	}
	s.Enabled, s.UpdatedAt = false, d.now()
	return d.store.SaveDailySettings(ctx, s)
}

// Posting several dailies at once: hundreds of servers may post at the
// same hour, and one post after another (each a round trip to Discord)
// would take minutes. A handful at a time, claimed at most postRate a
// second by each process (pace.go), stays well inside Discord's 50
// requests a second.
const (
	postWorkers = 8
	postRate    = 40
)

// Tick posts each enabled server's daily once its local post time has
// come. It runs at start too, so a day missed while the bot was down is
// posted on its return, as long as that day is still running. The posts
// its time does not allow are left to the next Tick (pace.go).
func (d *Dailies) Tick(ctx context.Context) error {
	all, err := d.store.EnabledDailies(ctx)
	if err != nil {
		return err
	}
	now := d.now()
	var due []DailySettings
	for _, s := range all {
		if _, ok := s.Schedule().Due(now); ok {
			due = append(due, s)
		}
	}
	if len(due) > 0 {
		d.posting.Add(1)
		defer d.posting.Add(-1)
	}
	errs := fanOut(ctx, len(due), postWorkers, func(i int) error {
		if err := d.post(ctx, due[i], now); err != nil {
			return fmt.Errorf("daily of %s: %w", due[i].GuildID, err)
		}
		return nil
	})
	return leftForNextTick(d.log, "daily posts", errs)
}

// post makes a server's due post by the protocol of retry.go: claim the
// day, post with the day's nonce, record. Of the processes ticking at once
// exactly one claim succeeds; a claim that failed, crashed or hangs is
// taken over once its retry delay is over, and the nonce keeps a post that
// did land from being made twice.
func (d *Dailies) post(ctx context.Context, s DailySettings, now time.Time) error {
	date, due := s.Schedule().Due(now)
	if !due || d.made.has(s.GuildID, date) {
		return nil
	}
	claimed, err := d.claim(ctx, s, date, now)
	if err != nil || claimed == nil {
		return unclaimed(ctx, err)
	}
	return d.make(ctx, s, *claimed)
}

// claim claims a server's post of date at now, and returns the claim; nil
// when the post is made, or another attempt holds it.
func (d *Dailies) claim(ctx context.Context, s DailySettings, date Date, now time.Time) (*DailyPost, error) {
	claim := DailyPost{GuildID: s.GuildID, Date: date, ChannelID: s.ChannelID, State: Posting, Attempts: 1, ClaimedAt: now}
	switch prev, err := d.store.DailyPost(ctx, s.GuildID, date); {
	case err == nil:
		if prev.State == Posted {
			d.made.put(s.GuildID, date)
			return nil, nil
		}
		if !mayRetry(prev.Attempts, prev.Refused, prev.ClaimedAt, now) {
			return nil, nil
		}
		// The day's maze was fixed by its first claim.
		claim.MazeID, claim.Attempts, claim.Refused = prev.MazeID, prev.Attempts+1, prev.Refused
	case errors.Is(err, ErrNotFound):
		if claim.MazeID, err = d.fix(ctx, s, date); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if err := d.turns.wait(ctx); err != nil {
		return nil, errTickOver
	}
	if err := d.store.ClaimDailyPost(ctx, claim); errors.Is(err, ErrConflict) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &claim, nil
}

// make makes the post claim claimed, and records it, or releases the
// claim for a retry: whatever happens, even a post that runs out of
// time, the claim is settled (a settle that fails itself leaves the claim
// to its retry delay, as a crash does).
func (d *Dailies) make(ctx context.Context, s DailySettings, claim DailyPost) error {
	date := claim.Date
	// Claimed, the post is this call's to make: the tick's end must not
	// cut it off half-way.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimedTimeout)
	defer cancel()
	// Settling the claim must outlive the post's time: a release written
	// on a context that ended leaves the claim as if an attempt still held
	// it. Either is no error when another attempt settled it first.
	release := func(refused bool) error {
		settle, cancel := settling(ctx)
		defer cancel()
		if err := d.store.SetDailyFailed(settle, s.GuildID, date, claim.Attempts, refused); !errors.Is(err, ErrConflict) {
			return err
		}
		return nil
	}
	record := func(messageID string) error {
		settle, cancel := settling(ctx)
		defer cancel()
		if err := d.store.SetDailyPosted(settle, s.GuildID, date, messageID); err != nil && !errors.Is(err, ErrConflict) {
			return err
		}
		d.made.put(s.GuildID, date)
		return nil
	}
	day := Daily{GuildID: s.GuildID, Date: date, Zone: s.Zones().ZoneOf(date), MazeID: claim.MazeID, Language: s.Language}
	recap, err := d.recap(ctx, s.GuildID, date)
	if err != nil {
		// Without it the post would go out without yesterday's recap for
		// good: release the claim, and a later tick tries again.
		return errors.Join(fmt.Errorf("recap of %s before %s: %w", s.GuildID, date, err), release(false))
	}
	day.Recap = recap
	if day.Season, err = d.seasonEnding(ctx, s.GuildID, date); err != nil {
		// As for the recap: the card would be lost for good.
		return errors.Join(fmt.Errorf("season results of %s before %s: %w", s.GuildID, date, err), release(false))
	}
	if claim.Attempts > 1 {
		// An attempt before this one may have posted the day and died
		// before recording it, beyond the nonce's few minutes: look
		// before posting again.
		if found, err := d.announce.FindDaily(ctx, day, s.ChannelID); err != nil {
			d.log.Warn("could not look for an earlier post of the daily; posting it", "guild", s.GuildID, "date", date.String(), "err", err)
		} else if found != "" {
			d.log.Info("daily found posted by an earlier attempt; recording it", "guild", s.GuildID, "date", date.String(), "message", found)
			return record(found)
		}
	}
	messageID, err := d.announce.PostDaily(ctx, day, s.ChannelID, nonce(dailyPostKey(s.GuildID, date)))
	if messageID == "" {
		refused := errors.Is(err, ErrRefused)
		err = fmt.Errorf("post daily %s in %s (attempt %d): %w", date, s.ChannelID, claim.Attempts, err)
		ferr := release(refused)
		if refused {
			claim.Refused++
		}
		if exhausted(claim.Attempts, claim.Refused) {
			d.log.Error("daily post given up for the day", "guild", s.GuildID, "date", date.String(), "channel", s.ChannelID,
				"attempts", claim.Attempts, "refused", claim.Refused)
		}
		return errors.Join(err, ferr)
	}
	d.log.Info("daily posted", "guild", s.GuildID, "date", date.String(), "channel", s.ChannelID, "maze", claim.MazeID.String(), "attempt", claim.Attempts)
	return errors.Join(err, record(messageID))
}

// dailyPostKey names a server's daily post of a date (its nonce's key).
func dailyPostKey(guildID string, date Date) string { return "daily|" + guildID + "|" + date.String() }

// contestFor is the daily a new game on maze counts for, if the maze is
// today's daily of the game's server.
func (d *Dailies) contestFor(ctx context.Context, guildID string, maze mazecore.ID) (Key, error) {
	if guildID == "" {
		return Key{}, nil
	}
	day, err := d.Today(ctx, guildID)
	if err != nil || day.MazeID != maze {
		return Key{}, err
	}
	return day.Key(), nil
}

// Streak is the days of a member's streak as of today (StreakOf).
func (d *Dailies) Streak(ctx context.Context, guildID, userID string, today Date) (int, error) {
	s, err := d.StreakOf(ctx, guildID, userID, today)
	return s.Days, err
}

// StreakOf is a member's streak as of today, with its freezes (streak.go).
func (d *Dailies) StreakOf(ctx context.Context, guildID, userID string, today Date) (StreakState, error) {
	dates, err := d.store.SolvedDates(ctx, guildID, userID, today)
	if err != nil {
		return StreakState{}, err
	}
	return StreakOf(dates, today), nil
}

// Day ranks the best runs of a server's daily on a date.
func (d *Dailies) Day(ctx context.Context, guildID string, date Date) ([]Standing, error) {
	runs, err := d.store.DayRuns(ctx, guildID, date)
	if err != nil {
		return nil, err
	}
	return Rank(runs), nil
}

// Totals ranks the members of a server by their dailies over from..to.
func (d *Dailies) Totals(ctx context.Context, guildID string, from, to Date) ([]TotalStanding, error) {
	totals, err := d.store.Totals(ctx, guildID, from, to)
	if err != nil {
		return nil, err
	}
	return RankTotals(totals), nil
}

// DailyAward is what a won daily game earns.
type DailyAward struct {
	Number int
	Date   Date
	// Late: the day was over (its solutions open) when the run finished,
	// or the game was started on an earlier day's post: it does not count.
	Late   bool
	Streak int
	// Freezes are the streak's freezes held (StreakState.Freezes).
	Freezes int
	// Standing is the member's place of the day: their best run, which
	// may be an earlier one than this. Zero when the ranking lacks them.
	Standing Standing
	Of       int // members ranked that day
}

// award is what result earns on the daily of key.
func (d *Dailies) award(ctx context.Context, guildID string, date Date, r play.Result) (*DailyAward, error) {
	streak, err := d.StreakOf(ctx, guildID, r.UserID, date)
	if err != nil {
		return nil, err
	}
	day, err := d.Day(ctx, guildID, date)
	if err != nil {
		return nil, err
	}
	a := &DailyAward{Number: Number(date), Date: date, Streak: streak.Days, Freezes: streak.Freezes, Of: len(day)}
	for _, s := range day {
		if s.UserID == r.UserID {
			a.Standing = s
		}
	}
	return a, nil
}

// pastDaily tells whether maze was the daily of a server on a day that is
// over, and which.
func (d *Dailies) pastDaily(ctx context.Context, guildID string, maze mazecore.ID) (Date, bool, error) {
	days, err := d.store.DailiesOnMaze(ctx, maze)
	if err != nil {
		return Date{}, false, err
	}
	today, err := d.Date(ctx, guildID)
	if err != nil {
		return Date{}, false, err
	}
	for _, fixed := range days {
		if fixed.GuildID == guildID && fixed.Date.Before(today) {
			return fixed.Date, true, nil
		}
	}
	return Date{}, false, nil
}

// held is the daily that holds maze's solution, asked in guildID: the
// asking server's daily, or the running daily of any server whose day's
// maze it is. A day's maze is fixed (and so found by its ID) when it is
// first shown or claimed; before that nobody knows its ID, which only
// the keyed MazeFor makes.
//
// A day is held until its SolutionsOpen, MaxClockSkew past its end: the
// day that ended less than that ago is held too.
func (d *Dailies) held(ctx context.Context, maze mazecore.ID, guildID string, now time.Time) (*Daily, error) {
	heldOn := func(guildID string, date Date) (*Daily, error) {
		for _, t := range []time.Time{now, now.Add(-MaxClockSkew)} {
			day, err := d.on(ctx, guildID, t)
			if err != nil {
				return nil, err
			}
			if day.MazeID == maze && (date.IsZero() || day.Date == date) && now.Before(day.SolutionsOpen()) {
				return &day, nil
			}
		}
		return nil, nil
	}
	if guildID != "" {
		if day, err := heldOn(guildID, Date{}); err != nil || day != nil {
			return day, err
		}
	}
	days, err := d.store.DailiesOnMaze(ctx, maze)
	if err != nil {
		return nil, err
	}
	for _, fixed := range days {
		if fixed.GuildID == guildID {
			continue // seen above
		}
		if day, err := heldOn(fixed.GuildID, fixed.Date); err != nil || day != nil {
			return day, err
		}
	}
	return nil, nil
}
