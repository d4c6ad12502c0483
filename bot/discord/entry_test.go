package discord

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// TestLaunch: LAUNCH_ACTIVITY is a first response of its own, type 12
// without data, and nothing can follow it as a first response.
func TestLaunch(t *testing.T) {
	api := &fakeREST{}
	ix := &discordgo.Interaction{ID: "1", Token: "t", AppID: "2", Type: discordgo.InteractionMessageComponent}
	r := newResponder(api, ix, nil, nil)
	ctx := context.Background()
	if err := r.Launch(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Launch(ctx); !errors.Is(err, errAlreadyReplied) {
		t.Fatalf("second Launch: %v, want errAlreadyReplied", err)
	}
	if got := api.calls; len(got) != 1 || got[0] != "respond type=12 flags=0" {
		t.Fatalf("calls %q, want one type 12 callback", got)
	}
}

// TestCommandsBody: the Entry Point the router defines goes with handler 1;
// one read back is sent again when the router has none; a guild's
// overwrite carries none.
func TestCommandsBody(t *testing.T) {
	maze := &discordgo.ApplicationCommand{Name: "maze", Description: "Make a maze"}
	entry := &discordgo.ApplicationCommand{Name: "launch", Description: "Race", Type: bot.PrimaryEntryPoint}
	kept := json.RawMessage(`{"id":"9","name":"launch","description":"Launch","type":4,"handler":2}`)
	decode := func(t *testing.T, body json.RawMessage) []map[string]any {
		t.Helper()
		var out []map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("OKOwnEntryPoint", func(t *testing.T) {
		body, n, err := commandsBody([]*discordgo.ApplicationCommand{maze, entry}, false, kept)
		got := decode(t, body)
		if err != nil || n != 2 || got[1]["handler"] != float64(1) || got[1]["type"] != float64(4) || got[0]["handler"] != nil {
			t.Fatalf("body %s (%d, %v)", body, n, err)
		}
	})
	t.Run("OKKept", func(t *testing.T) {
		body, n, err := commandsBody([]*discordgo.ApplicationCommand{maze}, false, kept)
		got := decode(t, body)
		if err != nil || n != 2 || got[1]["id"] != "9" || got[1]["handler"] != float64(2) {
			t.Fatalf("body %s (%d, %v), want the Entry Point read back", body, n, err)
		}
	})
	t.Run("OKGuild", func(t *testing.T) {
		body, n, err := commandsBody([]*discordgo.ApplicationCommand{maze, entry}, true, nil)
		if err != nil || n != 1 || len(decode(t, body)) != 1 {
			t.Fatalf("body %s (%d, %v), want /maze only", body, n, err)
		}
	})
	t.Run("OKNone", func(t *testing.T) {
		if body, _, _ := commandsBody(nil, false, nil); string(body) != "[]" {
			t.Fatalf("body %s, want []", body)
		}
	})
}
