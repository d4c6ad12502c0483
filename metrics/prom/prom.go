package prom

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"mazebot/metrics"
)

// Metrics is mazebot's metrics on a registry of their own. It is safe for
// concurrent use.
type Metrics struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	renderDepth  prometheus.Gauge
	renderWait   prometheus.Histogram
	renderTook   prometheus.Histogram
	storeErrors  *prometheus.CounterVec
	unknowns     *prometheus.CounterVec
	arenaMoves   prometheus.Counter
	arenaRefused *prometheus.CounterVec
	arenaBusLag  prometheus.Histogram
	arenaTick    prometheus.Histogram
}

var (
	_ metrics.Interactions = (*Metrics)(nil)
	_ metrics.Render       = (*Metrics)(nil)
	_ metrics.Store        = (*Metrics)(nil)
	_ metrics.Unknowns     = (*Metrics)(nil)
	_ metrics.Arena        = (*Metrics)(nil)
)

// arenaBuckets span a room's input: from a loop's microseconds to a bus
// stalled for seconds.
var arenaBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}

// interactionBuckets put edges around Discord's deadlines: the automatic
// deferral (1.5 s), the first response (3 s) and a deferred reply's
// apology (15 s).
var interactionBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 3, 5, 10, 15, 30}

var renderBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New makes the metrics.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mazebot_interactions_total",
			Help: "Interactions handled, by kind (command, component, autocomplete, modal), command name or button prefix, and outcome (ok, refused, error, panic, unknown).",
		}, []string{"kind", "name", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mazebot_interaction_duration_seconds",
			Help:    "Time to handle an interaction, replies included.",
			Buckets: interactionBuckets,
		}, []string{"kind", "name"}),
		renderDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mazebot_render_queue_depth",
			Help: "Renders waiting for a worker.",
		}),
		renderWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mazebot_render_queue_wait_seconds",
			Help:    "Time a render waited for a worker.",
			Buckets: renderBuckets,
		}),
		renderTook: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mazebot_render_duration_seconds",
			Help:    "Time a render took once it had a worker.",
			Buckets: renderBuckets,
		}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mazebot_store_errors_total",
			Help: "Store calls that failed (not found and conflicts aside), readiness pings included, by operation.",
		}, []string{"op"}),
		unknowns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mazebot_discord_not_understood_total",
			Help: "Parts of interactions Discord sent that this build does not understand and left out, by what (\"component type 16\", \"interaction type 9\"): Discord added something.",
		}, []string{"what"}),
		arenaMoves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "mazebot_arena_moves_total",
			Help: "Maze Arena moves played for members connected to this process (its rate: moves a second).",
		}),
		arenaRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mazebot_arena_refused_total",
			Help: "Maze Arena inputs refused, by the protocol's reason (wall, rate, not_started, watching, finished, bad, …).",
		}, []string{"reason"}),
		arenaBusLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mazebot_arena_bus_lag_seconds",
			Help:    "Time from an Arena input's publication (its origin's clock) to its delivery here.",
			Buckets: arenaBuckets,
		}),
		arenaTick: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "mazebot_arena_tick_seconds",
			Help:    "Time a room's loop took over one input: apply and its broadcasts.",
			Buckets: arenaBuckets,
		}),
	}
	m.reg.MustRegister(m.interactions, m.latency, m.renderDepth, m.renderWait, m.renderTook, m.storeErrors, m.unknowns,
		m.arenaMoves, m.arenaRefused, m.arenaBusLag, m.arenaTick,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveShards has shards asked at each scrape for the shards the
// process runs. Call it once.
func (m *Metrics) ObserveShards(shards func() []metrics.ShardState) {
	m.reg.MustRegister(shardCollector(shards))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *Metrics) Interaction(kind, name, outcome string, took time.Duration) {
	m.interactions.WithLabelValues(kind, name, outcome).Inc()
	m.latency.WithLabelValues(kind, name).Observe(took.Seconds())
}

func (m *Metrics) RenderQueueDepth(n int) { m.renderDepth.Set(float64(n)) }

func (m *Metrics) Rendered(wait, took time.Duration) {
	m.renderWait.Observe(wait.Seconds())
	m.renderTook.Observe(took.Seconds())
}

func (m *Metrics) StoreError(op string) { m.storeErrors.WithLabelValues(op).Inc() }

// NotUnderstood counts a part of an interaction left out.
func (m *Metrics) NotUnderstood(what string) { m.unknowns.WithLabelValues(what).Inc() }

func (m *Metrics) ArenaMoved()                 { m.arenaMoves.Inc() }
func (m *Metrics) ArenaRefused(reason string)  { m.arenaRefused.WithLabelValues(reason).Inc() }
func (m *Metrics) ArenaBusLag(d time.Duration) { m.arenaBusLag.Observe(max(d, 0).Seconds()) }
func (m *Metrics) ArenaTick(d time.Duration)   { m.arenaTick.Observe(d.Seconds()) }

// ObserveArena has state asked at each scrape for what the Arena's rooms
// hold here. Call it once.
func (m *Metrics) ObserveArena(state func() metrics.ArenaState) {
	m.reg.MustRegister(arenaCollector(state))
}

// arenaCollector reads the rooms at each scrape, as shardCollector does.
type arenaCollector func() metrics.ArenaState

var (
	arenaRoomsDesc       = prometheus.NewDesc("mazebot_arena_rooms", "Maze Arena rooms this process holds.", nil, nil)
	arenaConnectionsDesc = prometheus.NewDesc("mazebot_arena_connections", "Members' Arena WebSockets on this process.", nil, nil)
	arenaRacersDesc      = prometheus.NewDesc("mazebot_arena_racers", "Members connected here who race (or wait in a lobby).", nil, nil)
	arenaSpectatorsDesc  = prometheus.NewDesc("mazebot_arena_spectators", "Members connected here who watch a race.", nil, nil)
)

func (c arenaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- arenaRoomsDesc
	ch <- arenaConnectionsDesc
	ch <- arenaRacersDesc
	ch <- arenaSpectatorsDesc
}

func (c arenaCollector) Collect(ch chan<- prometheus.Metric) {
	s := c()
	ch <- prometheus.MustNewConstMetric(arenaRoomsDesc, prometheus.GaugeValue, float64(s.Rooms))
	ch <- prometheus.MustNewConstMetric(arenaConnectionsDesc, prometheus.GaugeValue, float64(s.Connections))
	ch <- prometheus.MustNewConstMetric(arenaRacersDesc, prometheus.GaugeValue, float64(s.Racers))
	ch <- prometheus.MustNewConstMetric(arenaSpectatorsDesc, prometheus.GaugeValue, float64(s.Spectators))
}

// shardCollector reads the shards at each scrape, so the gauges are never
// stale and nothing has to push connection changes.
type shardCollector func() []metrics.ShardState

var (
	shardsConnectedDesc = prometheus.NewDesc("mazebot_shards_connected",
		"1 for each shard this process runs that is connected, 0 for one that is not: summed, the shards connected.",
		[]string{"shard"}, nil)
	shardsDesc = prometheus.NewDesc("mazebot_shards",
		"The number of gateway shards this process runs.", nil, nil)
)

func (c shardCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- shardsConnectedDesc
	ch <- shardsDesc
}

func (c shardCollector) Collect(ch chan<- prometheus.Metric) {
	shards := c()
	for _, s := range shards {
		v := 0.0
		if s.Connected {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(shardsConnectedDesc, prometheus.GaugeValue, v, strconv.Itoa(s.ID))
	}
	ch <- prometheus.MustNewConstMetric(shardsDesc, prometheus.GaugeValue, float64(len(shards)))
}
