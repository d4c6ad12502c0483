package contest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"mazebot/mazecore"
)

// memStore keeps dailies and events in memory, with the conditional
// writes of a real store. The store contract suite holds the real
// adapters to the same behaviour.
type memStore struct {
	mu       sync.Mutex
	settings map[string]DailySettings
	posts    map[string]DailyPost // by guild|date
	mazes    map[string]DailyMaze // by guild|date
	runs     map[Key][]Run        // every finish, by contest
	events   map[int64]Event
	nextID   int64
}

func newMemStore() *memStore {
	return &memStore{settings: map[string]DailySettings{}, posts: map[string]DailyPost{}, mazes: map[string]DailyMaze{},
		runs: map[Key][]Run{}, events: map[int64]Event{}}
}

func postKey(guildID string, date Date) string { return guildID + "|" + date.String() }

func (s *memStore) DailySettings(_ context.Context, guildID string) (DailySettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.settings[guildID]
	if !ok {
		return c, ErrNotFound
	}
	return c, nil
}

func (s *memStore) SaveDailySettings(_ context.Context, c DailySettings) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings[c.GuildID] = c
	return nil
}

func (s *memStore) EnabledDailies(context.Context) ([]DailySettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []DailySettings
	for _, c := range s.settings {
		if c.Enabled {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memStore) DailyPost(_ context.Context, guildID string, date Date) (DailyPost, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.posts[postKey(guildID, date)]
	if !ok {
		return p, ErrNotFound
	}
	return p, nil
}

func (s *memStore) ClaimDailyPost(_ context.Context, p DailyPost) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := postKey(p.GuildID, p.Date)
	old, ok := s.posts[k]
	switch {
	case p.Attempts == 1 && !ok:
	case ok && old.Attempts == p.Attempts-1 && old.State != Posted:
		p.MazeID = old.MazeID
	default:
		return ErrConflict
	}
	p.State, p.Refused = Posting, old.Refused
	s.posts[k] = p
	return nil
}

func (s *memStore) SetDailyPosted(_ context.Context, guildID string, date Date, messageID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := postKey(guildID, date)
	p, ok := s.posts[k]
	if !ok || p.State == Posted {
		return ErrConflict
	}
	p.State, p.MessageID = Posted, messageID
	s.posts[k] = p
	return nil
}

func (s *memStore) SetDailyFailed(_ context.Context, guildID string, date Date, attempt int, refused bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := postKey(guildID, date)
	p, ok := s.posts[k]
	if !ok || p.State != Posting || p.Attempts != attempt {
		return ErrConflict
	}
	p.State = Failed
	if refused {
		p.Refused++
	}
	s.posts[k] = p
	return nil
}

func (s *memStore) DailyMaze(_ context.Context, guildID string, date Date) (mazecore.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.mazes[postKey(guildID, date)]
	if !ok {
		return mazecore.ID{}, ErrNotFound
	}
	return m.MazeID, nil
}

func (s *memStore) FixDailyMaze(_ context.Context, m DailyMaze) (mazecore.ID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := postKey(m.GuildID, m.Date)
	if old, ok := s.mazes[k]; ok {
		return old.MazeID, nil
	}
	s.mazes[k] = m
	return m.MazeID, nil
}

func (s *memStore) DailiesOnMaze(_ context.Context, maze mazecore.ID) ([]DailyMaze, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []DailyMaze
	for _, m := range s.mazes {
		if m.MazeID == maze {
			out = append(out, m)
		}
	}
	return out, nil
}

// addRun records a finish in a contest.
func (s *memStore) addRun(k Key, r Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[k] = append(s.runs[k], r)
}

// best is each member's best run of a contest up to until, best first.
func (s *memStore) best(k Key, until time.Time) []Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	better := func(a, b Run) int {
		if c := a.Elapsed.Milliseconds() - b.Elapsed.Milliseconds(); c != 0 {
			return int(c)
		}
		if a.Tiles != b.Tiles {
			return a.Tiles - b.Tiles
		}
		return a.FinishedAt.Compare(b.FinishedAt)
	}
	bests := map[string]Run{}
	for _, r := range s.runs[k] {
		if r.FinishedAt.After(until) {
			continue
		}
		if b, ok := bests[r.UserID]; !ok || better(r, b) < 0 {
			bests[r.UserID] = r
		}
	}
	out := make([]Run, 0, len(bests))
	for _, r := range bests {
		out = append(out, r)
	}
	slices.SortFunc(out, better)
	return out
}

