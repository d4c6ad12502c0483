package discord

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/bot/bottest"
)

func TestInteractionsEndpointReplays(t *testing.T) {
	var runs atomic.Int32
	guard := bottest.NewGuard()
	e := newEndpoint(t, func(ctx context.Context, in *bot.Interaction) error {
		runs.Add(1)
		return in.Respond.Reply(ctx, bot.Reply{Content: "once"})
	}, bot.Replays(guard, slog.New(slog.DiscardHandler)))
	if typ, data := decode(t, e.post(commandJSON, e.priv, time.Now())); typ != 4 || data["content"] != "once" {
		t.Fatalf("first delivery answered type %d %v", typ, data)
	}
	for range 2 {
		if rec := e.post(commandJSON, e.priv, time.Now()); rec.Code != http.StatusConflict {
			t.Fatalf("replay answered %d %q, want 409", rec.Code, rec.Body)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the handler ran %d times, want once", n)
	}
	// Fail closed: a store that cannot record refuses, privately.
	guard.Fail(errors.New("database is locked"))
	other := strings.Replace(commandJSON, `"id":"1"`, `"id":"5"`, 1)
	typ, data := decode(t, e.post(other, e.priv, time.Now()))
	if flags, _ := data["flags"].(float64); typ != 4 || flags != 64 || !strings.Contains(data["content"].(string), "try again") {
		t.Fatalf("with the guard failing: type %d %v, want a private apology", typ, data)
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the handler ran with the guard failing")
	}
}

func TestUnanswerable(t *testing.T) {
	user := &discordgo.Member{User: &discordgo.User{ID: "9"}}
	base := func() *discordgo.Interaction {
		return &discordgo.Interaction{ID: "1", AppID: "2", Token: "t", Type: discordgo.InteractionApplicationCommand, Member: user,
			Data: discordgo.ApplicationCommandInteractionData{Name: "maze"}}
	}
	for name, tc := range map[string]struct {
		change func(ix *discordgo.Interaction) *discordgo.Interaction
		want   string
	}{
		"OK":         {func(ix *discordgo.Interaction) *discordgo.Interaction { return ix }, ""},
		"OKDM":       {func(ix *discordgo.Interaction) *discordgo.Interaction { ix.Member, ix.User = nil, user.User; return ix }, ""},
		"ErrNil":     {func(*discordgo.Interaction) *discordgo.Interaction { return nil }, "no interaction"},
		"ErrBlank":   {func(*discordgo.Interaction) *discordgo.Interaction { return &discordgo.Interaction{} }, "no id, token or application id"},
		"ErrNoToken": {func(ix *discordgo.Interaction) *discordgo.Interaction { ix.Token = ""; return ix }, "no id, token or application id"},
		"ErrNoUser":  {func(ix *discordgo.Interaction) *discordgo.Interaction { ix.Member = nil; return ix }, "no user"},
		"ErrNoData":  {func(ix *discordgo.Interaction) *discordgo.Interaction { ix.Data = nil; return ix }, "no command data"},
		"ErrEmptyCommand": {func(ix *discordgo.Interaction) *discordgo.Interaction {
			ix.Data = discordgo.ApplicationCommandInteractionData{}
			return ix
		}, "no command data"},
		"ErrWrongData": {func(ix *discordgo.Interaction) *discordgo.Interaction {
			ix.Type = discordgo.InteractionMessageComponent
			return ix
		}, "no component data"},
		"ErrPing": {func(ix *discordgo.Interaction) *discordgo.Interaction { ix.Type = discordgo.InteractionPing; return ix }, "unknown type 1"},
		"ErrModalNoData": {func(ix *discordgo.Interaction) *discordgo.Interaction {
			ix.Type = discordgo.InteractionModalSubmit
			return ix
		}, "no modal data"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := unanswerable(tc.change(base())); got != tc.want {
				t.Fatalf("unanswerable=%q, want %q", got, tc.want)
			}
		})
	}
}

// A nil interaction during shutdown (INTERACTION_CREATE with "d": null)
// is dropped, not answered with a panic.
func TestDispatchNilWhileStopping(t *testing.T) {
	e := newEndpoint(t, func(context.Context, *bot.Interaction) error { t.Error("dispatched"); return nil })
	e.bot.stopping = true
	if out := e.bot.dispatch(newResponder(e.rest, nil, nil, nil)); out != malformed {
		t.Fatalf("outcome %d, want malformed", out)
	}
	e.bot.onGatewayEvent(nil, &discordgo.Event{Type: "INTERACTION_CREATE", RawData: []byte("null")})
	if got := e.calls(); got != "" {
		t.Fatalf("REST requests %q for a nil interaction", got)
	}
}
