package mazecore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// ID names one maze forever: algorithm, size in tiles, seed and loops.
// Generate(id) always builds the same maze.
//
// Its text form is Crockford base32 (lower case, no padding) of one of two
// layouts. A perfect maze (Loops 0) is always spelled in version 1, so every
// ID posted before loops existed keeps its spelling and its maze:
//
//	version 1                        version 2 (Loops 1 to 100)
//	byte    1<<4 | algorithm         byte    2<<4 | algorithm
//	uvarint columns − 2              uvarint columns − 2
//	uvarint rows − 2                 uvarint rows − 2
//	uvarint seed                     uvarint seed
//	                                 byte    loops
//	byte    checksum                 byte    checksum
//
// where columns and rows count cells and the checksum is the first byte of
// the CRC-32 (IEEE) of the bytes before it. A 21×21 maze with a 32-bit seed
// is 15 characters in version 1 and 16 in version 2. The checksum catches
// most typos before they turn into a different, valid maze. Every ID has
// exactly one spelling: Parse rejects non-minimal varints and a version 2
// ID with loops 0.
type ID struct {
	Algorithm     Algorithm
	Width, Height int
	Seed          uint64
	// Loops is the share of the perfect maze's dead ends, in percent, that
	// braiding removes by opening a wall, rounded to a whole dead end (0: a
	// perfect maze, 100: no dead ends at all). See Generate.
	Loops int
}

// Format versions. A new one must keep parsing (and generating) every older
// ID unchanged.
const (
	idVersion1 = 1 // perfect mazes
	idVersion2 = 2 // adds loops
)

// MaxLoops is the largest Loops: every dead end removed.
const MaxLoops = 100

// maxIDLength bounds the input Parse looks at: the longest valid ID (largest
// sizes, 64-bit seed, loops) is 31 characters.
const maxIDLength = 32

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// ErrMalformedID is matched by every *IDError.
var ErrMalformedID = errors.New("malformed maze ID")

// IDError says why an ID could not be parsed.
type IDError struct {
	Input  string
	Reason string
}

func (e *IDError) Error() string {
	return fmt.Sprintf("malformed maze ID %q: %s", e.Input, e.Reason)
}

func (e *IDError) Is(target error) bool { return target == ErrMalformedID }

// ErrLoopsOutOfRange reports a Loops outside 0 to MaxLoops.
var ErrLoopsOutOfRange = errors.New("loops out of range")

// Validate checks that id can be generated.
func (id ID) Validate() error {
	if !id.Algorithm.Valid() {
		return &AlgorithmError{Name: id.Algorithm.String()}
	}
	for _, side := range []int{id.Width, id.Height} {
		if side < MinSize || side > MaxSize {
			return &SizeError{Got: side, Min: MinSize, Max: MaxSize}
		}
		if side%2 == 0 {
			return fmt.Errorf("size %d is even: %w", side, ErrSizeOutOfRange)
		}
	}
	if id.Loops < 0 || id.Loops > MaxLoops {
		return fmt.Errorf("loops %d: %w (use 0 to %d)", id.Loops, ErrLoopsOutOfRange, MaxLoops)
	}
	return nil
}

// Cells is the number of cells the maze has.
func (id ID) Cells() int { return (id.Width / 2) * (id.Height / 2) }

// String encodes the ID: version 1 for a perfect maze, version 2 with
// loops. It is only meaningful for a valid ID.
func (id ID) String() string {
	version := byte(idVersion1)
	if id.Loops != 0 {
		version = idVersion2
	}
	buf := make([]byte, 0, 4+3*binary.MaxVarintLen64)
	buf = append(buf, version<<4|byte(id.Algorithm)&0x0f)
	buf = binary.AppendUvarint(buf, uint64(id.Width/2-2))
	buf = binary.AppendUvarint(buf, uint64(id.Height/2-2))
	buf = binary.AppendUvarint(buf, id.Seed)
	if version == idVersion2 {
		buf = append(buf, byte(id.Loops))
	}
	buf = append(buf, byte(crc32.ChecksumIEEE(buf)>>24))
	return encodeBase32(buf)
}