var forever = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

func (s *memStore) DayRuns(_ context.Context, guildID string, date Date) ([]Run, error) {
	return s.best(DailyKey(guildID, date), forever), nil
}

func (s *memStore) Totals(_ context.Context, guildID string, from, to Date) ([]Total, error) {
	sums := map[string]*Total{}
	var order []string
	for d := from; !to.Before(d); d = d.AddDays(1) {
		for _, r := range s.best(DailyKey(guildID, d), forever) {
			t, ok := sums[r.UserID]
			if !ok {
				t = &Total{UserID: r.UserID}
				sums[r.UserID] = t
				order = append(order, r.UserID)
			}
			t.Days++
			t.Elapsed += r.Elapsed
			t.Tiles += r.Tiles
		}
	}
	out := make([]Total, 0, len(order))
	for _, u := range order {
		out = append(out, *sums[u])
	}
	return out, nil
}

func (s *memStore) SolvedDates(_ context.Context, guildID, userID string, upTo Date) ([]Date, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Date
	for k, runs := range s.runs {
		g, d, ok := k.Daily()
		if !ok || g != guildID || upTo.Before(d) {
			continue
		}
		if slices.ContainsFunc(runs, func(r Run) bool { return r.UserID == userID }) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b Date) int { return b.t.Compare(a.t) })
	return out, nil
}

func (s *memStore) CreateEvent(_ context.Context, e Event) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.events {
		if o.ChannelID == e.ChannelID && o.Status == Running {
			return 0, ErrConflict
		}
	}
	s.nextID++
	e.ID = s.nextID
	s.events[e.ID] = e
	return e.ID, nil
}

func (s *memStore) update(id int64, change func(*Event) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.events[id]
	if !ok {
		return ErrNotFound
	}
	if err := change(&e); err != nil {
		return err
	}
	s.events[id] = e
	return nil
}

func (s *memStore) SetEventMessages(_ context.Context, id int64, mazeMsg, boardMsg string) error {
	return s.update(id, func(e *Event) error { e.MazeMessageID, e.BoardMessageID = mazeMsg, boardMsg; return nil })
}

func (s *memStore) DeleteEvent(_ context.Context, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.events, id)
	return nil
}

func (s *memStore) Event(_ context.Context, id int64) (Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.events[id]
	if !ok {
		return e, ErrNotFound
	}
	return e, nil
}

func (s *memStore) find(match func(Event) bool) (Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.events {
		if e.Status == Running && match(e) {
			return e, nil
		}
	}
	return Event{}, ErrNotFound
}

func (s *memStore) RunningEvent(_ context.Context, channelID string) (Event, error) {
	return s.find(func(e Event) bool { return e.ChannelID == channelID })
}

func (s *memStore) RunningEventOnMaze(_ context.Context, maze mazecore.ID) (Event, error) {
	return s.find(func(e Event) bool { return e.MazeID == maze })
}

func (s *memStore) RunningEvents(context.Context) ([]Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Event
	for _, e := range s.events {
		if e.Status == Running {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Event) int { return int(a.ID - b.ID) })
	return out, nil
}

func (s *memStore) EndEvent(_ context.Context, id int64, at time.Time) error {
	return s.update(id, func(e *Event) error {
		if e.Status != Running {
			return ErrConflict
		}
		e.Status, e.BoardDirty = Ended, false
		e.Closing = Closing{Attempts: 1, ClaimedAt: at}
		if at.Before(e.EndsAt) {
			e.EndsAt = at
		}
		return nil
	})
}

