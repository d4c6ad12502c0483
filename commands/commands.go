package commands

import (
	"context"
	"errors"
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
	play.RunCleaner // the ghosts' runs: the game cleanup deletes them too
	contest.DailyStore
	contest.ReminderStore
	contest.ChampionStore
	contest.EventStore
	contest.Posts
	Images
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
	// Arena says Maze Arena is set up: cards and posts offer Race
	// (views.Setup, which Setup makes).
	Arena bool
	// Races launches Maze Arena's races; needed by New when Arena is set.
	Races Races
	// Attachments fetches the files members attach to commands (/maze
	// image:); nil fetches from Discord's CDN only.
	Attachments AttachmentFetcher
	// Roles hands the champion roles on (champion.go); nil hands none.
	Roles Roles
	// Domain is the services the features share, which the wiring builds
	// once with NewDomain (and hands Maze Arena too); New needs it.
	Domain *Domain
}

// Setup is the configuration the maze cards' buttons depend on, given
// to every feature that shows a maze when it is built.
func (deps Deps) Setup() views.Setup { return views.Setup{Arena: deps.Arena} }

// Metrics is what the features report into.
type Metrics interface {
	metrics.Interactions
	metrics.Render
}

// DefaultAutoDefer defers a handler still working after 1.5 s, well
// inside Discord's 3 s.
const DefaultAutoDefer = 1500 * time.Millisecond

// Domain is the services the Discord features and Maze Arena share: the
// dailies and events, the games played on them, the streak reminders,
// the picture queue, and the announcer that posts for the contests.
type Domain struct {
	Contests  contest.Contests
	Games     *contest.Games
	Reminders *contest.Reminders // /daily remind's, sent by DM
	Champions *contest.Champions // the champion roles, handed on by Deps.Roles
	Pictures  *pictures.Queue
	Announcer *Announcer
	// Grids makes the maze of a version 3 ID, an image's shape read from
	// the store: what Maze Arena races an image's maze on.
	Grids play.Grids
}

// NewDomain builds the domain on deps' store, poster, keys, clock and
// metrics, once per process: the wiring passes it to New and to Maze
// Arena. The announcer's posts have the buttons deps.Setup makes.
func NewDomain(deps Deps) *Domain {
	pcfg := deps.Pictures
	if pcfg.Metrics == nil {
		pcfg.Metrics = deps.Metrics
	}
	if pcfg.Metrics == nil {
		pcfg.Metrics = metrics.Nop{}
	}
	if pcfg.Small == nil {
		pcfg.Small = views.Side(bigSide)
	}
	q := pictures.New(pcfg, deps.Now)
	announcer := NewAnnouncer(deps.Poster, deps.Guilds, deps.Store, q, deps.Now, deps.Setup())
	announcer.images = deps.Store
	log := deps.Log.With("component", "contest")
	contests := contest.Contests{
		Dailies: contest.NewDailies(deps.Store, announcer, deps.DailyKey, deps.Now, log),
		Events:  contest.NewEvents(deps.Store, announcer, deps.Now, log),
	}
	return &Domain{
		Contests:  contests,
		Games:     contest.NewGames(deps.Store, deps.Now, contests, log, play.WithGrids(gridMazes(deps.Store)), play.WithRuns(deps.Store)),
		Reminders: contest.NewReminders(contests.Dailies, deps.Store, announcer, deps.Now, log),
		Champions: contest.NewChampions(contests.Dailies, deps.Store, discordRoles{deps.Roles}, deps.Now, log),
		Pictures:  q,
		Announcer: announcer,
		Grids:     gridMazes(deps.Store),
	}
}

// ServerLanguage is the code of the language a server's posts are in:
// its daily's, as /daily setup stored it, else its primary language in
// Discord (English when Discord cannot say), as the Announcer's posts.
func (d *Domain) ServerLanguage(ctx context.Context, guildID string) string {
	stored := ""
	if s, err := d.Contests.Dailies.Settings(ctx, guildID); err == nil {
		stored = s.Language
	}
	return d.Announcer.language(ctx, guildID, stored)
}

// Set is the features wired together: the router that answers
// interactions, the scheduled work, and /maze's feature, which tests
// reach for.
type Set struct {
	Router  *bot.Router
	Tickers []bot.Ticker
	Mazes   *Mazes
}

// New builds every feature on deps and its Domain and stacks the
// router's middleware: the one place the features are put together, for
// the bot and for the features' tests.
func New(deps Deps) (*Set, error) {
	sign, err := customid.NewSigner(deps.PlaySecret)
	if err != nil {
		return nil, err
	}
	if deps.Domain == nil {
		return nil, errors.New("commands: no Domain (NewDomain builds it)")
	}
	if deps.Arena && deps.Races == nil {
		return nil, errors.New("commands: Maze Arena is set up but nothing launches its races")
	}
	if deps.Metrics == nil {
		deps.Metrics = metrics.Nop{}
	}
	if deps.AutoDeferAfter == 0 {
		deps.AutoDeferAfter = DefaultAutoDefer
	}
	log := deps.Log.With("component", "commands")
	contests, games, q, reminders := deps.Domain.Contests, deps.Domain.Games, deps.Domain.Pictures, deps.Domain.Reminders
	mazes := NewMazes(deps.Store, contests, q, deps.Seed, deps.Now, deps.Setup())
	mazes.images, mazes.attachments = deps.Store, deps.Attachments
	if mazes.attachments == nil {
		mazes.attachments = bot.NewAttachments(nil)
	}
	events := NewEvents(contests.Events, deps.Seed)
	events.shapes = mazes
	playing := NewPlay(games, sign, q, deps.Seed)
	playing.images = deps.Store
	daily := NewDaily(contests.Dailies, reminders, deps.Store, q, deps.Now, deps.Setup())
	archive := NewArchive(contests.Dailies, games, playing, q)
	daily.archive, daily.champions = archive, deps.Domain.Champions
	var races Races
	if deps.Arena {
		races = deps.Races
	}
	features := append([]bot.Feature{
		mazes,
		playing,
		events,
		daily,
		archive,
		NewProfile(contests),
		NewHelp(mazes, playing, daily),
		NewRace(races, contests.Dailies, deps.Seed),
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
	router.Use(bot.Logged(log), bot.Metrics(deps.Metrics), bot.ErrorReply(log), ClosedDMNotice(reminders, log),
		ChampionRoleNotice(deps.Domain.Champions, deps.Store, log), bot.Recover(log))
	tickers := []bot.Ticker{
		{Name: "game cleanup", Run: func(ctx context.Context) error {
			done, err := games.Cleanup(ctx)
			if done.Games > 0 || done.Runs > 0 {
				log.Info("deleted old games and runs", "games", done.Games, "runs", done.Runs)
			}
			return err
		}},
		{Name: "events", Run: contests.Events.Tick},
		{Name: "daily posts", Run: contests.Dailies.Tick},
		{Name: "streak reminders", Run: reminders.Tick},
	}
	if deps.Roles != nil {
		tickers = append(tickers, bot.Ticker{Name: "champion roles", Run: deps.Domain.Champions.Tick})
	}
	if deps.Replays != nil {
		tickers = append(tickers, bot.Ticker{Name: "replay guard cleanup", Run: func(ctx context.Context) error {
			_, err := deps.Replays.ForgetSeen(ctx, time.Now().Add(-bot.ReplayWindow))
			return err
		}})
	}
	return &Set{Router: router, Tickers: tickers, Mazes: mazes}, nil
}
