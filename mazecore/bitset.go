package mazecore

// bitset is one bit a cell: the cheapest "seen" mark for a search or a
// generator over millions of cells.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }

// bit is bit i as a number, 0 or 1.
func (b bitset) bit(i int) uint64 { return b[i>>6] >> (i & 63) & 1 }