// Parse decodes an ID typed by a person. It accepts upper or lower case and
// surrounding spaces, and rejects everything else with an *IDError: wrong
// characters, a bad checksum, an unknown version or algorithm, extra or
// missing bytes, sizes or loops out of range, a second spelling of an ID. It
// never panics.
func Parse(text string) (ID, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	fail := func(reason string) (ID, error) { return ID{}, &IDError{Input: text, Reason: reason} }
	switch {
	case s == "":
		return fail("it is empty")
	case len(s) > maxIDLength:
		return fail(fmt.Sprintf("it is longer than %d characters", maxIDLength))
	}
	raw, err := decodeBase32(s)
	if err != nil {
		return fail(err.Error())
	}
	if len(raw) < 5 {
		return fail("it is too short")
	}
	body, sum := raw[:len(raw)-1], raw[len(raw)-1]
	if byte(crc32.ChecksumIEEE(body)>>24) != sum {
		return fail("checksum mismatch (a mistyped character?)")
	}
	version := body[0] >> 4
	if version != idVersion1 && version != idVersion2 {
		return fail(fmt.Sprintf("unknown format version %d", version))
	}
	id := ID{Algorithm: Algorithm(body[0] & 0x0f)}
	if !id.Algorithm.Valid() {
		return fail(fmt.Sprintf("unknown algorithm number %d", id.Algorithm))
	}
	rest := body[1:]
	var fields [3]uint64
	for i := range fields {
		v, n := binary.Uvarint(rest)
		if n <= 0 {
			return fail("truncated")
		}
		if n != len(binary.AppendUvarint(nil, v)) {
			return fail("non-canonical number")
		}
		fields[i], rest = v, rest[n:]
	}
	if version == idVersion2 {
		if len(rest) == 0 {
			return fail("truncated")
		}
		switch loops := rest[0]; {
		case loops == 0:
			return fail("version 2 with loops 0 (a perfect maze is spelled in version 1)")
		case loops > MaxLoops:
			return fail(fmt.Sprintf("loops %d is above %d", loops, MaxLoops))
		default:
			id.Loops, rest = int(loops), rest[1:]
		}
	}
	if len(rest) != 0 {
		return fail("trailing bytes")
	}
	const maxCells = (MaxSize - 1) / 2
	if fields[0] > maxCells-2 || fields[1] > maxCells-2 {
		return fail("size too large")
	}
	id.Width, id.Height, id.Seed = 2*(int(fields[0])+2)+1, 2*(int(fields[1])+2)+1, fields[2]
	return id, nil
}

func encodeBase32(data []byte) string {
	var sb strings.Builder
	var acc uint32
	var nbits uint
	for _, b := range data {
		acc = acc<<8 | uint32(b)
		nbits += 8
		for nbits >= 5 {
			nbits -= 5
			sb.WriteByte(crockford[acc>>nbits&31])
		}
	}
	if nbits > 0 {
		sb.WriteByte(crockford[acc<<(5-nbits)&31])
	}
	return sb.String()
}

// decodeBase32 is the strict inverse of encodeBase32: the final character's
// unused bits must be zero and no character may be left over, so each byte
// string has exactly one spelling and String(Parse(s)) == s.
func decodeBase32(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)*5/8)
	var acc uint32
	var nbits uint
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(crockford, s[i])
		if v < 0 {
			return nil, fmt.Errorf("character %q is not allowed", s[i])
		}
		acc = acc<<5 | uint32(v)
		nbits += 5
		if nbits >= 8 {
			nbits -= 8
			out = append(out, byte(acc>>nbits))
		}
	}
	if nbits >= 5 || acc&(1<<nbits-1) != 0 {
		return nil, errors.New("wrong length")
	}
	return out, nil
}
