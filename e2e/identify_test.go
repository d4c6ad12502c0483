package e2e

// The identify rate limit (issue 16 rows 15 and 16), against a fake
// Discord that enforces it: Discord allows one IDENTIFY per rate-limit
// bucket every 5 s (identifyInterval here), counts 1,000 a day and resets
// the bot's token beyond that.

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mazebot/app"
	"mazebot/internal/fakediscord"
)

// checkIdentifies checks the IDENTIFYs recs: each accepted at its first
// try, n of them, each bucket's at least interval apart.
func checkIdentifies(t *testing.T, recs []fakediscord.IdentifyRecord, n int, interval time.Duration) {
	t.Helper()
	if len(recs) != n {
		refused := 0
		for _, r := range recs {
			if r.TooSoon {
				refused++
			}
		}
		t.Fatalf("%d IDENTIFYs (%d too soon in their bucket), want %d", len(recs), refused, n)
	}
	last := map[int]time.Time{}
	for _, r := range recs {
		if r.SessionID == "" || r.TooSoon {
			t.Fatalf("IDENTIFY %+v: want each accepted at its first try", r)
		}
		if prev, ok := last[r.Bucket]; ok && r.Time.Sub(prev) < interval {
			t.Fatalf("bucket %d identified %v after its last IDENTIFY, want at least %v", r.Bucket, r.Time.Sub(prev), interval)
		}
		last[r.Bucket] = r.Time
	}
}

// TestE2EIdentifyAfterInvalidSession (row 15): when Discord invalidates
// every session (a RESUME is refused with op 9), the shards identify
// again one per bucket per interval: none is refused for the rate limit,
// where discordgo alone sends hundreds of IDENTIFYs a second.
func TestE2EIdentifyAfterInvalidSession(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ shards, maxConcurrency int }{{2, 1}, {4, 2}} {
		t.Run(fmt.Sprintf("OK%dShards", tc.shards), func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			const interval = identifyInterval // as in TestE2EShards
			fake.SetSharding(fakediscord.Sharding{Shards: tc.shards, MaxConcurrency: tc.maxConcurrency, IdentifyInterval: interval, EnforceIdentifyLimit: true})
			fake.launchOptions(t, fake.config(newDBFile(t)), app.Options{IdentifyInterval: interval})
			checkIdentifies(t, fake.IdentifyLog(), tc.shards, interval)

			for round := range 2 {
				before := len(fake.IdentifyLog())
				fake.InvalidateSession()
				err := fake.WaitReady(testContext(t))
				checkIdentifies(t, fake.IdentifyLog()[before:], tc.shards, interval)
				if err != nil {
					t.Fatalf("after invalidation %d: %v", round+1, err)
				}
			}
			if err := fake.WaitReady(testContext(t)); err != nil {
				t.Fatal(err)
			}
			fake.mazeOnEveryShard(t, tc.shards)
		})
	}
}

// TestE2EIdentifyTurnFromTheFuture (row 16): a process whose clock was
// ahead (2 minutes, or a day) left a turn in the identify table; a process
// with a true clock that starts on the database waits one turn at most,
// not until that turn's time, and so does every later start.
func TestE2EIdentifyTurnFromTheFuture(t *testing.T) {
	t.Parallel()
	for _, ahead := range []time.Duration{2 * time.Minute, 24 * time.Hour} {
		t.Run(fmt.Sprintf("OK%vAhead", ahead), func(t *testing.T) {
			t.Parallel()
			fake := newDiscord(t)
			const interval = identifyInterval
			fake.SetSharding(fakediscord.Sharding{IdentifyInterval: interval, EnforceIdentifyLimit: true})
			dbPath := newDBFile(t)
			ctx := testContext(t)
			db, err := openDB(ctx, dbPath)
			if err != nil {
				t.Fatal(err)
			}
			err = db.claimIdentify(ctx, 0, time.Now().Add(ahead), interval)
			if cerr := db.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			// One turn is the interval and a margin of a fifth of it at
			// most; the rest is a start under -race on a busy machine.
			const budget = 2*interval + 3*time.Second
			cfg := fake.config(dbPath)
			for start := range 2 {
				began := time.Now()
				a := fake.runApp(t, cfg, app.Options{IdentifyInterval: interval})
				wait, cancel := context.WithTimeout(context.Background(), budget)
				err := fake.WaitReady(wait)
				cancel()
				if err != nil {
					t.Fatalf("start %d: not identified within %v of starting (a turn %v ahead in the database): %v", start+1, budget, ahead, err)
				}
				t.Logf("start %d identified %v after it began", start+1, time.Since(began).Round(time.Millisecond))
				a.stop()
				fake.waitIdentifyWindow(interval)
			}
		})
	}
}
