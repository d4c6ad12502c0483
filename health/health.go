package health

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mazebot/metrics"
)

const (
	// PingEvery is how often the database is pinged: /readyz turns 503
	// within PingEvery+PingTimeout of the database going away, and back
	// to 200 within PingEvery of its return.
	PingEvery = 2 * time.Second
	// PingTimeout bounds one ping.
	PingTimeout = 2 * time.Second
	// downReminder is how often an outage is logged again while it lasts.
	downReminder = time.Minute
)

var (
	errNotChecked = errors.New("database: not checked yet")
	errStopping   = errors.New("stopping")
)

// Readiness tells whether the process can serve. The shards are read
// when asked; the database is pinged in the background by Run, so a
// probe never waits on a database that hangs.
//
// An operator learns of an outage from the log too, whether or not anything
// probes: the database going away is logged at once, again every minute
// while it stays away, and its return with how long it was gone.
type Readiness struct {
	shards      func() []metrics.ShardState
	ping        func(ctx context.Context) error
	pingTimeout time.Duration
	log         *slog.Logger
	now         func() time.Time

	mu       sync.Mutex
	dbErr    error
	stopping bool
	// downSince is when the database stopped answering (zero: it
	// answers); toldAt when that was last logged.
	downSince, toldAt time.Time
}

// NewReadiness reads the shards from shards and pings the database with
// ping, logging its outages to log. It reports not ready until Run has
// pinged once.
func NewReadiness(shards func() []metrics.ShardState, ping func(ctx context.Context) error, log *slog.Logger) *Readiness {
	return &Readiness{shards: shards, ping: ping, pingTimeout: PingTimeout, log: log, now: time.Now, dbErr: errNotChecked}
}

// Run pings the database now and then every PingEvery until ctx ends;
// from then on the process reports itself stopping.
func (r *Readiness) Run(ctx context.Context) {
	t := time.NewTicker(PingEvery)
	defer t.Stop()
	for {
		r.pingOnce(ctx)
		select {
		case <-ctx.Done():
			r.mu.Lock()
			r.stopping = true
			r.mu.Unlock()
			return
		case <-t.C:
		}
	}
}

func (r *Readiness) pingOnce(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, r.pingTimeout)
	defer cancel()
	err := r.ping(ctx)
	if err != nil {
		err = fmt.Errorf("database: %w", err)
	}
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dbErr = err
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		// Stopping, not an outage.
	case err != nil && r.downSince.IsZero():
		r.downSince, r.toldAt = now, now
		r.log.Error("database unreachable: the bot cannot keep games, dailies or events until it answers again; /readyz reports 503", "err", err)
	case err != nil && now.Sub(r.toldAt) >= downReminder:
		r.toldAt = now
		r.log.Error("database still unreachable", "for", now.Sub(r.downSince).Round(time.Second).String(), "err", err)
	case err == nil && !r.downSince.IsZero():
		r.log.Info("database reachable again", "after", now.Sub(r.downSince).Round(time.Second).String())
		r.downSince = time.Time{}
	}
}

// Check is nil when the process is ready, else every reason it is not.
func (r *Readiness) Check() error {
	r.mu.Lock()
	stopping, dbErr := r.stopping, r.dbErr
	r.mu.Unlock()
	if stopping {
		return errStopping
	}
	var errs []error
	shards := r.shards()
	var down []string
	for _, s := range shards {
		if !s.Connected {
			down = append(down, strconv.Itoa(s.ID))
		}
	}
	switch {
	case len(shards) == 0:
		errs = append(errs, errors.New("gateway: no shard started yet"))
	case len(down) > 0:
		errs = append(errs, fmt.Errorf("gateway: %d of %d shards not connected (%s)", len(down), len(shards), strings.Join(down, ", ")))
	}
	if dbErr != nil {
		errs = append(errs, dbErr)
	}
	return errors.Join(errs...)
}

// Handler serves GET /healthz and GET /readyz; mount it at "/" (or add
// other routes, such as /metrics, to a mux beside it).
func Handler(r *Readiness) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := r.Check(); err != nil {
			writeText(w, http.StatusServiceUnavailable, "not ready: "+strings.ReplaceAll(err.Error(), "\n", "; "))
			return
		}
		writeText(w, http.StatusOK, "ready")
	})
	return mux
}

func writeText(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = fmt.Fprintln(w, text)
}
