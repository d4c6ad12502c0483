package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

func main() {
	dir := flag.String("dir", "docs", "the directory to write the pictures to")
	flag.Parse()
	pics, err := pictures()
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pics {
		path := filepath.Join(*dir, p.name)
		if err := os.WriteFile(path, p.data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("wrote %s (%d bytes)\n", path, len(p.data))
	}
}

// picture is one file gen writes.
type picture struct {
	name string
	data []byte
}

// The mazes the pictures show: a /maze at its default size, and a game on
// another, some clicks in.
var (
	cardMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 2024}
	gameMaze = mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 7}
)

// gameClicks is how far into gameMaze the game is: clicks along the
// shortest path.
const gameClicks = 4

// pictures draws every picture.
func pictures() ([]picture, error) {
	en := lang.ByCode("en")
	card, err := cardPicture(en)
	if err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	game, err := gamePicture(en)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	return []picture{{"card.png", card}, {"game.png", game}}, nil
}

// cardPicture is the reply of /maze algorithm:backtracking size:21, as
// commands makes it: the header with the rating and par, the PNG (a 21-
// tile maze is wider than a phone's row of emoji), Play and Solve.
func cardPicture(l *lang.Lang) ([]byte, error) {
	m, err := mazecore.Generate(cardMaze)
	if err != nil {
		return nil, err
	}
	v := views.Maze{ID: m.ID(), Rating: mazecore.Rate(m).Rating, Par: play.Par(m)}
	var pic bytes.Buffer
	if err := render.PNG(&pic, m, render.PNGOptions{}); err != nil {
		return nil, err
	}
	name := "maze-" + v.ID.String() + ".png"
	// The attachment as commands makes it. Its type is bot's, which only
	// the wiring imports (TestOnlyAppWiresTheWing): gen reads the reply,
	// it does not wire the bot.
	file := newOf(v.File)
	file.Name, file.ContentType, file.Data = name, "image/png", pic.Bytes()
	file.Description = views.Alt(l, v.ID, views.ShowsMaze, mazecore.Point{})
	v.File = file
	reply := views.Card(l, v)
	return draw(message{
		command:    "/maze",
		components: reply.Components,
		files:      map[string][]byte{name: pic.Bytes()},
	})
}

// gamePicture is a member's game on gameMaze after gameClicks clicks
// along the shortest path: the 9×9 window around them (a phone's row),
// where they are, the arrows (those into walls disabled), Map and Give up.
func gamePicture(l *lang.Lang) ([]byte, error) {
	m, err := mazecore.Generate(gameMaze)
	if err != nil {
		return nil, err
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	g, err := play.New(m, play.Record{ID: 1, UserID: "1"}, now)
	if err != nil {
		return nil, err
	}
	path := mazecore.Solve(m)
	for range gameClicks {
		next := nextOnPath(path, g.Pos)
		if _, err := g.Apply(play.Action{Kind: play.Move, Dir: next, Seq: g.Seq}, now); err != nil {
			return nil, err
		}
	}
	sign, err := customid.NewSigner([]byte("docs"))
	if err != nil {
		return nil, err
	}
	reply := views.Game(l, g, sign)
	return draw(message{command: "Play", components: reply.Components, ephemeral: true})
}

// nextOnPath is the direction path takes from p, which is on it.
func nextOnPath(path []mazecore.Point, p mazecore.Point) mazecore.Dir {
	for i := 0; i+1 < len(path); i++ {
		if path[i] == p {
			q := path[i+1]
			for _, d := range mazecore.Dirs {
				if dx, dy := d.Delta(); p.X+dx == q.X && p.Y+dy == q.Y {
					return d
				}
			}
		}
	}
	return mazecore.East
}

// newOf is a new T, for a *T of a type gen does not name.
func newOf[T any](*T) *T { return new(T) }
