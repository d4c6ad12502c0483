package contest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"mazebot/contest"
)

// announcer records what contest asks to post, as Discord would make
// it: a post whose nonce was used before returns the message made then
// and makes none (Discord's nonce window is not modelled: tests retry
// within minutes). faults make calls fail.
type announcer struct {
	mu     sync.Mutex
	calls  []string // every post made and edit applied, in order
	boards []string // the standings of each board edit, e.g. "live:ann#1,ben#1"
	nonces map[string]string
	tries  []string // the nonce of every post attempt, made or not
	faults []*fault
	n      int
	// failRecord makes PostDaily return its message with an error, as
	// when the post is made but recording it fails.
	failRecord error
	// recaps are the recaps the daily posts carried, by date.
	recaps map[string]*contest.Recap
	// posted are the messages made, by what they are (a call's text);
	// lookups is how often FindDaily looked.
	posted  map[string]string
	lookups int
	// slow makes each daily post take this long, as a request to Discord
	// does; a post whose context ends first is not made.
	slow time.Duration
	// afterPost, when set, is called after each daily post made.
	afterPost func()
}

// fault makes the next times calls whose text starts with prefix ("" for
// all) fail with err; after makes the call first (a post is made, an
// edit applied), as with a 5xx after Discord processed the request.
type fault struct {
	prefix string
	err    error
	after  bool
	times  int
}

// failNext makes the next times matching calls fail.
func (a *announcer) failNext(prefix string, times int, err error, after bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.faults = append(a.faults, &fault{prefix: prefix, err: err, after: after, times: times})
}

// failAll makes every call fail with err until clearFaults.
func (a *announcer) failAll(err error) { a.failNext("", 1<<30, err, false) }

func (a *announcer) clearFaults() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.faults = nil
}

// record makes call: a new message (or edit) unless nonce ("" for
// edits) was used before.
func (a *announcer) record(call, nonce string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if nonce != "" {
		a.tries = append(a.tries, nonce)
	}
	var f *fault
	for _, c := range a.faults {
		if c.times > 0 && strings.HasPrefix(call, c.prefix) {
			c.times--
			f = c
			break
		}
	}
	if f != nil && !f.after {
		return "", f.err
	}
	id, seen := a.nonces[nonce]
	if !seen {
		a.n++
		id = fmt.Sprintf("msg%d", a.n)
		a.calls = append(a.calls, call)
		if a.posted == nil {
			a.posted = map[string]string{}
		}
		a.posted[call] = id
		if nonce != "" {
			if a.nonces == nil {
				a.nonces = map[string]string{}
			}
			a.nonces[nonce] = id
		}
	}
	if f != nil {
		return "", f.err
	}
	return id, nil
}

func (a *announcer) all() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.calls)
}

func (a *announcer) nonceTries() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.tries)
}

func dailyCall(d contest.Daily, channelID string) string {
	return fmt.Sprintf("daily %s %s #%d in %s", d.GuildID, d.Date, d.Number(), channelID)
}

// FindDaily finds a post an attempt made, as the channel's recent
// messages would show it.
func (a *announcer) FindDaily(_ context.Context, d contest.Daily, channelID string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lookups++
	return a.posted[dailyCall(d, channelID)], nil
}

func (a *announcer) PostDaily(ctx context.Context, d contest.Daily, channelID, nonce string) (string, error) {
	if a.slow > 0 {
		select {
		case <-time.After(a.slow):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	id, err := a.record(dailyCall(d, channelID), nonce)
	if err == nil {
		a.mu.Lock()
		if a.recaps == nil {
			a.recaps = map[string]*contest.Recap{}
		}
		a.recaps[d.Date.String()] = d.Recap
		after := a.afterPost
		a.mu.Unlock()
		if after != nil {
			after()
		}
	}
	if err == nil && a.failRecord != nil {
		return id, a.failRecord
	}
	return id, err
}

func (a *announcer) PostEvent(_ context.Context, e contest.Event, mazeNonce, boardNonce string) (string, string, error) {
	m, err := a.record("event "+e.Name, mazeNonce)
	if err != nil {
		return "", "", err
	}
	b, err := a.record("board "+e.Name, boardNonce)
	return m, b, err
}

func standingsText(e contest.Event, standings []contest.Standing) string {
	kind := "live"
	if e.Status == contest.Ended {
		kind = "final"
	}
	text := kind + ":"
	for i, s := range standings {
		if i > 0 {
			text += ","
		}
		text += fmt.Sprintf("%s#%d", s.UserID, s.Rank)
	}
	return text
}

func (a *announcer) EditBoard(_ context.Context, e contest.Event, standings []contest.Standing) error {
	_, err := a.record("edit board "+e.Name, "")
	if err == nil {
		a.mu.Lock()
		board := standingsText(e, standings)
		if e.ResultsMessageID != "" {
			board += " -> " + e.ResultsMessageID
		}
		a.boards = append(a.boards, board)
		a.mu.Unlock()
	}
	return err
}

func (a *announcer) PostResults(_ context.Context, e contest.Event, standings []contest.Standing, nonce string) (string, error) {
	return a.record("results "+e.Name+" "+standingsText(e, standings), nonce)
}

func (a *announcer) PostSolution(_ context.Context, e contest.Event, nonce string) error {
	_, err := a.record("solution "+e.Name, nonce)
	return err
}

func (a *announcer) RevealMaze(_ context.Context, e contest.Event) error {
	_, err := a.record("reveal "+e.Name, "")
	return err
}

var errDiscord = errors.New("discord is down")