func (s *memStore) ClosingEvents(context.Context) ([]Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Event
	for _, e := range s.events {
		if e.Status == Ended && !e.Closing.Closed {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Event) int { return int(a.ID - b.ID) })
	return out, nil
}

func (s *memStore) ClaimClosing(_ context.Context, id int64, attempt int, at time.Time) error {
	err := s.update(id, func(e *Event) error {
		if e.Status != Ended || e.Closing.Closed || e.Closing.Attempts != attempt-1 {
			return ErrConflict
		}
		e.Closing.Attempts, e.Closing.ClaimedAt = attempt, at
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return ErrConflict
	}
	return err
}

func (s *memStore) SetClosingDone(_ context.Context, id int64, steps EndSteps) error {
	return s.update(id, func(e *Event) error { e.Closing.Done |= steps; return nil })
}

func (s *memStore) AddClosingRefusal(_ context.Context, id int64) error {
	return s.update(id, func(e *Event) error { e.Closing.Refused++; return nil })
}

func (s *memStore) SetClosed(_ context.Context, id int64) error {
	return s.update(id, func(e *Event) error { e.Closing.Closed = true; return nil })
}

func (s *memStore) MarkBoardDirty(_ context.Context, id int64) error {
	return s.update(id, func(e *Event) error {
		if e.Status == Running {
			e.BoardDirty = true
		}
		return nil
	})
}

func (s *memStore) ClaimBoardEdit(_ context.Context, id int64, prev, now time.Time) error {
	return s.update(id, func(e *Event) error {
		if e.Status != Running || !e.BoardDirty || !e.BoardEditedAt.Equal(prev) {
			return ErrConflict
		}
		e.BoardDirty, e.BoardEditedAt = false, now
		return nil
	})
}

func (s *memStore) SetBoardEdited(_ context.Context, id int64, at time.Time) error {
	return s.update(id, func(e *Event) error { e.BoardEditedAt = at; return nil })
}

func (s *memStore) EventRuns(_ context.Context, k Key, until time.Time) ([]Run, error) {
	return s.best(k, until), nil
}

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
	// posted are the messages made, by what they are (a call's text);
	// lookups is how often FindDaily looked.
	posted  map[string]string
	lookups int
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

func (a *announcer) PostDaily(_ context.Context, d Daily, channelID, nonce string) (string, error) {
	id, err := a.record(dailyCall(d, channelID), nonce)
	if err == nil && a.failRecord != nil {
		return id, a.failRecord
	}
	return id, err
}

func dailyCall(d Daily, channelID string) string {
	return fmt.Sprintf("daily %s %s #%d in %s", d.GuildID, d.Date, d.Number(), channelID)
}

func (a *announcer) FindDaily(_ context.Context, d Daily, channelID string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lookups++
	return a.posted[dailyCall(d, channelID)], nil
}

func (a *announcer) PostEvent(_ context.Context, e Event, mazeNonce, boardNonce string) (string, string, error) {
	m, err := a.record("event "+e.Name, mazeNonce)
	if err != nil {
		return "", "", err
	}
	b, err := a.record("board "+e.Name, boardNonce)
	return m, b, err
}

func standingsText(e Event, standings []Standing) string {
	kind := "live"
	if e.Status == Ended {
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

func (a *announcer) EditBoard(_ context.Context, e Event, standings []Standing) error {
	_, err := a.record("edit board "+e.Name, "")
	if err == nil {
		a.mu.Lock()
		a.boards = append(a.boards, standingsText(e, standings))
		a.mu.Unlock()
	}
	return err
}

func (a *announcer) PostResults(_ context.Context, e Event, standings []Standing, nonce string) error {
	_, err := a.record("results "+e.Name+" "+standingsText(e, standings), nonce)
	return err
}

func (a *announcer) PostSolution(_ context.Context, e Event, nonce string) error {
	_, err := a.record("solution "+e.Name, nonce)
	return err
}

func (a *announcer) RevealMaze(_ context.Context, e Event) error {
	_, err := a.record("reveal "+e.Name, "")
	return err
}

var errDiscord = errors.New("discord is down")
