package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// errAlreadyReplied tells the caller to use a followup instead.
var errAlreadyReplied = errors.New("interaction already answered")

// restAPI answers interactions over REST: *interactionREST; tests
// substitute a recorder.
type restAPI interface {
	// Respond sends the first response. It returns an error wrapping
	// errPastDeadline when Discord rate-limits it beyond ctx's deadline.
	Respond(ctx context.Context, ix *discordgo.Interaction, cb *callback) error
	EditOriginal(ctx context.Context, ix *discordgo.Interaction, m *message) error
	DeleteOriginal(ctx context.Context, ix *discordgo.Interaction) error
	Followup(ctx context.Context, ix *discordgo.Interaction, m *message) error
}

// firstResponseWindow is how long after an interaction arrives its first
// response may still go out: Discord's 3 s, less a margin for the time it
// took to reach us.
const firstResponseWindow = 2900 * time.Millisecond

// editAfterInline is the pause between writing a deferral into the HTTP
// response and editing the files in, for Discord to apply the deferral.
const editAfterInline = 50 * time.Millisecond

type replyState uint8

const (
	unanswered replyState = iota
	deferredMessage
	deferredUpdate
	answered
)

// responder answers one interaction. It remembers what was sent so each
// call becomes the right request: the first response, an edit of a deferred
// one, or a followup. The mutex serialises the handler and the automatic
// deferral, which may race to be first.
type responder struct {
	api restAPI
	ix  *discordgo.Interaction
	// inline, when set, takes the first callback for the HTTP request that
	// delivered the interaction; everything later goes over REST.
	inline *inlineSink
	// deadline is when Discord stops taking a first response.
	deadline time.Time
	log      *slog.Logger

	mu                sync.Mutex
	state             replyState
	deferredEphemeral bool
	// lost is why the first response can no longer be sent: later tries
	// fail at once instead of asking Discord again.
	lost error
	// answeredInline: the first response went back in the HTTP body,
	// which Discord applies after the request (afterInline).
	answeredInline bool
}

// newResponder answers ix, which arrived just now.
func newResponder(api restAPI, ix *discordgo.Interaction, inline *inlineSink, log *slog.Logger) *responder {
	return &responder{api: api, ix: ix, inline: inline, deadline: time.Now().Add(firstResponseWindow), log: log}
}

var _ bot.Responder = (*responder)(nil)

func (r *responder) Defer(ctx context.Context, ephemeral bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != unanswered {
		return nil
	}
	resp := &callback{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if ephemeral {
		resp.Data = &message{Flags: discordgo.MessageFlagsEphemeral}
	}
	if err := r.callback(ctx, resp); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	r.state, r.deferredEphemeral = deferredMessage, ephemeral
	return nil
}

// Acknowledge defers for a handler still working as the response deadline
// nears: a button's message is kept (type 6), a command shows "thinking"
// (type 5).
func (r *responder) Acknowledge(ctx context.Context) error {
	switch r.ix.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		return nil // choices cannot be deferred
	case discordgo.InteractionMessageComponent:
	default:
		return r.Defer(ctx, false)
	}
	// Once answered there is nothing left to defer.
	return r.answerFirst(ctx, &callback{Type: discordgo.InteractionResponseDeferredMessageUpdate}, deferredUpdate, nil, "defer update")
}

func (r *responder) Reply(ctx context.Context, reply bot.Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.state {
	case unanswered:
		return r.respond(ctx, discordgo.InteractionResponseChannelMessageWithSource, reply)
	case deferredMessage:
		if reply.Ephemeral == r.deferredEphemeral {
			return r.editOriginal(ctx, reply)
		}
		// Visibility is fixed when deferring: replace the placeholder by a
		// followup with the wanted visibility.
		if err := r.api.DeleteOriginal(ctx, r.ix); err != nil {
			return fmt.Errorf("delete placeholder: %w", err)
		}
		r.state = answered
		return r.followup(ctx, reply)
	case deferredUpdate:
		r.state = answered
		return r.followup(ctx, reply)
	}
	return errAlreadyReplied
}

func (r *responder) Update(ctx context.Context, reply bot.Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == unanswered {
		kind := discordgo.InteractionResponseUpdateMessage
		if r.ix.Type != discordgo.InteractionMessageComponent {
			kind = discordgo.InteractionResponseChannelMessageWithSource
		}
		return r.respond(ctx, kind, reply)
	}
	return r.editOriginal(ctx, reply)
}

// Choices answers an autocompletion, within its first-response deadline.
func (r *responder) Choices(ctx context.Context, choices []*discordgo.ApplicationCommandOptionChoice) error {
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	resp := &callback{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &message{Choices: choices}}
	return r.answerFirst(ctx, resp, answered, errAlreadyReplied, "choices")
}

// launchActivity is callback type 12, LAUNCH_ACTIVITY, which discordgo
// v0.29.0 has no constant for. It carries no data.
const launchActivity discordgo.InteractionResponseType = 12

// Launch opens the Activity, within the first-response deadline.
func (r *responder) Launch(ctx context.Context) error {
	return r.answerFirst(ctx, &callback{Type: launchActivity}, answered, errAlreadyReplied, "launch activity")
}

// answerFirst sends resp as the first response and moves to state next;
// what names the step in its error. Once anything was sent it sends
// nothing and returns ifAnswered. Defer keeps its own copy: it records
// the visibility along with the state, under the same lock.
func (r *responder) answerFirst(ctx context.Context, resp *callback, next replyState, ifAnswered error, what string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != unanswered {
		return ifAnswered
	}
	if err := r.callback(ctx, resp); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	r.state = next
	return nil
}

