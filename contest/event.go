package contest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Bounds of community events.
const (
	// EventMaxSide is the largest event maze: everyone plays it, so it
	// must stay comfortable in play mode, and the board is the point.
	EventMaxSide = 101
	// MinEventDuration and MaxEventDuration bound how long one runs.
	MinEventDuration = 5 * time.Minute
	MaxEventDuration = 7 * 24 * time.Hour
	// BoardEditInterval is the least time between two live edits of one
	// event's board. Discord allows about 5 edits per 5 s in a channel;
	// one per 10 s leaves room for everything else the bot does there.
	BoardEditInterval = 10 * time.Second
)

// EventStatus is where an event stands.
type EventStatus uint8

// The event statuses. Stores keep their own spelling of them.
const (
	Running EventStatus = iota + 1
	Ended
)

// Event is a community event: one maze that every member of a channel
// plays for a while, with a live leaderboard. A channel has at most one
// running event; the store enforces it.
type Event struct {
	ID        int64
	GuildID   string
	ChannelID string
	Name      string
	MazeID    mazecore.ID
	CreatorID string
	// Language is the code of the language the event's posts are in;
	// contest keeps it for the Announcer and never reads it. "" is an
	// event from before languages, posted in the server's primary
	// language in Discord.
	Language  string
	StartedAt time.Time
	// EndsAt is the end of the event. Ending it early moves EndsAt to the
	// moment it ended, so runs after that don't count.
	EndsAt time.Time
	// MazeMessageID and BoardMessageID are "" until the posts are made.
	MazeMessageID  string
	BoardMessageID string
	Status         EventStatus
	// BoardDirty says results arrived since the board was last edited;
	// BoardEditedAt is that edit, the zero Time if none.
	BoardDirty    bool
	BoardEditedAt time.Time
	// Closing is the progress of the posts that close the event once it
	// has ended.
	Closing Closing
	// ResultsMessageID is the post of its results once made, which the
	// final board points to.
	ResultsMessageID string
}

// Key names the event as a contest.
func (e Event) Key() Key { return EventKey(e.ID) }

// postKey names one of the event's posts (its nonce's key). The maze ID
// keeps two databases' events of one number apart.
func (e Event) postKey(what string) string {
	return "event|" + strconv.FormatInt(e.ID, 10) + "|" + e.MazeID.String() + "|" + what
}

// EndSteps are the posts that close an ended event, as a set.
type EndSteps uint8

// The closing steps, in the order they are made: one results post
// (ranking and solution), then edits of the event's messages: the board
// points to the results, the maze gets its Solve button. StepSolution is
// made with StepResults; alone it is the solution's own post, which a
// closing begun by an older release still owes.
const (
	StepResults EndSteps = 1 << iota
	StepSolution
	StepFinalBoard
	StepRevealMaze

	AllEndSteps = StepResults | StepSolution | StepFinalBoard | StepRevealMaze
)

// Closing is where an ended event's closing posts stand: which are made,
// and the claims on making the rest, as retry.go describes. The store
// records each step once made, so a closing cut short by an error or a
// crash is finished by a later tick, each post once.
type Closing struct {
	Done      EndSteps
	Attempts  int // claims; ending the event is the first
	Refused   int // attempts the channel refused
	ClaimedAt time.Time
	// Closed: every step is made, or the attempts are used up.
	Closed bool
}

