package contest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Scheduled work at scale: a tick may find more to do than it has time
// for (ten thousand servers whose day turns at one minute take minutes at
// Discord's pace). Each tick then does what its time allows and the next
// goes on from there, so:
//
//   - what is paced is the work that goes to Discord, not the looking:
//     a tick walks the servers done already in a moment, and spends its
//     time on those still to do (a tick that paced every server, done or
//     not, walked the same first thousand each time and never got past
//     them);
//   - once claimed, a post or a crowning runs to its end on a time of its
//     own (claimedTimeout), past the tick's: cut half-way it would hold
//     its claim until the retry delay, and a crowning would be lost for
//     the season;
//   - ticks running at once in one process (the bot's loop, a test's
//     Tick) share one pacer, so that together they keep its rate;
//   - a tick's end leaving work to the next is the schedule working, not
//     a failure: the tick says so in one line (leftForNextTick), where
//     each post it cut short was an error ("context deadline exceeded")
//     every tick of a backlog.

// claimedTimeout bounds a claimed post or crowning, past the end of the
// tick that claimed it. A variable for the tests of a post that hangs.
var claimedTimeout = 30 * time.Second

// settleTimeout bounds the store write that settles a claimed post
// (recorded, or released for a retry) once the post's own time is over:
// a claim left behind by a post cut short is released at once, not held
// as if an attempt were still making it.
const settleTimeout = 5 * time.Second

// settling is a context for settling a claim whose work ran on ctx,
// which may have ended.
func settling(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
}

// errTickOver marks work a tick left to the next: not started, or cut
// short before its claim, when the tick's time ran out.
var errTickOver = errors.New("left for the next tick")

// unclaimed is err of a tick's work on ctx before its claim: errTickOver
// when the tick's end caused it. Past the claim the work runs on a time
// of its own, and its errors are failures.
func unclaimed(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(err, errTickOver) {
		return fmt.Errorf("%w: %w", errTickOver, err)
	}
	return err
}

// leftForNextTick sorts the errors of a tick's work: the work the tick's
// end left to the next (errTickOver) is counted and logged in one line as
// what, and the other errors are returned, joined.
func leftForNextTick(log *slog.Logger, what string, errs []error) error {
	left := 0
	var rest []error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, errTickOver):
			left++
		default:
			rest = append(rest, err)
		}
	}
	if left > 0 {
		log.Info("scheduled work left for the next tick", "what", what, "left", left, "of", len(errs))
	}
	return errors.Join(rest...)
}

// pacer hands out turns at most rate a second, in the order they are
// asked for, to any number of goroutines.
type pacer struct {
	interval time.Duration

	mu   sync.Mutex
	next time.Time // when the next turn comes
}

func newPacer(rate int) *pacer { return &pacer{interval: time.Second / time.Duration(rate)} }

// wait takes the next turn and returns when it comes, or ctx's error when
// ctx ends first (the turn is lost then).
func (p *pacer) wait(ctx context.Context) error {
	p.mu.Lock()
	now := time.Now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.interval)
	p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	d := time.Until(at)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fanOut runs do(0) … do(n−1) on a few workers until all have run or ctx
// ends, and returns their errors (nil for those that went well,
// errTickOver for those never started). do paces itself.
func fanOut(ctx context.Context, n, workers int, do func(i int) error) []error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				errs[i] = do(i)
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			for j := i; j < n; j++ {
				errs[j] = errTickOver
			}
			break feed
		}
	}
	close(next)
	wg.Wait()
	return errs
}

// paced is fanOut with do started at most rate a second.
func paced(ctx context.Context, n, workers, rate int, do func(i int) error) []error {
	p := newPacer(rate)
	return fanOut(ctx, n, workers, func(i int) error {
		if p.wait(ctx) != nil {
			return errTickOver
		}
		return do(i)
	})
}
