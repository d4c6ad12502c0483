package arena

import (
	"encoding/json"
	"slices"
	"time"

	"mazebot/play"
)

// On a shared bus every input goes through the database before any
// replica plays it, so a mover answered by the loop waited for that round
// trip (p99 318 ms for 2,000 racers on one process, BenchmarkArenaPostgres).
// A racer's moves change only their own game, so the process they are
// connected to answers a move at once on a copy of that game, as a game
// client predicts its player: the agreed game (state.games, what the bus's
// order made of it) with the moves sent from here that the bus has not
// brought back yet. When the bus brings a move back, the loop checks it
// went as answered; if not (a move of theirs came through another
// process, one was lost on the bus, the race changed meanwhile), the copy
// is made again from the agreed game and the member is sent where they
// stand. Finishes, places and records stay the agreed state's, in the
// bus's order, so nothing counts from a prediction.

// prediction is a member's game as this process answers their moves.
type prediction struct {
	game    *play.Game
	pending []predicted // sent on the bus from here, in order, not yet back
	shown   PosMsg      // the last place the member was sent
}

// predicted is a move answered ahead of the bus.
type predicted struct {
	nonce string
	dir   Direction
	at    int64
	pos   PosMsg // the answer it was given
}

// maxPredicted bounds the moves of a member answered ahead of the bus:
// past it (the bus stalled), a move waits for the bus as before.
const maxPredicted = 64

func posMsg(user string, g *play.Game) PosMsg {
	return PosMsg{T: "pos", ID: user, X: g.Pos.X, Y: g.Pos.Y, Tiles: g.Tiles, Clicks: g.Clicks}
}

// predict answers ev, a move from c, on its member's prediction: why it is
// refused, or "" once played and c sent its PosMsg. ok is false where
// there is none to answer on (no shared bus, the race not on, the
// member's game not here yet): the move then waits for the loop.
func (r *room) predict(c *conn, ev event) (why string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	pr := r.predictions[ev.User]
	if pr == nil || r.phase != phaseRace || len(pr.pending) >= maxPredicted || !r.shared.Load() || r.dropped {
		return "", false
	}
	g := pr.game
	pos, why := playOn(g, Direction(ev.Dir), ev.At)
	if why != "" {
		return why, true
	}
	pr.pending = append(pr.pending, predicted{nonce: ev.Nonce, dir: Direction(ev.Dir), at: ev.At, pos: pos})
	r.inflight++ // the caller sends it on the bus
	pr.shown = pos
	if b, err := json.Marshal(pos); err == nil && c != nil {
		c.send(b)
	}
	return "", true
}

// playOn plays one move on g, as apply's move does on the agreed game:
// the member's new place, or why it was refused.
func playOn(g *play.Game, d Direction, at int64) (PosMsg, string) {
	action, ok := moveAction(g.Maze(), g.Grid(), d)
	if !ok {
		return PosMsg{}, refusedBad
	}
	action.Seq = g.Seq
	out, err := g.Apply(action, time.UnixMilli(at))
	switch {
	case err != nil:
		return PosMsg{}, refusedFinished
	case out == play.Blocked:
		return PosMsg{}, refusedWall
	}
	return posMsg(g.UserID, g), ""
}

// unsent forgets a predicted move the bus did not take: the member's next
// move waits for the loop, whose answer puts them where they stand.
func (r *room) unsent(user, nonce string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pr := r.predictions[user]; pr != nil && slices.ContainsFunc(pr.pending, func(p predicted) bool { return p.nonce == nonce }) {
		delete(r.predictions, user)
	}
}

// settle takes a move of user as the agreed state played it (pos, nil if
// refused) into their prediction here, in the loop. One that went as
// answered only leaves the pending; anything else makes the prediction
// again from the agreed game. A member with none is given one once their
// game is here, if they are connected here.
func (r *room) settle(st *state, user, nonce string, pos *PosMsg) {
	if !r.shared.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	pr := r.predictions[user]
	if pr == nil {
		r.predictFrom(st, user)
		return
	}
	i := slices.IndexFunc(pr.pending, func(p predicted) bool { return p.nonce == nonce })
	if i == 0 && pos != nil && *pos == pr.pending[0].pos {
		pr.pending = pr.pending[1:]
		return
	}
	// The moves sent before it that it passed were lost on the way: a
	// process's moves come back in the order it sent them.
	pr.pending = pr.pending[i+1:]
	if _, waits := r.replies[nonce]; waits && pos != nil {
		pr.shown = *pos // a move that waited for the loop: its answer is this place
	}
	r.repredict(st, user, pr)
}

// predictFrom starts user's prediction on their agreed game, if they are
// connected here and racing; under r.mu.
func (r *room) predictFrom(st *state, user string) {
	g := st.games[user]
	if g == nil || st.Phase != phaseRace || !r.connectedHere(user) {
		return
	}
	r.predictions[user] = &prediction{game: g.Clone(), shown: posMsg(user, g)}
}

// repredict makes pr again from user's agreed game with the moves still
// on the bus, and sends their connections here the place it comes to if
// it is not the one they were last sent; under r.mu.
func (r *room) repredict(st *state, user string, pr *prediction) {
	g := st.games[user]
	if g == nil {
		delete(r.predictions, user)
		return
	}
	pr.game = g.Clone()
	kept := pr.pending[:0]
	for _, p := range pr.pending {
		// One refused now was answered wrongly: the place sent below puts
		// it right, and its return settles nothing more.
		if pos, why := playOn(pr.game, p.dir, p.at); why == "" {
			p.pos = pos
			kept = append(kept, p)
		}
	}
	pr.pending = kept
	now := posMsg(user, pr.game)
	if now == pr.shown {
		return
	}
	pr.shown = now
	b, err := json.Marshal(now)
	if err != nil {
		return
	}
	for c, welcomed := range r.conns {
		if welcomed && c.user == user {
			c.send(b)
		}
	}
}

// connectedHere: user has a connection to the room on this process;
// under r.mu.
func (r *room) connectedHere(user string) bool {
	for c := range r.conns {
		if c.user == user {
			return true
		}
	}
	return false
}

// predictHere starts the predictions of the members racing here, as the
// room turns shared: their next moves are answered ahead of the bus, not
// after its round trip.
func (r *room) predictHere(st *state) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range st.Players {
		if r.predictions[p.ID] == nil {
			r.predictFrom(st, p.ID)
		}
	}
}

// gameHere starts the prediction of a member whose game the agreed state
// just started, if they are connected here.
func (r *room) gameHere(st *state, user string) {
	if !r.shared.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.predictions[user] == nil {
		r.predictFrom(st, user)
	}
}
