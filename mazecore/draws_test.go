package mazecore

import "testing"

// TestFillWindowIsFillDraws: the draws and top bits the vector version
// computes are SplitMix64's, for states across the whole range.
func TestFillWindowIsFillDraws(t *testing.T) {
	t.Logf("AVX-512: %v, AVX2: %v", hasAVX512, hasAVX2)
	src := newSource(7)
	for i := range 2000 {
		state := src.next()
		if i%2 == 0 {
			state = uint64(i) * gamma // near zero and its multiples too
		}
		var got, want [aheadHalf]uint64
		gotTops, gotAfter := fillWindow(state, &got)
		wantTops, wantAfter := fillDraws(state, gamma, mixMul1, mixMul2, &want)
		if got != want || gotTops != wantTops || gotAfter != wantAfter {
			t.Fatalf("state %#x: fillWindow differs from fillDraws (tops %#x, want %#x; after %#x, want %#x)",
				state, gotTops, wantTops, gotAfter, wantAfter)
		}
	}
}

func BenchmarkFillWindow(b *testing.B) {
	var d [aheadHalf]uint64
	b.Run("go", func(b *testing.B) {
		var state uint64
		for b.Loop() {
			_, state = fillDraws(state, gamma, mixMul1, mixMul2, &d)
		}
	})
	b.Run("window", func(b *testing.B) {
		var state uint64
		for b.Loop() {
			_, state = fillWindow(state, &d)
		}
	})
}

// TestCloseWindowFast: the assembly closes the same runs as closeWindow,
// on random windows, with members before c, and with draws Lemire's
// method rejects (a draw of 0 rejects every size).
func TestCloseWindowFast(t *testing.T) {
	src := newSource(11)
	for n := range 20000 {
		cols := 2 + src.intn(300)
		c := cols + 200 + src.intn(1000)
		run := c - src.intn(150)
		var draws [2 * aheadHalf]uint64
		for i := range draws {
			draws[i] = src.next()
			if src.intn(200) == 0 {
				draws[i] = 0
			}
		}
		// Two draws and-ed give sparse closes; one in three windows is dense.
		closes := src.next()
		closes &= src.next()
		if n%3 == 0 {
			closes = src.next()
		}
		pos := src.intn(aheadHalf)
		want := make([]byte, (c+2*aheadHalf)/4+8)
		for i := range want {
			want[i] = byte(src.next())
		}
		got := append([]byte(nil), want...)
		we, wn, wr, wrare := closeWindow(&draws, want, closes, pos, c, run, cols)
		ge, gn, gr, grare := closeWindowFast(&draws, got, closes, pos, c, run, cols)
		if ge != we || gn != wn || gr != wr || grare != wrare || string(got) != string(want) {
			t.Fatalf("window %d (closes %#x, pos %d, c %d, run %d, cols %d): got %#x %#x %d %d, want %#x %#x %d %d (passages equal: %v)",
				n, closes, pos, c, run, cols, ge, gn, gr, grare, we, wn, wr, wrare, string(got) == string(want))
		}
	}
}

// TestRestartIsRestartGo: the assembly probes the same draws, finds the
// same cell and leaves the list as restartGo does, for both entry widths,
// on grids whose cells have random passages, most of them dug as late in
// a maze; among them north neighbours whose one passage leads north, for
// which the assembly reads a fourth row.
func TestRestartIsRestartGo(t *testing.T) {
	src := newSource(5)
	for n := range 3000 {
		cols, rows := 2+src.intn(60), 2+src.intn(60)
		g := newDigGrid(cols, rows)
		// One case in 50 is a long list with every cell dug, which drains
		// it over several calls of the assembly.
		drain := n%50 == 0
		for cell := range cols * rows {
			if drain || src.intn(10) != 0 {
				g.open(g.place(cell), byte(1+src.intn(3)))
			}
		}
		limit := (rows + 4) * g.stride
		if n%2 == 0 {
			limit = 1 << 25 // four-byte entries
		}
		entries := 1 + src.intn(cols*rows)
		if drain {
			entries = 10000
		}
		want := newCellList(limit, entries)
		for range entries {
			want.push(g.place(src.intn(cols * rows)))
		}
		got := &cellList{data: append([]byte(nil), want.data...), width: want.width, mask: want.mask, n: want.n}
		wantRng := source{state: src.next()}
		if n%5 == 0 {
			// Draw k is 0, which Lemire's method rejects for any length
			// but a power of two: the assembly hands that draw to Go.
			wantRng.state = unmix(0) - uint64(1+src.intn(5))*gamma
		}
		gotRng := wantRng
		wc, wok := want.restartGo(&wantRng, g, -1)
		gc, gok := got.restart(&gotRng, g)
		if gc != wc || gok != wok || got.n != want.n || gotRng != wantRng || string(got.data) != string(want.data) {
			t.Fatalf("case %d (%d×%d, width %d): got %d %v n=%d, want %d %v n=%d (state equal %v, list equal %v)",
				n, cols, rows, want.width, gc, gok, got.n, wc, wok, want.n, gotRng == wantRng, string(got.data) == string(want.data))
		}
	}
}

// TestEvenBitsIsEvenBitsGo: binary tree's coins are SplitMix64's top bits
// whichever way they are drawn, for every chunk length.
func TestEvenBitsIsEvenBitsGo(t *testing.T) {
	src := newSource(3)
	for i := range 5000 {
		n := i % 33
		want := source{state: src.next()}
		got := want
		if g, w := got.evenBits(n), want.evenBitsGo(n); g != w || got != want {
			t.Fatalf("n=%d: evenBits %#x (state %#x), want %#x (state %#x)", n, g, got.state, w, want.state)
		}
	}
}
