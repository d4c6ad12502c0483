package mazecore

// bitset is one bit a cell: the cheapest "seen" mark for a search or a
// generator over millions of cells.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }

// bit is bit i as a number, 0 or 1.
func (b bitset) bit(i int) uint64 { return b[i>>6] >> (i & 63) & 1 }

// bothSides is bit(i-1)&bit(i+1) != 0, from one word unless i is at a
// word's edge.
func (b bitset) bothSides(i int) bool {
	if j := i & 63; j != 0 && j != 63 {
		return b[i>>6]>>(j-1)&5 == 5
	}
	return b.bit(i-1)&b.bit(i+1) != 0
}