// EventStore keeps community events and their runs.
type EventStore interface {
	// CreateEvent stores a new running event and returns its ID, or
	// ErrConflict when its channel already has a running one.
	CreateEvent(ctx context.Context, e Event) (int64, error)
	SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error
	// SetResultsMessage records an ended event's results post.
	SetResultsMessage(ctx context.Context, id int64, messageID string) error
	// DeleteEvent removes an event whose posts failed, freeing its channel.
	DeleteEvent(ctx context.Context, id int64) error
	// Event, RunningEvent and RunningEventOnMaze return an event or
	// ErrNotFound. Should two run on one maze, the one ending last wins.
	Event(ctx context.Context, id int64) (Event, error)
	RunningEvent(ctx context.Context, channelID string) (Event, error)
	RunningEventOnMaze(ctx context.Context, maze mazecore.ID) (Event, error)
	// RunningEvents lists every running event.
	RunningEvents(ctx context.Context) ([]Event, error)
	// EndEvent marks a running event ended at at, moving its end there if
	// that is earlier and clearing its dirty board, and claims its closing
	// for the caller (attempt 1, at at); or returns ErrConflict when it is
	// not running (or not there): only the caller that ends it closes it,
	// until the claim's retry delay is over.
	EndEvent(ctx context.Context, id int64, at time.Time) error
	// ClosingEvents lists the ended events that are not closed.
	ClosingEvents(ctx context.Context) ([]Event, error)
	// EndedEvents lists a server's ended events, oldest first.
	EndedEvents(ctx context.Context, guildID string) ([]Event, error)
	// ClaimClosing writes claim number attempt, at at, on the closing of
	// an ended, unclosed event, over claim attempt−1; otherwise it changes
	// nothing and returns ErrConflict.
	ClaimClosing(ctx context.Context, id int64, attempt int, at time.Time) error
	// SetClosingDone adds steps to the closing steps made.
	SetClosingDone(ctx context.Context, id int64, steps EndSteps) error
	// AddClosingRefusal counts an attempt the channel refused.
	AddClosingRefusal(ctx context.Context, id int64) error
	// SetClosed marks an ended event's closing finished.
	SetClosed(ctx context.Context, id int64) error
	// MarkBoardDirty notes that a running event's board is out of date.
	MarkBoardDirty(ctx context.Context, id int64) error
	// ClaimBoardEdit takes a running event's dirty board for an edit at
	// now, clearing the flag, if its last edit is still prev; otherwise it
	// changes nothing and returns ErrConflict.
	ClaimBoardEdit(ctx context.Context, id int64, prev, now time.Time) error
	// SetBoardEdited records an edit made outside a claim (the final one).
	SetBoardEdited(ctx context.Context, id int64, at time.Time) error
	// EventRuns returns each member's best run in the contest up to until,
	// best first.
	EventRuns(ctx context.Context, key Key, until time.Time) ([]Run, error)
}

// ErrNotPosted: an event could not be announced in its channel, so it was
// not started.
var ErrNotPosted = errors.New("event could not be posted")

// Events runs community events.
type Events struct {
	store    EventStore
	announce Announcer
	now      func() time.Time
	log      *slog.Logger
}

// NewEvents runs events kept in s and announced through a, on the clock now.
func NewEvents(s EventStore, a Announcer, now func() time.Time, log *slog.Logger) *Events {
	return &Events{store: s, announce: a, now: now, log: log}
}

// Now is the events' clock.
func (ev *Events) Now() time.Time { return ev.now() }

// startAttempts bounds the tries of an event's first posts while its
// manager waits: a retry right away, with the same nonces, makes a post
// whose answer was lost (a 5xx after Discord made it) once.
const startAttempts = 3

// startGrace is how long an event may lack its posts before a tick makes
// them: longer than Start takes (a handler's time), so the tick finishes
// only a start that was cut short (a crash).
const startGrace = time.Minute

// Start stores e as running from now for d and announces it. The row is
// claimed before anything is posted, so a second start in the channel
// (here or in another process) fails with ErrConflict and posts nothing;
// the running event then comes back with it. Posts that fail even when
// tried again remove the event (ErrNotPosted); a start cut short by a
// crash is finished by a tick.
func (ev *Events) Start(ctx context.Context, e Event, d time.Duration) (Event, error) {
	now := ev.now()
	e.StartedAt, e.EndsAt, e.Status = now, now.Add(d), Running
	var err error
	if e.ID, err = ev.store.CreateEvent(ctx, e); errors.Is(err, ErrConflict) {
		running, rerr := ev.store.RunningEvent(ctx, e.ChannelID)
		if rerr != nil {
			return Event{}, err // it ended between the two reads
		}
		return running, err
	} else if err != nil {
		return Event{}, fmt.Errorf("create event: %w", err)
	}
	for attempt := 1; ; attempt++ {
		e.MazeMessageID, e.BoardMessageID, err = ev.announce.PostEvent(ctx, e, nonce(e.postKey("maze")), nonce(e.postKey("board")))
		if err == nil || errors.Is(err, ErrRefused) || attempt == startAttempts || ctx.Err() != nil {
			break
		}
		ev.log.Warn("event posts failed; trying again", "event", e.ID, "attempt", attempt, "err", err)
	}
	if err != nil {
		if derr := ev.store.DeleteEvent(ctx, e.ID); derr != nil {
			ev.log.Error("delete unposted event", "event", e.ID, "err", derr)
		}
		return Event{}, fmt.Errorf("%w: %w", ErrNotPosted, err)
	}
	if err := ev.store.SetEventMessages(ctx, e.ID, e.MazeMessageID, e.BoardMessageID); err != nil {
		// The event runs and is posted: a tick records its messages
		// (posting again with the same nonces finds them).
		ev.log.Error("record event messages", "event", e.ID, "err", err)
	}
	return e, nil
}

