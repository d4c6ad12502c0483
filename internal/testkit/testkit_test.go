package testkit

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"mazebot/mazecore"
	"mazebot/render"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := NewClock(start)
	c.Advance(90 * time.Second)
	if got, want := c.Now(), start.Add(90*time.Second); !got.Equal(want) {
		t.Fatalf("Now=%v, want %v", got, want)
	}
	c.Set(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now=%v after Set, want %v", got, start)
	}
}

func mustMaze(t *testing.T) *mazecore.Maze {
	t.Helper()
	return Maze(t, mazecore.ID{Algorithm: mazecore.Backtracking, Width: 11, Height: 11, Seed: 3})
}

// TestGridAndPlayer draws a maze with a player and a header and hint
// around it, and reads both back.
func TestGridAndPlayer(t *testing.T) {
	m := mustMaze(t)
	pos := mazecore.Point{X: 3, Y: 1}
	grid := render.EmojiString(m, render.DefaultTheme, render.Overlay{Player: &pos}, render.Window{})
	content := "🎮 header line\n" + grid
	rows := Grid(content)
	if len(rows) != m.Height() || len(rows[0]) != m.Width() {
		t.Fatalf("grid %d×%d, want %d×%d", len(rows[0]), len(rows), m.Width(), m.Height())
	}
	for y, row := range rows {
		for x, tile := range row {
			if got, want := tile == render.DefaultTheme.Wall, m.Wall(x, y); got != want {
				t.Fatalf("tile (%d,%d) wall=%v, maze says %v", x, y, got, want)
			}
		}
	}
	got, err := Player(content)
	if err != nil || got != pos {
		t.Fatalf("Player=%v (%v), want %v", got, err, pos)
	}
	if _, err := Player("no grid here"); err == nil {
		t.Fatal("Player found a player in a message without a grid")
	}
	// A window's grid is not the maze's: the position hint says where.
	for _, hint := range []string{"📍 column 12 of 41, row 7 of 41 · goal ↘", "📍 가로 12/41, 세로 7/41 · 도착점: ↘"} {
		if got, err := Player("🎮 header\n" + grid + "\n" + hint); err != nil || got != (mazecore.Point{X: 11, Y: 6}) {
			t.Fatalf("Player with hint %q = %v (%v), want (11,6)", hint, got, err)
		}
	}
}

func TestToward(t *testing.T) {
	path := []mazecore.Point{{X: 1, Y: 1}, {X: 2, Y: 1}, {X: 3, Y: 1}, {X: 3, Y: 2}, {X: 3, Y: 3}}
	for _, tc := range []struct {
		pos  mazecore.Point
		want mazecore.Dir
	}{{mazecore.Point{X: 1, Y: 1}, mazecore.East}, {mazecore.Point{X: 3, Y: 1}, mazecore.South}} {
		if got, err := Toward(path, tc.pos); err != nil || got != tc.want {
			t.Errorf("Toward(%v)=%v (%v), want %v", tc.pos, got, err, tc.want)
		}
	}
	for _, off := range []mazecore.Point{{X: 5, Y: 5}, {X: 3, Y: 3}} { // off the path; the goal has no next
		if _, err := Toward(path, off); err == nil {
			t.Errorf("Toward(%v) found a way, want an error", off)
		}
	}
}

