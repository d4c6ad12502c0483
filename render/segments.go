package render

import "sync"

// A speller spells tiles as bytes in a format whose tiles are not one byte
// each. after is the kind of the tile before in the row, or none at its
// start: a terminal spells a colour only when it changes.
type speller interface {
	spell(dst []byte, after, k kind) []byte
}

// none is the kind before a row's first tile.
const none = numKinds

// segMax bounds the bytes of eight tiles that segments keeps in a table.
const segMax = 128

// segment is the spelling of eight tiles and the kind of the last.
type segment struct {
	bytes [segMax]byte
	n     uint8
	last  kind
}

// segments spells whole rows of tiles: for a row of cells or a row of
// walls under them, each nibble of its packed passages (the east or the
// south bits of four cells) and the kind of the tile before them (floor
// or wall), the spelling of their eight tiles, so that a row with no
// overlay on it costs one fixed-size copy per four cells. Rows with an
// overlay, and spellings longer than segMax, go a tile at a time.
type segments struct {
	sp    speller
	table *[2][2][16]segment // [after][row of walls][nibble]
	one   *[numKinds + 1][numKinds]tileSpelling
	max   int // the longest spelling of a tile
}

// tileSpelling is the spelling of one tile after another, when short.
type tileSpelling struct {
	bytes [16]byte
	n     uint8
}

// segmentCache keeps the tables of the spellers used lately: an emoji
// theme's, the terminal's.
var segmentCache = struct {
	sync.Mutex
	m map[speller]*segments
}{m: map[speller]*segments{}}

// segmentsFor returns the tables of sp, which must be comparable.
func segmentsFor(sp speller) *segments {
	c := &segmentCache
	c.Lock()
	defer c.Unlock()
	s, ok := c.m[sp]
	if !ok {
		if len(c.m) >= 16 {
			clear(c.m) // themes are few; a caller inventing them is not kept
		}
		s = newSegments(sp)
		c.m[sp] = s
	}
	return s
}

func newSegments(sp speller) *segments {
	s := &segments{sp: sp}
	for k := range numKinds {
		for after := range numKinds + 1 {
			s.max = max(s.max, len(sp.spell(nil, after, k)))
		}
	}
	if s.max > len(tileSpelling{}.bytes) {
		return s
	}
	s.one = new([numKinds + 1][numKinds]tileSpelling)
	for after := range numKinds + 1 {
		for k := range numKinds {
			t := &s.one[after][k]
			t.n = uint8(copy(t.bytes[:], sp.spell(nil, after, k)))
		}
	}
	if 8*s.max > segMax {
		return s
	}
	s.table = new([2][2][16]segment)
	for after := range 2 {
		for walls := range 2 {
			for nib := range 16 {
				var tiles [8]kind
				for c := range 4 {
					open := nib>>c&1 != 0
					tiles[2*c], tiles[2*c+1] = kFloor, kWall
					switch {
					case walls == 1 && open:
						tiles[2*c] = kFloor
					case walls == 1:
						tiles[2*c] = kWall
					case open:
						tiles[2*c+1] = kFloor
					}
				}
				b, prev := []byte(nil), kind(after)
				for _, k := range tiles {
					b = sp.spell(b, prev, k)
					prev = k
				}
				seg := &s.table[after][walls][nib]
				seg.n, seg.last = uint8(copy(seg.bytes[:], b)), prev
			}
		}
	}
	return s
}

// nibbles[b] gathers the east bits (row of cells, [0]) or the south bits
// (row of walls, [1]) of the four cells of a packed byte.
var nibbles = func() (t [2][256]uint8) {
	for b := range 256 {
		for c := range 4 {
			t[0][b] |= uint8(b>>(2*c)&1) << c
			t[1][b] |= uint8(b>>(2*c+1)&1) << c
		}
	}
	return t
}()

// row appends the spelling of row y to dst: tiles are its tiles, overlay
// marks included, which are marks; whole says they are the whole row, from
// x = 0, as rows filled them. Groups of eight tiles without a mark go
// through the table.
func (s *segments) row(dst []byte, rows *tileRows, y int, tiles []byte, marks []mark, whole bool) []byte {
	if cap(dst)-len(dst) < s.room(len(tiles)) {
		dst = append(make([]byte, 0, len(dst)+s.room(len(tiles))), dst...)
	}
	if !whole || s.table == nil {
		return s.tiles(dst, tiles, none)
	}
	dst = s.sp.spell(dst, none, kind(tiles[0]))
	after := kind(tiles[0])
	walls, packed := 0, rows.packed
	switch {
	case y == 0 || y == rows.m.Height()-1:
		walls, packed = 1, nil // no passages
	case y%2 == 0:
		walls = 1
	}
	full := (len(tiles) - 1) / 8
	n := len(dst)
	dst = dst[:cap(dst)]
	for g := range full {
		if len(marks) > 0 && marks[0].x() <= 8*g+8 {
			group := tiles[1+8*g : 9+8*g]
			n = len(s.tiles(dst[:n], group, after))
			after = kind(group[7])
			for len(marks) > 0 && marks[0].x() <= 8*g+8 {
				marks = marks[1:]
			}
			continue
		}
		var b byte
		if packed != nil {
			b = packed[g]
		}
		seg := &s.table[after][walls][nibbles[walls][b]]
		*(*[segMax]byte)(dst[n:]) = seg.bytes
		n += int(seg.n)
		after = seg.last
	}
	return s.tiles(dst[:n], tiles[1+8*full:], after)
}

// room is the free space row needs in dst for a row of n tiles, and
// writes may reach into.
func (s *segments) room(n int) int { return s.max*n + segMax }

// block returns a buffer for the spelling of rows of w tiles, h of them,
// by blocks of blockSize with the room of the row that fills it.
func (s *segments) block(w, h int) []byte {
	return make([]byte, 0, min(blockSize, (s.max*w+1)*h)+s.room(w)+16)
}

// tiles appends the spelling of tiles, the first after a tile of kind
// after, to dst, which has room for it if a table is used.
func (s *segments) tiles(dst []byte, tiles []byte, after kind) []byte {
	if s.one == nil {
		for _, k := range tiles {
			dst = s.sp.spell(dst, after, kind(k))
			after = kind(k)
		}
		return dst
	}
	n := len(dst)
	dst = dst[:cap(dst)]
	for _, k := range tiles {
		t := &s.one[after][k]
		*(*[16]byte)(dst[n:]) = t.bytes
		n += int(t.n)
		after = kind(k)
	}
	return dst[:n]
}
