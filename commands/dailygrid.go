package commands

import (
	"mazebot/bot"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// A daily on another grid, cut to a shape, or following the calendar of
// shapes (contest.ShapeCalendar: a preset a weekday): /daily setup's
// grid: and shape:, and the daily's posts of such a maze.

// Default sizes of a daily when its setup picks a grid or shape without
// a size: enough cells for a shape to read as one, within the daily's
// 41 (sizes stay odd, as the daily's always are).
const (
	dailyShapeSize = 41 // tiles
	dailyRings     = 11
	dailyHexSide   = 15
)

// dailyShapes are /daily setup shape:'s choices: the presets and the
// calendar.
func dailyShapes() []string { return append(mazecore.PresetNames(), contest.ShapeCalendar) }

// setupShape sets s's grid and shape from /daily setup's options: either
// given replaces both (grid: alone is that grid with no shape; shape:
// alone is that shape on square cells), and without size: a size that
// suits them. Every weekday's maze must be one that can be made.
func setupShape(s *contest.DailySettings, o setupOptions) error {
	if o.Grid == "" && o.Shape == "" {
		if s.Grid == mazecore.Square && s.Shape == "" {
			return nil
		}
		// The shape stays; a new size or difficulty must still fit it.
		return checkWeekdays(*s)
	}
	s.Grid, s.Shape = mazecore.Square, o.Shape
	if o.Grid != "" {
		var err error
		if s.Grid, err = mazecore.ParseGrid(o.Grid); err != nil {
			return bot.RefuseWith(err, "error.unknown_grid", lang.Args{"Name": sanitize(o.Grid)})
		}
	}
	if o.Shape != "" && o.Shape != contest.ShapeCalendar {
		if _, err := mazecore.ParseShape(o.Shape); err != nil {
			return bot.RefuseWith(err, "error.unknown_shape", lang.Args{"Name": sanitize(o.Shape), "Choices": shapeChoices()})
		}
	}
	if o.Shape != "" && s.Grid == mazecore.Polar {
		return bot.Refuse("error.polar_no_shape")
	}
	if o.Size == nil {
		switch {
		case s.Grid == mazecore.Polar:
			s.Size = dailyRings
		case s.Grid == mazecore.Hex:
			s.Size = dailyHexSide
		case s.Shape != "":
			s.Size = dailyShapeSize
		}
	}
	return checkWeekdays(*s)
}

// checkWeekdays refuses a shaped daily's settings unless each weekday's
// maze of the calendar, and the one of any other, can be made, and its
// difficulty chosen.
func checkWeekdays(s contest.DailySettings) error {
	for day := 23; day < 30; day++ {
		id, err := s.BaseMaze(contest.MakeDate(2026, 11, day))
		if err != nil {
			return err
		}
		if err := validShaped(id); err != nil {
			return err
		}
		grid, err := id.Grid()
		if err != nil {
			return maskRefusal(err)
		}
		if err := levelFits(s.Difficulty, grid); err != nil {
			return err
		}
	}
	return nil
}

// dailyGridMaze is a daily's maze on another grid as its message shows
// it (dailyMaze): the picture, its shape where a size stands, its par.
func dailyGridMaze(l *lang.Lang, day contest.Daily, withFile bool, setup views.Setup) (views.Maze, error) {
	m, err := generateShaped(day.MazeID, nil) // a daily's shapes are presets: no picture
	if err != nil {
		return views.Maze{}, err
	}
	return gridView(l, m, withFile, setup)
}

// gridView is a maze on another grid as a post shows it, its picture
// left out when withFile is false (an edit that keeps it).
func gridView(l *lang.Lang, m *mazecore.GridMaze, withFile bool, setup views.Setup) (views.Maze, error) {
	id := m.ID()
	v := views.Maze{ID: id, Par: play.ParOnGrid(m), Shape: shapeWords(id), Setup: setup, Rating: mazecore.RateGrid(m).Rating}
	if withFile {
		file, err := gridFile(l, m, nil, look{}, "maze-"+id.String()+".png")
		if err != nil {
			return views.Maze{}, err
		}
		v.File = &file
	}
	return v, nil
}

// gridRecap is yesterday's recap of a daily on another grid: its par
// and, when anyone finished, its solution as a spoilered picture.
func gridRecap(l *lang.Lang, r *contest.Recap) (*views.Recap, error) {
	m, err := generateShaped(r.MazeID, nil)
	if err != nil {
		return nil, err
	}
	v := &views.Recap{Recap: r, Par: play.ParOnGrid(m)}
	if r.Finished > 0 {
		file, err := gridFile(l, m, m.Solve(), look{}, "SPOILER_maze-"+r.MazeID.String()+"-solution.png")
		if err != nil {
			return nil, err
		}
		v.Solution = &file
	}
	return v, nil
}
