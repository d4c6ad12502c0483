package commands

import (
	"context"

	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// The contests' posts of a maze on another grid than the whole square
// one (polar, hex, or in a shape): the maze as a picture with its shape
// where a square maze's size stands and no rating (mazecore.Rate reads
// the square grid), its par by play.ParOnGrid, its solution a spoilered
// picture.

// gridCard is a contest maze on another grid as its post shows it, its
// picture left out when withFile is false (an edit that keeps it).
func (a *Announcer) gridCard(ctx context.Context, l *lang.Lang, id mazecore.ID, withFile bool) (views.Maze, error) {
	m, err := gridMazes(a.images)(ctx, id)
	if err != nil {
		return views.Maze{}, err
	}
	return gridView(l, m, withFile, a.cards)
}

// gridResults is the results post of an event on another grid.
func (a *Announcer) gridResults(ctx context.Context, l *lang.Lang, e contest.Event, standings []contest.Standing) (bot.Reply, error) {
	m, err := gridMazes(a.images)(ctx, e.MazeID)
	if err != nil {
		return bot.Reply{}, err
	}
	path := m.Solve()
	top := views.ResultsText(l, e, standings, play.ParOnGrid(m), len(path)-1)
	header := l.T("solve.shaped_header", lang.Args{"Maze": shapedHeader(l, m), "Cells": lang.Number(len(path))})
	file, err := gridFile(l, m, path, look{}, "SPOILER_maze-"+e.MazeID.String()+"-solution.png")
	if err != nil {
		return bot.Reply{}, err
	}
	return views.Results(l, top, header, views.Maze{ID: e.MazeID, File: &file}), nil
}

// gridSolution is the spoilered solution of a contest maze on another
// grid.
func (a *Announcer) gridSolution(ctx context.Context, l *lang.Lang, id mazecore.ID) (bot.Reply, error) {
	img, err := imageOf(ctx, a.images, id)
	if err != nil {
		return bot.Reply{}, err
	}
	return shapedSolution(l, id, img, false)
}
