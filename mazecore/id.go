package mazecore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// ID names one maze forever: algorithm, grid, shape, size, seed and loops.
// Generate(id) (GenerateGrid(id) for a maze not on the whole square grid)
// always builds the same maze.
//
// Its text form is Crockford base32 (lower case, no padding) of one of
// three layouts. A perfect square maze (Loops 0) is always spelled in
// version 1, so every ID posted before loops existed keeps its spelling
// and its maze; a square one with loops in version 2; a maze on another
// grid or in a shape in version 3:
//
//	version 1                        version 2 (Loops 1 to 100)
//	byte    1<<4 | algorithm         byte    2<<4 | algorithm
//	uvarint columns − 2              uvarint columns − 2
//	uvarint rows − 2                 uvarint rows − 2
//	uvarint seed                     uvarint seed
//	                                 byte    loops
//	byte    checksum                 byte    checksum
//
//	version 3
//	byte    3<<4 | algorithm
//	byte    grid kind (GridKind)
//	uvarint square: columns − 2, then rows − 2; hex: columns − 3,
//	        then rows − 3; polar: rings − 5
//	uvarint seed
//	byte    loops (0 to 100)
//	byte    shape kind (ShapeKind), then for a preset: byte preset,
//	        byte version; for a text: byte font version, byte length,
//	        the text's bytes; for an image: byte version, 16 bytes of
//	        the image's hash
//	byte    checksum
//
// where columns and rows count cells and the checksum is the first byte of
// the CRC-32 (IEEE) of the bytes before it. A 21×21 maze with a 32-bit seed
// is 15 characters in version 1 and 16 in version 2. The checksum catches
// most typos before they turn into a different, valid maze. Every ID has
// exactly one spelling: Parse rejects non-minimal varints, a version 2
// ID with loops 0, and a version 3 ID of a whole square grid.
type ID struct {
	Algorithm     Algorithm
	Width, Height int
	Seed          uint64
	// Loops is the share of the perfect maze's dead ends, in percent, that
	// braiding removes by opening a wall, rounded to a whole dead end (0: a
	// perfect maze, 100: no dead ends at all). See Generate.
	Loops int
	// GridKind is the grid the maze lies on, Square for versions 1 and
	// 2. On a square grid Width and Height count tiles, as they always
	// have; on a hex grid they count cells (columns and rows); on a polar
	// grid both are the number of rings, the centre cell the first.
	GridKind GridKind
	// Shape cuts the maze out of a square or hex grid; NoShape for the
	// whole grid.
	Shape Shape
}

// Plain reports whether id names a maze of the whole square grid:
// versions 1 and 2, which Generate makes as a Maze.
func (id ID) Plain() bool { return id.GridKind == Square && id.Shape.Kind == NoShape }

// Format versions. A new one must keep parsing (and generating) every older
// ID unchanged.
const (
	idVersion1 = 1 // perfect mazes
	idVersion2 = 2 // adds loops
	idVersion3 = 3 // adds grids and shapes
)

// MaxLoops is the largest Loops: every dead end removed.
const MaxLoops = 100

// maxIDLength bounds the input Parse looks at: the longest valid ID (a
// text of 12 characters, largest sizes, 64-bit seed, loops) is 59
// characters; the longest square one without a shape is 31.
const maxIDLength = 64

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
	if err := id.validateGrid(); err != nil {
		return err
	}
	if id.Loops < 0 || id.Loops > MaxLoops {
		return fmt.Errorf("loops %d: %w (use 0 to %d)", id.Loops, ErrLoopsOutOfRange, MaxLoops)
	}
	return nil
}

// validateGrid checks the grid, its size and shape, and that the
// algorithm runs on them.
func (id ID) validateGrid() error {
	switch id.GridKind {
	case Square:
		for _, side := range []int{id.Width, id.Height} {
			if side < MinSize || side > MaxSize {
				return &SizeError{Got: side, Min: MinSize, Max: MaxSize}
			}
			if side%2 == 0 {
				return fmt.Errorf("size %d is even: %w", side, ErrSizeOutOfRange)
			}
		}
	case Polar:
		if id.Width < MinRings || id.Width > MaxRings {
			return &SizeError{Got: id.Width, Min: MinRings, Max: MaxRings, Unit: "rings"}
		}
		if id.Height != id.Width {
			return fmt.Errorf("a polar maze's height %d is not its rings %d: %w", id.Height, id.Width, ErrSizeOutOfRange)
		}
		if id.Shape.Kind != NoShape {
			return fmt.Errorf("%w: a polar maze is a disc and takes no shape", ErrUnknownShape)
		}
	case Hex:
		for _, side := range []int{id.Width, id.Height} {
			if side < MinHexSide || side > MaxHexSide {
				return &SizeError{Got: side, Min: MinHexSide, Max: MaxHexSide, Unit: "cells"}
			}
		}
	default:
		return fmt.Errorf("%w number %d", ErrUnknownGrid, id.GridKind)
	}
	if err := id.Shape.validate(); err != nil {
		return err
	}
	if masked := id.Shape.Kind != NoShape; !id.Algorithm.Fits(id.GridKind, masked) {
		return &FitError{Algorithm: id.Algorithm, Grid: id.GridKind, Masked: masked}
	}
	return nil
}

// Cells is the number of cells of the maze's grid (for a shaped maze, of
// the rectangle the shape is cut from).
func (id ID) Cells() int {
	switch id.GridKind {
	case Polar:
		n := 0
		for _, size := range ringSizes(id.Width) {
			n += size
		}
		return n
	case Hex:
		return id.Width * id.Height
	}
	return (id.Width / 2) * (id.Height / 2)
}

