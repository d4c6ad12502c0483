package contest

import (
	"context"
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
//     Tick) share one pacer, so that together they keep its rate.

// claimedTimeout bounds a claimed post or crowning, past the end of the
// tick that claimed it.
const claimedTimeout = 30 * time.Second

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
// ends, and returns their errors (nil for those that went well or never
// started). do paces itself.
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
			return nil // never started
		}
		return do(i)
	})
}
