package discord

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/lang"
)

// onGatewayEvent takes INTERACTION_CREATE from the raw event, not from
// discordgo's typed one: discordgo fails the whole event on a component
// type it does not know and hands it on half-decoded (decode.go).
func (b *Bot) onGatewayEvent(_ *discordgo.Session, ev *discordgo.Event) {
	if ev == nil || ev.Type != "INTERACTION_CREATE" {
		return
	}
	ix, unknown, err := decodeInteraction(ev.RawData)
	b.unknown.report(unknown)
	if err != nil {
		b.log.Warn("dropped a malformed interaction", "reason", "undecodable", "err", err)
		return
	}
	b.dispatch(newResponder(b.rest, ix, nil, b.log))
}

// outcome is what dispatch did with an interaction; the HTTP endpoint
// answers by it.
type outcome uint8

const (
	handled   outcome = iota // the router ran, or the member was told why not
	malformed                // dropped: not an interaction that can be answered
	replayed                 // dropped: this interaction was handled before
)

// dispatch is the one path every interaction takes, from the gateway or the
// HTTP endpoint (which gives r an inline sink for its first callback): a
// panic guard, checks of the payload, in-flight tracking, refusal during
// shutdown and the handler timeout around the router, whose middleware
// does the rest.
func (b *Bot) dispatch(r *responder) (out outcome) {
	// First of all: nothing in this goroutine may take the process down.
	// The router recovers handler panics itself.
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("interaction panicked outside the router", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	ix := r.ix
	newType := newInteractionType(ix)
	if why := unanswerable(ix); why != "" && !newType {
		id := ""
		if ix != nil {
			id = ix.ID
		}
		b.log.Warn("dropped a malformed interaction", "reason", why, "interaction", id)
		return malformed
	}
	ctx, cancel := context.WithTimeout(b.work, b.cfg.HandlerTimeout)
	defer cancel()
	if !b.begin() {
		// Stopping: say so rather than let the interaction fail silently.
		err := r.Reply(ctx, bot.Reply{Content: lang.For(ix.Locale).T("bot.restarting"), Ephemeral: true})
		if err != nil {
			b.log.Warn("refuse during shutdown", "err", err)
		}
		return handled
	}
	defer b.inflight.Done()
	if newType {
		// Discord added a kind of interaction: say so rather than let the
		// member meet "The application did not respond".
		if err := r.Reply(ctx, bot.Reply{Content: lang.For(ix.Locale).T("bot.unsupported"), Ephemeral: true}); err != nil {
			b.log.Warn("answer an interaction of a new type", "type", int(ix.Type), "err", err)
		}
		return handled
	}
	if errors.Is(b.router.Dispatch(ctx, ix, r), bot.ErrReplayed) {
		return replayed
	}
	return handled
}

// newInteractionType says whether ix is answerable but of a type newer
// than this build: it has what a reply needs, and a type past the modal.
func newInteractionType(ix *discordgo.Interaction) bool {
	return ix != nil && ix.Type > discordgo.InteractionModalSubmit && ix.ID != "" && ix.Token != "" && ix.AppID != ""
}

// unanswerable says why ix cannot be handled, or "" when it can. discordgo
// hands handlers whatever it could decode: nothing for "d": null, a blank
// or half-filled interaction when a field has the wrong type.
func unanswerable(ix *discordgo.Interaction) string {
	if ix == nil {
		return "no interaction"
	}
	if ix.ID == "" || ix.Token == "" || ix.AppID == "" {
		return "no id, token or application id"
	}
	if (ix.Member == nil || ix.Member.User == nil) && ix.User == nil {
		return "no user"
	}
	switch ix.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		if d, ok := ix.Data.(discordgo.ApplicationCommandInteractionData); !ok || d.Name == "" {
			return "no command data"
		}
	case discordgo.InteractionMessageComponent:
		if d, ok := ix.Data.(discordgo.MessageComponentInteractionData); !ok || d.CustomID == "" {
			return "no component data"
		}
	case discordgo.InteractionModalSubmit:
		if d, ok := ix.Data.(discordgo.ModalSubmitInteractionData); !ok || d.CustomID == "" {
			return "no modal data"
		}
	default:
		return fmt.Sprintf("unknown type %d", int(ix.Type))
	}
	return ""
}
