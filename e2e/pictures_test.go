package e2e

// The cooldown of big pictures follows what a reply costs (issue 16 rows
// 4, 5 and 13): a small GIF does not wait, an impossible request is told
// so at once, and a burst of costly requests is refused, not drawn.

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// isCooldown tells a private refusal that says when to try again.
func isCooldown(m *fakediscord.Message) bool {
	return m.Ephemeral() && strings.Contains(m.Text(), "Try again in") && strings.Contains(m.Text(), "<t:")
}

// TestE2ECooldownFollowsCost (rows 4, 5): right after a member's big PNG,
// their 15×15 GIF (a few dozen frames) is drawn, not refused as big; an
// impossible request during the cooldown is told what is allowed, not to
// wait; another big picture waits.
func TestE2ECooldownFollowsCost(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.useClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)) // frozen: the cooldown holds
	fake.startApp(t)
	checkMazePNG(t, final(t, fake.slash(t, "maze", opt("algorithm", "backtracking"), opt("size", 401), opt("render", "png"))), 401)

	gif := final(t, fake.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 15), opt("render", "gif")))
	if isCooldown(gif) || len(gif.Attachments) != 1 || !strings.HasSuffix(gif.Attachments[0].Filename, ".gif") {
		t.Fatalf("a 15×15 GIF just after a big PNG: %q with %d attachments, want the GIF", gif.Text(), len(gif.Attachments))
	}
	// Impossible: a size beyond the option's range (which only a client
	// that skips Discord's checks sends), an emoji grid too wide.
	for _, tc := range []struct {
		opts []member.Option
		want string
	}{
		{[]member.Option{opt("size", 2001), opt("render", "png")}, "from 5 to 1001"},
		{[]member.Option{opt("size", 401), opt("render", "emoji")}, "too big for an emoji grid"},
	} {
		impossible := final(t, fake.slashSpec(t, member.SlashSpec{Name: "maze", Options: tc.opts, SkipValidation: true}))
		if !impossible.Ephemeral() || isCooldown(impossible) || !strings.Contains(impossible.Text(), tc.want) {
			t.Fatalf("/maze %v during the cooldown answered %q, want at once what is allowed (%q)", tc.opts, impossible.Text(), tc.want)
		}
	}
	if again := final(t, fake.slash(t, "maze", opt("algorithm", "digging"), opt("size", 401), opt("render", "png"))); !isCooldown(again) {
		t.Fatalf("a second big PNG during the cooldown answered %q, want the cooldown", again.Text())
	}
}

// TestE2ECostlyBurst (row 13): one member sends a hundred of the costliest
// /maze a difficulty allows at once (201×201, hard, loops 100: 32 mazes
// generated, braided and rated for each): every one is acknowledged
// within Discord's 3 s, one is drawn and the rest meet the cooldown; another
// member's small /maze meanwhile is acknowledged in time too.
func TestE2ECostlyBurst(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	fake.useClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	fake.startApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const burst = 100
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		drawn, cooled int
		answers       []string
	)
	for i := range burst {
		wg.Go(func() {
			ix, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{
				opt("size", 201), opt("render", "png"), opt("difficulty", "hard"), opt("loops", 100)}})
			if err != nil {
				t.Error(err)
				return
			}
			if resp, err := ix.Wait(ctx); err != nil || resp.Elapsed > 3*time.Second {
				t.Errorf("/maze %d: first response %+v (%v), want one within 3 s", i, resp, err)
				return
			}
			msg, err := ix.WaitFinal(ctx, func(m *fakediscord.Message) bool { return !m.Loading() })
			if orig := ix.Original(); err != nil && orig != nil && orig.Deleted {
				msg, err = ix.WaitFollowup(ctx, 0) // the placeholder gave way to a private answer
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("/maze %d: %v", i, err)
			case len(msg.Attachments) == 1:
				drawn++
			case isCooldown(msg):
				cooled++
			default:
				answers = append(answers, msg.Text())
			}
		})
	}
	other, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", UserID: "1600000000000000001", Options: []member.Option{opt("size", 11)}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := other.Wait(ctx); err != nil || resp.Elapsed > 3*time.Second {
		t.Fatalf("another member's /maze size:11: %+v (%v), want it acknowledged within 3 s", resp, err)
	}
	wg.Wait()
	if drawn != 1 || cooled != burst-1 {
		t.Fatalf("%d drawn and %d refused by the cooldown, want 1 and %d; %d answered otherwise, such as %.200q", drawn, cooled, burst-1, len(answers), answers)
	}
	if msg := final(t, other); !strings.Contains(msg.Text(), "11×11") {
		t.Fatalf("the other member's /maze gave %q", msg.Text())
	}
}
