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
	if len(first.Deferred) != 1 || len(first.Replies) != 1 || len(first.Replies[0].Files) != 1 {
		t.Fatalf("first /solve: deferred %v, replies %+v; want a deferral, then the PNG", first.Deferred, first.Replies)
	}
	msg := checkRefusal(t, solve(other, "u1"))
	if !strings.Contains(msg, "Try again in 10 s") || !strings.Contains(msg, "<t:") {
		t.Fatalf("second big /solve within the cooldown: %q, want when to try again", msg)
	}
	if rec := solve(big, "u1"); len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 || len(rec.Deferred) != 0 {
		t.Fatalf("a cached picture: deferred %v, replies %+v; want it at once, cooldown or not", rec.Deferred, rec.Replies)
	}
	if rec := solve(other, "u2"); len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 {
		t.Fatalf("another member's big /solve: %+v, want the PNG", rec.Replies)
	}
	small := mazecore.ID{Algorithm: mazecore.Backtracking, Width: 101, Height: 101, Seed: 3}
	if rec := solve(small, "u1"); len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 || len(rec.Deferred) != 0 {
		t.Fatalf("a 101×101 /solve during the cooldown: deferred %v, replies %+v; want the PNG at once", rec.Deferred, rec.Replies)
	}
	e.clock.Advance(pictures.DefaultCooldown)
	if rec := solve(other, "u1"); len(rec.Replies) != 1 || len(rec.Replies[0].Files) != 1 {
		t.Fatalf("after the cooldown: %+v, want the PNG", rec.Replies)
	}
}

// TestCooldownFollowsCost: what counts against a member's cooldown is the
// work a reply takes, not its format (issue 16 rows 4, 5 and 13).
func TestCooldownFollowsCost(t *testing.T) {
	maze := func(e *env, user string, opts map[string]any) *recorder {
		ix := slash(t, "maze", opts)
		ix.Member.User = &discordgo.User{ID: user}
		return e.send(t, ix)
	}
	picture := func(rec *recorder) bool { return len(rec.Replies) == 1 && len(rec.Replies[0].Files) == 1 }
	t.Run("OKSmallGIFAfterABigPNG", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		if rec := maze(e, "u1", map[string]any{"algorithm": "backtracking", "size": 401, "render": "png"}); !picture(rec) {
			t.Fatalf("401×401 PNG: %+v", rec.Replies)
		}
		if rec := maze(e, "u1", map[string]any{"algorithm": "sidewinder", "size": 15, "render": "gif"}); !picture(rec) {
			t.Fatalf("a 15×15 GIF within the cooldown: %+v, want it at once", rec.Replies)
		}
		if msg := checkRefusal(t, maze(e, "u1", map[string]any{"size": 401, "render": "png", "seed": 9})); !strings.Contains(msg, "Try again in") {
			t.Fatalf("a second big PNG within the cooldown: %q, want the cooldown", msg)
		}
	})
	t.Run("ErrImpossibleAtOnce", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		maze(e, "u1", map[string]any{"size": 401, "render": "png"})
		for _, opts := range []map[string]any{
			{"size": 2001, "render": "png"},
			{"size": 1001, "render": "emoji"},
		} {
			rec := maze(e, "u1", opts)
			msg := checkRefusal(t, rec)
			if strings.Contains(msg, "Try again in") || len(rec.Deferred) != 0 {
				t.Fatalf("%v during the cooldown: %q (deferred %v), want why it is impossible, at once", opts, msg, rec.Deferred)
			}
		}
	})
	t.Run("OKDifficultyIsBig", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		opts := map[string]any{"size": 201, "render": "png", "difficulty": "hard", "loops": 100}
		rec := maze(e, "u1", opts)
		if !picture(rec) || len(rec.Deferred) != 1 {
			t.Fatalf("a hard 201×201 maze: deferred %v, replies %+v; want a deferral first, then the PNG", rec.Deferred, rec.Replies)
		}
		opts["seed"] = 77
		if msg := checkRefusal(t, maze(e, "u1", opts)); !strings.Contains(msg, "Try again in") {
			t.Fatalf("a second hard 201×201 maze within the cooldown: %q, want the cooldown", msg)
		}
		if rec := maze(e, "u2", opts); !picture(rec) {
			t.Fatalf("another member's: %+v", rec.Replies)
		}
	})
}
