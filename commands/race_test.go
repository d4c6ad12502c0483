package commands

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/mazecore"
	"mazebot/store/sqlite"
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
		db, err := sqlite.Open(t.Context(), sqlite.Memory)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
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
	db, err := sqlite.Open(t.Context(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
