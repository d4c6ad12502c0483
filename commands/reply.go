package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
)

// Reply is what a handler sends back. Files hold their bytes, not readers, so
// a reply can be sent again (a discordgo.File's reader drains once).
type Reply struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []File
	Ephemeral  bool
}

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Responder answers one interaction. The bot implements it over discordgo;
// tests implement it with a recorder. Implementations must be safe for the
// handler and the bot's auto-deferral to call concurrently.
type Responder interface {
	// Defer acknowledges now and promises a reply later (type 5, or 6 for a
	// component when the reply will update its message).
	Defer(ctx context.Context, ephemeral bool) error
	// Reply sends a new message: the first response (type 4), or an edit of
	// the deferred original.
	Reply(ctx context.Context, r Reply) error
	// Update replaces the message a button is on (type 7, or an edit after
	// a deferred update).
	Update(ctx context.Context, r Reply) error
	// Followup sends one more message after the first response.
	Followup(ctx context.Context, r Reply) error
}

// UserError is an error whose message is safe and useful to show the
// member: it says what went wrong and what is allowed. It carries a catalog
// message, not text, so that the router words it in the language of
// whoever reads it (Interaction.Lang); Error is the English, for logs.
type UserError struct {
	Msg lang.Msg
	Err error // the cause, for logs and errors.Is; may be nil
}

func (e *UserError) Error() string { return e.Msg.In(lang.English) }
func (e *UserError) Unwrap() error { return e.Err }

// refuse is a UserError with message id and its placeholders.
func refuse(id string, args ...lang.Args) error {
	return &UserError{Msg: lang.M(id, args...)}
}

// refuseWith is refuse that wraps the cause.
func refuseWith(err error, id string, args ...lang.Args) error {
	return &UserError{Msg: lang.M(id, args...), Err: err}
}

// UserMessage returns the message to show for err in l: its own for a
// UserError, a generic apology otherwise (the detail goes to the log, not
// the member).
func UserMessage(err error, l *lang.Lang) (message string, internal bool) {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Msg.In(l), false
	}
	return l.T("error.internal"), true
}

// answer sends r as the interaction's reply.
func answer(ctx context.Context, in *Interaction, r Reply) error {
	if err := in.Respond.Reply(ctx, r); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// update replaces the message a button is on with r.
func update(ctx context.Context, in *Interaction, r Reply) error {
	if err := in.Respond.Update(ctx, r); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	return nil
}

// deferReply acknowledges now, before slow work.
func deferReply(ctx context.Context, in *Interaction, ephemeral bool) error {
	if err := in.Respond.Defer(ctx, ephemeral); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	return nil
}
