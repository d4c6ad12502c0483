package mazecore

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

func TestIDRoundTrip(t *testing.T) {
	rng := newSource(1)
	for i := 0; i < 2000; i++ {
		id := ID{
			Algorithm: Algorithms[rng.intn(4)],
			Width:     2*rng.intn(MaxSize/2-1) + 5,
			Height:    2*rng.intn(60) + 5,
			Seed:      rng.next() >> uint(rng.intn(64)),
		}
		if i%2 == 1 {
			id.Loops = rng.intn(MaxLoops + 1)
		}
		text := id.String()
		got, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) from %+v: %v", text, id, err)
		}
		if got != id {
			t.Fatalf("Parse(%q)=%+v, want %+v", text, got, id)
		}
		if upper, err := Parse(" " + strings.ToUpper(text) + "\n"); err != nil || upper != id {
			t.Fatalf("Parse(upper %q)=%+v,%v, want %+v", text, upper, err, id)
		}
		want := byte(idVersion1)
		if id.Loops > 0 {
			want = idVersion2
		}
		if got := idVersion(t, text); got != want {
			t.Fatalf("%+v is spelled in version %d, want %d", id, got, want)
		}
	}
}

func TestIDLength(t *testing.T) {
	id := ID{Algorithm: Sidewinder, Width: 21, Height: 21, Seed: 1<<32 - 1}
	if got := len(id.String()); got > 16 {
		t.Fatalf("ID of an everyday maze with a 32-bit seed is %d characters, want ≤ 16", got)
	}
	id.Loops = 30
	if got := len(id.String()); got > 16 {
		t.Fatalf("ID of an everyday maze with loops and a 32-bit seed is %d characters, want ≤ 16", got)
	}
	longest := ID{Algorithm: Digging, Width: MaxSize, Height: MaxSize, Seed: 1<<64 - 1, Loops: MaxLoops}
	if got := len(longest.String()); got > maxIDLength {
		t.Fatalf("longest ID is %d characters, above maxIDLength %d", got, maxIDLength)
	}
}

func TestParseErrors(t *testing.T) {
	valid := ID{Algorithm: Backtracking, Width: 41, Height: 41, Seed: 123456789}.String()
	flipped := []byte(valid)
	flipped[3] = crockford[(strings.IndexByte(crockford, flipped[3])+1)%32]
	for name, input := range map[string]string{
		"Empty":        "",
		"Spaces":       "   ",
		"BadCharacter": valid[:5] + "u" + valid[6:],
		"Unicode":      "미로미로미로",
		"Checksum":     string(flipped),
		"Short":        valid[:4],
		"Truncated":    valid[:len(valid)-2],
		"Extra":        valid + "0",
		"TooLong":      strings.Repeat("a", 40),
		"Version":      rawID(0x23, 8, 8, 7),
		"Algorithm":    rawID(0x17, 8, 8, 7),
		"NoAlgorithm":  rawID(0x10, 8, 8, 7),
		"HugeSize":     rawID(0x11, 1<<20, 8, 7),
		"NonCanonical": rawBytes([]byte{0x11, 0x88, 0x00, 0x08, 0x07}),
		"Trailing":     rawBytes([]byte{0x11, 0x08, 0x08, 0x07, 0x00}),
		"V2LoopsZero":  rawBytes([]byte{0x21, 0x08, 0x08, 0x07, 0}),
		"V2Loops101":   rawBytes([]byte{0x21, 0x08, 0x08, 0x07, 101}),
		"V2Loops255":   rawBytes([]byte{0x21, 0x08, 0x08, 0x07, 255}),
		"V2NoLoops":    rawID(0x21, 8, 8, 7),
		"V2Trailing":   rawBytes([]byte{0x21, 0x08, 0x08, 0x07, 30, 0x00}),
		"V2Truncated":  rawBytes([]byte{0x21, 0x08, 0x08}),
		"V3":           rawBytes([]byte{0x31, 0x08, 0x08, 0x07, 30}),
	} {
		t.Run("Err"+name, func(t *testing.T) {
			_, err := Parse(input)
			var idErr *IDError
			if !errors.Is(err, ErrMalformedID) || !errors.As(err, &idErr) {
				t.Fatalf("Parse(%q) err=%v, want an *IDError", input, err)
			}
		})
	}
}

// rawID encodes fields as String does, with any header byte.
func rawID(header byte, colsMinus2, rowsMinus2, seed uint64) string {
	var buf []byte
	buf = append(buf, header)
	buf = binaryAppend(buf, colsMinus2, rowsMinus2, seed)
	return rawBytes(buf)
}

func FuzzParse(f *testing.F) {
	for _, id := range []ID{
		{Algorithm: BinaryTree, Width: 5, Height: 5},
		{Algorithm: Sidewinder, Width: 21, Height: 21, Seed: 7},
		{Algorithm: Digging, Width: 4001, Height: 21, Seed: 1 << 63},
		{Algorithm: BinaryTree, Width: 5, Height: 5, Loops: 1},
		{Algorithm: Backtracking, Width: 41, Height: 41, Seed: 1 << 31, Loops: 30},
		{Algorithm: Digging, Width: MaxSize, Height: MaxSize, Seed: 1<<64 - 1, Loops: MaxLoops},
	} {
		f.Add(id.String())
	}
	f.Add(rawBytes([]byte{0x21, 0x08, 0x08, 0x07, 0}))   // v2 with loops 0
	f.Add(rawBytes([]byte{0x22, 0x08, 0x08, 0x07, 101})) // loops above 100
	f.Add("")
	f.Add("0000000000000000")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedID) {
				t.Fatalf("Parse(%q) err=%v is not ErrMalformedID", s, err)
			}
			return
		}
		if err := id.Validate(); err != nil {
			t.Fatalf("Parse(%q)=%+v is invalid: %v", s, id, err)
		}
		if got, want := id.String(), strings.ToLower(strings.TrimSpace(s)); got != want {
			t.Fatalf("String(Parse(%q))=%q, want %q", s, got, want)
		}
		// One spelling per maze: loops only in version 2, never loops 0 there.
		if got, want := idVersion(t, id.String()) == idVersion2, id.Loops > 0; got != want {
			t.Fatalf("Parse(%q)=%+v is spelled in version %d", s, id, idVersion(t, id.String()))
		}
		if id.Cells() <= 20*20 {
			if m, err := Generate(id); err != nil || m.ID() != id {
				t.Fatalf("Generate(Parse(%q)): %v", s, err)
			}
		}
	})
}

func binaryAppend(buf []byte, values ...uint64) []byte {
	for _, v := range values {
		buf = binary.AppendUvarint(buf, v)
	}
	return buf
}

// rawBytes appends the checksum and encodes, so a test can build IDs that
// pass the checksum but break another rule.
func rawBytes(body []byte) string {
	return encodeBase32(append(body, byte(crc32.ChecksumIEEE(body)>>24)))
}
