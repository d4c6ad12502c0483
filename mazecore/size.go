package mazecore

import (
	"errors"
	"fmt"
)

// MinSize is the smallest maze side in tiles: two cells and three walls.
const MinSize = 5

// MaxSize is the largest side any maze ID can name. Callers impose their own,
// smaller limits (Discord replies, the command line's memory).
const MaxSize = 65535

// ErrSizeOutOfRange is matched by every *SizeError.
var ErrSizeOutOfRange = errors.New("size out of range")

// SizeError reports a size outside [Min, Max] tiles, or, when Unit is
// set, outside [Min, Max] of that unit (a polar grid's rings, a hex
// grid's cells).
type SizeError struct {
	Got, Min, Max int
	Unit          string // "" for tiles, which must be odd
}

func (e *SizeError) Error() string {
	if e.Unit != "" {
		return fmt.Sprintf("size %d is out of range: use %d to %d %s", e.Got, e.Min, e.Max, e.Unit)
	}
	return fmt.Sprintf("size %d is out of range: use an odd size from %d to %d", e.Got, e.Min, e.Max)
}

func (e *SizeError) Is(target error) bool { return target == ErrSizeOutOfRange }

// NormalizeSize checks a requested side length against [MinSize, max] and
// rounds an even size up to the next odd one, reporting that it did so the
// caller can tell the user ("20 → 21").
func NormalizeSize(n, max int) (size int, rounded bool, err error) {
	if max > MaxSize {
		max = MaxSize
	}
	if n < MinSize || n > max {
		return 0, false, &SizeError{Got: n, Min: MinSize, Max: max}
	}
	if n%2 == 0 {
		if n+1 > max {
			return 0, false, &SizeError{Got: n, Min: MinSize, Max: max}
		}
		n, rounded = n+1, true
	}
	return n, rounded, nil
}
