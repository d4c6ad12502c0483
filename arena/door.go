package arena

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"
)

// The code exchange's bounds. POST /api/token needs no account: anyone may
// send it made-up codes, and each one sent on is a request to Discord made
// with the app's own credentials (and, with a wrong client secret, a 401:
// Discord bans an IP after 10,000 invalid requests in 10 minutes, the
// bot's own calls included). So:
const (
	// exchangesAtOnce is how many exchanges may be at Discord at a time;
	// a request waits up to exchangeWait for a place, then is answered
	// 503 (the client tries again after Retry-After).
	exchangesAtOnce = 8
	exchangeWait    = 5 * time.Second
	// exchangesPerClient is how many requests one client (a remote
	// address) may have in the exchange at a time, waiting or at
	// Discord: a flood from one address cannot take every place.
	exchangesPerClient = 4
	// failedExchangeBurst and failedExchangeRate bound the exchanges
	// Discord refused (a made-up code, a wrong secret) or that failed, for
	// everyone together: past the burst, one a second goes on, at most
	// some 620 in 10 minutes. A crowd of real members (good codes) is not
	// slowed by it.
	failedExchangeBurst = 20
	failedExchangeRate  = 1
	// secretProbeEvery: once Discord refused the client id or secret
	// (401), no exchange is sent but one such probe: the secret is the
	// operator's to fix, and every other request would be another 401.
	secretProbeEvery = time.Minute
	// logEvery is how often one kind of exchange failure is logged,
	// however many there are.
	logEvery = time.Minute
)

// Errors of the door, for serveToken to answer.
var (
	// errSignInBroken: Discord refuses the client credentials; nothing is
	// sent until the next probe.
	errSignInBroken = errors.New("discord refuses the client id or secret")
	// errBusy: too many exchanges at once, from this client or in all.
	errBusy = errors.New("too many sign-ins at once")
)

// door admits the code exchanges: a place each at Discord, a few per
// client, a bucket of failures, and a breaker for a client secret that
// Discord refuses. Its times are the server's clock (Config.Now).
type door struct {
	now    func() time.Time
	log    *slog.Logger
	places chan struct{}

	mu      sync.Mutex
	clients map[string]int // requests in the exchange, by remote address
	failed  *bucket
	// secretRefused is set by a 401 for the client credentials: then only
	// one probe is sent, at probeAt, at a time.
	secretRefused bool
	probing       bool
	probeAt       time.Time
	logged        logLimiter
}

func newDoor(now func() time.Time, log *slog.Logger) *door {
	return &door{now: now, log: log, places: make(chan struct{}, exchangesAtOnce),
		clients: map[string]int{}, failed: newBucket(failedExchangeRate, failedExchangeBurst),
		logged: logLimiter{last: map[string]time.Time{}, held: map[string]int{}}}
}

// clientOf is the client a request comes from: its remote host. Headers
// such as X-Forwarded-For are not believed: anyone may send them.
func clientOf(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// enter admits a request of client to the exchange, unless it holds
// exchangesPerClient already; leave is called when it is done.
func (d *door) enter(client string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.clients[client] >= exchangesPerClient {
		return false
	}
	d.clients[client]++
	return true
}

func (d *door) leave(client string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.clients[client]--; d.clients[client] <= 0 {
		delete(d.clients, client)
	}
}

// pass decides whether an exchange may go to Discord now: not while the
// secret is refused (but for the one probe, which it says it is), nor
// while failures are over their rate (it says how long until one may).
func (d *door) pass() (probe bool, wait time.Duration, err error) {
	now := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.secretRefused && (d.probing || now.Before(d.probeAt)) {
		return false, 0, errSignInBroken
	}
	if !d.failed.has(now) {
		return false, time.Duration((1 - d.failed.tokens) / d.failed.rate * float64(time.Second)), errBusy
	}
	if d.secretRefused {
		d.probing, d.probeAt = true, now.Add(secretProbeEvery)
		return true, 0, nil
	}
	return false, 0, nil
}

// place waits for a place at Discord, up to exchangeWait; free gives it
// back.
func (d *door) place(ctx context.Context) error {
	timer := time.NewTimer(exchangeWait)
	defer timer.Stop()
	select {
	case d.places <- struct{}{}:
		return nil
	case <-timer.C:
		return errBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *door) free() { <-d.places }

// unprobe gives back a probe that was not sent: the next request is one.
func (d *door) unprobe() {
	d.mu.Lock()
	d.probing, d.probeAt = false, time.Time{}
	d.mu.Unlock()
}

// done records what Discord made of an exchange (probe: the secret's
// probe) and logs a failure, each kind once a logEvery.
func (d *door) done(probe bool, err error) {
	now := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if probe {
		d.probing = false
	}
	switch {
	case err == nil || errors.Is(err, errBadCode):
		// The client credentials were accepted: a made-up code is
		// Discord's 400 invalid_grant, which it checks after them.
		if d.secretRefused {
			d.log.Info("arena: Discord accepts the client id and secret again; sign-ins resume")
		}
		d.secretRefused = false
		if err != nil {
			d.failed.spend(now)
		}
	case errors.Is(err, errRateLimited):
		// Not sent, or the route is stopped until its retry_after.
	case errors.Is(err, errClientSecret):
		d.failed.spend(now)
		if !d.secretRefused {
			d.secretRefused, d.probeAt = true, now.Add(secretProbeEvery)
		}
		if held, ok := d.logged.allow("secret", now); ok {
			d.log.Error("arena: Discord refused the client id or secret: check DISCORD_CLIENT_SECRET; sign-ins are refused, and Discord is asked again once a minute",
				"refused_since_last_line", held)
		}
	default:
		d.failed.spend(now)
		if held, ok := d.logged.allow("exchange", now); ok {
			d.log.Error("arena: code exchange", "err", err, "failed_since_last_line", held)
		}
	}
}

// logLimiter lets a kind of log line through once an interval, counting
// the ones it held back. Its user holds the lock that guards it.
type logLimiter struct {
	last map[string]time.Time
	held map[string]int
}

// allow says whether a line of kind may be logged now, and how many were
// held back since the last one.
func (l logLimiter) allow(kind string, now time.Time) (held int, ok bool) {
	if last, seen := l.last[kind]; seen && now.Sub(last) < logEvery {
		l.held[kind]++
		return 0, false
	}
	held = l.held[kind]
	l.last[kind], l.held[kind] = now, 0
	return held, true
}
