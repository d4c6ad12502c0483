package bot

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands"
)

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
	e := newEndpoint(t, func(context.Context, *discordgo.Interaction, commands.Responder) { t.Error("dispatched") })
	e.bot.stopping = true
	if out := e.bot.dispatch(newResponder(e.rest, nil, nil, nil)); out != malformed {
		t.Fatalf("outcome %d, want malformed", out)
	}
	e.bot.onInteraction(nil, &discordgo.InteractionCreate{})
	if got := e.calls(); got != "" {
		t.Fatalf("REST requests %q for a nil interaction", got)
	}
}
