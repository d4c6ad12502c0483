package commands

import (
	"context"
	"log/slog"
	"time"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/metrics"
	"mazebot/play"
)

// Store is what the features keep: games, dailies, events and posts.
type Store interface {
	play.Store
	contest.DailyStore
	contest.ReminderStore
	contest.EventStore
	contest.Posts
}

// Deps is what the features are built on: the store, Discord's side of
// scheduled posts, the keys, the clock and where to report.
type Deps struct {
	Store  Store
	Poster Poster
	Guilds Guilds
	// PlaySecret signs the play buttons; DailyKey derives the dailies'
	// mazes. Every process sharing the store uses the same ones.
	PlaySecret []byte
	DailyKey   []byte
	Now        func() time.Time
	Seed       func() uint64 // the seeds of random mazes
	// Log is the process's logger; the features log With their component.
	Log      *slog.Logger
	Metrics  Metrics         // nil: none
	Pictures pictures.Config // Metrics fills its Metrics when unset
	// Replays runs each interaction once however often it is delivered;
	// nil runs every delivery (feature tests, which repeat ids).
	Replays bot.ReplayGuard
	// AutoDeferAfter is when a slow handler is deferred for it; zero is
	// DefaultAutoDefer, negative never.
	AutoDeferAfter time.Duration
	// Extra features (test-only commands) are routed after mazebot's own.
	Extra []bot.Feature
	// Races launches Maze Arena's races; nil when it is off.
	Races Races
}

// Metrics is what the features report into.
type Metrics interface {
	metrics.Interactions
	metrics.Render
}

// DefaultAutoDefer defers a handler still working after 1.5 s, well
// inside Discord's 3 s.
const DefaultAutoDefer = 1500 * time.Millisecond

// Set is the features wired together: the router that answers
// interactions, the scheduled work, and the parts the wiring and tests
// reach for.
type Set struct {
	Router   *bot.Router
	Tickers  []bot.Ticker
	Contests contest.Contests
	Games    *contest.Games
	Pictures *pictures.Queue
	Mazes    *Mazes
}

// New builds every feature on deps and stacks the router's middleware:
// the one place the features are put together, for the bot and for the
// features' tests.
func New(deps Deps) (*Set, error) {
	sign, err := customid.NewSigner(deps.PlaySecret)
	if err != nil {
		return nil, err
	}
	if deps.Metrics == nil {
		deps.Metrics = metrics.Nop{}
	}
	if deps.Pictures.Metrics == nil {
		deps.Pictures.Metrics = deps.Metrics
	}
	if deps.Pictures.Small == nil {
		deps.Pictures.Small = views.Side(bigSide)
	}
	if deps.AutoDeferAfter == 0 {
		deps.AutoDeferAfter = DefaultAutoDefer
	}
	log := deps.Log.With("component", "commands")
	q := pictures.New(deps.Pictures, deps.Now)
	announcer := NewAnnouncer(deps.Poster, deps.Guilds, deps.Store, q, deps.Now)
	contestLog := deps.Log.With("component", "contest")
	contests := contest.Contests{
		Dailies: contest.NewDailies(deps.Store, announcer, deps.DailyKey, deps.Now, contestLog),
		Events:  contest.NewEvents(deps.Store, announcer, deps.Now, contestLog),
	}
	games := contest.NewGames(deps.Store, deps.Now, contests, contestLog)
	mazes := NewMazes(deps.Store, contests, q, deps.Seed, deps.Now)
	playing := NewPlay(games, sign, q, deps.Seed)
	daily := NewDaily(contests.Dailies, deps.Store, q, deps.Now)
	reminders := contest.NewReminders(contests.Dailies, deps.Store, announcer, deps.Now, contestLog)
	daily.reminders = reminders
	// Race buttons only where a race can start: an Activity to launch.
	race := deps.Races != nil
	announcer.race, mazes.race, daily.race = race, race, race
	features := append([]bot.Feature{
		mazes,
		playing,
		NewEvents(contests.Events, deps.Seed),
		daily,
		NewHelp(mazes, playing, daily),
		NewRace(deps.Races, contests.Dailies),
	}, deps.Extra...)
	router := bot.NewRouter(log, features...)
	if deps.AutoDeferAfter > 0 {
		router.Use(bot.AutoDefer(deps.AutoDeferAfter, log))
	}
	if deps.Replays != nil {
		router.Use(bot.Replays(deps.Replays, log))
	}
	// The closed-DM notice follows a reply that went well, inside the
	// error reply, which must come first when the handler failed.
	router.Use(bot.Logged(log), bot.Metrics(deps.Metrics), bot.ErrorReply(log), ClosedDMNotice(reminders, log), bot.Recover(log))
	tickers := []bot.Ticker{
		{Name: "game cleanup", Run: func(ctx context.Context) error {
			n, err := games.Cleanup(ctx)
			if n > 0 {
				log.Info("deleted old games", "count", n)
			}
			return err
		}},
		{Name: "events", Run: contests.Events.Tick},
		{Name: "daily posts", Run: contests.Dailies.Tick},
		{Name: "streak reminders", Run: reminders.Tick},
	}
	if deps.Replays != nil {
		tickers = append(tickers, bot.Ticker{Name: "replay guard cleanup", Run: func(ctx context.Context) error {
			_, err := deps.Replays.ForgetSeen(ctx, time.Now().Add(-bot.ReplayWindow))
			return err
		}})
	}
	return &Set{Router: router, Tickers: tickers, Contests: contests, Games: games, Pictures: q, Mazes: mazes}, nil
}
