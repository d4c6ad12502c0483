package arena

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// A ghost is a finished run of today's daily replayed beside a racer: the
// server's best of the day so far, and the racer's own. A racer's moves
// are kept as they are played (player.Run), each a varint of its
// direction's code (low 4 bits) and the milliseconds since the move
// before (the rest), about 2 bytes a move; a finish on a daily saves them
// (play.Run) through Config.Runs. When a racer's game starts on a daily,
// the process they are connected to reads the runs, replays them on the
// maze (replayRun) and sends them (GhostsMsg); ghosts are never in the
// room's state, so they count, rank and refuse nothing.

// maxRunMoves bounds a kept run: a run of more moves is not saved. With
// at most 4 bytes a move (maxMoveGap) it fits play.MaxRunBytes.
const maxRunMoves = 4096

// maxMoveGap caps the time a move records since the one before (about
// 4.6 hours: a daily's game expires long before), so a move is at most 4
// bytes.
const maxMoveGap = 1<<24 - 1

// runCodes are the directions as a run stores them, by their index: they
// are kept in the database, so a direction is only ever appended.
var runCodes = []Direction{North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest, In, Out, OutClockwise, Clockwise, Anticlockwise}

// keep appends a move played at ms since the game's start to the
// player's run, unless the run is full (then it is marked too long).
func (p *player) keep(dir Direction, ms int64) {
	if p.RunMoves >= maxRunMoves {
		p.RunMoves = maxRunMoves + 1 // too long to keep
		return
	}
	code := slices.Index(runCodes, dir)
	gap := min(max(ms-p.RunAt, 0), maxMoveGap)
	p.Run = binary.AppendUvarint(p.Run, uint64(gap)<<4|uint64(code))
	p.RunAt += gap
	p.RunMoves++
}

// runOf is the run a finished game of p's is saved as, nil when it is
// none a ghost races: not on a daily, or too long.
func runOf(p *player, g *play.Game) *play.Run {
	key, ok := contest.ParseKey(g.Contest)
	if !ok || p.RunMoves > maxRunMoves {
		return nil
	}
	if _, _, daily := key.Daily(); !daily {
		return nil
	}
	return &play.Run{Contest: g.Contest, UserID: p.ID, Name: p.Name, MazeID: g.MazeID, Ms: p.Ms,
		Moves: slices.Clone(p.Run), FinishedAt: g.FinishedAt}
}

// errBadRun: a saved run does not replay on its maze.
var errBadRun = errors.New("the run does not replay")

// replayRun plays a saved run's moves on the maze from its start: where
// the ghost is after each, and when (ms since the start). The first step
// is the start, at 0.
func replayRun(m *mazecore.Maze, grid *mazecore.GridMaze, moves []byte) ([]GhostStep, error) {
	g, err := newGame(m, grid, play.Record{}, time.UnixMilli(0))
	if err != nil {
		return nil, err
	}
	x, y := startPos(m, grid)
	steps := []GhostStep{{T: 0, X: x, Y: y}}
	var at int64
	for len(moves) > 0 {
		v, n := binary.Uvarint(moves)
		if n <= 0 || int(v&15) >= len(runCodes) || len(steps) > maxRunMoves {
			return nil, fmt.Errorf("%w: move %d unreadable", errBadRun, len(steps))
		}
		moves = moves[n:]
		at += int64(v >> 4)
		action, ok := moveAction(m, grid, runCodes[v&15])
		if !ok {
			return nil, fmt.Errorf("%w: move %d goes no way of this grid", errBadRun, len(steps))
		}
		action.Seq = g.Seq
		out, err := g.Apply(action, time.UnixMilli(at))
		if err != nil || out == play.Blocked {
			return nil, fmt.Errorf("%w: move %d: %v", errBadRun, len(steps), err)
		}
		p := posOf(g)
		steps = append(steps, GhostStep{T: at, X: p.X, Y: p.Y})
	}
	return steps, nil
}

// ghostAt is where a ghost is ms after the race's start: at the last
// step made by then (the start before its first move).
func ghostAt(steps []GhostStep, ms int64) (x, y int) {
	i, _ := slices.BinarySearchFunc(steps, ms, func(s GhostStep, ms int64) int {
		if s.T <= ms {
			return -1
		}
		return 1
	})
	if i == 0 {
		return steps[0].X, steps[0].Y
	}
	return steps[i-1].X, steps[i-1].Y
}
