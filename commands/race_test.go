package commands

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/store/storetest"
)

// TestRace: the Race button and the Entry Point command tell the Activity
// the maze of the channel's launch and answer LAUNCH_ACTIVITY; what cannot
// race is refused privately, and nothing is launched.
func TestRace(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 7}
	t.Run("OKButton", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.press(t, customid.Race(id), "u1")
		if rec.Launches != 1 || len(rec.Replies) != 0 {
			t.Fatalf("launches %d replies %+v, want one launch", rec.Launches, rec.Replies)
		}
		if got := e.races.launches; len(got) != 1 || got[0] != "g1 ch1 u1 "+id.String() {
			t.Fatalf("pending launches %q", got)
		}
	})
	t.Run("OKEntryPoint", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := e.send(t, decodeInteraction(t, map[string]any{
			"type": discordgo.InteractionApplicationCommand,
			"data": map[string]any{"id": "c1", "name": "race", "type": int(bot.PrimaryEntryPoint)},
		}))
		day, _ := e.today(t)
		if got := e.races.launches; rec.Launches != 1 || len(got) != 1 || got[0] != "g1 ch1 u1 "+day.String() {
			t.Fatalf("launches %d %q, want today's daily %s", rec.Launches, got, day)
		}
	})
	for name, customID := range map[string]string{
		"ErrTooBig": customid.Race(mazecore.ID{Algorithm: mazecore.Backtracking, Width: 201, Height: 201, Seed: 1}),
		"ErrBadID":  customid.RacePrefix + ":zz",
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			rec := e.press(t, customID, "u1")
			checkRefusal(t, rec)
			if rec.Launches != 0 || len(e.races.launches) != 0 {
				t.Fatal("launched anyway")
			}
		})
	}
	t.Run("ErrOff", func(t *testing.T) {
		db := storetest.MemoryDB(t)
		deps := Deps{Store: db, Poster: &poster{}, Guilds: &poster{}, PlaySecret: testSecret, DailyKey: testDailyKey,
			Now: testNow.UTC, Seed: func() uint64 { return 1 }, Log: slog.New(slog.DiscardHandler), AutoDeferAfter: -1}
		deps.Domain = NewDomain(deps)
		set, err := New(deps)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range set.Router.Definitions() {
			if d.Type == bot.PrimaryEntryPoint {
				t.Fatal("an Entry Point command without Maze Arena")
			}
		}
		rec := &recorder{}
		set.Router.Dispatch(t.Context(), buttonIx(t, "ch1", customid.Race(id), "u1"), rec)
		if msg := checkRefusal(t, rec); !strings.Contains(msg, "not set up") || rec.Launches != 0 {
			t.Fatalf("refusal %q", msg)
		}
	})
}

// TestNewNeedsItsDomain: New builds features on the domain the wiring
// built, and refuses to offer Race with nothing to launch it.
func TestNewNeedsItsDomain(t *testing.T) {
	db := storetest.MemoryDB(t)
	deps := Deps{Store: db, Poster: &poster{}, Guilds: &poster{}, PlaySecret: testSecret, DailyKey: testDailyKey,
		Now: testNow.UTC, Seed: func() uint64 { return 1 }, Log: slog.New(slog.DiscardHandler)}
	if _, err := New(deps); err == nil || !strings.Contains(err.Error(), "Domain") {
		t.Fatalf("New without a Domain: %v, want it refused", err)
	}
	deps.Domain, deps.Arena = NewDomain(deps), true
	if _, err := New(deps); err == nil || !strings.Contains(err.Error(), "launches") {
		t.Fatalf("New with Arena and no Races: %v, want it refused", err)
	}
	deps.Races = &races{}
	if _, err := New(deps); err != nil {
		t.Fatal(err)
	}
}