func (r *responder) Followup(ctx context.Context, reply bot.Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == unanswered {
		return r.respond(ctx, discordgo.InteractionResponseChannelMessageWithSource, reply)
	}
	return r.followup(ctx, reply)
}

func (r *responder) respond(ctx context.Context, kind discordgo.InteractionResponseType, reply bot.Reply) error {
	if len(reply.Files) > 0 && r.inline.open() {
		return r.deferThenEdit(ctx, kind, reply)
	}
	mode := creating
	if kind == discordgo.InteractionResponseUpdateMessage {
		// Without an attachments list the old image would stay on the message.
		mode = replaceAll
	}
	err := r.callback(ctx, &callback{Type: kind, Data: newMessage(reply, mode)})
	if err != nil {
		return fmt.Errorf("respond (type %d): %w", kind, err)
	}
	r.state = answered
	return nil
}

// callback sends the first response: into the waiting HTTP response when
// there is one, else to the REST callback route, never past the deadline.
// Once it cannot succeed in time, it says so without asking Discord again.
func (r *responder) callback(ctx context.Context, resp *callback) error {
	if r.inline.offer(resp) {
		r.answeredInline = true
		return nil
	}
	if r.lost != nil {
		return r.lost
	}
	if !r.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, r.deadline)
		defer cancel()
	}
	err := r.api.Respond(ctx, r.ix, resp)
	if err != nil && (errors.Is(err, errPastDeadline) || !r.deadline.IsZero() && !time.Now().Before(r.deadline)) {
		r.lost = fmt.Errorf("first response lost: %w", err)
		if r.log != nil {
			r.log.Warn("interaction: the first response cannot be sent before the deadline; giving up", "interaction", r.ix.ID, "err", err)
		}
	}
	return err
}

func (r *responder) editOriginal(ctx context.Context, reply bot.Reply) error {
	// The flags go on the edit, a deferred reply's V2 too (Discord reads
	// none on a deferral); the ephemeral one was fixed by the deferral.
	reply.Ephemeral = false
	if err := r.afterInline(ctx, func() error {
		return r.api.EditOriginal(ctx, r.ix, newMessage(reply, replaceAll))
	}); err != nil {
		return fmt.Errorf("edit original: %w", err)
	}
	r.state = answered
	return nil
}

func (r *responder) followup(ctx context.Context, reply bot.Reply) error {
	if err := r.afterInline(ctx, func() error {
		return r.api.Followup(ctx, r.ix, newMessage(reply, creating))
	}); err != nil {
		return fmt.Errorf("followup: %w", err)
	}
	return nil
}

// deferThenEdit answers a first response carrying files: a deferral goes in
// the HTTP body and the files in an edit of the original over REST, since
// big multipart HTTP responses have been reported to fail. A component's
// message is kept (type 6) and then edited, as an update would.
func (r *responder) deferThenEdit(ctx context.Context, kind discordgo.InteractionResponseType, reply bot.Reply) error {
	resp := &callback{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	state := deferredMessage
	if kind == discordgo.InteractionResponseUpdateMessage {
		resp.Type, state = discordgo.InteractionResponseDeferredMessageUpdate, deferredUpdate
	} else if reply.Ephemeral {
		resp.Data = &message{Flags: discordgo.MessageFlagsEphemeral}
	}
	if err := r.callback(ctx, resp); err != nil {
		return fmt.Errorf("defer before files: %w", err)
	}
	r.state, r.deferredEphemeral = state, reply.Ephemeral
	return r.editOriginal(ctx, reply)
}

// afterInline makes call, an edit of the original or a followup, once the
// first response went back in the HTTP body: Discord applies that
// asynchronously, and a call racing it finds no original yet (Unknown
// Webhook/Message), so it waits for the body to be written and a moment
// more, then retries such a refusal briefly (nothing was made by it). Over
// the REST callback, the first response is applied before its answer, and
// call is made at once.
func (r *responder) afterInline(ctx context.Context, call func() error) error {
	if !r.answeredInline {
		return call()
	}
	r.inline.waitWritten(ctx)
	delay := 100 * time.Millisecond
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(editAfterInline):
	}
	for attempt := 1; ; attempt++ {
		err := call()
		if err == nil || attempt == 5 || !notAcknowledgedYet(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
		delay *= 2
	}
}

func notAcknowledgedYet(err error) bool {
	code := apiCode(err)
	return code == discordgo.ErrCodeUnknownWebhook || code == discordgo.ErrCodeUnknownMessage
}

// inlineSink carries an interaction's first callback to the HTTP request
// that delivered it. Methods on a nil sink report it closed, so gateway
// responders need no special case.
type inlineSink struct {
	mu     sync.Mutex
	closed bool
	ch     chan *callback // buffered: offer never blocks
	// written is closed once the HTTP response is sent or abandoned.
	written chan struct{}
}

func (s *inlineSink) open() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.closed
}

// offer hands resp to the waiting request; false means use REST instead.
func (s *inlineSink) offer(resp *callback) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.closed = true
	s.ch <- resp
	return true
}

// close stops taking callbacks and returns one offered but not yet read.
func (s *inlineSink) close() *callback {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	select {
	case resp := <-s.ch:
		return resp
	default:
		return nil
	}
}

func (s *inlineSink) waitWritten(ctx context.Context) {
	if s == nil {
		return
	}
	select {
	case <-s.written:
	case <-ctx.Done():
	}
}
