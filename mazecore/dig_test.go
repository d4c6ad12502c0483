package mazecore

import (
	"runtime"
	"slices"
	"testing"
)

// TestDiggingMappedList: a maze whose dug list is large enough for its
// room to be mapped from the OS (reserve) is still the specification's,
// and on Linux the room was mapped.
func TestDiggingMappedList(t *testing.T) {
	id := ID{Algorithm: Digging, Width: 1201, Height: 1201, Seed: 7}
	cells := (id.Width / 2) * (id.Height / 2)
	l := newCellList(cells, cells)
	defer l.free()
	if runtime.GOOS == "linux" && !l.mapped {
		t.Fatalf("a list of %d cells (%d bytes) was made on the heap, want it mapped from %d bytes on", cells, len(l.data), reserveMapped)
	}
	if got, want := mustGenerate(t, id), specGenerate(id, nil); !slices.Equal(got.passages, want.passages) {
		t.Fatalf("%+v: the maze differs from the specification's", id)
	}
}
