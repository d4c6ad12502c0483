package discord

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"mazebot/bot"
)

// tickLoop runs scheduled work now (catching up on what fell due while the
// bot was down) and then every TickEvery, until ctx ends: each ticker on
// a schedule of its own, so that one with a backlog (a thousand
// reminders at Discord's pace) does not make another (the daily posts)
// late. Scheduled work counts as in flight, so shutdown waits for a post
// being made.
func (b *Bot) tickLoop(ctx context.Context) {
	var wg, first sync.WaitGroup
	first.Add(len(b.tickers))
	for _, t := range b.tickers {
		wg.Go(func() { b.tickerLoop(ctx, t, first.Done) })
	}
	first.Wait()
	b.log.Debug("scheduled work done")
	wg.Wait()
}

// tickerLoop runs one ticker now and then every TickEvery, each run with
// the handler timeout, until ctx ends; firstDone is called after the
// first run.
func (b *Bot) tickerLoop(ctx context.Context, t bot.Ticker, firstDone func()) {
	ticker := time.NewTicker(b.cfg.TickEvery)
	defer ticker.Stop()
	for {
		if b.begin() {
			tctx, cancel := context.WithTimeout(b.work, b.cfg.HandlerTimeout)
			if err := runTicker(tctx, t); err != nil {
				b.log.Error("scheduled work", "err", fmt.Errorf("%s: %w", t.Name, err))
			}
			cancel()
			b.inflight.Done()
		}
		if firstDone != nil {
			firstDone()
			firstDone = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// Tick runs every ticker once, now; their errors are joined. Each has the
// handler timeout to itself: one slow ticker (a big hour of daily posts)
// does not leave the next without time. The loop calls it, and so can a
// test that moves a clock.
func (b *Bot) Tick(ctx context.Context) error {
	var errs []error
	for _, t := range b.tickers {
		tctx, cancel := context.WithTimeout(ctx, b.cfg.HandlerTimeout)
		if err := runTicker(tctx, t); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Name, err))
		}
		cancel()
	}
	return errors.Join(errs...)
}

// runTicker runs one ticker: a failing or panicking one doesn't stop the
// others.
func runTicker(ctx context.Context, t bot.Ticker) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return t.Run(ctx)
}
