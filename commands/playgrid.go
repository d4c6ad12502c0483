package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// Play on a maze on another grid than the whole square one (polar, hex,
// or cut to a shape): the game moves by the ways of its grid and shows a
// picture window around the player (views.GridGame); it ends on a
// picture of the whole maze.

// imageOf returns the picture of a maze in an image's shape, kept under
// its hash (the store's image_masks); nil for any other maze.
func imageOf(ctx context.Context, images Images, id mazecore.ID) (*mazecore.Image, error) {
	if id.Shape.Kind != mazecore.ImageShape {
		return nil, nil
	}
	img, err := images.Image(ctx, id.Shape.Hash)
	if errors.Is(err, contest.ErrNotFound) {
		return nil, bot.RefuseWith(err, "error.image.gone", lang.Args{"ID": id.String()})
	}
	return img, err
}

// gridMazes makes the maze of a version 3 ID, with its picture from
// images when its shape is one: what a game on it is resumed on
// (play.WithGrids).
func gridMazes(images Images) play.Grids {
	return func(ctx context.Context, id mazecore.ID) (*mazecore.GridMaze, error) {
		img, err := imageOf(ctx, images, id)
		if err != nil {
			return nil, err
		}
		return generateShaped(id, img)
	}
}

// startOnGrid shows the member's game on maze id, on another grid,
// privately: the one they were playing there, or a new one.
func (f *Play) startOnGrid(ctx context.Context, in *bot.Interaction, id mazecore.ID, guildID string) error {
	m, err := gridMazes(f.images)(ctx, id)
	if err != nil {
		return err
	}
	g, resumed, err := f.games.ResumeOnGrid(ctx, m, play.Record{UserID: in.UserID(), GuildID: guildID, ChannelID: in.ChannelID})
	if err != nil {
		return err
	}
	return f.openOnGrid(ctx, in, g, resumed)
}

// openOnGrid answers with the member's game on another grid, privately.
func (f *Play) openOnGrid(ctx context.Context, in *bot.Interaction, g *play.Game, resumed bool) error {
	reply, err := f.gridGame(ctx, in.Lang(), g, resumed)
	if err != nil {
		return err
	}
	reply.Ephemeral = true
	return answer(ctx, in, reply)
}

// gridGame is the message of a game on another grid, its window drawn
// on the picture queue.
func (f *Play) gridGame(ctx context.Context, l *lang.Lang, g *play.Game, resumed bool) (bot.Reply, error) {
	return f.pictures.Draw(ctx, "", func() (bot.Reply, error) {
		file, err := gridPlayFile(g, render.GridPlay{Player: g.Cell(), Trail: g.WalkedCells(), Around: views.GridWindow, Turn: true},
			fmt.Sprintf("maze-%s-game-%d-%d.png", g.MazeID, g.ID, g.Seq), l.T("alt.play_window", lang.Args{"Maze": shapeWords(g.MazeID), "ID": g.MazeID.String()}))
		if err != nil {
			return bot.Reply{}, err
		}
		return views.GridGame(l, g, shapeWords(g.MazeID), file, f.sign, resumed), nil
	})
}

// turnOnGrid answers a press on a game on another grid with what it did.
func (f *Play) turnOnGrid(ctx context.Context, in *bot.Interaction, turn contest.Turn) error {
	l, g := in.Lang(), turn.Game
	var end views.Ending
	switch turn.Outcome {
	case play.Abandoned:
		if turn.Solution {
			end.GridSolution = g.Grid().Solve()
		} else {
			end.Held = views.Held(turn.Hold, in.GuildID)
		}
	case play.Finished:
		end.Par = g.Par()
		end.Lines = views.AwardLines(l, turn.Award, g.Result())
	default:
		reply, err := f.gridGame(ctx, l, g, false)
		if err != nil {
			return err
		}
		return update(ctx, in, reply)
	}
	final, err := f.pictures.Draw(ctx, "", func() (bot.Reply, error) {
		alt := "alt.play_whole"
		if end.GridSolution != nil {
			alt = "alt.play_whole_solution"
		}
		file, err := gridPlayFile(g, render.GridPlay{Player: g.Cell(), Trail: g.WalkedCells(), Path: end.GridSolution},
			fmt.Sprintf("maze-%s-game-%d.png", g.MazeID, g.ID), l.T(alt, lang.Args{"Maze": shapeWords(g.MazeID), "ID": g.MazeID.String()}))
		if err != nil {
			return bot.Reply{}, err
		}
		return views.GridFinal(l, g, shapeWords(g.MazeID), file, end), nil
	})
	if err != nil {
		return err
	}
	return update(ctx, in, final)
}

// gridPlayFile draws a game on another grid as a PNG attachment.
func gridPlayFile(g *play.Game, v render.GridPlay, name, alt string) (bot.File, error) {
	var buf bytes.Buffer
	if err := render.GridPlayPNG(&buf, g.Grid(), v); err != nil {
		return bot.File{}, fmt.Errorf("draw %s: %w", name, err)
	}
	return bot.File{Name: name, ContentType: "image/png", Data: buf.Bytes(), Description: alt}, nil
}
