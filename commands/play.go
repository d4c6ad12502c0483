package commands

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// Play is the Play button under a maze and the buttons of a game.
type Play struct {
	games    *contest.Games
	sign     customid.Signer
	pictures *pictures.Queue
	seed     func() uint64 // of the new mazes New maze starts
	images   Images        // the pictures of mazes in an image's shape
}

// NewPlay runs games in games, with buttons signed by sign, maps drawn on
// the queue, and new mazes seeded by seed.
func NewPlay(games *contest.Games, sign customid.Signer, q *pictures.Queue, seed func() uint64) *Play {
	return &Play{games: games, sign: sign, pictures: q, seed: seed}
}

func (f *Play) Commands() []bot.Command { return nil }

func (f *Play) Components() []bot.Component {
	return []bot.Component{
		{Prefix: customid.PlayPrefix, Handle: f.handlePlay},
		{Prefix: customid.MovePrefix, Handle: f.handleMove},
		{Prefix: customid.NewPrefix, Handle: f.handleNew},
		{Prefix: customid.SharePrefix, Handle: f.handleShare},
	}
}

var (
	errInvalidButton = bot.Refuse("error.invalid_button")
	errGameOver      = bot.Refuse("error.game_over")
	errGameExpired   = bot.Refuse("error.game_expired", lang.Args{"Lasts": lang.Span(play.TTL)})
)

// gameError turns play's refusals into what the member reads.
func gameError(err error) error {
	switch {
	case errors.Is(err, play.ErrOver):
		return errGameOver
	case errors.Is(err, play.ErrExpired):
		return errGameExpired
	case errors.Is(err, play.ErrNotYours):
		return errInvalidButton // the MAC already ties the button to its owner; belt and braces
	}
	return err
}

// handlePlay starts a game for the member who pressed Play under a maze.
func (f *Play) handlePlay(ctx context.Context, in *bot.Interaction) error {
	text, guildID := customid.ParsePlay(customid.Rest(in.MessageComponentData().CustomID))
	id, err := mazecore.Parse(text)
	if err != nil {
		return bot.RefuseWith(err, "error.play_bad_id", lang.Args{"Text": sanitize(text)})
	}
	if !views.Playable(id) {
		return bot.Refuse("error.play_too_big", lang.Args{"Max": views.Side(play.MaxSide), "Size": views.Size(id)})
	}
	if in.GuildID == "" && guildID != "" {
		// A reminder's Play, pressed in the DM: the game counts for the
		// server's daily as one started there would.
		return f.startIn(ctx, in, id, guildID)
	}
	return f.start(ctx, in, id)
}

// start shows the member's game on maze id, privately: the one they
// were playing there, or a new one.
func (f *Play) start(ctx context.Context, in *bot.Interaction, id mazecore.ID) error {
	return f.startIn(ctx, in, id, in.GuildID)
}

// startIn is start for a game of guildID's.
func (f *Play) startIn(ctx context.Context, in *bot.Interaction, id mazecore.ID, guildID string) error {
	if !id.Plain() {
		return f.startOnGrid(ctx, in, id, guildID)
	}
	m, err := generate(id)
	if err != nil {
		return err
	}
	g, resumed, err := f.games.Resume(ctx, m, play.Record{UserID: in.UserID(), GuildID: guildID, ChannelID: in.ChannelID})
	if err != nil {
		return err
	}
	return f.open(ctx, in, g, resumed)
}

// open answers with the member's game, privately: new, or resumed where
// they left it.
func (f *Play) open(ctx context.Context, in *bot.Interaction, g *play.Game, resumed bool) error {
	if g.Grid() != nil {
		return f.openOnGrid(ctx, in, g, resumed)
	}
	reply := views.Game(in.Lang(), g, f.sign)
	if resumed {
		reply = views.ResumedGame(in.Lang(), g, f.sign)
	}
	reply.Ephemeral = true
	return answer(ctx, in, reply)
}

// handleNew starts a game on a new maze like the one a finished game was
// on: its algorithm, size and loops, with a new seed.
func (f *Play) handleNew(ctx context.Context, in *bot.Interaction) error {
	text := customid.Rest(in.MessageComponentData().CustomID)
	id, err := mazecore.Parse(text)
	if err != nil || !views.Playable(id) {
		return bot.RefuseWith(err, "error.play_bad_id", lang.Args{"Text": sanitize(text)})
	}
	id.Seed = f.seed() & maxSeed
	return f.start(ctx, in, id)
}

