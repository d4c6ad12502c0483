package bottest

import (
	"context"
	"errors"
	"sync"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// ErrAlreadyReplied is what Reply returns the second time: an
// interaction gets one first response (or one edit of its deferral).
var ErrAlreadyReplied = errors.New("already replied")

// Recorder is a bot.Responder that keeps every answer, in place of
// Discord. It is safe for the handler and the automatic deferral to
// call concurrently; read its fields once the handler has returned, under
// Lock while a deferral may still be on its way.
type Recorder struct {
	sync.Mutex
	// Deferred holds each Defer's ephemeral flag, in order.
	Deferred []bool
	// Acknowledged counts the automatic deferrals (Acknowledge).
	Acknowledged int
	// Replies are the first responses (at most one), Updates the
	// replacements of the button's message, Followups the messages after
	// the first response.
	Replies   []bot.Reply
	Updates   []bot.Reply
	Followups []bot.Reply
	// Completions holds each autocompletion's answer (Choices).
	Completions [][]*discordgo.ApplicationCommandOptionChoice
	// Launches counts the Activity launches.
	Launches int
	// LaunchErr, if set, is Discord's refusal of every launch: Launch
	// answers it and launches nothing.
	LaunchErr error
}

var _ bot.Responder = (*Recorder)(nil)

func (r *Recorder) Defer(_ context.Context, ephemeral bool) error {
	r.Lock()
	defer r.Unlock()
	r.Deferred = append(r.Deferred, ephemeral)
	return nil
}

func (r *Recorder) Acknowledge(context.Context) error {
	r.Lock()
	defer r.Unlock()
	r.Acknowledged++
	return nil
}

func (r *Recorder) Reply(_ context.Context, reply bot.Reply) error {
	r.Lock()
	defer r.Unlock()
	if len(r.Replies) > 0 {
		return ErrAlreadyReplied
	}
	r.Replies = append(r.Replies, reply)
	return nil
}

func (r *Recorder) Update(_ context.Context, reply bot.Reply) error {
	r.Lock()
	defer r.Unlock()
	r.Updates = append(r.Updates, reply)
	return nil
}

func (r *Recorder) Followup(_ context.Context, reply bot.Reply) error {
	r.Lock()
	defer r.Unlock()
	r.Followups = append(r.Followups, reply)
	return nil
}

func (r *Recorder) Choices(_ context.Context, c []*discordgo.ApplicationCommandOptionChoice) error {
	r.Lock()
	defer r.Unlock()
	r.Completions = append(r.Completions, c)
	return nil
}

func (r *Recorder) Launch(context.Context) error {
	r.Lock()
	defer r.Unlock()
	if r.LaunchErr != nil {
		return r.LaunchErr
	}
	r.Launches++
	return nil
}