// TestRaceWhere: Maze Arena launches in a server, and in a DM or group DM
// through the member's own install of the app (there, with no daily, the
// Entry Point races a new maze); in a DM through a server's install only,
// where Discord runs no Activity, the member is told privately why and
// nothing is launched; a launch Discord refuses is told privately too. A
// group DM's launch, where the bot may not post, hands the rooms its
// interaction token, for the result card to follow it.
func TestRaceWhere(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 15, Height: 15, Seed: 7}
	dm := func(fields map[string]any, owners map[string]string, context int) *discordgo.Interaction {
		base := map[string]any{"guild_id": nil, "member": nil, "channel_id": "dm1", "context": context, "token": "tok",
			"user": map[string]any{"id": "u1", "username": "ada"}, "authorizing_integration_owners": owners}
		for k, v := range fields {
			base[k] = v
		}
		return decodeInteraction(t, base)
	}
	entry := map[string]any{"type": discordgo.InteractionApplicationCommand, "data": map[string]any{"id": "c1", "name": "race", "type": int(bot.PrimaryEntryPoint)}}
	button := map[string]any{"type": discordgo.InteractionMessageComponent, "data": map[string]any{"custom_id": customid.Race(id), "component_type": 2}}
	own := map[string]string{"1": "u1"}
	for _, c := range []struct {
		name    string
		ix      *discordgo.Interaction
		launch  string // the pending launch, "" for none
		card    bool   // whether its result card may be posted in the channel
		refusal string // what the member is told instead
	}{
		{"Race in a server that added the bot", buttonIx(t, "ch1", customid.Race(id), "u1"), "g1 ch1 u1 " + id.String(), true, ""},
		{"an Entry Point in the DM with the bot, the member's install", dm(entry, own, 1), " dm1 u1 ", true, ""},
		{"an Entry Point in a group DM, the member's install", dm(entry, own, 2), " dm1 u1 ", false, ""},
		{"Race in a group DM, the member's install", dm(button, own, 2), " dm1 u1 " + id.String(), false, ""},
		{"Race in a server only the member's install reaches", decodeInteraction(t, map[string]any{"type": discordgo.InteractionMessageComponent,
			"guild_id": "g9", "authorizing_integration_owners": own, "data": button["data"], "token": "tok"}), "g9 ch1 u1 " + id.String(), false, ""},
		{"an Entry Point in the DM with the bot, a server's install", dm(entry, map[string]string{"0": "0"}, 1), "", false, "your own apps"},
		{"Race in the DM with the bot, a server's install", dm(button, map[string]string{"0": "0"}, 1), "", false, "your own apps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			rec := e.send(t, c.ix)
			if c.refusal != "" {
				if msg := checkRefusal(t, rec); !strings.Contains(msg, c.refusal) || rec.Launches != 0 || len(e.races.launches) != 0 {
					t.Fatalf("refusal %q, launches %d %q: want none, and a private word of %q", msg, rec.Launches, e.races.launches, c.refusal)
				}
				return
			}
			if got := e.races.launches; rec.Launches != 1 || len(got) != 1 || !strings.HasPrefix(got[0], c.launch) || len(rec.Replies) != 0 {
				t.Fatalf("launches %d %q, replies %+v: want one launch, pending %q…", rec.Launches, got, rec.Replies, c.launch)
			}
			if e.races.cards[0] != c.card {
				t.Fatalf("the launch's card may be posted: %v, want %v", e.races.cards[0], c.card)
			}
			// Outside servers, a card the bot may not post follows the
			// launch, by its token; in a server, its followups may be
			// private, and there it has none.
			if want := map[bool]string{true: "tok"}[!c.card && c.ix.GuildID == ""]; e.races.followups[0] != want {
				t.Fatalf("the launch's followup token %q, want %q", e.races.followups[0], want)
			}
			if c.ix.Type != discordgo.InteractionApplicationCommand {
				return
			}
			if m, err := mazecore.Parse(strings.TrimPrefix(e.races.launches[0], c.launch)); err != nil || m.Algorithm != contest.DefaultAlgorithm || m.Width != contest.DefaultSize {
				t.Fatalf("launched on %+v (%v), want a new maze of the daily's default kind", m, err)
			}
		})
	}
	t.Run("a launch Discord refuses", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		rec := &recorder{LaunchErr: errors.New("HTTP 400: Invalid Form Body")}
		e.router.Dispatch(t.Context(), buttonIx(t, "ch1", customid.Race(id), "u1"), rec)
		if msg := checkRefusal(t, rec); !strings.Contains(msg, "would not open Maze Arena here") {
			t.Fatalf("refusal %q, want Discord's refusal told", msg)
		}
	})
}