// handleShare answers Share on a won game with its share lines, privately.
func (f *Play) handleShare(ctx context.Context, in *bot.Interaction) error {
	game, ok := customid.ParseShare(in.MessageComponentData().CustomID)
	if !ok {
		return errInvalidButton
	}
	g, err := f.games.Ended(ctx, game, in.UserID())
	switch {
	case errors.Is(err, play.ErrNotFound):
		return errGameOver
	case err != nil:
		return gameError(err)
	case g.Status != play.Won:
		return errInvalidButton
	}
	daily, err := f.games.DailyShare(ctx, g)
	if err != nil {
		return err
	}
	rating := 0
	switch {
	case daily == nil:
	case g.Maze() != nil:
		rating = mazecore.Rate(g.Maze()).Rating
	case g.Grid() != nil:
		rating = mazecore.RateGrid(g.Grid()).Rating
	}
	return answer(ctx, in, views.ShareReply(in.Lang(), g, daily, rating, g.Par()))
}

// handleMove handles every button of a game message.
func (f *Play) handleMove(ctx context.Context, in *bot.Interaction) error {
	btn, err := f.sign.ParseMove(in.MessageComponentData().CustomID, in.UserID())
	if err != nil {
		return errInvalidButton
	}
	if btn.Action == customid.Map {
		g, err := f.games.Load(ctx, btn.Game, in.UserID())
		if err != nil {
			return gameError(err)
		}
		if g.Maze() == nil {
			return errInvalidButton // a game on another grid has no Map
		}
		return f.sendMap(ctx, in, g)
	}
	action := play.Action{Kind: play.Move, Dir: customid.Dirs[btn.Action], Way: customid.Ways[btn.Action], Seq: btn.Seq}
	if btn.Action == customid.GiveUp {
		action.Kind = play.GiveUp
	}
	turn, err := f.games.Press(ctx, btn.Game, in.UserID(), action)
	if err != nil {
		return gameError(err)
	}
	l, g := in.Lang(), turn.Game
	if g.Grid() != nil {
		return f.turnOnGrid(ctx, in, turn)
	}
	switch turn.Outcome {
	case play.Abandoned:
		var end views.Ending
		if turn.Solution {
			end.Solution = mazecore.Solve(g.Maze())
		} else {
			end.Held = views.Held(turn.Hold, in.GuildID)
		}
		return f.finish(ctx, in, g, end)
	case play.Finished:
		par := play.Par(g.Maze()) // once, for the result and the share lines
		return f.finish(ctx, in, g, views.Ending{Par: par, Lines: views.AwardLines(l, turn.Award, g.Result())})
	}
	// Moved; or Stale (a double click, another process moved first) and
	// Blocked (only a hand-made interaction presses a disabled button):
	// show the game as it now is.
	return update(ctx, in, views.Game(l, g, f.sign))
}

// finish replaces the game message with its result and no buttons. A maze
// too big to show whole also gets the full picture as a PNG, in a message
// of its own so that the edit stays small and fast.
func (f *Play) finish(ctx context.Context, in *bot.Interaction, g *play.Game, end views.Ending) error {
	l := in.Lang()
	final := views.Final(l, g, end)
	if n := utf8.RuneCountInString(final.Text()); n > views.MaxText {
		return fmt.Errorf("game %d: final message of %d code points", g.ID, n)
	}
	if err := update(ctx, in, final); err != nil {
		return err
	}
	if views.GameWindow(g) == (render.Window{}) {
		return nil
	}
	whole, err := f.pictures.Draw(ctx, "", func() (bot.Reply, error) {
		shows := views.ShowsTrail
		if end.Solution != nil {
			shows = views.ShowsTrailSolution
		}
		file, err := pngFile(g.Maze(), fmt.Sprintf("maze-%s-game-%d.png", g.MazeID, g.ID), views.Alt(l, g.MazeID, shows, g.Pos), views.FinalOverlay(g, end), look{})
		return views.WholeMaze(l, file, end), err
	})
	if err != nil {
		return err
	}
	if err := in.Respond.Followup(ctx, whole); err != nil {
		return fmt.Errorf("followup: %w", err)
	}
	return nil
}

// sendMap answers the Map button with a new private message holding the
// whole maze, the trail and the player as a PNG. The game message stays.
func (f *Play) sendMap(ctx context.Context, in *bot.Interaction, g *play.Game) error {
	l := in.Lang()
	reply, err := f.pictures.Reply(ctx, in, pictures.Request{Ephemeral: true}, func() (bot.Reply, error) {
		file, err := pngFile(g.Maze(), fmt.Sprintf("maze-%s-game-%d-map.png", g.MazeID, g.ID), views.Alt(l, g.MazeID, views.ShowsTrail, g.Pos), views.Trail(g), look{})
		return views.Map(l, g, file), err
	})
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}
