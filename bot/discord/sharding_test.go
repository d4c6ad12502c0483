package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestParseShardIDs(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			in   string
			want []int
		}{
			{"", nil},
			{"all", nil},
			{" ALL ", nil},
			{"0-2,5", []int{0, 1, 2, 5}},
			{"0,3", []int{0, 3}},
			{"1,4-5", []int{1, 4, 5}},
			{"2", []int{2}},
			{"5,0-1", []int{0, 1, 5}},
			{" 0 - 2 , 7 ", []int{0, 1, 2, 7}},
			{"3-3", []int{3}},
			{"65535", []int{65535}},
		} {
			got, err := ParseShardIDs(tc.in)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("ParseShardIDs(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		}
	})
	t.Run("Err", func(t *testing.T) {
		for _, in := range []string{
			"0-", "-1", "-", "a", "one", "1-0", "0,,1", ",", "0,", "0,0", "0-2,1", "+1", "1.5",
			"65536", "0-65536", "0x1", "1 2", "1--2", "0-1-2", "9999999",
		} {
			got, err := ParseShardIDs(in)
			if err == nil {
				t.Errorf("ParseShardIDs(%q) = %v, want an error", in, got)
				continue
			}
			if !strings.Contains(err.Error(), "DISCORD_SHARD_IDS") || !strings.Contains(err.Error(), "0-2,5") {
				t.Errorf("ParseShardIDs(%q) error %q does not name the variable and show the form", in, err)
			}
		}
	})
}

func TestParseShardCount(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for in, want := range map[string]int{"": 0, "auto": 0, " Auto ": 0, "1": 1, "6": 6, " 16 ": 16, "65536": 65536} {
			if got, err := ParseShardCount(in); err != nil || got != want {
				t.Errorf("ParseShardCount(%q) = %d, %v; want %d", in, got, err, want)
			}
		}
	})
	t.Run("Err", func(t *testing.T) {
		for _, in := range []string{"0", "-1", "x", "1.0", "65537", "+2", "2 shards", "0x10"} {
			if got, err := ParseShardCount(in); err == nil || !strings.Contains(err.Error(), "DISCORD_SHARD_COUNT") {
				t.Errorf("ParseShardCount(%q) = %d, %v; want an error naming DISCORD_SHARD_COUNT", in, got, err)
			}
		}
	})
}

func gatewayBot(shards, maxConcurrency int) *discordgo.GatewayBotResponse {
	return &discordgo.GatewayBotResponse{Shards: shards, SessionStartLimit: discordgo.SessionInformation{MaxConcurrency: maxConcurrency}}
}

