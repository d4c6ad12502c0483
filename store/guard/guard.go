package guard

import (
	"context"
	"errors"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/metrics"
	"mazebot/play"
	"mazebot/store"
)

// Timeout is the default bound on one store call. A handler stops at its
// first failing call, so even a database that hangs leaves an interaction
// time for its apology; a healthy one answers in milliseconds.
const Timeout = 5 * time.Second

// Store is everything mazebot keeps: the domain's stores, the play-button
// secret, and the database's health and lifetime.
type Store = store.DB

// Wrap bounds every call of s by timeout (Timeout when zero) and reports
// its failures to m.
func Wrap(s Store, m metrics.Store, timeout time.Duration) Store {
	if timeout <= 0 {
		timeout = Timeout
	}
	if m == nil {
		m = metrics.Nop{}
	}
	return &guarded{s: s, m: m, timeout: timeout}
}

type guarded struct {
	s       Store
	m       metrics.Store
	timeout time.Duration
}

// get runs one call of op under the deadline and reports its failure.
func get[T any](g *guarded, ctx context.Context, op string, call func(context.Context) (T, error)) (T, error) {
	bounded, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	v, err := call(bounded)
	if failed(ctx, err) {
		g.m.StoreError(op)
	}
	return v, err
}

func do(g *guarded, ctx context.Context, op string, call func(context.Context) error) error {
	_, err := get(g, ctx, op, func(ctx context.Context) (struct{}, error) { return struct{}{}, call(ctx) })
	return err
}

// failed tells a store failure from the contract's answers, and from a
// caller that gave up (shutdown, its own deadline): only the first is the
// database's fault. The guard's own deadline passing is.
func failed(caller context.Context, err error) bool {
	return err != nil && !errors.Is(err, play.ErrNotFound) && !errors.Is(err, play.ErrConflict) && caller.Err() == nil
}

func (g *guarded) CreateGame(ctx context.Context, rec play.Record) (int64, error) {
	return get(g, ctx, "CreateGame", func(ctx context.Context) (int64, error) { return g.s.CreateGame(ctx, rec) })
}

func (g *guarded) Game(ctx context.Context, id int64) (play.Record, error) {
	return get(g, ctx, "Game", func(ctx context.Context) (play.Record, error) { return g.s.Game(ctx, id) })
}

func (g *guarded) SaveGame(ctx context.Context, rec play.Record) error {
	return do(g, ctx, "SaveGame", func(ctx context.Context) error { return g.s.SaveGame(ctx, rec) })
}

func (g *guarded) DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error) {
	return get(g, ctx, "DeleteGamesBefore", func(ctx context.Context) (int64, error) { return g.s.DeleteGamesBefore(ctx, t) })
}

func (g *guarded) DailySettings(ctx context.Context, guildID string) (contest.DailySettings, error) {
	return get(g, ctx, "DailySettings", func(ctx context.Context) (contest.DailySettings, error) { return g.s.DailySettings(ctx, guildID) })
}

func (g *guarded) SaveDailySettings(ctx context.Context, s contest.DailySettings) error {
	return do(g, ctx, "SaveDailySettings", func(ctx context.Context) error { return g.s.SaveDailySettings(ctx, s) })
}

func (g *guarded) EnabledDailies(ctx context.Context) ([]contest.DailySettings, error) {
	return get(g, ctx, "EnabledDailies", g.s.EnabledDailies)
}

func (g *guarded) DailyPost(ctx context.Context, guildID string, date contest.Date) (contest.DailyPost, error) {
	return get(g, ctx, "DailyPost", func(ctx context.Context) (contest.DailyPost, error) { return g.s.DailyPost(ctx, guildID, date) })
}

func (g *guarded) ClaimDailyPost(ctx context.Context, p contest.DailyPost) error {
	return do(g, ctx, "ClaimDailyPost", func(ctx context.Context) error { return g.s.ClaimDailyPost(ctx, p) })
}