// finishStart makes the posts of a running event whose start was cut short.
func (ev *Events) finishStart(ctx context.Context, e Event) error {
	maze, board, err := ev.announce.PostEvent(ctx, e, nonce(e.postKey("maze")), nonce(e.postKey("board")))
	if errors.Is(err, ErrRefused) {
		// As Start does: an event its channel refuses cannot run.
		return errors.Join(fmt.Errorf("finish the start of event %d: %w", e.ID, err), ev.store.DeleteEvent(ctx, e.ID))
	}
	if err != nil {
		return fmt.Errorf("finish the start of event %d: %w", e.ID, err)
	}
	ev.log.Info("event start finished", "event", e.ID, "channel", e.ChannelID)
	return ev.store.SetEventMessages(ctx, e.ID, maze, board)
}

// RunningIn returns the event running in a server's channel, or
// ErrNotFound: also for another server's, which a member of this one may
// not end (only a forged interaction names another server's channel).
func (ev *Events) RunningIn(ctx context.Context, guildID, channelID string) (Event, error) {
	e, err := ev.store.RunningEvent(ctx, channelID)
	if err == nil && e.GuildID != guildID {
		return Event{}, fmt.Errorf("running event in channel %s: another server's: %w", channelID, ErrNotFound)
	}
	return e, err
}

// End ends e now and closes it, or returns ErrConflict when another
// caller (a tick, another process) ended it first. Once it has ended, an
// error wraps ErrPostsPending: the event is over, and a tick makes the
// closing posts that failed.
func (ev *Events) End(ctx context.Context, e Event) error {
	err := ev.end(ctx, e, ev.now())
	if errors.Is(err, ErrPostsPending) {
		ev.log.Warn("event ended; closing posts pending", "event", e.ID, "err", err)
	}
	return err
}

// end ends e at now and closes it. The store is marked first,
// conditionally, so of two closers exactly one goes on; the other gets
// ErrConflict.
func (ev *Events) end(ctx context.Context, e Event, now time.Time) error {
	if err := ev.store.EndEvent(ctx, e.ID, now); err != nil {
		return err
	}
	if now.Before(e.EndsAt) {
		e.EndsAt = now // as the store did: runs after an early end don't count
	}
	e.Status = Ended
	e.Closing = Closing{Attempts: 1, ClaimedAt: now}
	return ev.close(ctx, e)
}