func TestPlanShards(t *testing.T) {
	gwDown := errors.New("502 Bad Gateway")
	for _, tc := range []struct {
		name   string
		cfg    Config
		gw     *discordgo.GatewayBotResponse
		gwErr  error
		want   shardPlan
		errHas string
	}{
		{name: "OKAuto", gw: gatewayBot(6, 2), want: shardPlan{count: 6, maxConcurrency: 2, ids: []int{0, 1, 2, 3, 4, 5}}},
		{name: "OKAutoZeroShards", gw: gatewayBot(0, 0), want: shardPlan{count: 1, maxConcurrency: 1, ids: []int{0}}},
		{name: "OKCountWinsOverRecommendation", cfg: Config{ShardCount: 4}, gw: gatewayBot(6, 16), want: shardPlan{count: 4, maxConcurrency: 16, ids: []int{0, 1, 2, 3}}},
		{name: "OKSomeIDs", cfg: Config{ShardCount: 6, ShardIDs: []int{2, 3}}, gw: gatewayBot(1, 1), want: shardPlan{count: 6, maxConcurrency: 1, ids: []int{2, 3}}},
		{name: "OKAutoWithIDs", cfg: Config{ShardIDs: []int{4, 5}}, gw: gatewayBot(6, 1), want: shardPlan{count: 6, maxConcurrency: 1, ids: []int{4, 5}}},
		{name: "OKCountWithoutGateway", cfg: Config{ShardCount: 2}, gwErr: gwDown, want: shardPlan{count: 2, maxConcurrency: 1, ids: []int{0, 1}}},
		{name: "ErrAutoWithoutGateway", gwErr: gwDown, errHas: "DISCORD_SHARD_COUNT=auto"},
		{name: "ErrIDBeyondRecommendation", cfg: Config{ShardIDs: []int{4, 5}}, gw: gatewayBot(5, 1), errHas: "recommends 5 shards"},
		{name: "ErrIDBeyondCount", cfg: Config{ShardCount: 4, ShardIDs: []int{3, 4}}, gw: gatewayBot(8, 1), errHas: "lists shard 4, but DISCORD_SHARD_COUNT is 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := planShards(tc.cfg.ShardCount, tc.cfg.ShardIDs, tc.gw, tc.gwErr)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("planShards = %+v, %v; want an error containing %q", got, err, tc.errHas)
				}
				return
			}
			if err != nil || got.count != tc.want.count || got.maxConcurrency != tc.want.maxConcurrency || !slices.Equal(got.ids, tc.want.ids) {
				t.Fatalf("planShards = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestIdentifyRounds(t *testing.T) {
	for _, tc := range []struct {
		ids  []int
		mc   int
		want [][]int
	}{
		{[]int{0, 1, 2, 3, 4, 5}, 1, [][]int{{0}, {1}, {2}, {3}, {4}, {5}}},
		{[]int{0, 1, 2, 3, 4, 5}, 2, [][]int{{0, 1}, {2, 3}, {4, 5}}},
		{[]int{0, 1, 2, 3, 4, 5}, 16, [][]int{{0, 1, 2, 3, 4, 5}}},
		{[]int{0, 3}, 2, [][]int{{0, 3}}},
		{[]int{0, 2}, 2, [][]int{{0}, {2}}},
		{[]int{1, 4, 5}, 2, [][]int{{1, 4}, {5}}},
		{[]int{2}, 1, [][]int{{2}}},
		{[]int{0, 1}, 0, [][]int{{0}, {1}}}, // unknown concurrency: one at a time
		{nil, 1, nil},
	} {
		if got := identifyRounds(tc.ids, tc.mc); !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("identifyRounds(%v, %d) = %v, want %v", tc.ids, tc.mc, got, tc.want)
		}
	}
}

// schedule records what openInRounds does, in order: "open N", "ready N"
// and "sleep D".
type schedule struct {
	mu     sync.Mutex
	events []string
	opened map[int]bool
	// round, when set, is the shards opened together with each: a shard
	// is ready only once all of them have opened (or a second has passed,
	// as when they are opened one after the other), however late the
	// scheduler starts their goroutines.
	round map[int][]int
}

func (s *schedule) add(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, fmt.Sprintf(format, args...))
}

func (s *schedule) open(_ context.Context, id int) error {
	s.mu.Lock()
	s.events = append(s.events, fmt.Sprintf("open %d", id))
	if s.opened == nil {
		s.opened = map[int]bool{}
	}
	s.opened[id] = true
	s.mu.Unlock()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		all := !slices.ContainsFunc(s.round[id], func(other int) bool { return !s.opened[other] })
		s.mu.Unlock()
		if all {
			break
		}
	}
	s.add("ready %d", id)
	return nil
}

// together makes s wait for every shard of a round to open before any is
// ready (see schedule.round).
func (s *schedule) together(rounds [][]int) *schedule {
	s.round = map[int][]int{}
	for _, r := range rounds {
		for _, id := range r {
			s.round[id] = r
		}
	}
	return s
}

func (s *schedule) sleep(_ context.Context, d time.Duration) error {
	s.add("sleep %v", d)
	return nil
}

// TestOpenInRoundsSpacesBuckets: whatever shards a process runs, two
// shards of one rate-limit bucket never identify without the full
// interval between the first's READY and the second's IDENTIFY, and
// shards of different buckets in a round identify together.
func TestOpenInRoundsSpacesBuckets(t *testing.T) {
	for _, list := range []string{"0-5", "0,3", "1,4-5", "2", "0-2,5", "0-15"} {
		ids, err := ParseShardIDs(list)
		if err != nil {
			t.Fatal(err)
		}
		for _, mc := range []int{1, 2, 3, 16} {
			t.Run(fmt.Sprintf("%s/mc%d", list, mc), func(t *testing.T) {
				rounds := identifyRounds(ids, mc)
				s := (&schedule{}).together(rounds)
				if err := openInRounds(context.Background(), rounds, DefaultIdentifyInterval, s.open, s.sleep); err != nil {
					t.Fatal(err)
				}
				readyAt, openAt := map[int]int{}, map[int]int{}
				var sleeps []int
				for i, e := range s.events {
					var id int
					switch {
					case e == "sleep 5s":
						sleeps = append(sleeps, i)
					case must(fmt.Sscanf(e, "open %d", &id)):
						openAt[id] = i
					case must(fmt.Sscanf(e, "ready %d", &id)):
						readyAt[id] = i
					default:
						t.Fatalf("unexpected event %q", e)
					}
				}
				if len(openAt) != len(ids) || len(sleeps) != len(rounds)-1 {
					t.Fatalf("%d opens and %d sleeps for %d shards in %d rounds: %v", len(openAt), len(sleeps), len(ids), len(rounds), s.events)
				}
				for _, a := range ids {
					for _, b := range ids {
						if a >= b || a%mc != b%mc {
							continue
						}
						if !slices.ContainsFunc(sleeps, func(i int) bool { return readyAt[a] < i && i < openAt[b] }) {
							t.Fatalf("shards %d and %d (bucket %d) identified without 5 s between them: %v", a, b, a%mc, s.events)
						}
					}
				}
				// A round's shards all start before any of them is ready.
				for _, round := range rounds {
					for _, a := range round {
						for _, b := range round {
							if openAt[a] > readyAt[b] {
								t.Fatalf("shard %d of round %v opened after shard %d was ready: %v", a, round, b, s.events)
							}
						}
					}
				}
			})
		}
	}
}