func (g *guarded) SetDailyPosted(ctx context.Context, guildID string, date contest.Date, messageID string) error {
	return do(g, ctx, "SetDailyPosted", func(ctx context.Context) error { return g.s.SetDailyPosted(ctx, guildID, date, messageID) })
}

func (g *guarded) SetDailyFailed(ctx context.Context, guildID string, date contest.Date, attempt int, refused bool) error {
	return do(g, ctx, "SetDailyFailed", func(ctx context.Context) error { return g.s.SetDailyFailed(ctx, guildID, date, attempt, refused) })
}

func (g *guarded) DayRuns(ctx context.Context, guildID string, date contest.Date) ([]contest.Run, error) {
	return get(g, ctx, "DayRuns", func(ctx context.Context) ([]contest.Run, error) { return g.s.DayRuns(ctx, guildID, date) })
}

func (g *guarded) Totals(ctx context.Context, guildID string, from, to contest.Date) ([]contest.Total, error) {
	return get(g, ctx, "Totals", func(ctx context.Context) ([]contest.Total, error) { return g.s.Totals(ctx, guildID, from, to) })
}

func (g *guarded) SolvedDates(ctx context.Context, guildID, userID string, upTo contest.Date) ([]contest.Date, error) {
	return get(g, ctx, "SolvedDates", func(ctx context.Context) ([]contest.Date, error) { return g.s.SolvedDates(ctx, guildID, userID, upTo) })
}

func (g *guarded) DailyMaze(ctx context.Context, guildID string, date contest.Date) (mazecore.ID, error) {
	return get(g, ctx, "DailyMaze", func(ctx context.Context) (mazecore.ID, error) { return g.s.DailyMaze(ctx, guildID, date) })
}

func (g *guarded) FixDailyMaze(ctx context.Context, m contest.DailyMaze) (mazecore.ID, error) {
	return get(g, ctx, "FixDailyMaze", func(ctx context.Context) (mazecore.ID, error) { return g.s.FixDailyMaze(ctx, m) })
}

func (g *guarded) DailiesOnMaze(ctx context.Context, maze mazecore.ID) ([]contest.DailyMaze, error) {
	return get(g, ctx, "DailiesOnMaze", func(ctx context.Context) ([]contest.DailyMaze, error) { return g.s.DailiesOnMaze(ctx, maze) })
}

func (g *guarded) CreateEvent(ctx context.Context, e contest.Event) (int64, error) {
	return get(g, ctx, "CreateEvent", func(ctx context.Context) (int64, error) { return g.s.CreateEvent(ctx, e) })
}

func (g *guarded) SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error {
	return do(g, ctx, "SetEventMessages", func(ctx context.Context) error {
		return g.s.SetEventMessages(ctx, id, mazeMessageID, boardMessageID)
	})
}

func (g *guarded) DeleteEvent(ctx context.Context, id int64) error {
	return do(g, ctx, "DeleteEvent", func(ctx context.Context) error { return g.s.DeleteEvent(ctx, id) })
}

func (g *guarded) Event(ctx context.Context, id int64) (contest.Event, error) {
	return get(g, ctx, "Event", func(ctx context.Context) (contest.Event, error) { return g.s.Event(ctx, id) })
}

func (g *guarded) RunningEvent(ctx context.Context, channelID string) (contest.Event, error) {
	return get(g, ctx, "RunningEvent", func(ctx context.Context) (contest.Event, error) { return g.s.RunningEvent(ctx, channelID) })
}

func (g *guarded) RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (contest.Event, error) {
	return get(g, ctx, "RunningEventOnMaze", func(ctx context.Context) (contest.Event, error) { return g.s.RunningEventOnMaze(ctx, maze) })
}

func (g *guarded) RunningEvents(ctx context.Context) ([]contest.Event, error) {
	return get(g, ctx, "RunningEvents", g.s.RunningEvents)
}