// close makes the closing steps of an ended event that are not made yet,
// under the claim in e.Closing, recording each as it is made. The posts
// carry their nonces, so one whose answer was lost is not made twice.
func (ev *Events) close(ctx context.Context, e Event) error {
	standings, err := ev.Standings(ctx, e)
	if err != nil {
		return fmt.Errorf("close event %d: %w: %w", e.ID, ErrPostsPending, err)
	}
	c := &e.Closing
	var errs []error
	// step runs one step unless the step of its first bit is made, and
	// records every bit of made.
	step := func(made EndSteps, what string, run func() error) {
		if c.Done&(made&-made) != 0 {
			return
		}
		if err := run(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			return
		}
		if err := ev.store.SetClosingDone(ctx, e.ID, made); err != nil {
			errs = append(errs, err)
			return
		}
		c.Done |= made
	}
	step(StepResults|StepSolution, "post results", func() error {
		id, err := ev.announce.PostResults(ctx, e, standings, nonce(e.postKey("results")))
		if err != nil || id == "" {
			return err
		}
		e.ResultsMessageID = id
		return ev.store.SetResultsMessage(ctx, e.ID, id)
	})
	if c.Done&StepResults != 0 { // an older release's results: the solution goes below them
		step(StepSolution, "post solution", func() error { return ev.announce.PostSolution(ctx, e, nonce(e.postKey("solution"))) })
	}
	if c.Done&StepResults != 0 { // the board points to the results, the maze says they are below
		step(StepFinalBoard, "edit final board", func() error { return ev.finalBoard(ctx, e, standings) })
		step(StepRevealMaze, "edit maze message", func() error {
			if e.MazeMessageID == "" {
				return nil
			}
			return ev.announce.RevealMaze(ctx, e)
		})
	}
	if c.Done == AllEndSteps {
		return ev.store.SetClosed(ctx, e.ID)
	}
	err = errors.Join(errs...)
	if errors.Is(err, ErrRefused) {
		c.Refused++
		errs = append(errs, ev.store.AddClosingRefusal(ctx, e.ID))
	}
	if exhausted(c.Attempts, c.Refused) {
		ev.log.Error("event closing given up", "event", e.ID, "channel", e.ChannelID, "attempts", c.Attempts, "refused", c.Refused, "done", int(c.Done))
		errs = append(errs, ev.store.SetClosed(ctx, e.ID))
	}
	return fmt.Errorf("close event %d (attempt %d): %w: %w", e.ID, c.Attempts, ErrPostsPending, errors.Join(errs...))
}

// Standings ranks an event's runs up to its end.
func (ev *Events) Standings(ctx context.Context, e Event) ([]Standing, error) {
	runs, err := ev.store.EventRuns(ctx, e.Key(), e.EndsAt)
	if err != nil {
		return nil, fmt.Errorf("ranking of event %d: %w", e.ID, err)
	}
	return Rank(runs), nil
}

func (ev *Events) finalBoard(ctx context.Context, e Event, standings []Standing) error {
	if e.BoardMessageID == "" {
		return nil
	}
	if err := ev.announce.EditBoard(ctx, e, standings); err != nil {
		return err
	}
	return ev.store.SetBoardEdited(ctx, e.ID, ev.now())
}

// boardDue tells whether a running event's board may be edited at now.
func boardDue(e Event, now time.Time) bool {
	return e.Status == Running && e.BoardDirty && e.BoardMessageID != "" && now.Sub(e.BoardEditedAt) >= BoardEditInterval
}

// refreshBoard edits a running event's dirty board if its last edit is
// at least BoardEditInterval old; otherwise a later tick does. It returns
// the standings it read, or nil when it made no edit.
func (ev *Events) refreshBoard(ctx context.Context, e Event, now time.Time) ([]Standing, error) {
	if !boardDue(e, now) {
		return nil, nil
	}
	if err := ev.store.ClaimBoardEdit(ctx, e.ID, e.BoardEditedAt, now); errors.Is(err, ErrConflict) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	// Read after the claim: a run stored later marks the board dirty
	// again, so no result is ever left off for good.
	standings, err := ev.Standings(ctx, e)
	if err != nil {
		return nil, errors.Join(err, ev.store.MarkBoardDirty(ctx, e.ID))
	}
	if err := ev.announce.EditBoard(ctx, e, standings); err != nil {
		return nil, errors.Join(fmt.Errorf("edit board of event %d: %w", e.ID, err), ev.store.MarkBoardDirty(ctx, e.ID))
	}
	// Had the event ended and its board been made final while this edit
	// was on its way, the live board may have landed over the final one:
	// put the final one back. (Before then, the closing makes it.)
	if cur, err := ev.store.Event(ctx, e.ID); err == nil && cur.Status == Ended && cur.Closing.Done&StepFinalBoard != 0 {
		final, err := ev.Standings(ctx, cur)
		if err != nil {
			return nil, err
		}
		return standings, ev.finalBoard(ctx, cur, final)
	}
	return standings, nil
}

