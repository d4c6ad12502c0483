package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mazebot/mazecore"
	"mazebot/store"
)

// Poster sends and edits channel messages outside any interaction: the
// daily challenge post, an event's live leaderboard. The bot implements it
// over the REST API; tests use a fake Discord or a recorder.
type Poster interface {
	Post(ctx context.Context, channelID string, r Reply) (messageID string, err error)
	Edit(ctx context.Context, channelID, messageID string, r Reply) error
}

// Ticker is periodic background work, given the injected clock's time.
// It must be idempotent: the bot calls it at start (to catch up on what
// was due while it was down) and then every few seconds.
type Ticker func(ctx context.Context, now time.Time) error

// AddTicker registers background work.
func (r *Router) AddTicker(t Ticker) { r.tickers = append(r.tickers, t) }

// Tick runs every ticker once. A failing or panicking ticker doesn't stop
// the others; their errors are joined.
func (r *Router) Tick(ctx context.Context) error {
	now := r.deps.Now()
	var errs []error
	for i, t := range r.tickers {
		if err := runTicker(ctx, t, now); err != nil {
			errs = append(errs, fmt.Errorf("ticker %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}

func runTicker(ctx context.Context, t Ticker, now time.Time) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return t(ctx, now)
}

// GameContext decides which competition a new game on maze id counts for
// ("daily:…", "event:…"), or "" when it is none of its business.
type GameContext func(ctx context.Context, in *Interaction, id mazecore.ID) (string, error)

// FinishHook runs after a won game's finish is stored, and may return lines
// to add to the result message (a share line, a rank). Its errors are
// logged; they never undo the finish.
type FinishHook func(ctx context.Context, in *Interaction, f store.Finish) ([]string, error)

// AddGameContext registers a resolver; the first non-empty answer wins.
func (r *Router) AddGameContext(c GameContext) { r.deps.gameContexts = append(r.deps.gameContexts, c) }

// AddFinishHook registers a hook run on every won game.
func (r *Router) AddFinishHook(h FinishHook) { r.deps.finishHooks = append(r.deps.finishHooks, h) }

func gameContext(ctx context.Context, in *Interaction, id mazecore.ID) (string, error) {
	for _, resolve := range in.Deps.gameContexts {
		c, err := resolve(ctx, in, id)
		if err != nil {
			return "", err
		}
		if c != "" {
			return c, nil
		}
	}
	return "", nil
}

func runFinishHooks(ctx context.Context, in *Interaction, f store.Finish) []string {
	var lines []string
	for _, hook := range in.Deps.finishHooks {
		more, err := hook(ctx, in, f)
		if err != nil {
			in.Deps.Logger.Error("finish hook", "maze", f.MazeID, "user", f.UserID, "err", err)
			continue
		}
		lines = append(lines, more...)
	}
	return lines
}
