package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/pictures"
	"mazebot/mazecore"
)

// TestBigPictures: /solve of a big maze defers at once and counts against
// the member's cooldown, which a second one meets with a private refusal
// saying when to try again; a cached picture and another member don't
// wait, nor do small mazes.
func TestBigPictures(t *testing.T) {
	e := newEnv(t, envOptions{})
	big := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 401, Height: 401, Seed: 1}
	other := big
	other.Seed = 2
	solve := func(id mazecore.ID, user string) *recorder {
		ix := slash(t, "solve", map[string]any{"id": id.String()})
		ix.Member.User = &discordgo.User{ID: user}
		return e.send(t, ix)
	}
	first := solve(big, "u1")
	if len(first.deferred) != 1 || len(first.replies) != 1 || len(first.replies[0].Files) != 1 {
		t.Fatalf("first /solve: deferred %v, replies %+v; want a deferral, then the PNG", first.deferred, first.replies)
	}
	msg := checkRefusal(t, solve(other, "u1"))
	if !strings.Contains(msg, "Try again in 10 s") || !strings.Contains(msg, "<t:") {
		t.Fatalf("second big /solve within the cooldown: %q, want when to try again", msg)
	}
	if rec := solve(big, "u1"); len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 || len(rec.deferred) != 0 {
		t.Fatalf("a cached picture: deferred %v, replies %+v; want it at once, cooldown or not", rec.deferred, rec.replies)
	}
	if rec := solve(other, "u2"); len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 {
		t.Fatalf("another member's big /solve: %+v, want the PNG", rec.replies)
	}
	small := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 101, Height: 101, Seed: 3}
	if rec := solve(small, "u1"); len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 || len(rec.deferred) != 0 {
		t.Fatalf("a 101×101 /solve during the cooldown: deferred %v, replies %+v; want the PNG at once", rec.deferred, rec.replies)
	}
	e.clock.Advance(pictures.DefaultCooldown)
	if rec := solve(other, "u1"); len(rec.replies) != 1 || len(rec.replies[0].Files) != 1 {
		t.Fatalf("after the cooldown: %+v, want the PNG", rec.replies)
	}
}
