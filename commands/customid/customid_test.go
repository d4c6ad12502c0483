package customid

import (
	"math"
	"testing"

	"mazebot/mazecore"
	"mazebot/play"
)

var testSigner = mustSigner([]byte("test secret, not for production"))

func mustSigner(secret []byte) Signer {
	s, err := NewSigner(secret)
	if err != nil {
		panic(err)
	}
	return s
}

func TestMoveLength(t *testing.T) {
	id := testSigner.Move(math.MaxInt64, math.MaxInt32, GiveUp, "18446744073709551615")
	if len(id) > 100 {
		t.Fatalf("custom_id %q has %d characters, want ≤ 100", id, len(id))
	}
	if _, err := testSigner.ParseMove(id, "18446744073709551615"); err != nil {
		t.Fatalf("the longest custom_id does not parse: %v", err)
	}
}

// TestParseMove checks the signature alone, without the store's own
// owner check behind it.
func TestParseMove(t *testing.T) {
	id := testSigner.Move(42, 7, South, "u1")
	got, err := testSigner.ParseMove(id, "u1")
	if err != nil || got != (MoveButton{Game: 42, Seq: 7, Action: South}) {
		t.Fatalf("ParseMove=%+v, %v, want game 42 seq 7 south", got, err)
	}
	for name, c := range map[string]struct {
		signer         Signer
		customID, user string
	}{
		"ErrOtherUser":   {testSigner, id, "u2"},
		"ErrOtherSecret": {mustSigner([]byte("x")), id, "u1"},
		"ErrGameZero":    {testSigner, testSigner.Move(0, 7, South, "u1"), "u1"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := c.signer.ParseMove(c.customID, c.user); err != ErrInvalid {
				t.Fatalf("err=%v, want ErrInvalid", err)
			}
		})
	}
}

// TestNewSignerRefusesEmpty: buttons signed with no key could be forged
// by anyone.
func TestNewSignerRefusesEmpty(t *testing.T) {
	for _, secret := range [][]byte{nil, {}} {
		if _, err := NewSigner(secret); err == nil {
			t.Fatalf("NewSigner(%q) accepted it", secret)
		}
	}
}

func TestMazeButtons(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 7}
	if got, want := Play(id), "play:"+id.String(); got != want {
		t.Fatalf("Play=%q, want %q", got, want)
	}
	if got, ok := SolveMaze(Solve(id)); !ok || got != id {
		t.Fatalf("SolveMaze(Solve(id))=%v, %v", got, ok)
	}
	for _, bad := range []string{"play:" + id.String(), "solve:", "solve:zz!", "solvex:" + id.String()} {
		if _, ok := SolveMaze(bad); ok {
			t.Errorf("SolveMaze(%q) found a maze", bad)
		}
	}
	if got := Rest("play:abc:def"); got != "abc:def" {
		t.Fatalf("Rest=%q", got)
	}
}

func TestIsDecimal(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "7": true, "1300000000000000001": true, "": false, "01": false, "-1": false, "1a": false, "12345678901234567890": false} {
		if got := IsDecimal(s); got != want {
			t.Errorf("IsDecimal(%q)=%v, want %v", s, got, want)
		}
	}
}

func TestParseArchive(t *testing.T) {
	for _, tc := range []struct {
		id       string
		date     string
		next, ok bool
	}{
		{ArchivePlay("2026-12-01"), "2026-12-01", false, true},
		{ArchiveNext("2026-12-01"), "2026-12-01", true, true},
		{ArchiveNext(""), "", true, true},
		{"archive:p:", "", false, false},
		{"archive:x:2026-12-01", "", false, false},
		{"archive:p:2026-12-01:9", "", false, false},
		{"play:2026-12-01", "", false, false},
	} {
		date, next, ok := ParseArchive(tc.id)
		if date != tc.date || next != tc.next || ok != tc.ok {
			t.Errorf("ParseArchive(%q)=%q, %v, %v; want %q, %v, %v", tc.id, date, next, ok, tc.date, tc.next, tc.ok)
		}
	}
}

// TestWayActions: every way of every grid has a button action, its own,
// and a signed button of it parses back to it.
func TestWayActions(t *testing.T) {
	seen := map[Action]play.Way{}
	for _, kind := range mazecore.GridKinds {
		for _, w := range play.Ways(kind) {
			a := WayAction(w)
			if a == 0 || Ways[a] != w {
				t.Fatalf("%v on a %v grid has no action", w, kind)
			}
			if other, ok := seen[a]; ok && other != w {
				t.Fatalf("action %c moves both %v and %v", a, w, other)
			}
			seen[a] = w
			got, err := testSigner.ParseMove(testSigner.Move(9, 1, a, "u1"), "u1")
			if err != nil || got.Action != a {
				t.Fatalf("the button of %v parses as %+v, %v", w, got, err)
			}
		}
	}
}
