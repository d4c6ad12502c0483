package prom_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/metrics"
	"mazebot/metrics/prom"
)

// scrape gets /metrics as Prometheus would and returns its sample lines.
func scrape(t *testing.T, m *prom.Metrics) map[string]bool {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("scrape: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	body, _ := io.ReadAll(rec.Body)
	lines := map[string]bool{}
	for line := range strings.Lines(string(body)) {
		lines[strings.TrimSpace(line)] = true
	}
	return lines
}

func wantLines(t *testing.T, got map[string]bool, want ...string) {
	t.Helper()
	for _, w := range want {
		if !got[w] {
			t.Errorf("the scrape lacks %q", w)
		}
	}
}

func TestInteractions(t *testing.T) {
	m := prom.New()
	m.Interaction("command", "maze", metrics.OutcomeOK, 20*time.Millisecond)
	m.Interaction("command", "maze", metrics.OutcomeOK, 2*time.Second)
	m.Interaction("component", "mv", metrics.OutcomeRefused, time.Millisecond)
	wantLines(t, scrape(t, m),
		`mazebot_interactions_total{kind="command",name="maze",outcome="ok"} 2`,
		`mazebot_interactions_total{kind="component",name="mv",outcome="refused"} 1`,
		`mazebot_interaction_duration_seconds_count{kind="command",name="maze"} 2`,
		`mazebot_interaction_duration_seconds_bucket{kind="command",name="maze",le="0.025"} 1`,
		`mazebot_interaction_duration_seconds_bucket{kind="command",name="maze",le="1.5"} 1`,
		`mazebot_interaction_duration_seconds_bucket{kind="command",name="maze",le="3"} 2`,
	)
}

func TestShardsAreReadAtEachScrape(t *testing.T) {
	var mu sync.Mutex
	states := []metrics.ShardState{{ID: 2, Connected: true}, {ID: 3, Connected: false}}
	m := prom.New()
	m.ObserveShards(func() []metrics.ShardState {
		mu.Lock()
		defer mu.Unlock()
		return append([]metrics.ShardState(nil), states...)
	})
	wantLines(t, scrape(t, m),
		`mazebot_shards_connected{shard="2"} 1`,
		`mazebot_shards_connected{shard="3"} 0`,
		`mazebot_shards 2`,
	)
	mu.Lock()
	states[1].Connected = true
	mu.Unlock()
	wantLines(t, scrape(t, m), `mazebot_shards_connected{shard="3"} 1`)
}

func TestRenderAndStore(t *testing.T) {
	m := prom.New()
	got := scrape(t, m)
	wantLines(t, got, `mazebot_render_queue_depth 0`, `mazebot_render_queue_wait_seconds_count 0`)
	m.RenderQueueDepth(3)
	m.Rendered(10*time.Millisecond, 200*time.Millisecond)
	m.StoreError("Game")
	m.StoreError("Game")
	wantLines(t, scrape(t, m),
		`mazebot_render_queue_depth 3`,
		`mazebot_render_queue_wait_seconds_count 1`,
		`mazebot_render_duration_seconds_count 1`,
		`mazebot_render_duration_seconds_bucket{le="0.25"} 1`,
		`mazebot_render_duration_seconds_bucket{le="0.1"} 0`,
		`mazebot_store_errors_total{op="Game"} 2`,
	)
	if !got["# TYPE go_goroutines gauge"] {
		t.Error("the Go runtime's metrics are missing")
	}
}

func TestArena(t *testing.T) {
	m := prom.New()
	m.ObserveArena(func() metrics.ArenaState {
		return metrics.ArenaState{Rooms: 2, Connections: 5, Racers: 4, Spectators: 1}
	})
	m.ArenaMoved()
	m.ArenaMoved()
	m.ArenaRefused("wall")
	m.ArenaBusLag(3 * time.Millisecond)
	m.ArenaTick(200 * time.Microsecond)
	wantLines(t, scrape(t, m),
		`mazebot_arena_rooms 2`,
		`mazebot_arena_connections 5`,
		`mazebot_arena_racers 4`,
		`mazebot_arena_spectators 1`,
		`mazebot_arena_moves_total 2`,
		`mazebot_arena_refused_total{reason="wall"} 1`,
		`mazebot_arena_bus_lag_seconds_bucket{le="0.0025"} 0`,
		`mazebot_arena_bus_lag_seconds_bucket{le="0.005"} 1`,
		`mazebot_arena_tick_seconds_bucket{le="0.00025"} 1`,
	)
}
