package mazecore

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"testing"
)

var report = flag.Bool("report", false, "TestDifficultyByAlgorithm also prints the mean measures for more sizes and loops")

// TestRateAgainstTiles recomputes every measure independently, from Wall
// and a breadth-first search over tiles, on the path Solve returns.
func TestRateAgainstTiles(t *testing.T) {
	for _, algo := range Algorithms {
		for _, size := range braidSizes {
			for _, loops := range []int{0, 30, 100} {
				t.Run(fmt.Sprintf("%s/%dx%d/loops%d", algo, size.w, size.h, loops), func(t *testing.T) {
					for seed := range uint64(5) {
						m := mustGenerate(t, ID{Algorithm: algo, Width: size.w, Height: size.h, Seed: seed, Loops: loops})
						if got, want := Rate(m), tileDifficulty(m); got != want {
							t.Fatalf("%v: Rate=%+v, want %+v", m.ID(), got, want)
						}
					}
				})
			}
		}
	}
}

var tileSteps = [4]Point{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// tileDifficulty is Rate by other means: tiles instead of cells.
func tileDifficulty(m *Maze) Difficulty {
	w := m.Width()
	path := Solve(m)
	onPath := map[Point]bool{}
	for _, p := range path {
		onPath[p] = true
	}
	open := func(p Point) int {
		n := 0
		for _, s := range tileSteps {
			if !m.Wall(p.X+s.X, p.Y+s.Y) {
				n++
			}
		}
		return n
	}
	var d Difficulty
	d.Solution = len(path)
	inner, turns := 0, 0
	for i := 0; i < len(path)-1; i += 2 { // cell tiles, the goal aside
		ways := open(path[i])
		if i > 0 {
			ways--
			inner++
			in := Point{path[i].X - path[i-1].X, path[i].Y - path[i-1].Y}
			out := Point{path[i+1].X - path[i].X, path[i+1].Y - path[i].Y}
			if in != out {
				turns++
			}
		}
		if ways >= 2 {
			d.Decisions++
		}
	}
	if inner > 0 {
		d.Turns = float64(turns) / float64(inner)
	}
	for y := 1; y < m.Height(); y += 2 {
		for x := 1; x < w; x += 2 {
			if open(Point{x, y}) == 1 {
				d.DeadEnds++
			}
		}
	}
	// Distances from the path over tiles; each region of tiles off the
	// path counts its farthest cell tile.
	dist := map[Point]int{}
	queue := append([]Point(nil), path...)
	for _, p := range path {
		dist[p] = 0
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, s := range tileSteps {
			q := Point{p.X + s.X, p.Y + s.Y}
			if _, seen := dist[q]; !seen && !m.Wall(q.X, q.Y) {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	region := map[Point]bool{}
	for p := range dist {
		if onPath[p] || region[p] {
			continue
		}
		deepest, stack := 0, []Point{p}
		region[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if q.X%2 == 1 && q.Y%2 == 1 {
				deepest = max(deepest, dist[q])
			}
			for _, s := range tileSteps {
				r := Point{q.X + s.X, q.Y + s.Y}
				if _, floor := dist[r]; floor && !onPath[r] && !region[r] {
					region[r] = true
					stack = append(stack, r)
				}
			}
		}
		d.FalsePaths += deepest
	}
	d.Score, d.Rating = score(d)
	return d
}

// TestScore pins the formula on hand-made measures, so a change to it is a
// deliberate one (the ratings of stored mazes would move).
func TestScore(t *testing.T) {
	for _, tt := range []struct {
		d      Difficulty
		score  float64
		rating int
	}{
		{Difficulty{Solution: 9}, 5, 1},                                                 // a straight corridor of 5 cells
		{Difficulty{Solution: 77, Turns: 0.5}, 58.5, 1},                                 // 39 cells, every other one a turn
		{Difficulty{Solution: 99, Decisions: 8, FalsePaths: 400, Turns: 1}, 140, 2},     // 50·2 + √(8·200)
		{Difficulty{Solution: 599, Decisions: 15, FalsePaths: 480, Turns: 0.2}, 420, 4}, // 300·1.2 + √(15·240)
		{Difficulty{Solution: 1199, Turns: 0}, 600, 5},
	} {
		score, rating := score(tt.d)
		if math.Abs(score-tt.score) > 1e-9 || rating != tt.rating {
			t.Fatalf("score(%+v)=%v,%d, want %v,%d", tt.d, score, rating, tt.score, tt.rating)
		}
	}
}

// meanDifficulty is the mean of each measure over mazes.
type meanDifficulty struct {
	solution, decisions, deadEnds, falsePaths, turns, score, rating float64
}

func (a *meanDifficulty) add(d Difficulty, n int) {
	f := 1 / float64(n)
	a.solution += float64(d.Solution) * f
	a.decisions += float64(d.Decisions) * f
	a.deadEnds += float64(d.DeadEnds) * f
	a.falsePaths += float64(d.FalsePaths) * f
	a.turns += d.Turns * f
	a.score += d.Score * f
	a.rating += float64(d.Rating) * f
}

func (a meanDifficulty) String() string {
	return fmt.Sprintf("solution %6.1f  decisions %5.1f  dead ends %6.1f  false paths %7.1f  turns %.2f  score %7.1f  rating %.2f",
		a.solution, a.decisions, a.deadEnds, a.falsePaths, a.turns, a.score, a.rating)
}

// meanOver rates mazes of seeds 0 to n−1.
func meanOver(t testing.TB, algo Algorithm, size, loops, n int) meanDifficulty {
	var mean meanDifficulty
	for seed := range uint64(n) {
		mean.add(Rate(mustGenerate(t, ID{Algorithm: algo, Width: size, Height: size, Seed: seed, Loops: loops})), n)
	}
	return mean
}

// TestDifficultyByAlgorithm checks the score against what Buck's tables
// say of the algorithms, over 200 mazes of 41×41: backtracking has the
// longest solutions and the fewest decisions and rates hardest; binary tree
// and sidewinder rate easy (2 of 5 or less). go test -run
// TestDifficultyByAlgorithm -v ./mazecore prints the means; add -report for
// other sizes and loops.
func TestDifficultyByAlgorithm(t *testing.T) {
	means := map[Algorithm]meanDifficulty{}
	for _, algo := range Algorithms {
		means[algo] = meanOver(t, algo, 41, 0, 200)
		t.Logf("41×41 %-12s %v", algo, means[algo])
	}
	bt, sw, back, dig := means[BinaryTree], means[Sidewinder], means[Backtracking], means[Digging]
	for _, easy := range []Algorithm{BinaryTree, Sidewinder} {
		if r := means[easy].rating; r > 2.2 {
			t.Errorf("%v: mean rating %.2f, want easy (≤ 2.2)", easy, r)
		}
		for _, other := range []Algorithm{Backtracking, Digging} {
			if means[easy].score >= means[other].score {
				t.Errorf("mean score of %v %.1f ≥ %v's %.1f", easy, means[easy].score, other, means[other].score)
			}
		}
	}
	if back.rating < 2.8 || back.score <= dig.score {
		t.Errorf("backtracking: mean rating %.2f, score %.1f (digging %.1f); want the hardest, ≥ 2.8", back.rating, back.score, dig.score)
	}
	for _, other := range []meanDifficulty{bt, sw, dig} {
		if back.solution <= other.solution || back.decisions >= other.decisions {
			t.Errorf("backtracking: solution %.1f, decisions %.1f; want the longest and the fewest (other: %v)", back.solution, back.decisions, other)
		}
	}
	if !*report {
		return
	}
	for _, size := range []int{21, 41, 101} {
		for _, loops := range []int{0, 30, 100} {
			for _, algo := range Algorithms {
				fmt.Printf("%3d×%-3d loops %3d  %-12s %v\n", size, size, loops, algo, meanOver(t, algo, size, loops, 200))
			}
		}
	}
}

// TestChooseOrdersLevels: over 40 base seeds per algorithm at 41×41 (10
// with loops), the mean score of the mazes the levels choose rises from
// easy to medium to hard. (TestChoose checks that Choose takes the
// candidate of the level's rank; here the candidates are ranked once for
// all three levels.) The candidates are sorted, so the means rise for
// any number of seeds whose scores are not all alike: 200 and 50 seeds,
// as before, took 34 s under -race and showed nothing more.
func TestChooseOrdersLevels(t *testing.T) {
	t.Parallel()
	for _, algo := range Algorithms {
		for _, loops := range []int{0, 30} {
			var mean [len(levels)]float64
			seeds := 40
			if loops > 0 {
				seeds = 10
			}
			for seed := range uint64(seeds) {
				list := ranked(ID{Algorithm: algo, Width: 41, Height: 41, Seed: seed, Loops: loops})
				for _, level := range []Level{Easy, Medium, Hard} {
					mean[level] += list[level.rank()].score / float64(seeds)
				}
			}
			t.Logf("%-12s loops %2d: mean score easy %.1f, medium %.1f, hard %.1f", algo, loops, mean[Easy], mean[Medium], mean[Hard])
			if !(mean[Easy] < mean[Medium] && mean[Medium] < mean[Hard]) {
				t.Errorf("%v loops %d: mean scores easy %.1f, medium %.1f, hard %.1f, want rising", algo, loops, mean[Easy], mean[Medium], mean[Hard])
			}
		}
	}
}

func TestChoose(t *testing.T) {
	base := ID{Algorithm: Digging, Width: 31, Height: 21, Seed: 1<<40 + 7, Loops: 20}
	if got, err := Choose(base, AnyLevel); err != nil || got != base {
		t.Fatalf("Choose(any)=%+v,%v, want the ID unchanged", got, err)
	}
	candidates := candidateSeeds(base.Seed)
	scores := map[uint64]float64{}
	for _, seed := range candidates {
		c := base
		c.Seed = seed
		scores[seed] = Rate(mustGenerate(t, c)).Score
	}
	chosen := map[uint64]bool{}
	for _, level := range []Level{Easy, Medium, Hard} {
		id, err := Choose(base, level)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := Choose(base, level); again != id {
			t.Fatalf("Choose(%v) twice: %+v, then %+v", level, id, again)
		}
		if id.Seed >= 1<<32 {
			t.Fatalf("Choose(%v) seed %d is not 32-bit", level, id.Seed)
		}
		want := base
		want.Seed = id.Seed
		if id != want {
			t.Fatalf("Choose(%v)=%+v changed more than the seed of %+v", level, id, base)
		}
		// Its rank among the candidates is the level's.
		score, ok := scores[id.Seed]
		if !ok {
			t.Fatalf("Choose(%v) seed %d is not a candidate", level, id.Seed)
		}
		below, tied := 0, 0
		for _, seed := range candidates {
			switch s := scores[seed]; {
			case s < score:
				below++
			case s == score:
				tied++
			}
		}
		if rank := level.rank(); rank < below || rank >= below+tied {
			t.Fatalf("Choose(%v): score %.1f is at ranks %d to %d of %d, want %d", level, score, below, below+tied-1, Candidates, rank)
		}
		chosen[id.Seed] = true
	}
	if len(chosen) != 3 {
		t.Fatalf("easy, medium and hard chose %d different seeds, want 3", len(chosen))
	}
	if _, err := Choose(ID{Algorithm: Digging, Width: 4, Height: 21}, Easy); err == nil {
		t.Fatal("Choose of an invalid ID succeeded")
	}
	if _, err := Choose(base, Level(9)); !errors.Is(err, ErrUnknownLevel) {
		t.Fatalf("Choose(level 9) err=%v, want ErrUnknownLevel", err)
	}
}

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"easy": Easy, "Medium": Medium, " HARD ": Hard, "any": AnyLevel} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Fatalf("ParseLevel(%q)=%v,%v, want %v", in, got, err, want)
		}
		if got, _ := ParseLevel(want.String()); got != want {
			t.Fatalf("ParseLevel(%v.String())=%v", want, got)
		}
	}
	_, err := ParseLevel("nightmare")
	if !errors.Is(err, ErrUnknownLevel) || err.Error() != `unknown difficulty "nightmare": choose one of easy, medium, hard, any` {
		t.Fatalf("ParseLevel(nightmare) err=%v", err)
	}
}