func (g *guarded) EndEvent(ctx context.Context, id int64, at time.Time) error {
	return do(g, ctx, "EndEvent", func(ctx context.Context) error { return g.s.EndEvent(ctx, id, at) })
}

func (g *guarded) MarkBoardDirty(ctx context.Context, id int64) error {
	return do(g, ctx, "MarkBoardDirty", func(ctx context.Context) error { return g.s.MarkBoardDirty(ctx, id) })
}

func (g *guarded) ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error {
	return do(g, ctx, "ClaimBoardEdit", func(ctx context.Context) error { return g.s.ClaimBoardEdit(ctx, id, prev, now) })
}

func (g *guarded) SetBoardEdited(ctx context.Context, id int64, at time.Time) error {
	return do(g, ctx, "SetBoardEdited", func(ctx context.Context) error { return g.s.SetBoardEdited(ctx, id, at) })
}

func (g *guarded) EventRuns(ctx context.Context, key contest.Key, until time.Time) ([]contest.Run, error) {
	return get(g, ctx, "EventRuns", func(ctx context.Context) ([]contest.Run, error) { return g.s.EventRuns(ctx, key, until) })
}

func (g *guarded) AddPost(ctx context.Context, p contest.Post) error {
	return do(g, ctx, "AddPost", func(ctx context.Context) error { return g.s.AddPost(ctx, p) })
}

func (g *guarded) LastPost(ctx context.Context, channelID string) (contest.Post, error) {
	return get(g, ctx, "LastPost", func(ctx context.Context) (contest.Post, error) { return g.s.LastPost(ctx, channelID) })
}

func (g *guarded) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	return get(g, ctx, "Secret", func(ctx context.Context) ([]byte, error) { return g.s.Secret(ctx, key, generate) })
}

func (g *guarded) Ping(ctx context.Context) error {
	return do(g, ctx, "Ping", g.s.Ping)
}

func (g *guarded) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	return get(g, ctx, "FirstSeen", func(ctx context.Context) (bool, error) { return g.s.FirstSeen(ctx, id, at) })
}

func (g *guarded) ForgetSeen(ctx context.Context, before time.Time) (int64, error) {
	return get(g, ctx, "ForgetSeen", func(ctx context.Context) (int64, error) { return g.s.ForgetSeen(ctx, before) })
}

func (g *guarded) ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (time.Time, bool, error) {
	type turn struct {
		free time.Time
		ok   bool
	}
	t, err := get(g, ctx, "ClaimIdentify", func(ctx context.Context) (turn, error) {
		free, ok, err := g.s.ClaimIdentify(ctx, bucket, at, window)
		return turn{free, ok}, err
	})
	return t.free, t.ok, err
}

func (g *guarded) ClosingEvents(ctx context.Context) ([]contest.Event, error) {
	return get(g, ctx, "ClosingEvents", func(ctx context.Context) ([]contest.Event, error) { return g.s.ClosingEvents(ctx) })
}

func (g *guarded) ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error {
	return do(g, ctx, "ClaimClosing", func(ctx context.Context) error { return g.s.ClaimClosing(ctx, id, attempt, at) })
}

func (g *guarded) SetClosingDone(ctx context.Context, id int64, steps contest.EndSteps) error {
	return do(g, ctx, "SetClosingDone", func(ctx context.Context) error { return g.s.SetClosingDone(ctx, id, steps) })
}

func (g *guarded) AddClosingRefusal(ctx context.Context, id int64) error {
	return do(g, ctx, "AddClosingRefusal", func(ctx context.Context) error { return g.s.AddClosingRefusal(ctx, id) })
}

func (g *guarded) SetClosed(ctx context.Context, id int64) error {
	return do(g, ctx, "SetClosed", func(ctx context.Context) error { return g.s.SetClosed(ctx, id) })
}

// Close is not bounded: it waits for the calls in flight, each bounded.
func (g *guarded) Close() error { return g.s.Close() }
