package discord

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MaxShards bounds DISCORD_SHARD_COUNT and the shard ids, so that a typo
// such as 0-99999999 is an error at start rather than millions of
// sessions.
const MaxShards = 1 << 16

// DefaultIdentifyInterval is Discord's identify rate limit: one IDENTIFY
// per rate-limit bucket (shard_id % max_concurrency) every 5 seconds.
const DefaultIdentifyInterval = 5 * time.Second

// ParseShardCount reads DISCORD_SHARD_COUNT: "auto" (or nothing) is 0,
// which means the count GET /gateway/bot recommends; otherwise a whole
// number from 1 to MaxShards.
func ParseShardCount(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "auto") {
		return 0, nil
	}
	n, ok := parseShardNumber(s)
	if !ok || n < 1 || n > MaxShards {
		return 0, fmt.Errorf("DISCORD_SHARD_COUNT %q: want auto or a whole number of shards from 1 to %d", s, MaxShards)
	}
	return n, nil
}

// ParseShardIDs reads DISCORD_SHARD_IDS: "all" (or nothing) is nil, every
// shard; otherwise a comma-separated list of shard ids and inclusive
// ranges, such as 0-2,5 or 1,4-5, each id at most once. The ids come back
// in ascending order.
func ParseShardIDs(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "all") {
		return nil, nil
	}
	bad := func(why string, args ...any) error {
		return fmt.Errorf("DISCORD_SHARD_IDS %q: %s; want all, or shard ids and ranges such as 0-2,5", s, fmt.Sprintf(why, args...))
	}
	seen := map[int]bool{}
	var ids []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, bad("an empty item")
		}
		lo, hi := item, item
		if a, b, isRange := strings.Cut(item, "-"); isRange {
			lo, hi = strings.TrimSpace(a), strings.TrimSpace(b)
		}
		from, ok1 := parseShardNumber(lo)
		to, ok2 := parseShardNumber(hi)
		switch {
		case !ok1 || !ok2:
			return nil, bad("%q is neither a shard id nor a range", item)
		case from > to:
			return nil, bad("the range %q runs backwards", item)
		case to >= MaxShards:
			return nil, bad("shard ids go up to %d", MaxShards-1)
		}
		for id := from; id <= to; id++ {
			if seen[id] {
				return nil, bad("shard %d is listed twice", id)
			}
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// parseShardNumber accepts decimal digits only: strconv.Atoi would also
// take "+1" and "-0".
func parseShardNumber(s string) (int, bool) {
	if s == "" || len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// CheckShardIDs reports an id that does not exist among count shards.
// auto says that count is Discord's recommendation, for the message.
func CheckShardIDs(ids []int, count int, auto bool) error {
	for _, id := range ids {
		if id >= count {
			source := fmt.Sprintf("DISCORD_SHARD_COUNT is %d", count)
			if auto {
				source = fmt.Sprintf("Discord recommends %d shards (DISCORD_SHARD_COUNT=auto)", count)
			}
			return fmt.Errorf("DISCORD_SHARD_IDS lists shard %d, but %s: shard ids go from 0 to %d", id, source, count-1)
		}
	}
	return nil
}

// shardPlan is what this process runs: shard ids of count, identified at
// most maxConcurrency at a time.
type shardPlan struct {
	count, maxConcurrency int
	ids                   []int
}

// planShards settles the shard count and ids from the configured ones and
// GET /gateway/bot's answer (gw, or the error fetching it). The answer's
// max_concurrency is used even with a configured count; without an
// answer, a configured count still works, identifying one shard at a
// time, while auto cannot.
func planShards(count int, ids []int, gw *discordgo.GatewayBotResponse, gwErr error) (shardPlan, error) {
	plan := shardPlan{count: count, maxConcurrency: 1}
	if gwErr == nil && gw.SessionStartLimit.MaxConcurrency > 1 {
		plan.maxConcurrency = gw.SessionStartLimit.MaxConcurrency
	}
	auto := plan.count == 0
	if auto {
		if gwErr != nil {
			return shardPlan{}, fmt.Errorf("GET /gateway/bot for the recommended shard count (DISCORD_SHARD_COUNT=auto): %w", gwErr)
		}
		plan.count = max(1, gw.Shards)
		if plan.count > MaxShards {
			return shardPlan{}, fmt.Errorf("GET /gateway/bot recommends %d shards, more than mazebot runs (%d)", plan.count, MaxShards)
		}
	}
	plan.ids = ids
	if plan.ids == nil {
		plan.ids = make([]int, plan.count)
		for i := range plan.ids {
			plan.ids[i] = i
		}
	}
	if err := CheckShardIDs(plan.ids, plan.count, auto); err != nil {
		return shardPlan{}, err
	}
	return plan, nil
}

// identifyRounds orders the shards' IDENTIFYs. Discord lets one shard of
// each rate-limit bucket (id % maxConcurrency) identify every 5 s, so
// round r holds the r-th shard of every bucket, and rounds go one after
// the other, the interval apart. ids must be ascending.
func identifyRounds(ids []int, maxConcurrency int) [][]int {
	maxConcurrency = max(1, maxConcurrency)
	seen := map[int]int{} // bucket -> shards of it placed so far
	var rounds [][]int
	for _, id := range ids {
		r := seen[id%maxConcurrency]
		seen[id%maxConcurrency]++
		if r == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], id)
	}
	return rounds
}

// openInRounds opens the shards of each round at once, and starts the
// next round only interval after the whole round has its sessions: an
// IDENTIFY is sent before its READY comes back, so two IDENTIFYs of one
// bucket are always more than interval apart, whatever the latency. It
// stops at the first round with a failure, and when ctx ends.
func openInRounds(ctx context.Context, rounds [][]int, interval time.Duration, open func(ctx context.Context, id int) error, sleep func(ctx context.Context, d time.Duration) error) error {
	for r, round := range rounds {
		if r > 0 {
			if err := sleep(ctx, interval); err != nil {
				return err
			}
		}
		errs := make([]error, len(round))
		var wg sync.WaitGroup
		for i, id := range round {
			wg.Go(func() { errs[i] = open(ctx, id) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
