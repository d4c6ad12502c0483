package commands

import (
	"context"
	"errors"
	"fmt"
	"time"
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