// String encodes the ID: version 1 for a perfect maze, version 2 with
// loops. It is only meaningful for a valid ID.
func (id ID) String() string {
	if !id.Plain() {
		return id.stringV3()
	}
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

// stringV3 encodes an ID of version 3.
func (id ID) stringV3() string {
	buf := make([]byte, 0, 8+3*binary.MaxVarintLen64+MaxTextLength)
	buf = append(buf, idVersion3<<4|byte(id.Algorithm)&0x0f, byte(id.GridKind))
	switch id.GridKind {
	case Polar:
		buf = binary.AppendUvarint(buf, uint64(id.Width-MinRings))
	case Hex:
		buf = binary.AppendUvarint(buf, uint64(id.Width-MinHexSide))
		buf = binary.AppendUvarint(buf, uint64(id.Height-MinHexSide))
	default:
		buf = binary.AppendUvarint(buf, uint64(id.Width/2-2))
		buf = binary.AppendUvarint(buf, uint64(id.Height/2-2))
	}
	buf = binary.AppendUvarint(buf, id.Seed)
	buf = append(buf, byte(id.Loops), byte(id.Shape.Kind))
	switch id.Shape.Kind {
	case PresetShape:
		buf = append(buf, byte(id.Shape.Preset), id.Shape.Version)
	case TextShape:
		buf = append(buf, id.Shape.Version, byte(len(id.Shape.Text)))
		buf = append(buf, id.Shape.Text...)
	case ImageShape:
		buf = append(buf, id.Shape.Version)
		buf = append(buf, id.Shape.Hash[:]...)
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
	if version == idVersion3 {
		id, reason := parseV3(body)
		if reason != "" {
			return fail(reason)
		}
		return id, nil
	}
	if version != idVersion1 && version != idVersion2 {
		return fail(fmt.Sprintf("unknown format version %d", version))
	}
	id := ID{Algorithm: Algorithm(body[0] & 0x0f)}
	if !id.Algorithm.Valid() {
		return fail(fmt.Sprintf("unknown algorithm number %d", id.Algorithm))
	}
	var fields [3]uint64
	rest, reason := uvarints(body[1:], fields[:])
	if reason != "" {
		return fail(reason)
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

// uvarints reads len(fields) canonical uvarints from b and returns the
// bytes after them, or why it could not.
func uvarints(b []byte, fields []uint64) (rest []byte, reason string) {
	for i := range fields {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, "truncated"
		}
		if n != len(binary.AppendUvarint(nil, v)) {
			return nil, "non-canonical number"
		}
		fields[i], b = v, b[n:]
	}
	return b, ""
}

// parseV3 decodes the body (checksum removed) of a version 3 ID, or says
// why it could not.
func parseV3(body []byte) (ID, string) {
	id := ID{Algorithm: Algorithm(body[0] & 0x0f)}
	if !id.Algorithm.Valid() {
		return ID{}, fmt.Sprintf("unknown algorithm number %d", id.Algorithm)
	}
	if len(body) < 2 {
		return ID{}, "truncated"
	}
	id.GridKind = GridKind(body[1])
	sizes := 2
	switch id.GridKind {
	case Polar:
		sizes = 1
	case Square, Hex:
	default:
		return ID{}, fmt.Sprintf("unknown grid number %d", id.GridKind)
	}
	var fields [3]uint64
	rest, reason := uvarints(body[2:], fields[:sizes+1])
	if reason != "" {
		return ID{}, reason
	}
	// Bounds before arithmetic, so that no size overflows an int.
	for _, size := range fields[:sizes] {
		if size > MaxSize {
			return ID{}, "size too large"
		}
	}
	switch id.GridKind {
	case Polar:
		id.Width, id.Height, id.Seed = int(fields[0])+MinRings, int(fields[0])+MinRings, fields[1]
	case Hex:
		id.Width, id.Height, id.Seed = int(fields[0])+MinHexSide, int(fields[1])+MinHexSide, fields[2]
	default:
		id.Width, id.Height, id.Seed = 2*(int(fields[0])+2)+1, 2*(int(fields[1])+2)+1, fields[2]
	}
	if len(rest) < 2 {
		return ID{}, "truncated"
	}
	id.Loops, id.Shape.Kind, rest = int(rest[0]), ShapeKind(rest[1]), rest[2:]
	switch id.Shape.Kind {
	case NoShape:
	case PresetShape:
		if len(rest) < 2 {
			return ID{}, "truncated"
		}
		id.Shape.Preset, id.Shape.Version, rest = Preset(rest[0]), rest[1], rest[2:]
	case TextShape:
		if len(rest) < 2 || len(rest) < 2+int(rest[1]) {
			return ID{}, "truncated"
		}
		n := int(rest[1])
		id.Shape.Version, id.Shape.Text, rest = rest[0], string(rest[2:2+n]), rest[2+n:]
	case ImageShape:
		if len(rest) < 1+len(id.Shape.Hash) {
			return ID{}, "truncated"
		}
		id.Shape.Version, rest = rest[0], rest[1+copy(id.Shape.Hash[:], rest[1:]):]
	default:
		return ID{}, fmt.Sprintf("unknown shape number %d", id.Shape.Kind)
	}
	if len(rest) != 0 {
		return ID{}, "trailing bytes"
	}
	if id.Plain() {
		return ID{}, "version 3 of a whole square grid (spelled in version 1 or 2)"
	}
	if err := id.Validate(); err != nil {
		return ID{}, err.Error()
	}
	return id, ""
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