// Tick ends the events that are due (also those that ended while the bot
// was down), finishes the closings and starts cut short, and flushes the
// dirty boards.
func (ev *Events) Tick(ctx context.Context) error {
	now := ev.now()
	running, err := ev.store.RunningEvents(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range running {
		if (e.MazeMessageID == "" || e.BoardMessageID == "") && now.Sub(e.StartedAt) >= startGrace {
			if err := ev.finishStart(ctx, e); err != nil {
				errs = append(errs, err)
			}
		}
	}
	due := slices.DeleteFunc(slices.Clone(running), func(e Event) bool { return e.EndsAt.After(now) })
	slices.SortStableFunc(due, func(a, b Event) int { return cmp.Or(a.EndsAt.Compare(b.EndsAt), cmp.Compare(a.ID, b.ID)) })
	for _, e := range due {
		if err := ev.end(ctx, e, now); err != nil && !errors.Is(err, ErrConflict) {
			errs = append(errs, err)
		}
	}
	if err := ev.finishClosings(ctx, now); err != nil {
		errs = append(errs, err)
	}
	for _, e := range running {
		if e.EndsAt.After(now) && e.BoardDirty {
			if _, err := ev.refreshBoard(ctx, e, now); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// finishClosings takes over the closings whose claim's retry delay is
// over (a post failed, or the process closing it died) and finishes them.
func (ev *Events) finishClosings(ctx context.Context, now time.Time) error {
	closing, err := ev.store.ClosingEvents(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range closing {
		c := e.Closing
		if exhausted(c.Attempts, c.Refused) {
			errs = append(errs, ev.store.SetClosed(ctx, e.ID)) // given up by a process that died before saying so
			continue
		}
		if !mayRetry(c.Attempts, c.Refused, c.ClaimedAt, now) {
			continue
		}
		if err := ev.store.ClaimClosing(ctx, e.ID, c.Attempts+1, now); errors.Is(err, ErrConflict) {
			continue
		} else if err != nil {
			errs = append(errs, err)
			continue
		}
		e.Closing.Attempts, e.Closing.ClaimedAt = c.Attempts+1, now
		if err := ev.close(ctx, e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// contestFor is the event a new game on maze counts for: the running
// event of the game's channel, when it is played on that maze.
func (ev *Events) contestFor(ctx context.Context, channelID string, maze mazecore.ID) (Key, error) {
	if channelID == "" {
		return Key{}, nil
	}
	e, err := ev.store.RunningEvent(ctx, channelID)
	if errors.Is(err, ErrNotFound) {
		return Key{}, nil
	}
	if err != nil {
		return Key{}, fmt.Errorf("running event in %s: %w", channelID, err)
	}
	if e.MazeID != maze {
		return Key{}, nil
	}
	return e.Key(), nil
}

// EventAward is what a won event game earns.
type EventAward struct {
	Event Event
	// Late: the event had ended when the run finished, so it does not count.
	Late bool
	// Standing is the member's best run in the event; zero when the
	// ranking lacks them.
	Standing Standing
	Of       int
}

// award puts a won event game on the board and finds the member's place.
func (ev *Events) award(ctx context.Context, id int64, r play.Result) (*EventAward, error) {
	e, err := ev.store.Event(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", id, err)
	}
	if e.Status != Running || r.FinishedAt.After(e.EndsAt) {
		return &EventAward{Event: e, Late: true}, nil
	}
	if err := ev.store.MarkBoardDirty(ctx, e.ID); err != nil {
		return nil, err
	}
	e.BoardDirty = true
	standings, err := ev.refreshBoard(ctx, e, ev.now())
	if err != nil {
		// The board catches up at a later tick; the rank still shows.
		ev.log.Error("refresh event board", "event", e.ID, "err", err)
	}
	if standings == nil {
		if standings, err = ev.Standings(ctx, e); err != nil {
			return nil, err
		}
	}
	a := &EventAward{Event: e, Of: len(standings)}
	for _, s := range standings {
		if s.UserID == r.UserID {
			a.Standing = s
		}
	}
	return a, nil
}