// TestWalk walks a model game: each press moves the player one cell and
// redraws, until it stands on the goal.
func TestWalk(t *testing.T) {
	m := mustMaze(t)
	pos := m.Start()
	draw := func() string {
		p := pos
		return "header\n" + render.EmojiString(m, render.DefaultTheme, render.Overlay{Player: &p}, render.Window{})
	}
	won := func(string) bool { return pos == m.Goal() }
	clicks, _, err := Walk(m, draw(), won, func(d mazecore.Dir) (string, error) {
		dx, dy := d.Delta()
		pos = mazecore.Point{X: pos.X + 2*dx, Y: pos.Y + 2*dy}
		return draw(), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (len(mazecore.Solve(m)) - 1) / 2; clicks != want {
		t.Fatalf("%d clicks, want one a cell: %d", clicks, want)
	}
	if _, _, err := Walk(m, "no grid", func(s string) bool { return strings.Contains(s, "won") }, nil); err == nil {
		t.Fatal("Walk on a message without a player did not fail")
	}
}

// TestFollow follows a model game whose position is read off the model
// itself, as a test of a windowed view does off the stored game.
func TestFollow(t *testing.T) {
	m := mustMaze(t)
	t.Run("OK", func(t *testing.T) {
		pos := m.Start()
		var walked []mazecore.Point
		presses, err := Follow(m, func() (mazecore.Point, error) { return pos, nil }, func() bool { return pos == m.Goal() },
			func(d mazecore.Dir) error {
				dx, dy := d.Delta()
				pos = mazecore.Point{X: pos.X + 2*dx, Y: pos.Y + 2*dy}
				walked = append(walked, pos)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		path := mazecore.Solve(m)
		if want := (len(path) - 1) / 2; presses != want || len(walked) != want {
			t.Fatalf("%d presses, %d cells walked; want one press a cell: %d", presses, len(walked), want)
		}
		for i, p := range walked {
			if p != path[2*i+2] {
				t.Fatalf("press %d led to %v, want the solution's cell %v", i+1, p, path[2*i+2])
			}
		}
	})
	t.Run("ErrNoProgress", func(t *testing.T) {
		presses, err := Follow(m, func() (mazecore.Point, error) { return m.Start(), nil }, func() bool { return false },
			func(mazecore.Dir) error { return nil })
		if err == nil || presses != len(mazecore.Solve(m))+1 {
			t.Fatalf("a press that never moves: %d presses, err %v; want to give up after the path's length", presses, err)
		}
	})
	t.Run("ErrPress", func(t *testing.T) {
		refused := errors.New("refused")
		if _, err := Follow(m, func() (mazecore.Point, error) { return m.Start(), nil }, func() bool { return false },
			func(mazecore.Dir) error { return refused }); !errors.Is(err, refused) {
			t.Fatalf("err=%v, want the press's error", err)
		}
	})
	t.Run("ErrWhere", func(t *testing.T) {
		lost := errors.New("lost")
		if _, err := Follow(m, func() (mazecore.Point, error) { return mazecore.Point{}, lost }, func() bool { return false }, nil); !errors.Is(err, lost) {
			t.Fatalf("err=%v, want where's error", err)
		}
	})
}

func TestCheckGrid(t *testing.T) {
	m := mustMaze(t)
	path := mazecore.Solve(m)
	draw := func(ov render.Overlay) string {
		return render.EmojiString(m, render.DefaultTheme, ov, render.Window{})
	}
	t.Run("OK", func(t *testing.T) {
		if err := CheckGrid(draw(render.Overlay{}), m, nil); err != nil {
			t.Fatalf("the maze itself: %v", err)
		}
		if err := CheckGrid(draw(render.Overlay{Path: path}), m, path); err != nil {
			t.Fatalf("the maze with its solution: %v", err)
		}
	})
	whole := render.EmojiString(m, render.DefaultTheme, render.Overlay{}, render.Window{})
	other, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Backtracking, Width: 11, Height: 11, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		content string
		path    []mazecore.Point
	}{
		"ErrOtherMaze":  {render.EmojiString(other, render.DefaultTheme, render.Overlay{}, render.Window{}), nil},
		"ErrNoPath":     {draw(render.Overlay{}), path},
		"ErrPathShort":  {draw(render.Overlay{Path: path[:len(path)/2]}), path},
		"ErrRowMissing": {whole[:strings.LastIndex(whole, "\n")], nil},
		"ErrRowShort":   {strings.Replace(whole, "\n", "\n"+render.DefaultTheme.Wall, 1)[len(render.DefaultTheme.Wall):], nil},
		"ErrNoGrid":     {"just text", nil},
		"ErrTextAbove":  {"✅ header\n" + whole, nil},
		"ErrTextBelow":  {whole + "\nfooter", nil},
	} {
		t.Run(name, func(t *testing.T) {
			if err := CheckGrid(tc.content, m, tc.path); err == nil {
				t.Fatal("CheckGrid passed a grid that is not the maze")
			}
		})
	}
}

// TestProxy: data goes through; a cut drops the link and refuses new
// connections; a restore takes them again on the same address.
func TestProxy(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); c.Close() }()
		}
	}()
	p, err := NewProxy(echo.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	roundTrip := func(c net.Conn) error {
		if _, err := c.Write([]byte("ping")); err != nil {
			return err
		}
		buf := make([]byte, 4)
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.ReadFull(c, buf); err != nil {
			return err
		}
		if string(buf) != "ping" {
			return fmt.Errorf("echoed %q", buf)
		}
		return nil
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := roundTrip(c); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	p.Cut()
	if err := roundTrip(c); err == nil {
		t.Fatal("a connection lived through the cut")
	}
	if c2, err := net.Dial("tcp", p.Addr()); err == nil {
		c2.Close()
		t.Fatal("a new connection was taken while cut")
	}
	if err := p.Restore(); err != nil {
		t.Fatal(err)
	}
	c3, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	if err := roundTrip(c3); err != nil {
		t.Fatalf("after the restore: %v", err)
	}
}

// skipSeen is a TB that notes a skip instead of skipping: a real skipped
// subtest would fail .ci/run, which refuses every skip.
type skipSeen struct {
	testing.TB
	why string
}

func (s *skipSeen) Skipf(format string, args ...any) { s.why = fmt.Sprintf(format, args...) }

// TestSkipShort: under -short SkipShort skips, saying what is left out;
// without it the test runs on.
func TestSkipShort(t *testing.T) {
	was := flag.Lookup("test.short").Value.String()
	t.Cleanup(func() { _ = flag.Set("test.short", was) })
	for _, short := range []bool{false, true} {
		if err := flag.Set("test.short", strconv.FormatBool(short)); err != nil {
			t.Fatal(err)
		}
		seen := &skipSeen{TB: t}
		SkipShort(seen, "runs the binary")
		if skipped := seen.why != ""; skipped != short {
			t.Errorf("-short=%v: skipped=%v (%q), want %v", short, skipped, seen.why, short)
		}
		if short && !strings.Contains(seen.why, "runs the binary") {
			t.Errorf("the skip says %q, want what is left out", seen.why)
		}
	}
}
