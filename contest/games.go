package contest

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"mazebot/mazecore"
	"mazebot/play"
)

// Games plays games on the contests' terms: a new game counts for the
// contest its maze and channel are in, a win is recorded there, and a
// given-up game shows its solution only where the embargo lets it.
type Games struct {
	play     *play.Service
	contests Contests
	log      *slog.Logger
}

// NewGames runs games kept in s, on the clock now, for contests; failures
// to record a win in its contest go to log (they never undo the win). A
// daily run counts when it finishes before the day's solutions open.
// opts set up the games' play.Service further (play.WithGrids).
func NewGames(s play.Store, now func() time.Time, contests Contests, log *slog.Logger, opts ...play.Option) *Games {
	g := &Games{contests: contests, log: log}
	g.play = play.NewService(s, now, append([]play.Option{play.WithClosing(g.closing)}, opts...)...)
	return g
}

// closing is when a contest stops taking finishes: a daily when its
// solutions open; an event keeps its own time (EventRuns stop at its end,
// and its award tells a late run).
func (g *Games) closing(ctx context.Context, contest string) (time.Time, error) {
	key, ok := ParseKey(contest)
	if !ok {
		return time.Time{}, nil
	}
	guildID, date, ok := key.Daily()
	if !ok {
		return time.Time{}, nil
	}
	s, err := g.contests.Dailies.Settings(ctx, guildID)
	if err != nil {
		return time.Time{}, err
	}
	return Daily{GuildID: guildID, Date: date, Zone: s.Zones().ZoneOf(date)}.SolutionsOpen(), nil
}

// Start begins a game on m for the member and place in who, counting for
// the contest that is running on m there.
func (g *Games) Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error) {
	key, err := g.contests.For(ctx, who.GuildID, who.ChannelID, m.ID())
	if err != nil {
		return nil, err
	}
	who.Contest = key.String()
	return g.play.Start(ctx, m, who)
}

// StartOnGrid is Start on a maze on any grid (a polar, hex or shaped
// maze).
func (g *Games) StartOnGrid(ctx context.Context, m *mazecore.GridMaze, who play.Record) (game *play.Game, err error) {
	if who, err = g.counting(ctx, who, m.ID()); err != nil {
		return nil, err
	}
	return g.play.StartOnGrid(ctx, m, who)
}

// Resume goes on with the member's game on m for the contest running on
// m there, or starts one (play.Service.Resume).
func (g *Games) Resume(ctx context.Context, m *mazecore.Maze, who play.Record) (game *play.Game, resumed bool, err error) {
	if who, err = g.counting(ctx, who, m.ID()); err != nil {
		return nil, false, err
	}
	return g.play.Resume(ctx, m, who)
}

// counting is who with the contest running on maze where they play.
func (g *Games) counting(ctx context.Context, who play.Record, maze mazecore.ID) (play.Record, error) {
	key, err := g.contests.For(ctx, who.GuildID, who.ChannelID, maze)
	who.Contest = key.String()
	return who, err
}

// ResumeOnGrid is Resume on a maze on any grid (a polar, hex or shaped
// maze).
func (g *Games) ResumeOnGrid(ctx context.Context, m *mazecore.GridMaze, who play.Record) (game *play.Game, resumed bool, err error) {
	if who, err = g.counting(ctx, who, m.ID()); err != nil {
		return nil, false, err
	}
	return g.play.ResumeOnGrid(ctx, m, who)
}

// Load returns a game that still takes moves from userID.
func (g *Games) Load(ctx context.Context, id int64, userID string) (*play.Game, error) {
	return g.play.Load(ctx, id, userID)
}

// Turn is what a press did to a game.
type Turn struct {
	Game    *play.Game
	Outcome play.Outcome
	// Award is what a win (Outcome Finished) earned in its contest.
	Award Award
	// Solution is set when a game given up (Outcome Abandoned) may show
	// its solution; else Hold says why not.
	Solution bool
	Hold     Hold
}

// Press plays a member's press on game id. A win is recorded in its
// contest; should that fail, the win stands and the failure is logged.
// Giving up reveals the solution unless the contest holds it back: the
// maze of a running daily or event would then be easy to finish again.
func (g *Games) Press(ctx context.Context, id int64, userID string, a play.Action) (Turn, error) {
	game, out, err := g.play.Press(ctx, id, userID, a)
	if err != nil {
		return Turn{}, err
	}
	turn := Turn{Game: game, Outcome: out}
	switch out {
	case play.Finished:
		r := game.Result()
		if turn.Award, err = g.award(ctx, game); err != nil {
			g.log.Error("contest finish", "maze", r.MazeID.String(), "user", r.UserID, "err", err)
			turn.Award = Award{}
		}
	case play.Abandoned:
		if turn.Hold, err = g.contests.Held(ctx, game.MazeID, game.GuildID); err != nil {
			return Turn{}, fmt.Errorf("game %d given up: %w", id, err)
		}
		turn.Solution = !turn.Hold.Held()
	}
	return turn, nil
}

// Finish records a game won in memory (play.Service.Record) and its place
// in the contest it counts for, as Press does for a finishing move: a live
// race plays its moves in memory and makes only this write.
func (g *Games) Finish(ctx context.Context, game *play.Game) (Turn, error) {
	saved, err := g.play.Record(ctx, game)
	if err != nil {
		return Turn{}, err
	}
	turn := Turn{Game: saved, Outcome: play.Finished}
	if turn.Award, err = g.award(ctx, saved); err != nil {
		r := saved.Result()
		g.log.Error("contest finish", "maze", r.MazeID.String(), "user", r.UserID, "err", err)
		turn.Award = Award{}
	}
	return turn, nil
}

// award is what a won game earns: its place in the contest it counts for;
// or, for a run on a daily that is over (finished after the day's
// solutions opened, or started on an earlier day's post), word that it
// does not count.
func (g *Games) award(ctx context.Context, game *play.Game) (Award, error) {
	if key, ok := ParseKey(game.Lapsed); ok {
		if _, date, ok := key.Daily(); ok {
			return Award{Daily: &DailyAward{Number: Number(date), Date: date, Late: true}}, nil
		}
	}
	if game.Contest == "" && game.GuildID != "" {
		date, ok, err := g.contests.Dailies.pastDaily(ctx, game.GuildID, game.MazeID)
		if err != nil || ok {
			return Award{Daily: &DailyAward{Number: Number(date), Date: date, Late: true}}, err
		}
	}
	return g.contests.Finish(ctx, game.Result())
}

// Ended returns a finished game of userID's (see play.Service.Ended).
func (g *Games) Ended(ctx context.Context, id int64, userID string) (*play.Game, error) {
	return g.play.Ended(ctx, id, userID)
}

// DailyShare is what a won daily game's share lines tell: its day's
// number and the member's streak, as of the day it counted for; nil for a
// game that counted for no daily.
func (g *Games) DailyShare(ctx context.Context, game *play.Game) (*DailyAward, error) {
	key, ok := ParseKey(game.Contest)
	if !ok || game.Status != play.Won {
		return nil, nil
	}
	guildID, date, ok := key.Daily()
	if !ok {
		return nil, nil
	}
	streak, err := g.contests.Dailies.Streak(ctx, guildID, game.UserID, date)
	if err != nil {
		return nil, err
	}
	return &DailyAward{Number: Number(date), Date: date, Streak: streak}, nil
}

// Cleanup deletes old games and runs (see play.Service.Cleanup).
func (g *Games) Cleanup(ctx context.Context) (play.Cleaned, error) { return g.play.Cleanup(ctx) }