func must(n int, err error) bool { return err == nil && n == 1 }

func TestOpenInRoundsStops(t *testing.T) {
	t.Run("ErrOpen", func(t *testing.T) {
		s := &schedule{}
		boom := errors.New("4011 sharding required")
		open := func(ctx context.Context, id int) error {
			if id == 1 {
				return boom
			}
			return s.open(ctx, id)
		}
		err := openInRounds(context.Background(), [][]int{{0, 1}, {2, 3}}, time.Second, open, s.sleep)
		if !errors.Is(err, boom) {
			t.Fatalf("err %v, want the open's", err)
		}
		if slices.Contains(s.events, "open 2") || slices.Contains(s.events, "sleep 1s") {
			t.Fatalf("went on after a failed round: %v", s.events)
		}
	})
	t.Run("ErrCancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		s := &schedule{}
		sleep := func(ctx context.Context, d time.Duration) error {
			cancel()
			return sleepCtx(ctx, d) // a real wait of an hour, cut short
		}
		err := openInRounds(ctx, [][]int{{0}, {1}}, time.Hour, s.open, sleep)
		if !errors.Is(err, context.Canceled) || slices.Contains(s.events, "open 1") {
			t.Fatalf("err %v, events %v; want it cancelled before shard 1", err, s.events)
		}
	})
}

// turnsStub answers ClaimIdentify from a script: a failure, or a wait
// until free, or a turn.
type turnsStub struct {
	answers []error         // nil: a turn; errNotYet: wait; else: a failure
	free    time.Time       // the wait's end
	windows []time.Duration // the windows asked for
}

var errNotYet = errors.New("not yet")

func (s *turnsStub) ClaimIdentify(_ context.Context, _ int, _ time.Time, window time.Duration) (time.Time, bool, error) {
	s.windows = append(s.windows, window)
	answer := s.answers[0]
	s.answers = s.answers[1:]
	switch {
	case errors.Is(answer, errNotYet):
		return s.free, false, nil
	case answer != nil:
		return time.Time{}, false, answer
	}
	return time.Now(), true, nil
}

// TestIdentifyTurn: a shard waits out another process's turn and asks
// again; a database that fails lets it identify without a turn; the window
// asked for is Discord's interval with a margin.
func TestIdentifyTurn(t *testing.T) {
	newBot := func(stub *turnsStub) (*turns, *[]time.Duration) {
		b, err := New(Config{IdentifyTurns: stub}, &discordgo.Session{}, nil, nil, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		var slept []time.Duration
		b.gateway.turns.sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
		return b.gateway.turns, &slept
	}
	t.Run("OKWaits", func(t *testing.T) {
		turns := &turnsStub{answers: []error{errNotYet, nil}, free: time.Now().Add(3 * time.Second)}
		b, slept := newBot(turns)
		if err := b.sharedTurn(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
		if len(*slept) != 1 || (*slept)[0] < 2*time.Second || (*slept)[0] > 3*time.Second {
			t.Fatalf("slept %v, want one wait of about 3 s", *slept)
		}
		if want := DefaultIdentifyInterval + identifyMargin; turns.windows[0] != want {
			t.Fatalf("asked for a window of %v, want %v", turns.windows[0], want)
		}
	})
	t.Run("OKDatabaseDown", func(t *testing.T) {
		b, slept := newBot(&turnsStub{answers: []error{errors.New("connection refused")}})
		if err := b.sharedTurn(t.Context(), 0); err != nil || len(*slept) != 0 {
			t.Fatalf("err %v, slept %v: want to identify at once", err, *slept)
		}
	})
	t.Run("ErrStopped", func(t *testing.T) {
		b, _ := newBot(&turnsStub{answers: []error{errNotYet}, free: time.Now().Add(time.Hour)})
		b.sleep = sleepCtx
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := b.sharedTurn(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want the context's", err)
		}
	})
}
