package bot

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"mazebot/lang"
)

// Reply is what a handler sends back. Files hold their bytes, not readers, so
// a reply can be sent again (a discordgo.File's reader drains once).
//
// A Components V2 reply (V2) is laid out by its components alone
// (containers, text displays, media galleries; files shown through them
// by attachment://name) and has no content or embeds; Discord never lets
// a message lose the flag, so a V2 message is edited into V2 only.
type Reply struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []File
	Ephemeral  bool
	V2         bool
	// Pings lists the members a channel post may notify among those it
	// names; none by default (Poster).
	Pings []string
}

// File is an attachment. Description is its alt text: what a screen
// reader says of it, and what shows where it cannot load.
type File struct {
	Name        string
	ContentType string
	Data        []byte
	Description string
}

// Responder answers one interaction. The bot implements it over Discord's
// REST API; tests implement it with a recorder. Implementations must be
// safe for the handler and the automatic deferral to call concurrently.
type Responder interface {
	// Defer acknowledges now and promises a reply later (type 5).
	Defer(ctx context.Context, ephemeral bool) error
	// Acknowledge defers as the interaction's kind is best deferred while
	// its handler works on: a command shows "thinking…" (type 5), a
	// button's message stays as it is (type 6). It does nothing once
	// answered.
	Acknowledge(ctx context.Context) error
	// Reply sends a new message: the first response (type 4), or an edit of
	// the deferred original.
	Reply(ctx context.Context, r Reply) error
	// Update replaces the message a button is on (type 7, or an edit after
	// a deferred update).
	Update(ctx context.Context, r Reply) error
	// Followup sends one more message after the first response.
	Followup(ctx context.Context, r Reply) error
	// Choices answers an autocompletion (type 8) with at most 25 choices.
	Choices(ctx context.Context, choices []*discordgo.ApplicationCommandOptionChoice) error
	// Launch opens the app's Activity for the member (type 12
	// LAUNCH_ACTIVITY), in the interaction's channel: the first response
	// of a command, button or modal.
	Launch(ctx context.Context) error
}

// UserError is an error whose message is safe and useful to show the
// member: it says what went wrong and what is allowed. It carries a catalog
// message, not text, so that it is worded in the language of whoever reads
// it (Interaction.Lang); Error is the English, for logs.
type UserError struct {
	Msg lang.Msg
	Err error // the cause, for logs and errors.Is; may be nil
}

func (e *UserError) Error() string { return e.Msg.In(lang.English) }
func (e *UserError) Unwrap() error { return e.Err }

// Refuse is a UserError with message id and its placeholders.
func Refuse(id string, args ...lang.Args) error {
	return &UserError{Msg: lang.M(id, args...)}
}

// RefuseWith is Refuse that wraps the cause.
func RefuseWith(err error, id string, args ...lang.Args) error {
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

// ErrMaybeDelivered matches a Responder's failure of a message sent once
// whose outcome is unknown: Discord answered 5xx, or did not answer, after
// it may have made the message. The member is not told of it as an error:
// they may be reading the message.
var ErrMaybeDelivered = errors.New("may have been delivered")
